"""Perudo Coach: the package behind the ``perudo-coach`` command (:mod:`perudo_coach.cli`).

The app and its libraries live in their own top-level packages (``perudo_math``, ``coach``,
``practice``, ``storage``, ``serving``, ``views``); an installed wheel also keeps the app's
entry script, pages and static files in ``serving/app/`` (see ``serving.start.app_root``).
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "perudo-coach"

try:
    __version__ = version(DISTRIBUTION)
except PackageNotFoundError:  # pragma: no cover - a checkout run without `pip install`
    __version__ = "0+unknown"
