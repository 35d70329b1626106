"""Commands run as from a terminal: their output goes to a pseudo-terminal, read back here."""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def read_terminal(fd: int) -> bytes:
    """Everything written to the terminal whose controlling side is ``fd``, until every
    process holding its other side has closed it."""
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO on Linux: the last writer closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


class TerminalReader:
    """A pseudo-terminal read on a thread as it is written: ``fd`` is the side a process
    writes to (close it in this process once the process has it), ``text()`` what it wrote."""

    def __init__(self) -> None:
        self._master, self.fd = os.openpty()
        self._shown = b""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        self._shown = read_terminal(self._master)

    def release(self) -> None:
        """Close this process's copy of the writing side (the process started keeps its own)."""
        os.close(self.fd)

    def text(self, timeout: float = 60) -> str:
        """What was written, once every writer has closed the terminal; a terminal writes each
        newline as ``\\r\\n``, given back as ``\\n``."""
        self._thread.join(timeout)
        os.close(self._master)
        return self._shown.decode().replace("\r\n", "\n")


def in_terminal(argv: Sequence[str], *, stderr_too: bool = True,
                timeout: float = 120) -> tuple[int, str, str]:
    """Run ``argv`` in the repository with its stdout on a pseudo-terminal (and its stderr, with
    ``stderr_too``, else on a pipe): its exit status, what the terminal showed, its stderr."""
    terminal = TerminalReader()
    try:
        process = subprocess.Popen(list(argv), cwd=ROOT, stdin=subprocess.DEVNULL,
                                   stdout=terminal.fd,
                                   stderr=terminal.fd if stderr_too else subprocess.PIPE)
    finally:
        terminal.release()
    try:
        _, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    return process.returncode, terminal.text(), (err or b"").decode()
