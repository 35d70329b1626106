"""One small SQL layer over the two databases the app runs on.

``PERUDO_COACH_DB`` says where the data lives: a file path (embedded SQLite, the zero-setup
default, in this OS's folder for an app's data: :func:`default_path`) or a ``postgresql://``
URL (PostgreSQL through psycopg 3, for a hosted instance whose several processes share one
database). :class:`Database` gives each operation a connection inside one transaction. A
statement marks each parameter with ``{}`` and the connection puts in its driver's placeholder
(:data:`PLACEHOLDERS`): the SQL itself is never rewritten. On SQLite a connection is opened
per operation; on PostgreSQL it comes from a small pool per process (:data:`POOL_SIZE`),
checked before use, so a restarted server is reconnected to on the next operation and an
unreachable one fails within :data:`POOL_WAIT_S` seconds rather than hanging a page. An
outage is logged twice, when it starts and when the database answers again
(:class:`OutageLog`): the pool's own warnings (one or two for each attempt to connect,
several a second while pages poll) are held back.

Schemas are versioned per store (:func:`migrate`): a ``schema_versions`` row holds each
store's version; the pending migrations run in one transaction, serialized between
processes (``BEGIN IMMEDIATE`` on SQLite, an advisory lock on PostgreSQL). A statement that
differs between the two is written for each, as a ``{"sqlite": …, "postgresql": …}`` mapping
(a store's schema: one list of migrations per database).
"""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
import string
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from platformdirs import PlatformDirs
from platformdirs.api import PlatformDirsABC

ENV_VAR = "PERUDO_COACH_DB"
APP_NAME = "perudo-coach"
DEFAULT_FILE = "progress.sqlite3"
OLD_DATA_DIR = "~/.local/share/perudo-coach"
"""Where the data folder was on every OS before it followed each OS's conventions."""
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE, POSTGRESQL = "sqlite", "postgresql"
BUSY_TIMEOUT_MS = 30_000
CONNECT_TIMEOUT_S = 5
POOL_SIZE = 8
"""PostgreSQL connections one app process keeps at most (each operation holds one briefly)."""
POOL_WAIT_S = 2.0
"""How long an operation waits for a PostgreSQL connection before it is told the database
is unreachable."""
CONNECTION_SETTINGS = {
    "connect_timeout": CONNECT_TIMEOUT_S,
    # A server gone without a word (a host down, a cable out) is noticed within ~30 s, not
    # the system's two hours, and no statement holds a connection for more than 10 s.
    "keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3,
    "tcp_user_timeout": 30_000,
    "options": "-c statement_timeout=10000",
}
OUTAGE_WAIT_S, OUTAGE_MEMORY_S = 0.25, 10.0
"""Once the database was found unreachable, operations in the next 10 s wait only 0.25 s
(long enough for a fresh connection on a server that is back): a page polling a shared table
says "reconnecting" at once rather than after every store call has waited in turn."""

Statement = str | Mapping[str, str]
"""One SQL statement, or one per dialect; ``{}`` marks each parameter."""

PLACEHOLDERS = {SQLITE: "?", POSTGRESQL: "%s"}
"""Each driver's parameter placeholder (sqlite3's qmark style, psycopg's format style)."""



def default_path(dirs: PlatformDirsABC | None = None) -> Path:
    """The SQLite file when ``$PERUDO_COACH_DB`` is unset: ``progress.sqlite3`` in this OS's
    folder for a user's app data (``dirs``, else platformdirs' for this OS):
    ``~/.local/share/perudo-coach`` on Linux (``$XDG_DATA_HOME/perudo-coach`` when set),
    ``~/Library/Application Support/perudo-coach`` on macOS,
    ``%LOCALAPPDATA%\\perudo-coach`` on Windows.

    A folder at :data:`OLD_DATA_DIR` is used where it is while the new folder does not exist:
    it holds the progress (and the resume records beside it) of an earlier version. It is not
    moved, because an earlier version still running would go on writing there, and the two
    copies would part ways."""
    dirs = dirs or PlatformDirs(APP_NAME, appauthor=False)
    new, old = Path(dirs.user_data_dir), Path(OLD_DATA_DIR).expanduser()
    folder = old if old.is_dir() and not new.exists() else new
    return folder / DEFAULT_FILE


