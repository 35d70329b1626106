"""The heavy imports, done once per server process, in one thread, before any page runs.

Several sessions opening at once right after a (re)start each ran their page in its own
thread, and the pages' first imports of altair and pandas raced: one thread could see
"partially initialized module 'pandas'". :func:`wait` imports :data:`HEAVY` in a single
thread the first time any session asks, and makes every other session wait for it; after
that it returns at once. ``make run``/``make serve`` trigger it as soon as the server is up
(through Streamlit's script health check), so the first visitor does not pay for it either.

Then it freezes what is in memory (:func:`gc.freeze`): the imported modules' objects live as
long as the server, yet every full garbage collection walked all of them, and script runs
set one off every second or so of tapping, each 150 to 500 ms on a shared two-core machine
(a tap's screen waited for it). Frozen, they are out of the collector's reach: a full
collection takes about a millisecond.
"""

from __future__ import annotations

import gc
import importlib
import threading

HEAVY = (
    "numpy",
    "pandas",
    "altair",
    "scipy.sparse",
    "perudo_math",
    "coach",
    "practice",
    "storage.progress",
    "views.charts",
    "views.engine_cache",
)
"""What the pages import that takes long or that two threads must not import together."""
TIMEOUT_S = 120.0

_lock = threading.Lock()
_done = threading.Event()
_failure: list[BaseException] = []


def _import_all() -> None:
    try:
        for name in HEAVY:
            importlib.import_module(name)
        gc.freeze()
    except Exception as error:  # re-raised in every session that waits
        _failure.append(error)
    finally:
        _done.set()


def wait() -> None:
    """Return once :data:`HEAVY` is imported; the first caller imports it, the rest wait."""
    if _done.is_set():
        if _failure:
            raise _failure[0]
        return
    if _lock.acquire(blocking=False):
        _import_all()  # the first session imports; its page needed these modules anyway
    _done.wait(TIMEOUT_S)
    if _failure:
        raise _failure[0]


__all__ = ["HEAVY", "wait"]
