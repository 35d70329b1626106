"""Practice progress that lasts: profiles, answers, ratings and games, in SQLite or PostgreSQL.

``$PERUDO_COACH_DB`` says where: a file (embedded SQLite, by default ``progress.sqlite3`` in
this OS's folder for an app's data, ``storage.sql.default_path``, created with its folders) or a
``postgresql://`` URL (a hosted instance: several app processes share one database, and
the progress outlives any of them). A profile is known only by its unguessable token
(:func:`secrets.token_urlsafe`); nothing lists the profiles.

Reliability:

* The schema is versioned, and written for each database: :data:`SQLITE_MIGRATIONS` and
  :data:`POSTGRESQL_MIGRATIONS` are applied in order, all of them in one transaction; on
  SQLite the version is the file's ``PRAGMA user_version`` (as since the first release), on
  PostgreSQL a ``schema_versions`` row (:func:`storage.sql.migrate`, serialized between
  processes). Step by step, the two make the same tables.
* An existing SQLite file is first inspected through a read-only connection: a file from a
  newer version of the app (:class:`FutureVersionError`) or a damaged one
  (:class:`CorruptDatabaseError`) is refused and never written to; a PostgreSQL database
  from a newer app raises :class:`storage.sql.FutureSchemaError`.
* Each answer, with the ratings it moves (computed by :mod:`practice.rating`: the store
  keeps the numbers), is written in one transaction (SQLite:
  ``BEGIN IMMEDIATE`` in WAL mode with ``synchronous=FULL``): a process killed mid-write
  loses at most the answer in flight; concurrent writers wait for each other.
* Every call takes its own connection (SQLite: opened for it; PostgreSQL: from the
  process's pool), so one store may serve many threads.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import quote

from practice.drills import Drill, DrillGrade, OddsDrill
from practice.levels import check_level
from practice.rating import OVERALL, Rating, next_level, ratings_after
from practice.weakness import weakest
from storage import sql
from storage.sql import (
    BUSY_TIMEOUT_MS,
    ENV_VAR,
    Connection,
    Database,
    Location,
    sqlite_transaction,
    use_wal,
)

if TYPE_CHECKING:
    from practice.scenarios import Grade, Scenario

KINDS = ("scenario", "drill")
STORE = "progress"
"""The store's name in PostgreSQL's ``schema_versions``."""


SQLITE_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: profiles and their answers
        """CREATE TABLE profiles (
               token TEXT PRIMARY KEY,
               created REAL NOT NULL
           ) WITHOUT ROWID""",
        """CREATE TABLE answers (
               id INTEGER PRIMARY KEY,
               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,
               ts REAL NOT NULL,
               kind TEXT NOT NULL CHECK (kind IN ('scenario', 'drill')),
               theme TEXT NOT NULL,
               level INTEGER,
               seed INTEGER,
               action TEXT,
               best TEXT,
               regret REAL,
               estimate REAL,
               truth REAL,
               outcome INTEGER,
               correct INTEGER NOT NULL CHECK (correct IN (0, 1))
           )""",
        "CREATE INDEX answers_by_profile ON answers (profile, id)",
    ),
    (  # 2: ratings per profile and theme
        """CREATE TABLE ratings (
               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,
               theme TEXT NOT NULL,
               rating REAL NOT NULL,
               deviation REAL NOT NULL,
               volatility REAL NOT NULL,
               answers INTEGER NOT NULL,
               updated REAL NOT NULL,
               PRIMARY KEY (profile, theme)
           ) WITHOUT ROWID""",
    ),
    (  # 3: whole games against the bots
        """CREATE TABLE games (
               id INTEGER PRIMARY KEY,
               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,
               ts REAL NOT NULL,
               seed INTEGER NOT NULL,
               styles TEXT NOT NULL,
               won INTEGER NOT NULL CHECK (won IN (0, 1)),
               decisions INTEGER NOT NULL CHECK (decisions >= 0),
               added REAL NOT NULL CHECK (added >= 0)
           )""",
        "CREATE UNIQUE INDEX games_once ON games (profile, seed, styles)",
    ),
    (  # 4: a practice spot's answer kept once per profile (earlier answers have no spot)
        "ALTER TABLE answers ADD COLUMN spot TEXT",
        "CREATE UNIQUE INDEX answers_once ON answers (profile, spot)",
    ),
)
"""The schema in a SQLite file: step ``n`` (from 1) takes it from version ``n − 1`` to ``n``.
SQLite's ``REAL`` and ``INTEGER`` are 64 bits; an ``INTEGER PRIMARY KEY`` numbers the rows."""

