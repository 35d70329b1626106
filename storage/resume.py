"""Games in progress, remembered per device, so a new tab or the home-screen icon can resume one.

A device (one browser on one phone) is known only by an unguessable token
(:func:`new_device_token`) that the browser keeps; this store keeps, under a hash of that
token, the state the device last tracked: opaque text (the app writes the game link's shared
parameters) and when it was saved. Nothing lists the devices or their games: without the
token, a record cannot be found, so another phone on the same server never sees it.

Cost and lifetime:

* A value that does not look like a token (:func:`is_device_token`) is refused before the
  file is touched; a well-formed unknown one costs one primary-key lookup.
* A record lives :data:`KEEP_FOR_S` after its last save; expired records are never returned
  and are deleted on the next save. At most :data:`MAX_DEVICES` records are kept (the oldest
  go first) and a state is at most :data:`MAX_STATE_LENGTH` characters, so a flood of tokens
  cannot fill the disk.
* Records live where the progress does (:func:`resume_location`): with embedded SQLite, in
  a file of their own beside the progress file; with PostgreSQL, in the same database
  (table ``resume_games``), so every app process behind one address finds them. Either way
  a record survives a server restart.
* A save comes with every move of a tracked game, so it must be cheap. On SQLite a store
  keeps one connection, shared by the server's threads under a lock, in WAL mode with
  ``synchronous=NORMAL``: a commit appends to the log without syncing the disk (a
  checkpoint, now and then, does), well under a millisecond, where a connection opened and
  closed per call checkpointed the log at every close (30 ms a move). A record is a
  convenience (the game is also in its link), so a power cut may lose the last move or two,
  never the file. Other processes on the same file wait (``busy_timeout``). On PostgreSQL a
  save is one transaction on a pooled connection (``storage.sql``).
* The schema is versioned like the progress store's: ``PRAGMA user_version`` on SQLite,
  ``schema_versions`` on PostgreSQL.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESSIV
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from storage import sql, tables
from storage.progress import ProgressStoreError
from storage.sql import (
    BUSY_TIMEOUT_MS,
    Connection,
    Database,
    Location,
    sqlite_transaction,
    use_wal,
)

KEEP_FOR_S = 7 * 86_400
"""How long a game stays resumable after its last move: a week, one game night to the next."""
MAX_DEVICES = 10_000
"""The most records kept: far more phones than one table's server ever sees."""
MAX_STATE_LENGTH = 20_000
"""The longest state kept: a link's shared parameters, game code (at most 16,384) included."""
TOKEN_BYTES = 16
"""Random bytes in a device token: 128 bits, 22 URL-safe characters."""
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{22,64}")
"""What a device token looks like."""
SEAL_PREFIX = "v2."
"""Starts a table's code sealed with AES-SIV (:func:`seal`); one without it was sealed the
first way (XOR with a SHA-256 of the device token, which nothing authenticated)."""
SEALED_PATTERN = re.compile(r"[A-Za-z0-9_-]{54}")
"""A sealed code after :data:`SEAL_PREFIX`: 16 bytes of tag and the code's 24, unpadded."""
STORE = "resume"
"""The store's name in PostgreSQL's ``schema_versions``."""
SQLITE_MIGRATIONS = (
    (  # 1: the records (in a file of their own)
        """CREATE TABLE IF NOT EXISTS games (
               device TEXT PRIMARY KEY,
               state TEXT NOT NULL,
               saved REAL NOT NULL
           ) WITHOUT ROWID""",
        "CREATE INDEX IF NOT EXISTS games_by_age ON games (saved)",
    ),
    (  # 2: named as in PostgreSQL, where they share a database with the progress's games
        "ALTER TABLE games RENAME TO resume_games",
    ),
)
POSTGRESQL_MIGRATIONS = (
    (
        """CREATE TABLE resume_games (
               device TEXT PRIMARY KEY,
               state TEXT NOT NULL,
               saved DOUBLE PRECISION NOT NULL
           )""",
        "CREATE INDEX resume_games_by_age ON resume_games (saved)",
    ),
    (),
)
SCHEMA_VERSION = len(SQLITE_MIGRATIONS)


class FutureResumeFileError(ProgressStoreError):
    """The file was written by a newer version of Perudo Coach; it is left untouched."""