class DatabaseError(Exception):
    """The database cannot be reached or refused an operation (its cause chained)."""


class FutureSchemaError(DatabaseError):
    """The database was written by a newer version of the app: it is left untouched."""


class Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


_FORMATTER = string.Formatter()


def render(statement: Statement, dialect: str, count: int) -> str:
    """``statement``'s text for ``dialect`` (its own, when it has one per dialect) with the
    driver's placeholder in each of its ``{}`` marks (``str.format``'s: a literal brace is
    written twice). ``ValueError`` unless it has ``count`` marks, so a statement written
    with one driver's placeholders fails on both databases alike."""
    template = statement if isinstance(statement, str) else statement[dialect]
    fields = [name for _, name, _, _ in _FORMATTER.parse(template) if name is not None]
    if len(fields) != count or any(fields):
        raise ValueError(f"a statement marks each of its {count} parameters with {{}}, "
                         f"not {fields}: {template[:80]!r}")
    return template.format(*[PLACEHOLDERS[dialect]] * count)


class Connection:
    """A connection inside one transaction, to either database (see :func:`render`)."""

    def __init__(self, raw: Any, dialect: str) -> None:
        self.raw = raw
        self.dialect = dialect

    def execute(self, statement: Statement, params: Sequence[object] = ()) -> Cursor:
        values = tuple(params)
        return self.raw.execute(render(statement, self.dialect, len(values)), values)


@dataclass(frozen=True, slots=True)
class Database:
    """Where the data lives: a SQLite file, or a PostgreSQL URL."""

    url: str

    @classmethod
    def at(cls, location: Location | None = None) -> Database:
        """The database at ``location`` (a path, a ``postgresql://`` URL or a database),
        else ``$PERUDO_COACH_DB``, else :func:`default_path`; a path has its ``~`` expanded."""
        chosen = location if location is not None else os.environ.get(ENV_VAR) or default_path()
        if isinstance(chosen, Database):
            return chosen
        text = os.fspath(chosen)
        if text.startswith(POSTGRES_SCHEMES):
            return cls(text)
        return cls(str(Path(text).expanduser()))

    @property
    def dialect(self) -> str:
        return POSTGRESQL if self.url.startswith(POSTGRES_SCHEMES) else SQLITE

    @property
    def path(self) -> Path:
        """The SQLite file (its folders are created on first use)."""
        return Path(self.url).expanduser()

    def __repr__(self) -> str:  # a URL may carry a password: never print it
        return f"Database({self.dialect})"

    @contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[Connection]:
        """A connection inside one transaction: committed when the block ends, rolled back
        when it raises. ``write`` takes SQLite's write lock up front (``BEGIN IMMEDIATE``),
        so two writers wait for each other rather than fail half way."""
        if self.dialect == POSTGRESQL:
            with self._postgres() as raw:
                yield Connection(raw, POSTGRESQL)
            return
        with self._sqlite(write) as raw:
            yield Connection(raw, SQLITE)

    @contextmanager
    def _postgres(self) -> Iterator[Any]:
        import psycopg  # only a PostgreSQL deployment needs the driver loaded
        from psycopg_pool import PoolTimeout

        recently_down = time.monotonic() - _UNREACHABLE.get(self.url, -OUTAGE_MEMORY_S)
        wait = OUTAGE_WAIT_S if recently_down < OUTAGE_MEMORY_S else POOL_WAIT_S
        pool = _pool(self.url)
        try:
            with pool.connection(timeout=wait) as raw, raw.transaction():
                _UNREACHABLE.pop(self.url, None)  # it answers again
                OUTAGES.ended(pool.name)
                yield raw
        except PoolTimeout as error:
            if pool.get_stats().get("pool_size", 0) < POOL_SIZE:
                _UNREACHABLE[self.url] = time.monotonic()  # it could not even connect
                OUTAGES.started(pool.name)
            raise DatabaseError("cannot reach PostgreSQL") from error
        except psycopg.Error as error:
            raise DatabaseError(f"PostgreSQL refused: {type(error).__name__}") from error

    @contextmanager
    def _sqlite(self, write: bool) -> Iterator[sqlite3.Connection]:
        path = self.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            raw = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except (OSError, sqlite3.Error) as error:
            raise DatabaseError(f"cannot open {path.name}: {error}") from error
        try:
            raw.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            use_wal(raw)
            with sqlite_transaction(raw, write=write):
                yield raw
        except sqlite3.Error as error:
            raise DatabaseError(f"SQLite refused: {error}") from error
        finally:
            raw.close()