POSTGRESQL_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: profiles and their answers
        """CREATE TABLE profiles (
               token TEXT PRIMARY KEY,
               created DOUBLE PRECISION NOT NULL
           )""",
        """CREATE TABLE answers (
               id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,
               ts DOUBLE PRECISION NOT NULL,
               kind TEXT NOT NULL CHECK (kind IN ('scenario', 'drill')),
               theme TEXT NOT NULL,
               level INTEGER,
               seed BIGINT,
               action TEXT,
               best TEXT,
               regret DOUBLE PRECISION,
               estimate DOUBLE PRECISION,
               truth DOUBLE PRECISION,
               outcome INTEGER,
               correct INTEGER NOT NULL CHECK (correct IN (0, 1))
           )""",
        "CREATE INDEX answers_by_profile ON answers (profile, id)",
    ),
    (  # 2: ratings per profile and theme
        """CREATE TABLE ratings (
               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,
               theme TEXT NOT NULL,
               rating DOUBLE PRECISION NOT NULL,
               deviation DOUBLE PRECISION NOT NULL,
               volatility DOUBLE PRECISION NOT NULL,
               answers INTEGER NOT NULL,
               updated DOUBLE PRECISION NOT NULL,
               PRIMARY KEY (profile, theme)
           )""",
    ),
    (  # 3: whole games against the bots
        """CREATE TABLE games (
               id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,
               ts DOUBLE PRECISION NOT NULL,
               seed BIGINT NOT NULL,
               styles TEXT NOT NULL,
               won INTEGER NOT NULL CHECK (won IN (0, 1)),
               decisions INTEGER NOT NULL CHECK (decisions >= 0),
               added DOUBLE PRECISION NOT NULL CHECK (added >= 0)
           )""",
        "CREATE UNIQUE INDEX games_once ON games (profile, seed, styles)",
    ),
    (  # 4: a practice spot's answer kept once per profile (earlier answers have no spot)
        "ALTER TABLE answers ADD COLUMN spot TEXT",
        "CREATE UNIQUE INDEX answers_once ON answers (profile, spot)",
    ),
)
"""The same steps in PostgreSQL, whose ``REAL`` and ``INTEGER`` are 32 bits: 64-bit
``DOUBLE PRECISION`` and ``BIGINT`` (seeds) instead, and identity columns for the row
numbers. Each step makes the tables its SQLite twin makes (``tests/test_progress_schema.py``
compares them, and the databases earlier versions made)."""

SCHEMA_VERSION = len(SQLITE_MIGRATIONS)

_TABLES = {1: {"profiles", "answers"}, 2: {"profiles", "answers", "ratings"},
           3: {"profiles", "answers", "ratings", "games"},
           4: {"profiles", "answers", "ratings", "games"}}
_OTHER_STORES = {"schema_versions", "shared_tables"}
"""Tables other stores keep in the same file (``storage.tables``)."""
_CORRUPT_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
_ANSWER_COLUMNS = ("ts", "kind", "theme", "level", "seed", "action", "best", "regret",
                   "estimate", "truth", "outcome", "correct", "spot")
_INSERT_ANSWER = ("INSERT INTO answers (profile, " + ", ".join(_ANSWER_COLUMNS) + ") VALUES ("
                  + ", ".join(["{}"] * (1 + len(_ANSWER_COLUMNS))) + ") ON CONFLICT DO NOTHING")
_SELECT_ANSWERS = "SELECT " + ", ".join(_ANSWER_COLUMNS) + " FROM answers WHERE profile = {}"


class ProgressStoreError(Exception):
    """The progress file cannot be used."""


class FutureVersionError(ProgressStoreError):
    """The file was written by a newer version of Perudo Coach; it is left untouched."""


class CorruptDatabaseError(ProgressStoreError):
    """The file is damaged or is not a Perudo Coach progress file; it is left untouched."""


class UnknownProfileError(ProgressStoreError):
    """No profile has this token."""