def new_device_token() -> str:
    """A fresh device token; the browser keeps it, the store only its hash."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_device_token(text: object) -> bool:
    """Whether ``text`` looks like a device token (checked before any lookup)."""
    return isinstance(text, str) and TOKEN_PATTERN.fullmatch(text) is not None


def resume_location(progress: Location | None = None) -> Database:
    """Where the records live, given where the progress does
    (:meth:`storage.sql.Database.at`): the same PostgreSQL database, or a SQLite
    file beside the progress file (``progress.sqlite3`` → ``progress-resume.sqlite3``)."""
    database = Database.at(progress)
    if database.dialect == sql.POSTGRESQL:
        return database
    path = database.path
    return Database(str(path.with_name(f"{path.stem}-resume{path.suffix or '.sqlite3'}")))


def resume_path(progress_path: str | os.PathLike[str] | None = None) -> Path:
    """The resume file beside the progress file; ``ValueError`` with PostgreSQL."""
    database = resume_location(progress_path)
    if database.dialect != sql.SQLITE:
        raise ValueError("the records live in PostgreSQL, not in a file")
    return database.path


def seal(table_token: str, device: str) -> str:
    """A shared table's code, encrypted and authenticated with a key drawn from this device's
    token (AES-SIV, RFC 5297, under an HKDF-SHA256 of the token); :func:`unseal` opens it.
    The store holds the device token's SHA-256 only, which gives no key, so what it holds
    opens no table. SIV needs no nonce: the same code and token give the same seal, so the
    tracked game's record reads the same from run to run and is saved only when the game
    changed. ``ValueError`` for a value shaped otherwise."""
    shaped = isinstance(table_token, str) and tables.TOKEN_PATTERN.fullmatch(table_token)
    if not shaped or not is_device_token(device):
        raise ValueError("not a table's code and a device token")
    sealed = AESSIV(_seal_key(device)).encrypt(base64.urlsafe_b64decode(table_token), None)
    return SEAL_PREFIX + base64.urlsafe_b64encode(sealed).decode().rstrip("=")


def unseal(sealed: str, device: str) -> str:
    """The table's code that :func:`seal` sealed with ``device``'s token; ``ValueError``
    when it does not open: altered, sealed for another device, or shaped otherwise. A code
    sealed the first way (no :data:`SEAL_PREFIX`) still opens, unchecked as it always was;
    the record's next save seals it the new way."""
    if not is_device_token(device) or not isinstance(sealed, str):
        raise ValueError("not a sealed table's code and a device token")
    if not sealed.startswith(SEAL_PREFIX):
        if not tables.TOKEN_PATTERN.fullmatch(sealed):
            raise ValueError("not a sealed table's code")
        return _xor_seal(sealed, device)
    body = sealed.removeprefix(SEAL_PREFIX)
    raw = base64.urlsafe_b64decode(body + "==") if SEALED_PATTERN.fullmatch(body) else b""
    if base64.urlsafe_b64encode(raw).decode().rstrip("=") != body:  # one text per seal
        raise ValueError("not a sealed table's code")
    try:
        return base64.urlsafe_b64encode(AESSIV(_seal_key(device)).decrypt(raw, None)).decode()
    except InvalidTag as error:
        raise ValueError("the table's code does not open with this device's token") from error


def _seal_key(device: str) -> bytes:
    """64 bytes (AES-256-SIV's two keys) drawn from the device token, for sealing only."""
    return HKDF(algorithm=hashes.SHA256(), length=64, salt=None,
                info=b"perudo-coach table seal v2").derive(device.encode("ascii"))


def _xor_seal(table_token: str, device: str) -> str:
    """The first seal (and its own inverse): the code XORed with a SHA-256 of the token."""
    key = hashlib.sha256(b"perudo-coach table seal " + device.encode()).digest()
    raw = base64.urlsafe_b64decode(table_token)
    return base64.urlsafe_b64encode(bytes(a ^ b for a, b in zip(raw, key, strict=False))).decode()


