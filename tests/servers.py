"""Starting a real app server for a test, and stopping it whatever happens."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STARTUP_TIMEOUT_S = 60.0


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on at ``host`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


@contextmanager
def running_server(command: Sequence[str], url: str, log_path: Path,
                   env: Mapping[str, str]) -> Iterator[None]:
    """Run ``command`` from the project root until ``url``'s health check answers 200;
    fail the test with the server's log if it exits or stays unhealthy."""
    with log_path.open("wb") as log:
        server = subprocess.Popen(list(command), cwd=ROOT, stdout=log,
                                  stderr=subprocess.STDOUT, env=dict(env))
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _healthy(url):
            if server.poll() is not None:
                pytest.fail(f"{command[1]} exited with {server.returncode}:\n"
                            f"{log_path.read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"not healthy after {STARTUP_TIMEOUT_S}s:\n{log_path.read_text()}")
            time.sleep(0.25)
        yield
    finally:
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