Location = str | os.PathLike[str] | Database
"""Where a store lives: a SQLite file's path, a ``postgresql://`` URL, or a database."""


def use_wal(connection: sqlite3.Connection) -> None:
    """Put the file in WAL mode (once: it stays). Switching takes a lock that SQLite does not
    wait for (the busy timeout does not apply), so when several processes open a new file
    at the same moment all but one are told "database is locked": retry until the busy
    timeout, a few milliseconds apart."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.005 + 0.02 * secrets.randbelow(1000) / 1000)


@contextmanager
def sqlite_transaction(connection: sqlite3.Connection, *, write: bool = True) -> Iterator[None]:
    """``BEGIN`` (``BEGIN IMMEDIATE`` to write: the write lock up front) … ``COMMIT``, or
    ``ROLLBACK`` when the block raises, on a connection in autocommit mode."""
    connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        yield
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def migrate_file(connection: sqlite3.Connection, migrations: Sequence[Sequence[Statement]],
                 too_new: Callable[[int], Exception]) -> int:
    """:func:`migrate` for a store in a SQLite file of its own, whose version is the file's
    ``user_version``: the missing ``migrations`` in one write transaction (what another
    process migrated meanwhile is seen); ``too_new(version)`` is raised for a file past
    them. Returns the version."""
    latest = len(migrations)
    with sqlite_transaction(connection):
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > latest:
            raise too_new(version)
        for statements in migrations[version:]:
            for statement in statements:
                Connection(connection, SQLITE).execute(statement)
        if version < latest:
            connection.execute(f"PRAGMA user_version = {latest}")
    return latest


_POOLS: dict[tuple[int, str], Any] = {}
_UNREACHABLE: dict[str, float] = {}
"""When each database was last found unreachable (``time.monotonic``)."""
_POOLS_LOCK = threading.Lock()
POOL_NAME = "perudo-coach"
"""The start of the name of each pool of this module (``perudo-coach-1``...)."""
POOL_LOGGER = "psycopg.pool"
_LOG = logging.getLogger(__name__)


class OutageLog(logging.Filter):
    """Logs each outage of a database once when it starts and once when it ends.

    Installed as a filter of psycopg_pool's logger (:data:`POOL_LOGGER`): while the server
    is down, the pool logs each failed attempt to connect ("error connecting in …",
    "reconnection attempt … failed"), and every store call of a page polling a shared
    table makes one. The first failure of a pool of this module starts an outage, said
    once on this module's logger (a warning, so it shows where Python logs warnings by
    default); the pool's failures are then held back, and so are the connections it
    discards as broken, until :meth:`ended` (an operation got a connection again) says
    so, once. The pool's other records pass unchanged.
    """

    FAILURES = frozenset({"error connecting in %r: %s",
                          "reconnection attempt in pool %r failed after %s sec"})
    """The pool's records of a failed attempt to connect (their first argument: the pool)."""
    LOSSES = frozenset({"discarding broken connection: %s", "discarding closed connection: %s"})
    """The pool's records of a connection lost: held back during an outage."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._since: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in self.FAILURES and isinstance(record.args, tuple) and record.args:
            pool = str(record.args[0])
            if not pool.startswith(POOL_NAME):
                return True
            cause = record.args[1] if record.msg.startswith("error") else None
            self.started(pool, cause)
            return False
        return not (record.msg in self.LOSSES and self.any_down())

    def started(self, pool: str, cause: object = None) -> None:
        """``pool`` cannot reach its database: logged if it could until now."""
        with self._lock:
            if pool in self._since:
                return
            self._since[pool] = time.monotonic()
        _LOG.warning("PostgreSQL cannot be reached (%s): the app goes on without it and "
                     "says so once it answers again", _one_line(cause) or "no connection")

    def ended(self, pool: str) -> None:
        """``pool`` got a connection: the end of its outage, if it had one, is logged."""
        with self._lock:
            since = self._since.pop(pool, None)
        if since is not None:
            _LOG.warning("PostgreSQL answers again, after %.0f s unreachable",
                         time.monotonic() - since)

    def any_down(self) -> bool:
        with self._lock:
            return bool(self._since)


def _one_line(cause: object) -> str:
    return " ".join(str(cause or "").split())[:300]


OUTAGES = OutageLog()


def _pool(url: str) -> Any:
    """This process's connection pool for ``url`` (made on first use, kept for the process;
    a forked child makes its own: a pool's connections and threads do not cross a fork)."""
    key = (os.getpid(), url)
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            from psycopg_pool import ConnectionPool

            pool_logger = logging.getLogger(POOL_LOGGER)
            if OUTAGES not in pool_logger.filters:
                pool_logger.addFilter(OUTAGES)
            pool = ConnectionPool(
                url, min_size=1, max_size=POOL_SIZE, open=True, timeout=POOL_WAIT_S,
                check=ConnectionPool.check_connection, reconnect_timeout=0,
                kwargs=CONNECTION_SETTINGS, name=f"{POOL_NAME}-{len(_POOLS) + 1}")
            _POOLS[key] = pool
        return pool


