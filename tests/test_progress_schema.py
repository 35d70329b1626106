"""The progress store speaks each database's SQL on purpose (issue 30, point 4).

Its schema is written once for SQLite and once for PostgreSQL; up to version 4 the
PostgreSQL text used to be made from the SQLite one by string replacement. Here the
statements that code produced are kept as they were (:data:`OLD_SQLITE`,
:data:`OLD_POSTGRESQL`): a database they made, at any version, opens and migrates with
this code, and ends with the very tables a new database gets. The ratings, which
``practice.rating`` now computes and the store only keeps, are the numbers they were.
"""

from __future__ import annotations

import ast
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from practice.rating import OVERALL, Rating, ratings_after
from storage.progress import (
    POSTGRESQL_MIGRATIONS,
    SCHEMA_VERSION,
    SQLITE_MIGRATIONS,
    STORE,
    Answer,
    GameRecord,
    ProgressStore,
)
from storage.sql import SCHEMA_VERSIONS, Database, close_pools, render
from tests import postgres

ROOT = Path(__file__).resolve().parents[1]

# --- the statements the store ran before (commit f300c55), kept verbatim --------------------

OLD_SQLITE = (
    (
        "CREATE TABLE profiles (\n               token TEXT PRIMARY KEY,\n"
        "               created REAL NOT NULL\n           ) WITHOUT ROWID",
        "CREATE TABLE answers (\n               id INTEGER PRIMARY KEY,\n"
        "               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,\n"
        "               ts REAL NOT NULL,\n"
        "               kind TEXT NOT NULL CHECK (kind IN ('scenario', 'drill')),\n"
        "               theme TEXT NOT NULL,\n               level INTEGER,\n"
        "               seed INTEGER,\n               action TEXT,\n               best TEXT,\n"
        "               regret REAL,\n               estimate REAL,\n"
        "               truth REAL,\n               outcome INTEGER,\n"
        "               correct INTEGER NOT NULL CHECK (correct IN (0, 1))\n           )",
        "CREATE INDEX answers_by_profile ON answers (profile, id)",
    ),
    (
        "CREATE TABLE ratings (\n"
        "               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,\n"
        "               theme TEXT NOT NULL,\n               rating REAL NOT NULL,\n"
        "               deviation REAL NOT NULL,\n               volatility REAL NOT NULL,\n"
        "               answers INTEGER NOT NULL,\n               updated REAL NOT NULL,\n"
        "               PRIMARY KEY (profile, theme)\n           ) WITHOUT ROWID",
    ),
    (
        "CREATE TABLE games (\n               id INTEGER PRIMARY KEY,\n"
        "               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,\n"
        "               ts REAL NOT NULL,\n               seed INTEGER NOT NULL,\n"
        "               styles TEXT NOT NULL,\n"
        "               won INTEGER NOT NULL CHECK (won IN (0, 1)),\n"
        "               decisions INTEGER NOT NULL CHECK (decisions >= 0),\n"
        "               added REAL NOT NULL CHECK (added >= 0)\n           )",
        "CREATE UNIQUE INDEX games_once ON games (profile, seed, styles)",
    ),
    (
        "ALTER TABLE answers ADD COLUMN spot TEXT",
        "CREATE UNIQUE INDEX answers_once ON answers (profile, spot)",
    ),
)

