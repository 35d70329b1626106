"""Streamlit's command line, its server answering without Nagle's delay:
``python -m serving.streamlit_cli run streamlit_app.py …`` (``serving/start.py`` starts it).

Streamlit 1.67 serves through uvicorn from a listening socket it binds itself with
``socket.socket(family)``, whose protocol number is 0. asyncio turns TCP_NODELAY on only for
sockets whose ``proto`` is ``IPPROTO_TCP``, so every connection the server accepts keeps
Nagle's algorithm. On a kept-alive connection, a response written in two parts (headers, then
body) then waits for the browser's delayed acknowledgement before its second part leaves:
about 40 ms on Linux, for each script chunk, icon and health check after a connection's first
answer. A phone's first page fetches some 70 chunks over six connections, then each kind of
element's chunk as it first appears.

TCP_NODELAY set on the listening socket is inherited by the sockets it accepts (Linux, the
BSDs and macOS), so this module sets it there, once, before Streamlit starts. Measured side
by side in one run, in headless Chromium at phone size: the app's first page 954 → 730 ms, a
bare one-button page's 748 → 510 ms (``make bench-speed`` measures the bare page both ways).
Taps do not change beyond the noise (a tracker bid, three runs of 40 taps: 63 → 68, 71 → 70,
68 → 66 ms).
"""

from __future__ import annotations

import contextlib
import functools
import os
import socket
import sys
from typing import Protocol

MODULE = "serving.streamlit_cli"
NO_FORCED_COLLECTION = ("STREAMLIT_RUNNER_POST_SCRIPT_GC", "false")
"""Streamlit's ``runner.postScriptGC``, off unless the environment says otherwise. By default
Streamlit runs a full garbage collection after every script run, on the script's thread and
holding the interpreter lock, while the event loop still has the run's last messages to send:
the tap's screen waits for it. The app's heap is frozen once imported (``views.warmup``), so
the collections Python starts by itself stay short; the forced one cost a die tap 11 % of its
time (a tracker bid 4 %), and a bare one-button page 60 % (measured side by side,
``make bench-speed``)."""
"""Run as ``python -m serving.streamlit_cli`` where ``python -m streamlit`` would be."""


class BindSocket(Protocol):
    """Streamlit's ``_bind_socket``, with its parameters' names."""

    def __call__(self, address: str, port: int, backlog: int) -> socket.socket: ...


def without_nagle(bind: BindSocket) -> BindSocket:
    """``bind``, its listening socket set to TCP_NODELAY for every connection it accepts."""

    @functools.wraps(bind)
    def bind_without_nagle(address: str, port: int, backlog: int) -> socket.socket:
        listener = bind(address, port, backlog)
        with contextlib.suppress(OSError):  # refused: served as Streamlit alone would
            listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return listener

    bind_without_nagle.without_nagle = True  # type: ignore[attr-defined]  # a mark: see install
    return bind_without_nagle


def install() -> bool:
    """Make Streamlit's server bind its listening socket without Nagle's delay; ``False``
    (and nothing changed) when this Streamlit binds it elsewhere."""
    from streamlit.web.server.starlette import starlette_server

    bind = getattr(starlette_server, "_bind_socket", None)
    if bind is None:
        return False
    if not getattr(bind, "without_nagle", False):
        starlette_server._bind_socket = without_nagle(bind)
    return True


def main() -> None:
    """``streamlit`` itself (it exits), once its socket is bound without Nagle's delay and
    without a forced collection after each run (:data:`NO_FORCED_COLLECTION`)."""
    os.environ.setdefault(*NO_FORCED_COLLECTION)
    if not install():
        print("serving.streamlit_cli: this Streamlit binds its socket elsewhere; "
              "serving with Nagle's delay", file=sys.stderr)
    from streamlit.web.cli import main as streamlit_main

    # The same program name as `python -m streamlit`: Streamlit reads its command line.
    streamlit_main(prog_name="streamlit")


if __name__ == "__main__":
    main()