# --- records ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer to a scenario or a drill.

    ``action`` and ``best`` are written like ``dudo`` or ``5x4``; ``regret`` is the extra
    chance of losing a die (scenarios); ``estimate`` and ``truth`` the learner's and the
    exact probability (odds drills), ``outcome`` whether the bid was really true.
    ``timestamp`` (seconds since the epoch) defaults to the time of writing. ``spot`` is
    the practice spot's identity (:func:`spot_key`): a profile keeps one answer per spot.
    """

    kind: str
    theme: str
    correct: bool
    level: int | None = None
    seed: int | None = None
    action: str | None = None
    best: str | None = None
    regret: float | None = None
    estimate: float | None = None
    truth: float | None = None
    outcome: bool | None = None
    timestamp: float | None = None
    spot: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"an answer's kind is scenario or drill, not {self.kind!r}")
        if not isinstance(self.theme, str) or not self.theme or self.theme == OVERALL:
            raise ValueError(f"not a theme name: {self.theme!r}")
        if self.level is not None:
            check_level(self.level)
        for name in ("regret", "estimate", "truth", "timestamp"):
            value = getattr(self, name)
            if value is not None and not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number, not {value!r}")

    @classmethod
    def from_scenario(cls, scenario: Scenario, grade: Grade) -> Answer:
        """The record of a graded scenario."""
        return cls(kind="scenario", theme=scenario.theme, correct=grade.correct,
                   level=scenario.level, seed=scenario.seed, action=str(grade.action),
                   best=str(grade.best), regret=grade.regret, spot=spot_key(scenario))

    @classmethod
    def from_drill(cls, drill: Drill, grade: DrillGrade) -> Answer:
        """The record of a graded drill; odds drills keep the estimate for calibration."""
        answer = cls(kind="drill", theme=drill.kind, correct=grade.correct, level=drill.level,
                     seed=drill.seed, action=_text(grade.response), best=_text(grade.answer))
        if not isinstance(drill, OddsDrill):
            return answer
        return replace(answer, estimate=cast(float, grade.response), truth=drill.answer,
                       outcome=drill.outcome)


@dataclass(frozen=True, slots=True)
class AccuracyPoint:
    """Accuracy over one day (``label`` ``2025-01-31``) or one run of N answers
    (``label`` ``1–20``); ``start`` is the time of its first answer."""

    label: str
    start: float
    answers: int
    accuracy: float
    mean_regret: float | None


@dataclass(frozen=True, slots=True)
class CalibrationBucket:
    """Odds estimates from ``low`` to ``high``: their mean, the mean exact probability, and
    how often the bid really was true (``observed``; ``None`` when never known)."""

    low: float
    high: float
    answers: int
    mean_estimate: float
    mean_truth: float | None
    observed: float | None


@dataclass(frozen=True, slots=True)
class ThemeStats:
    """How a learner does on one theme (or drill kind)."""

    kind: str
    theme: str
    answers: int
    accuracy: float
    mean_regret: float | None
    rating: Rating | None


# --- the store --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game against the bots: its ``seed`` and opponents' ``styles``, whether
    the learner won, how many decisions they made and the risk those added over the
    coach's, in points (``coach.review``)."""

    seed: int
    styles: tuple[str, ...]
    won: bool
    decisions: int
    added: float
    timestamp: float | None = None

    def __post_init__(self) -> None:
        if not self.styles or not all(isinstance(style, str) and style.isidentifier()
                                      for style in self.styles):
            raise ValueError(f"a game's styles are names, not {self.styles!r}"[:200])
        if self.decisions < 0 or not math.isfinite(self.added) or self.added < 0:
            raise ValueError("a game has 0 or more decisions and 0 or more points added")

    @property
    def added_per_decision(self) -> float | None:
        return self.added / self.decisions if self.decisions else None


@dataclass(frozen=True, slots=True)
class StyleRecord:
    """Games against one opponent style (a game counts for each style at its table)."""

    style: str
    games: int
    wins: int
    decisions: int
    added: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def added_per_decision(self) -> float | None:
        return self.added / self.decisions if self.decisions else None