OLD_POSTGRESQL = (
    (
        "CREATE TABLE profiles (\n               token TEXT PRIMARY KEY,\n"
        "               created DOUBLE PRECISION NOT NULL\n           )",
        "CREATE TABLE answers (\n"
        "               id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
        "               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,\n"
        "               ts DOUBLE PRECISION NOT NULL,\n"
        "               kind TEXT NOT NULL CHECK (kind IN ('scenario', 'drill')),\n"
        "               theme TEXT NOT NULL,\n               level INTEGER,\n"
        "               seed BIGINT,\n               action TEXT,\n               best TEXT,\n"
        "               regret DOUBLE PRECISION,\n               estimate DOUBLE PRECISION,\n"
        "               truth DOUBLE PRECISION,\n               outcome INTEGER,\n"
        "               correct INTEGER NOT NULL CHECK (correct IN (0, 1))\n           )",
        "CREATE INDEX answers_by_profile ON answers (profile, id)",
    ),
    (
        "CREATE TABLE ratings (\n"
        "               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,\n"
        "               theme TEXT NOT NULL,\n               rating DOUBLE PRECISION NOT NULL,\n"
        "               deviation DOUBLE PRECISION NOT NULL,\n"
        "               volatility DOUBLE PRECISION NOT NULL,\n"
        "               answers INTEGER NOT NULL,\n"
        "               updated DOUBLE PRECISION NOT NULL,\n"
        "               PRIMARY KEY (profile, theme)\n           )",
    ),
    (
        "CREATE TABLE games (\n"
        "               id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
        "               profile TEXT NOT NULL REFERENCES profiles (token) ON DELETE CASCADE,\n"
        "               ts DOUBLE PRECISION NOT NULL,\n               seed BIGINT NOT NULL,\n"
        "               styles TEXT NOT NULL,\n"
        "               won INTEGER NOT NULL CHECK (won IN (0, 1)),\n"
        "               decisions INTEGER NOT NULL CHECK (decisions >= 0),\n"
        "               added DOUBLE PRECISION NOT NULL CHECK (added >= 0)\n           )",
        "CREATE UNIQUE INDEX games_once ON games (profile, seed, styles)",
    ),
    (
        "ALTER TABLE answers ADD COLUMN spot TEXT",
        "CREATE UNIQUE INDEX answers_once ON answers (profile, spot)",
    ),
)


def make_old_database(url: str, version: int) -> None:
    """What the earlier code left at ``version``: its statements run straight through the
    drivers, the version kept where it kept it (``user_version``, ``schema_versions``)."""
    if url.startswith("postgresql"):
        with psycopg.connect(url) as connection:
            for step in OLD_POSTGRESQL[:version]:
                for statement in step:
                    connection.execute(statement)
            connection.execute(SCHEMA_VERSIONS)
            connection.execute("INSERT INTO schema_versions (store, version) VALUES (%s, %s)",
                               (STORE, version))
        return
    connection = sqlite3.connect(url, isolation_level=None)
    try:
        for step in OLD_SQLITE[:version]:
            for statement in step:
                connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {version}")
    finally:
        connection.close()


# --- the shape of a database, compared from what each database says of itself ---------------


def schema(url: str) -> set[tuple[object, ...]]:
    """The progress store's tables, columns, keys, checks and indexes at ``url``."""
    if url.startswith("postgresql"):
        return _postgresql_schema(url)
    with sqlite3.connect(url) as connection:
        rows = connection.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master "
            "WHERE sql IS NOT NULL AND name != 'schema_versions'").fetchall()
    connection.close()
    return {(kind, name, table, " ".join(text.split())) for kind, name, table, text in rows}


def _postgresql_schema(url: str) -> set[tuple[object, ...]]:
    with psycopg.connect(url) as connection:
        columns = connection.execute(
            "SELECT table_name, ordinal_position, column_name, data_type, is_nullable, "
            "is_identity, identity_generation, column_default FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name != 'schema_versions'").fetchall()
        constraints = connection.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
            "FROM pg_constraint WHERE connamespace = 'public'::regnamespace").fetchall()
        indexes = connection.execute(
            "SELECT tablename, indexname, indexdef FROM pg_indexes "
            "WHERE schemaname = 'public' AND tablename != 'schema_versions'").fetchall()
    return ({("column", *row) for row in columns} | {("constraint", *row) for row in constraints}
            | {("index", *row) for row in indexes})


