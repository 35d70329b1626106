"""Perudo Coach: the package behind the ``perudo-coach`` command (:mod:`perudo_coach.cli`).

The app and its libraries live in their own top-level packages (``perudo_math``, ``coach``,
``practice``, ``storage``, ``serving``, ``views``); an installed wheel also keeps the app's
entry script, pages and static files in ``serving/app/`` (see ``serving.start.app_root``).

``__version__`` is read from the installed metadata on first use (PEP 562): importing
``importlib.metadata`` would add to every command's start-up.
"""

from __future__ import annotations

DISTRIBUTION = "perudo-coach"


def __getattr__(name: str) -> str:
    if name != "__version__":
        raise AttributeError(f"module 'perudo_coach' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version(DISTRIBUTION)
    except PackageNotFoundError:  # pragma: no cover - a checkout run without `pip install`
        found = "0+unknown"
    globals()["__version__"] = found
    return found
