"""Warm a freshly started app: ``python -m serving.warm URL`` waits for the server to answer,
then asks Streamlit's script health check once, which runs the entry script in a bare session
and so imports the pages' heavy modules (``views.warmup``) before any visitor arrives.

``serving/start.py`` (``make run``, ``make serve``) starts it beside the server. It talks to
that server only, gives up after :data:`DEADLINE_S`, and exits.
"""

from __future__ import annotations

import sys
import time
import urllib.error
import urllib.request

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


if __name__ == "__main__":
    sys.exit(0 if len(sys.argv) == 2 and warm(sys.argv[1].rstrip("/")) else 1)