@pytest.fixture
def another(database_url: str, tmp_path: Path, request: pytest.FixtureRequest
            ) -> Iterator[Callable[[], str]]:
    """More new, empty databases of the kind ``database_url`` is."""
    made = iter(range(1_000))

    def new() -> str:
        if database_url.startswith("postgresql"):
            return postgres.fresh_database(request.getfixturevalue("postgres_server"))
        return str(tmp_path / f"another-{next(made)}.sqlite3")

    yield new
    close_pools()


def test_each_database_has_its_own_statements_for_every_step():
    assert len(SQLITE_MIGRATIONS) == len(POSTGRESQL_MIGRATIONS) == SCHEMA_VERSION == 4
    assert [len(step) for step in SQLITE_MIGRATIONS] == [
        len(step) for step in POSTGRESQL_MIGRATIONS]
    for step in (*SQLITE_MIGRATIONS, *POSTGRESQL_MIGRATIONS):
        assert all(isinstance(statement, str) for statement in step)


def test_a_new_database_has_the_tables_the_earlier_code_made(database_url, another):
    ProgressStore(database_url)
    earlier = another()
    make_old_database(earlier, SCHEMA_VERSION)
    made = schema(database_url)
    assert {row[1] for row in made if row[0] in ("table", "column")} >= {
        "profiles", "answers", "ratings", "games"}
    assert made == schema(earlier)


def test_postgresql_keeps_64_bit_numbers_and_numbers_rows_itself(postgres_server):
    url = postgres.fresh_database(postgres_server)
    ProgressStore(url)
    close_pools()
    columns = {(row[1], row[3]): (row[4], row[6]) for row in schema(url) if row[0] == "column"}
    assert columns["answers", "seed"] == ("bigint", "NO")
    assert columns["answers", "regret"] == ("double precision", "NO")
    assert columns["answers", "id"] == ("bigint", "YES")
    assert columns["ratings", "rating"] == ("double precision", "NO")


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION + 1))
def test_a_database_the_earlier_code_made_opens_and_migrates(database_url, another, version):
    make_old_database(database_url, version)
    with Database.at(database_url).transaction(write=True) as connection:
        connection.execute("INSERT INTO profiles (token, created) VALUES ('old', 0)")
        connection.execute("INSERT INTO answers (profile, ts, kind, theme, level, correct) "
                           "VALUES ('old', 1.5, 'scenario', 'calza', 2, 1)")
    store = ProgressStore(database_url)
    assert [(a.theme, a.timestamp) for a in store.answers("old")] == [("calza", 1.5)]
    assert store.record("old", Answer("drill", "odds", True, level=1, spot="s"))
    assert store.record("old", Answer("drill", "odds", True, level=1, spot="s")) is None
    assert store.record_game("old", GameRecord(7, ("reader",), True, 10, 12.5))
    fresh = another()
    ProgressStore(fresh)
    assert schema(database_url) == schema(fresh)
    if database_url.startswith("postgresql"):
        with Database.at(database_url).transaction() as connection:
            assert connection.execute("SELECT version FROM schema_versions WHERE store = {}",
                                      (STORE,)).fetchone()[0] == SCHEMA_VERSION
    else:
        with sqlite3.connect(database_url) as connection:
            assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        connection.close()


# --- placeholders: the statement's own text is sent as written ------------------------------


def test_each_driver_gets_its_own_placeholder_and_the_rest_as_written():
    statement = "SELECT 'why?' || {}, '50%%' WHERE {} > 0"
    assert render(statement, "sqlite", 2) == "SELECT 'why?' || ?, '50%%' WHERE ? > 0"
    assert render(statement, "postgresql", 2) == "SELECT 'why?' || %s, '50%%' WHERE %s > 0"
    assert render({"sqlite": "A {}", "postgresql": "B {}"}, "postgresql", 1) == "B %s"
    for wrong in ("SELECT {}, {}", "SELECT ?", "SELECT {0}", "SELECT {token}"):
        with pytest.raises(ValueError, match="marks each"):
            render(wrong, "sqlite", 1)


def test_a_question_mark_in_the_sql_is_not_a_parameter(database_url):
    with Database.at(database_url).transaction() as connection:
        row = connection.execute("SELECT 'why?', {}", ("because",)).fetchone()
    close_pools()
    assert tuple(row) == ("why?", "because")