def close_pools() -> None:
    """Close this process's PostgreSQL connections (tests drop their databases after)."""
    with _POOLS_LOCK:
        pools = [pool for (pid, _), pool in _POOLS.items() if pid == os.getpid()]
        _POOLS.clear()
    for pool in pools:
        pool.close()


MIGRATION_LOCK = zlib.crc32(b"perudo-coach:migrations")
"""The advisory lock every migration takes: two stores migrating at once on a new database
would both create ``schema_versions``."""

SCHEMA_VERSIONS = """CREATE TABLE IF NOT EXISTS schema_versions (
    store TEXT PRIMARY KEY,
    version INTEGER NOT NULL
)"""


def migrate(database: Database, store: str,
            migrations: Sequence[Sequence[Statement]]) -> int:
    """Bring ``store``'s tables to the last of ``migrations`` (each a list of statements,
    version ``n`` being ``migrations[n - 1]``), in one transaction; returns the version.
    :class:`FutureSchemaError` when the database is already past it."""
    latest = len(migrations)
    with database.transaction(write=True) as connection:
        if database.dialect == POSTGRESQL:  # one migrating process at a time, any store
            connection.execute("SELECT pg_advisory_xact_lock({})", (MIGRATION_LOCK,))
        connection.execute(SCHEMA_VERSIONS)
        row = connection.execute("SELECT version FROM schema_versions WHERE store = {}",
                                 (store,)).fetchone()
        current = 0 if row is None else int(row[0])
        if current > latest:
            raise FutureSchemaError(f"the {store} tables are at version {current}, newer "
                                    f"than this app's {latest}: update the app")
        for statements in migrations[current:]:
            for statement in statements:
                connection.execute(statement)
        if row is None:
            connection.execute("INSERT INTO schema_versions (store, version) VALUES ({}, {})",
                               (store, latest))
        elif current != latest:
            connection.execute("UPDATE schema_versions SET version = {} WHERE store = {}",
                               (latest, store))
    return latest


__all__ = [
    "APP_NAME",
    "BUSY_TIMEOUT_MS",
    "DEFAULT_FILE",
    "ENV_VAR",
    "OLD_DATA_DIR",
    "PLACEHOLDERS",
    "POSTGRESQL",
    "SQLITE",
    "Connection",
    "Database",
    "DatabaseError",
    "FutureSchemaError",
    "Location",
    "OutageLog",
    "close_pools",
    "default_path",
    "migrate",
    "migrate_file",
    "render",
    "sqlite_transaction",
    "use_wal",
]
