"""Starting a real app server for a test, and stopping it whatever happens."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from serving import streamlit_cli

ROOT = Path(__file__).resolve().parents[1]
STARTUP_TIMEOUT_S = 60.0
PORT_ATTEMPTS = 3
"""Another process may take a free port before the server binds it: try that many ports."""
PORT_TAKEN = "is not available"
"""What Streamlit logs before it exits when its port (given by hand) is taken."""


class ServerExited(Exception):
    """The server process ended before its health check answered."""

    def __init__(self, returncode: int, log: str) -> None:
        super().__init__(f"exited with {returncode}:\n{log}")
        self.log = log


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on at ``host`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def streamlit_command(script: str, port: int, *, stock: bool = False,
                      module: str | None = None) -> list[str]:
    """``streamlit run`` of ``script`` on ``port`` at 127.0.0.1, headless, as ``make run``
    serves it (``serving.streamlit_cli``) unless ``stock``: Streamlit's own command line, or
    ``module``: another command line that takes Streamlit's arguments."""
    module = module or ("streamlit" if stock else streamlit_cli.MODULE)
    return [
        sys.executable, "-m", module, "run", script,
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        "--browser.serverAddress", "127.0.0.1",
    ]


@contextmanager
def running_server(command: Sequence[str], url: str, log_path: Path,
                   env: Mapping[str, str], cwd: Path = ROOT) -> Iterator[None]:
    """Run ``command`` from ``cwd`` (the project root unless told) until ``url``'s health
    check answers 200; fail the test with the server's log if it exits or stays unhealthy."""
    try:
        server = _start(command, url, log_path, env, cwd)
    except ServerExited as exited:
        pytest.fail(f"{command[1]} {exited}")
    try:
        yield
    finally:
        _stop(server)


@contextmanager
def streamlit_app(directory: Path, env: Mapping[str, str],
                  script: str = "streamlit_app.py", *, stock: bool = False,
                  module: str | None = None) -> Iterator[str]:
    """``streamlit run`` of ``script`` (the app unless told) on a free local port, headless,
    with its log in ``directory`` (through Streamlit's own command line if ``stock``, else
    as ``make run`` serves it); yields its URL. Each caller (each xdist worker) gets its own
    server."""
    for attempt in range(1, PORT_ATTEMPTS + 1):
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        command = streamlit_command(script, port, stock=stock, module=module)
        try:
            server = _start(command, url, directory / f"server-{port}.log", env)
        except ServerExited as exited:
            if PORT_TAKEN in exited.log and attempt < PORT_ATTEMPTS:
                continue
            pytest.fail(f"streamlit {exited}")
        break
    try:
        yield url
    finally:
        _stop(server)


def _start(command: Sequence[str], url: str, log_path: Path,
           env: Mapping[str, str], cwd: Path = ROOT) -> subprocess.Popen:
    with log_path.open("wb") as log:
        server = subprocess.Popen(list(command), cwd=cwd, stdout=log,
                                  stderr=subprocess.STDOUT, env=dict(env))
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not _healthy(url):
        if server.poll() is not None:
            raise ServerExited(server.returncode, log_path.read_text())
        if time.monotonic() > deadline:
            _stop(server)
            pytest.fail(f"not healthy after {STARTUP_TIMEOUT_S}s:\n{log_path.read_text()}")
        time.sleep(0.25)  # polling a process that is starting, not waiting for a page
    return server


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False