def test_no_store_rewrites_sql_by_replacing_text():
    """``str.replace`` turned one dialect into the other; no store calls it any more."""
    calls = []
    for path in sorted((ROOT / "storage").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("replace", "translate", "sub")):
                calls.append(f"{path.name}:{node.lineno}")
    assert calls == []


# --- ratings: practice computes them, the store keeps the numbers ---------------------------

SEQUENCE = [("drill", "odds", 1, True), ("drill", "odds", 2, False),
            ("scenario", "calza", 2, True), ("scenario", "calza", 3, True),
            ("drill", "odds", 3, True), ("scenario", "bluff", 1, False),
            ("scenario", "calza", 2, False), ("drill", "count", 2, True),
            ("scenario", "bluff", 3, True), ("drill", "odds", 2, True),
            ("scenario", "calza", 1, True), ("drill", "count", 1, False),
            ("drill", "odds", None, True)]
"""A fixed run of answers: kind, theme, level (``None``: rates nothing), right or wrong."""

BEFORE = {  # what the store computed itself for SEQUENCE, at commit f300c55
    "bluff": (1536.660708545602, 252.50351645798423, 0.06000983547019007),
    "calza": (1654.8225478572685, 177.344305949038, 0.060002852959357325),
    "count": (1411.8002182124224, 228.33988852198803, 0.06000547967748373),
    "odds": (1668.1907591260515, 173.28418077709935, 0.06000213963081371),
    OVERALL: (1619.0801671921931, 153.08389817724256, 0.06001131956428966),
}
MOVED_BEFORE = [  # the themes each answer moved, and the overall rating after it
    ({"odds"}, None), ({"odds"}, None),
    ({"calza", OVERALL}, (1675.0688058990286, 248.83346825078291, 0.05999918587886422)),
    ({"calza", OVERALL}, (1800.7666310761488, 203.79822555392263, 0.05999868894730583)),
    ({"odds"}, None),
    ({"bluff", OVERALL}, (1592.9257052682474, 197.28055074940775, 0.0600082011805446)),
    ({"calza", OVERALL}, (1485.5295115741997, 173.84248120344742, 0.06000893083608007)),
    ({"count"}, None),
    ({"bluff", OVERALL}, (1598.3906699605543, 160.9135306029198, 0.06001260930288039)),
    ({"odds"}, None),
    ({"calza", OVERALL}, (1619.0801671921931, 153.08389817724256, 0.06001131956428966)),
    ({"count"}, None), (set(), None),
]


def numbers(rating: Rating) -> tuple[float, float, float]:
    return (rating.rating, rating.deviation, rating.volatility)


def test_practice_computes_the_ratings_the_store_computed():
    ratings: dict[str, Rating] = {}
    for (kind, theme, level, correct), (themes, overall) in zip(SEQUENCE, MOVED_BEFORE,
                                                                strict=True):
        moved = ratings_after(ratings, kind, theme, level, correct)
        assert set(moved) == themes
        if overall is not None:
            assert numbers(moved[OVERALL]) == overall
        ratings.update(moved)
    assert {theme: numbers(rating) for theme, rating in ratings.items()} == BEFORE


def test_the_store_keeps_the_same_ratings_as_before(database_url):
    store = ProgressStore(database_url)
    token = store.create_profile()
    for index, ((kind, theme, level, correct), (themes, overall)) in enumerate(
            zip(SEQUENCE, MOVED_BEFORE, strict=True)):
        moved = store.record(token, Answer(kind=kind, theme=theme, level=level,
                                           correct=correct, timestamp=float(index)))
        assert moved is not None and set(moved) == themes
        if overall is not None:
            assert numbers(moved[OVERALL]) == overall
    kept = {theme: numbers(rating) for theme, rating in store.ratings(token).items()}
    assert kept == BEFORE  # exactly: 64-bit floats on both databases