def spot_key(scenario: Scenario) -> str:
    """The identity of a practice spot: a digest of what gives it again (a game's spot
    text, or the seed, theme and level) and the table's rules that differ from the
    defaults (a setting added later changes no key). A digest keeps the unique index short
    whatever the length of a game's code."""
    origin = scenario.source or f"{scenario.seed}~{scenario.theme}~{scenario.level}"
    rules = json.dumps(scenario.rules.changed(), sort_keys=True, default=str)
    return hashlib.sha256(f"{origin}|{rules}".encode()).hexdigest()


def database_path(path: str | os.PathLike[str] | None = None) -> Path:
    """The progress file: ``path``, else ``$PERUDO_COACH_DB``, else the default;
    ``ValueError`` when the progress lives in PostgreSQL, not in a file."""
    database = Database.at(path)
    if database.dialect != sql.SQLITE:
        raise ValueError("the progress lives in PostgreSQL, not in a file")
    return database.path


class ProgressStore:
    """Profiles, answers, ratings and games in one database (see the module's notes)."""

    def __init__(self, location: Location | None = None) -> None:
        self.database = Database.at(location)
        self.postgresql = self.database.dialect == sql.POSTGRESQL
        if self.postgresql:
            self.path: Path | None = None
            sql.migrate(self.database, STORE, POSTGRESQL_MIGRATIONS)
            return
        self.path = self.database.path
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists() and self.path.stat().st_size > 0:
            inspect_file(self.path)
        with self._connection() as connection:
            use_wal(connection.raw)
            migrate(connection.raw)

    # profiles

    def create_profile(self) -> str:
        """A new profile; keep its token: it is the only way back to the profile."""
        token = secrets.token_urlsafe(16)
        with self._transaction() as connection:
            connection.execute("INSERT INTO profiles (token, created) VALUES ({}, {})",
                               (token, time.time()))
        return token

    def has_profile(self, token: str) -> bool:
        """Whether a profile has this token."""
        with self._connection() as connection:
            return _has_profile(connection, token)

    def delete_profile(self, token: str) -> None:
        """Forget the profile, its answers and its ratings."""
        with self._transaction() as connection:
            _lock_profile(connection, token)
            connection.execute("DELETE FROM games WHERE profile = {}", (token,))
            connection.execute("DELETE FROM ratings WHERE profile = {}", (token,))
            connection.execute("DELETE FROM answers WHERE profile = {}", (token,))
            connection.execute("DELETE FROM profiles WHERE token = {}", (token,))

    # answers and ratings

    def record(self, token: str, answer: Answer) -> dict[str, Rating] | None:
        """Store ``answer`` and move the ratings it counts for, in one transaction.

        Returns the new ratings: the answer's theme and, for a scenario, :data:`OVERALL`
        (nothing when the answer has no level); ``None`` when the profile has answered
        this spot already (the answer's ``spot``): nothing is stored, no rating moves.
        """
        now = time.time() if answer.timestamp is None else answer.timestamp
        with self._transaction() as connection:
            _lock_profile(connection, token)
            values = (now, answer.kind, answer.theme, answer.level, answer.seed,
                      answer.action, answer.best, answer.regret, answer.estimate,
                      answer.truth, _flag(answer.outcome), int(bool(answer.correct)),
                      answer.spot)
            cursor = connection.execute(_INSERT_ANSWER, (token, *values))
            if cursor.rowcount == 0:
                return None
            return _move_ratings(connection, token, answer, now)

    def answers(self, token: str, limit: int | None = None) -> list[Answer]:
        """The profile's answers, oldest first (only the latest ``limit`` if given)."""
        query = _SELECT_ANSWERS + " ORDER BY id DESC"
        with self._connection() as connection:
            _require_profile(connection, token)
            if limit is not None:
                rows = connection.execute(query + " LIMIT {}", (token, limit)).fetchall()
            else:
                rows = connection.execute(query, (token,)).fetchall()
        return [_answer_from_row(row) for row in reversed(rows)]

    def rating(self, token: str, theme: str = OVERALL) -> Rating:
        """The profile's rating on ``theme`` (a fresh rating before any answer)."""
        return self.ratings(token).get(theme, Rating())

    def ratings(self, token: str) -> dict[str, Rating]:
        """Every rating of the profile, by theme (with :data:`OVERALL`)."""
        with self._connection() as connection:
            _require_profile(connection, token)
            return _ratings(connection, token)

    def next_level(self, token: str, theme: str = OVERALL) -> int:
        """The scenario level to offer next, from the profile's rating on ``theme``."""
        return next_level(self.rating(token, theme))

    # games against the bots

    def record_game(self, token: str, game: GameRecord) -> bool:
        """Keep a finished game once: ``False`` when this very game (seed and styles) was
        kept already."""
        now = time.time() if game.timestamp is None else game.timestamp
        with self._transaction() as connection:
            _lock_profile(connection, token)
            cursor = connection.execute(
                "INSERT INTO games (profile, ts, seed, styles, won, decisions, added) "
                "VALUES ({}, {}, {}, {}, {}, {}, {}) ON CONFLICT DO NOTHING",
                (token, now, game.seed, ",".join(game.styles), int(game.won), game.decisions,
                 game.added))
            return cursor.rowcount == 1

    def games(self, token: str) -> list[GameRecord]:
        """The profile's games against the bots, oldest first."""
        with self._connection() as connection:
            _require_profile(connection, token)
            rows = connection.execute(
                "SELECT seed, styles, won, decisions, added, ts FROM games WHERE profile = {} "
                "ORDER BY ts, id", (token,)).fetchall()
        return [GameRecord(seed, tuple(styles.split(",")), bool(won), decisions, added, ts)
                for seed, styles, won, decisions, added, ts in rows]

    def results_by_style(self, token: str) -> list[StyleRecord]:
        """Per opponent style met: games, wins and the risk added per decision."""
        totals: dict[str, list[float]] = {}
        for game in self.games(token):
            for style in dict.fromkeys(game.styles):
                row = totals.setdefault(style, [0, 0, 0, 0.0])
                row[0] += 1
                row[1] += game.won
                row[2] += game.decisions
                row[3] += game.added
        return [StyleRecord(style, int(games), int(wins), int(decisions), added)
                for style, (games, wins, decisions, added) in sorted(totals.items())]

    # charts

    def accuracy_over_time(self, token: str, *, per: str | int = "day",
                           kind: str | None = None, theme: str | None = None,
                           utc_offset_minutes: int = 0) -> list[AccuracyPoint]:
        """Accuracy and mean regret per day (``per="day"``, in the learner's time zone) or
        per run of ``per`` answers, oldest first; optionally of one kind or theme."""
        if per != "day" and (isinstance(per, bool) or not isinstance(per, int) or per < 1):
            raise ValueError(f"per is 'day' or a number of answers, not {per!r}")
        rows = self._select(token, "ts, correct, regret", kind, theme)
        groups: dict[str, list[tuple[float, int, float | None]]] = {}
        for index, row in enumerate(rows):
            groups.setdefault(_group_label(index, row[0], per, utc_offset_minutes),
                              []).append(row)
        return [_accuracy_point(label, group) for label, group in groups.items()]

    def calibration(self, token: str, buckets: int = 10) -> list[CalibrationBucket]:
        """Odds estimates in ``buckets`` equal bands from 0 to 1 (the empty ones left out):
        the mean estimate against the exact probability and the observed frequency."""
        if isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 1:
            raise ValueError(f"buckets must be a positive whole number, not {buckets!r}")
        rows = self._select(token, "estimate, truth, outcome", None, None,
                            "AND estimate IS NOT NULL")
        bands: dict[int, list[tuple[float, float | None, int | None]]] = {}
        for row in rows:
            bands.setdefault(min(int(row[0] * buckets), buckets - 1), []).append(row)
        return [_calibration_bucket(band, buckets, bands[band]) for band in sorted(bands)]

    def theme_stats(self, token: str) -> list[ThemeStats]:
        """Answers, accuracy, mean regret and rating of every theme answered."""
        query = ("SELECT kind, theme, COUNT(*), AVG(CAST(correct AS DOUBLE PRECISION)), "
                 "AVG(regret) FROM answers "
                 "WHERE profile = {} GROUP BY kind, theme ORDER BY kind, theme")
        with self._connection() as connection:
            _require_profile(connection, token)
            rows = connection.execute(query, (token,)).fetchall()
            ratings = _ratings(connection, token)
        return [ThemeStats(kind, theme, count, accuracy, regret, ratings.get(theme))
                for kind, theme, count, accuracy, regret in rows]

    def weakest_themes(self, token: str, limit: int = 3,
                       min_answers: int = 1) -> list[ThemeStats]:
        """At most ``limit`` themes with a wrong answer and at least ``min_answers``
        answers, weakest first (:func:`practice.weakness.weakest`)."""
        return weakest(self.theme_stats(token), limit, min_answers)

    # connections

    @contextmanager
    def _connection(self) -> Iterator[Connection]:
        """A connection for reading (SQLite: a fresh one in autocommit mode, closed
        afterwards; PostgreSQL: one transaction)."""
        if self.postgresql:
            with self.database.transaction() as connection:
                yield connection
            return
        assert self.path is not None
        raw = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        try:
            raw.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            raw.execute("PRAGMA synchronous = FULL")
            raw.execute("PRAGMA foreign_keys = ON")
            _refuse_future(raw, self.path)
            yield Connection(raw, sql.SQLITE)
        finally:
            raw.close()

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A connection inside a write transaction (SQLite: ``BEGIN IMMEDIATE``): committed
        on success, else rolled back."""
        if self.postgresql:
            with self.database.transaction(write=True) as connection:
                yield connection
            return
        with self._connection() as connection, sqlite_transaction(connection.raw):
            yield connection

    def _select(self, token: str, columns: str, kind: str | None, theme: str | None,
                extra: str = "") -> list[tuple[Any, ...]]:
        """The profile's answers' ``columns``, oldest first, filtered by kind and theme."""
        query = "SELECT " + columns + " FROM answers WHERE profile = {} " + extra
        parameters: list[Any] = [token]
        if kind is not None:
            query += " AND kind = {}"
            parameters.append(kind)
        if theme is not None:
            query += " AND theme = {}"
            parameters.append(theme)
        with self._connection() as connection:
            _require_profile(connection, token)
            return connection.execute(query + " ORDER BY id", parameters).fetchall()


# --- opening, checking and migrating the file ------------------------------------------


def inspect_file(path: Path) -> int:
    """The schema version of an existing file, read without writing to it.

    Raises :class:`CorruptDatabaseError` for a damaged or foreign file and
    :class:`FutureVersionError` for a file from a newer version of the app.
    """
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                                     isolation_level=None)
        try:
            connection.execute("BEGIN")  # one snapshot: a migration may commit meanwhile
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            check = connection.execute("PRAGMA quick_check").fetchall()
            tables = _table_names(connection)
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorcode", None) in _CORRUPT_CODES:
            raise CorruptDatabaseError(
                f"{path} is damaged or not a database ({error}); it was left untouched"
            ) from None
        raise ProgressStoreError(f"cannot read {path}: {error}") from None
    if check != [("ok",)]:
        raise CorruptDatabaseError(f"{path} is damaged ({check[0][0]}); it was left untouched")
    if version > SCHEMA_VERSION:
        raise FutureVersionError(_future_message(path, version))
    expected = _TABLES.get(version, set())
    if not expected <= tables or (version == 0 and tables - _OTHER_STORES):
        raise CorruptDatabaseError(
            f"{path} is not a Perudo Coach progress file; it was left untouched")
    return version


def migrate(connection: sqlite3.Connection) -> int:
    """Apply the missing :data:`SQLITE_MIGRATIONS` in one transaction; the version reached."""
    return sql.migrate_file(connection, SQLITE_MIGRATIONS, lambda version: FutureVersionError(
        _future_message(Path("the progress file"), version)))


def _refuse_future(connection: sqlite3.Connection, path: Path) -> None:
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise FutureVersionError(_future_message(path, version))


def _future_message(path: Path, version: int) -> str:
    return (f"{path} has schema version {version}, newer than this app's {SCHEMA_VERSION}: "
            "update Perudo Coach; the file was left untouched")


def _table_names(connection: sqlite3.Connection) -> set[str]:
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {name for (name,) in rows}


# --- row helpers ------------------------------------------------------------------------


def _has_profile(connection: Connection, token: object) -> bool:
    if not isinstance(token, str):
        return False
    row = connection.execute("SELECT 1 FROM profiles WHERE token = {}", (token,)).fetchone()
    return row is not None


def _require_profile(connection: Connection, token: str) -> None:
    if not _has_profile(connection, token):
        raise UnknownProfileError("no profile has this token")


_LOCK_PROFILE = {"sqlite": "SELECT 1 FROM profiles WHERE token = {}",  # BEGIN IMMEDIATE locks
                 "postgresql": "SELECT 1 FROM profiles WHERE token = {} FOR UPDATE"}


def _lock_profile(connection: Connection, token: str) -> None:
    """Before a write: the profile must exist, and its other writers wait until this one
    commits (two answers at once would each move the ratings from the same old values)."""
    if not isinstance(token, str) or connection.execute(_LOCK_PROFILE,
                                                        (token,)).fetchone() is None:
        raise UnknownProfileError("no profile has this token")


def _ratings(connection: Connection, token: str) -> dict[str, Rating]:
    rows = connection.execute(
        "SELECT theme, rating, deviation, volatility FROM ratings WHERE profile = {}", (token,))
    return {theme: Rating(rating, deviation, volatility)
            for theme, rating, deviation, volatility in rows}


def _move_ratings(connection: Connection, token: str, answer: Answer,
                  now: float) -> dict[str, Rating]:
    """Keep the ratings the answer moves (:func:`practice.rating.ratings_after`)."""
    moved = ratings_after(_ratings(connection, token), answer.kind, answer.theme,
                          answer.level, answer.correct)
    for theme, rating in moved.items():
        connection.execute(
            "INSERT INTO ratings (profile, theme, rating, deviation, volatility, answers, "
            "updated) VALUES ({}, {}, {}, {}, {}, 1, {}) ON CONFLICT (profile, theme) DO UPDATE "
            "SET rating = excluded.rating, deviation = excluded.deviation, "
            "volatility = excluded.volatility, answers = ratings.answers + 1, "
            "updated = excluded.updated",
            (token, theme, rating.rating, rating.deviation, rating.volatility, now))
    return moved


def _answer_from_row(row: Sequence[Any]) -> Answer:
    (ts, kind, theme, level, seed, action, best, regret, estimate, truth, outcome, correct,
     spot) = row
    return Answer(kind=kind, theme=theme, correct=bool(correct), level=level, seed=seed,
                  action=action, best=best, regret=regret, estimate=estimate, truth=truth,
                  outcome=None if outcome is None else bool(outcome), timestamp=ts, spot=spot)


def _group_label(index: int, timestamp: float, per: str | int, offset_minutes: int) -> str:
    if per == "day":
        return time.strftime("%Y-%m-%d", time.gmtime(timestamp + offset_minutes * 60))
    assert isinstance(per, int)
    first = index // per * per + 1
    return f"{first}–{first + per - 1}"


def _accuracy_point(label: str, group: Sequence[tuple[float, int, float | None]]
                    ) -> AccuracyPoint:
    regrets = [regret for _, _, regret in group if regret is not None]
    return AccuracyPoint(label=label, start=group[0][0], answers=len(group),
                         accuracy=sum(correct for _, correct, _ in group) / len(group),
                         mean_regret=sum(regrets) / len(regrets) if regrets else None)


def _calibration_bucket(band: int, buckets: int,
                        rows: Sequence[tuple[float, float | None, int | None]]
                        ) -> CalibrationBucket:
    truths = [truth for _, truth, _ in rows if truth is not None]
    outcomes = [outcome for _, _, outcome in rows if outcome is not None]
    return CalibrationBucket(
        low=band / buckets, high=(band + 1) / buckets, answers=len(rows),
        mean_estimate=sum(estimate for estimate, _, _ in rows) / len(rows),
        mean_truth=sum(truths) / len(truths) if truths else None,
        observed=sum(outcomes) / len(outcomes) if outcomes else None)


def _flag(value: bool | None) -> int | None:
    return None if value is None else int(bool(value))


def _text(value: object) -> str | None:
    return None if value is None else str(value)


__all__ = [
    "ENV_VAR",
    "OVERALL",
    "POSTGRESQL_MIGRATIONS",
    "SCHEMA_VERSION",
    "SQLITE_MIGRATIONS",
    "AccuracyPoint",
    "Answer",
    "CalibrationBucket",
    "CorruptDatabaseError",
    "FutureVersionError",
    "Location",
    "ProgressStore",
    "ProgressStoreError",
    "ThemeStats",
    "UnknownProfileError",
    "database_path",
    "inspect_file",
    "migrate",
    "spot_key",
]
