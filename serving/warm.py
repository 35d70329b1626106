"""Warm a freshly started app: ``python -m serving.warm URL`` waits for the server to answer,
then asks Streamlit's script health check once, which runs the entry script in a bare session
and so imports the pages' heavy modules (``views.warmup``) before any visitor arrives.

``serving/start.py`` (``make run``, ``make serve``) starts it beside the server. It talks to
that server only, gives up after :data:`DEADLINE_S`, and exits.
"""

from __future__ import annotations

import argparse
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from typing import NoReturn

DEADLINE_S = 90.0
HEALTH = "/_stcore/health"
SCRIPT_HEALTH = "/_stcore/script-health-check"


def _answers(url: str, timeout: float) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
        return False


def warm(base_url: str, deadline_s: float = DEADLINE_S) -> bool:
    """Wait until the server at ``base_url`` is up, then run its script once; ``True`` once
    the script ran cleanly."""
    end = time.monotonic() + deadline_s
    while not _answers(base_url + HEALTH, timeout=2):
        if time.monotonic() > end:
            return False
        time.sleep(0.25)
    return _answers(base_url + SCRIPT_HEALTH, timeout=max(1.0, end - time.monotonic()))


def server_url(text: str) -> str:
    """An ``http://`` or ``https://`` address with a host, its trailing ``/`` dropped."""
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(f"expected the server's http:// address, not "
                                         f"{text[:60]!r}")
    return text.rstrip("/")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def build_parser(prog: str = "python -m serving.warm") -> argparse.ArgumentParser:
    parser = _Parser(prog=prog, description=(
        "Wait for a freshly started app to answer, then run its script once (Streamlit's "
        "script health check), so the pages' heavy modules are imported before the first "
        f"visitor. Gives up after {DEADLINE_S:.0f} s. Exit status: 0 once the script ran "
        "cleanly, 1 if it did not, 2 for bad arguments."))
    parser.add_argument("url", type=server_url, help="the server's address, like "
                                                     "http://127.0.0.1:8501")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return 0 if warm(args.url) else 1


if __name__ == "__main__":
    sys.exit(main())
