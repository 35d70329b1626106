"""serving.streamlit_cli: Streamlit's server answers without Nagle's delay."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable

import pytest
from streamlit.web.server.starlette import starlette_server

from serving import streamlit_cli

pytestmark = pytest.mark.skipif(sys.platform != "linux",
                                reason="accepted sockets inherit TCP_NODELAY on Linux")


def accepted_no_delay(bind: Callable[[str, int, int], socket.socket]) -> tuple[int, int]:
    """TCP_NODELAY on a listening socket from ``bind`` and on a connection it accepts."""
    listener = bind("127.0.0.1", 0, 8)
    try:
        listener.setblocking(True)
        with socket.create_connection(listener.getsockname()):
            accepted, _ = listener.accept()
            with accepted:
                return (listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY),
                        accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
    finally:
        listener.close()


def original_bind() -> Callable[[str, int, int], socket.socket]:
    bind = starlette_server._bind_socket
    return getattr(bind, "__wrapped__", bind)


def test_streamlit_alone_accepts_connections_with_nagles_delay() -> None:
    """Why the module exists: with this Streamlit, asyncio leaves Nagle's algorithm on (the
    listening socket's protocol number is 0). When this fails, Streamlit sets TCP_NODELAY
    itself, and ``serving.streamlit_cli`` can go."""
    assert accepted_no_delay(original_bind()) == (0, 0)


def test_connections_accepted_through_the_wrapped_bind_send_at_once() -> None:
    listener, accepted = accepted_no_delay(streamlit_cli.without_nagle(original_bind()))
    assert listener and accepted


def test_install_wraps_streamlits_bind_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(starlette_server, "_bind_socket", original_bind())
    assert streamlit_cli.install()
    wrapped = starlette_server._bind_socket
    assert streamlit_cli.install()
    assert starlette_server._bind_socket is wrapped
    assert wrapped.__wrapped__ is original_bind()
    assert all(accepted_no_delay(wrapped))


def test_a_streamlit_that_binds_elsewhere_is_served_unchanged(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(starlette_server, "_bind_socket")
    assert not streamlit_cli.install()


def test_the_server_skips_streamlits_forced_collection_unless_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's own command line turns ``runner.postScriptGC`` off; an explicit setting in
    the environment wins."""
    import streamlit.web.cli

    name = streamlit_cli.NO_FORCED_COLLECTION[0]
    seen: list[str | None] = []
    monkeypatch.setattr(starlette_server, "_bind_socket", original_bind())  # restored after
    monkeypatch.setattr(streamlit.web.cli, "main", lambda **_: seen.append(os.environ.get(name)))
    monkeypatch.delenv(name, raising=False)
    streamlit_cli.main()
    monkeypatch.setenv(name, "true")
    streamlit_cli.main()
    assert seen == ["false", "true"]
