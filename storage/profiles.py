"""Learner profiles without a user interface: the token, the store, and what a store failure means.

A profile is known only by its unguessable token (:meth:`ProgressStore.create_profile`); the
link that carries it is the key to the learner's progress. The store is where
``$PERUDO_COACH_DB`` says: a SQLite file or a PostgreSQL database (see
:meth:`storage.sql.Database.at`). A database from a newer version of the app or
a damaged file is refused by the store and never written to: :func:`problem_of` says which,
so the app can explain it and go on without saving; an unreachable database is
:attr:`StoreProblem.UNAVAILABLE`.

The Streamlit side (the token in the session and the URL, the banner) is ``views.profile``.
"""

from __future__ import annotations

import re
import sqlite3
from enum import StrEnum

from storage.progress import (
    CorruptDatabaseError,
    FutureVersionError,
    ProgressStore,
    ProgressStoreError,
)
from storage.sql import Database, DatabaseError, FutureSchemaError, Location

MAX_TOKEN_LENGTH = 64
TOKEN_PATTERN = re.compile(rf"[A-Za-z0-9_-]{{16,{MAX_TOKEN_LENGTH}}}")
"""What a token looks like (``secrets.token_urlsafe(16)`` gives 22 such characters)."""

STORE_ERRORS: tuple[type[Exception], ...] = (ProgressStoreError, DatabaseError, OSError,
                                             sqlite3.Error)
"""What a store call raises when the database cannot be used (not a bug of the app)."""


class StoreProblem(StrEnum):
    """Why the progress store cannot be used."""

    FUTURE = "future"
    """The file was written by a newer version of the app."""
    CORRUPT = "corrupt"
    """The file is damaged, or is not a progress file at all."""
    UNAVAILABLE = "unavailable"
    """The file cannot be opened right now (permissions, a full disk, a lock...)."""


def is_well_formed(text: object) -> bool:
    """Whether ``text`` looks like a profile token."""
    return isinstance(text, str) and TOKEN_PATTERN.fullmatch(text) is not None


def parse_token(text: str) -> str:
    """``text`` as a profile token; ``ValueError`` when it does not look like one."""
    if not is_well_formed(text):
        shown = text[:20] if isinstance(text, str) else text
        raise ValueError(f"not a profile token: {shown!r}")
    return text


def store_location() -> str:
    """Where the progress store lives: ``$PERUDO_COACH_DB``, else the default file."""
    return Database.at().url


def open_store(location: Location | None = None) -> ProgressStore:
    """The progress store at ``location``, else at :func:`store_location`.

    Raises one of :data:`STORE_ERRORS` when the database cannot be used (see
    :func:`problem_of`).
    """
    return ProgressStore(location)


def problem_of(error: Exception) -> StoreProblem | None:
    """What ``error`` means for saving; ``None`` when it is not a store failure."""
    if isinstance(error, FutureVersionError | FutureSchemaError):
        return StoreProblem.FUTURE
    if isinstance(error, CorruptDatabaseError):
        return StoreProblem.CORRUPT
    if isinstance(error, STORE_ERRORS):
        return StoreProblem.UNAVAILABLE
    return None


__all__ = [
    "MAX_TOKEN_LENGTH",
    "STORE_ERRORS",
    "TOKEN_PATTERN",
    "StoreProblem",
    "is_well_formed",
    "open_store",
    "parse_token",
    "problem_of",
    "store_location",
]