class ResumeStore:
    """The state each device last tracked (see the module's notes)."""

    def __init__(self, location: Location | None = None) -> None:
        self.database = (resume_location() if location is None
                         else Database.at(location))
        self._lock = threading.Lock()
        if self.database.dialect == sql.POSTGRESQL:
            self.path: Path | None = None
            self._db: sqlite3.Connection | None = None
            sql.migrate(self.database, STORE, POSTGRESQL_MIGRATIONS)
            return
        self.path = self.database.path
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000,
                                   isolation_level=None, check_same_thread=False)
        try:
            self._open_file(self._db)
        except BaseException:
            self._db.close()
            raise

    def _open_file(self, db: sqlite3.Connection) -> None:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:  # before WAL: the file is left untouched
            raise self._too_new(version)
        use_wal(db)
        db.execute("PRAGMA synchronous = NORMAL")
        sql.migrate_file(db, SQLITE_MIGRATIONS, self._too_new)

    def _too_new(self, version: int) -> FutureResumeFileError:
        return FutureResumeFileError(
            f"{self.path} has schema version {version}, newer than this app's "
            f"{SCHEMA_VERSION}: update Perudo Coach; the file was left untouched")

    def close(self) -> None:
        """Close the store's connection (the store cannot be used afterwards)."""
        with self._lock:
            if self._db is not None:
                self._db.close()

    def save(self, device: str, state: str, *, now: float | None = None) -> None:
        """Keep ``state`` as what ``device`` tracks now (replacing what it tracked before),
        and delete the expired records and those beyond :data:`MAX_DEVICES`."""
        if not is_device_token(device):
            raise ValueError("not a device token")
        if not isinstance(state, str) or not state or len(state) > MAX_STATE_LENGTH:
            raise ValueError(f"a state is 1 to {MAX_STATE_LENGTH} characters of text")
        now = time.time() if now is None else now
        with self._connection(write=True) as connection:
            connection.execute(
                "INSERT INTO resume_games (device, state, saved) VALUES ({}, {}, {}) "
                "ON CONFLICT (device) DO UPDATE SET state = excluded.state, "
                "saved = excluded.saved", (_key(device), state, now))
            connection.execute("DELETE FROM resume_games WHERE saved < {}",
                               (now - KEEP_FOR_S,))
            connection.execute(  # beyond the cap, the oldest go (a walk down the index)
                "DELETE FROM resume_games WHERE saved < "
                "(SELECT saved FROM resume_games ORDER BY saved DESC LIMIT 1 OFFSET {})",
                (MAX_DEVICES - 1,))

    def load(self, device: object, *, now: float | None = None) -> str | None:
        """What ``device`` tracked last, or ``None``: not a token (the file is not touched),
        unknown, or expired."""
        if not is_device_token(device):
            return None
        now = time.time() if now is None else now
        with self._connection() as connection:
            row = connection.execute(
                "SELECT state FROM resume_games WHERE device = {} AND saved >= {}",
                (_key(str(device)), now - KEEP_FOR_S)).fetchone()
        return None if row is None else row[0]

    def forget(self, device: object) -> None:
        """Forget what ``device`` tracked (nothing happens for a value that is not a token)."""
        if not is_device_token(device):
            return
        with self._connection(write=True) as connection:
            connection.execute("DELETE FROM resume_games WHERE device = {}",
                               (_key(str(device)),))

    def count(self) -> int:
        """How many records the file holds (expired ones not yet deleted included)."""
        with self._connection() as connection:
            return int(connection.execute("SELECT COUNT(*) FROM resume_games").fetchone()[0])

    @contextmanager
    def _connection(self, *, write: bool = False) -> Iterator[Connection]:
        """A connection for one operation: on SQLite the store's own, for one thread at a
        time (inside ``BEGIN IMMEDIATE`` to write); on PostgreSQL one transaction."""
        if self._db is None:
            with self.database.transaction(write=write) as connection:
                yield connection
            return
        with self._lock:
            if not write:
                yield Connection(self._db, sql.SQLITE)
                return
            with sqlite_transaction(self._db):
                yield Connection(self._db, sql.SQLITE)


def _key(device: str) -> str:
    """The record's key: the token's SHA-256, so the file holds no token a browser could use."""
    return hashlib.sha256(device.encode("ascii")).hexdigest()


__all__ = [
    "KEEP_FOR_S",
    "MAX_DEVICES",
    "MAX_STATE_LENGTH",
    "FutureResumeFileError",
    "ResumeStore",
    "is_device_token",
    "new_device_token",
    "resume_location",
    "resume_path",
    "seal",
    "unseal",
]
