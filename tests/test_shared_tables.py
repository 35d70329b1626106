"""The shared-table store (issue 13), the same suite on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import threading

import pytest

import storage.tables as tables_module
from storage.sql import Database, FutureSchemaError, migrate
from storage.tables import (
    HostedTable,
    Role,
    SharedTableError,
    SharedTables,
    TableNotFound,
    VersionConflict,
    WriteNotAllowed,
)


@pytest.fixture
def database(database_url: str) -> Database:
    return Database(database_url)


@pytest.fixture
def tables(database: Database) -> SharedTables:
    return SharedTables(database)


def test_a_hosted_table_opens_for_the_host_and_its_followers(tables: SharedTables) -> None:
    hosted = tables.host("g1.code")
    host, follower = tables.open(hosted.host_token), tables.open(hosted.follow_token)
    assert (host.game, host.version, host.role, host.may_write) == ("g1.code", 1, Role.HOST,
                                                                     True)
    assert (follower.game, follower.role, follower.may_write) == ("g1.code", Role.FOLLOWER,
                                                                   False)
    assert len(hosted.host_token) == len(hosted.follow_token) == 32  # 192 random bits each
    assert hosted.host_token != hosted.follow_token


def test_only_the_host_writes_until_everyone_may(tables: SharedTables) -> None:
    hosted = tables.host("g1.a")
    with pytest.raises(WriteNotAllowed):
        tables.record(hosted.follow_token, 1, "g1.b")
    assert tables.open(hosted.follow_token).version == 1  # nothing landed
    with pytest.raises(WriteNotAllowed):
        tables.let_everyone_write(hosted.follow_token, True)  # a follower cannot promote itself
    tables.let_everyone_write(hosted.host_token, True)
    moved = tables.record(hosted.follow_token, 1, "g1.b")
    assert (moved.version, tables.open(hosted.host_token).game) == (2, "g1.b")
    tables.let_everyone_write(hosted.host_token, False)
    with pytest.raises(WriteNotAllowed):
        tables.record(hosted.follow_token, 2, "g1.c")


def test_a_write_over_a_stale_version_is_refused_with_the_table_as_it_stands(
        tables: SharedTables) -> None:
    hosted = tables.host("g1.a", everyone_writes=True)
    tables.record(hosted.host_token, 1, "g1.b")
    with pytest.raises(VersionConflict) as refused:
        tables.record(hosted.follow_token, 1, "g1.other")
    assert (refused.value.table.version, refused.value.table.game) == (2, "g1.b")
    assert tables.open(hosted.host_token).game == "g1.b"


def test_two_phones_recording_at_once_never_both_land(tables: SharedTables) -> None:
    """Eight phones record a move each over the same version, again and again: each round
    exactly one lands, the others are told; no move is lost or written twice."""
    hosted = tables.host("g1.0", everyone_writes=True)
    tokens = [hosted.host_token, *[hosted.follow_token] * 7]
    for round_number in range(1, 6):
        seen = tables.open(hosted.host_token).version
        barrier, landed, refused = threading.Barrier(len(tokens)), [], []

        def phone(index: int, token: str, seen: int = seen, barrier=barrier, landed=landed,
                  refused=refused, move: int = round_number) -> None:
            barrier.wait()
            try:
                landed.append(tables.record(token, seen, f"g1.{move}.{index}"))
            except VersionConflict as conflict:
                refused.append(conflict.table.version)

        threads = [threading.Thread(target=phone, args=(i, token))
                   for i, token in enumerate(tokens)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(landed) == 1 and len(refused) == len(tokens) - 1
        now = tables.open(hosted.follow_token)
        assert now.version == seen + 1 == landed[0].version
        assert now.game == landed[0].game
        assert set(refused) == {seen + 1}


def test_a_follower_who_read_before_the_host_stopped_everyone_writing_cannot_write(
        tables: SharedTables, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's "only me" lands between a follower's read and its write (PostgreSQL lets
    a read see the row as it was): the write itself checks, and nothing lands."""
    hosted = tables.host("g1.a", everyone_writes=True)
    stale = tables.open(hosted.follow_token)  # may write, as the follower read it
    tables.let_everyone_write(hosted.host_token, False)
    real_read = SharedTables._read
    reads = iter([stale])
    monkeypatch.setattr(SharedTables, "_read",
                        lambda self, connection, key: next(reads, None)
                        or real_read(self, connection, key))
    with pytest.raises(WriteNotAllowed):
        tables.record(hosted.follow_token, 1, "g1.b")
    monkeypatch.undo()
    assert tables.open(hosted.host_token).game == "g1.a"


def test_idle_tables_expire(database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's clock is the test's: the table is read just inside its idle time, and gone
    just past it, however long the machine takes between the two."""
    now_ms = [1_000_000_000]
    monkeypatch.setattr(tables_module, "_now_ms", lambda: now_ms[0])
    quick = SharedTables(database, idle_expiry_s=0.2)
    hosted = quick.host("g1.a")
    now_ms[0] += 200
    assert quick.open(hosted.follow_token).game == "g1.a"
    assert quick.forget_idle() == 0
    now_ms[0] += 1
    with pytest.raises(TableNotFound):
        quick.open(hosted.follow_token)
    assert quick.forget_idle() == 1


@pytest.mark.parametrize(("token", "lookups"), [("", 0), ("x", 0), ("A" * 32, 2),
                                                ("A" * 31 + "!", 0), ("é" * 32, 0),
                                                ("A" * 10_000, 0)])
def test_a_token_that_opens_nothing_is_not_found_cheaply(
        tables: SharedTables, monkeypatch: pytest.MonkeyPatch, token: str, lookups: int) -> None:
    """Counted, not timed: a token of the wrong shape never reaches the database; one of the
    right shape costs one indexed lookup for the open and one for the write."""
    tables.host("g1.a")
    real_read = SharedTables._read
    reads: list[str] = []

    def counted_read(self: SharedTables, connection, key: str):
        reads.append(key)
        return real_read(self, connection, key)

    monkeypatch.setattr(SharedTables, "_read", counted_read)
    with pytest.raises(TableNotFound):
        tables.open(token)
    with pytest.raises(TableNotFound):
        tables.record(token, 1, "g1.b")
    assert len(reads) == lookups


def test_a_game_code_out_of_bounds_is_refused(tables: SharedTables) -> None:
    for game in ("", "x" * 8_001):
        with pytest.raises(SharedTableError, match="game code"):
            tables.host(game)


def test_the_database_keeps_no_token(database: Database, tables: SharedTables) -> None:
    hosted: HostedTable = tables.host("g1.a")
    with database.transaction() as connection:
        rows = connection.execute("SELECT host_key, follow_key FROM shared_tables").fetchall()
    stored = " ".join(" ".join(row) for row in rows)
    assert hosted.host_token not in stored and hosted.follow_token not in stored


def test_migrations_run_once_and_a_newer_schema_is_refused(database: Database) -> None:
    SharedTables(database)
    SharedTables(database)  # a second process starting: nothing to do
    with database.transaction(write=True) as connection:
        connection.execute("UPDATE schema_versions SET version = 99 WHERE store = {}",
                           ("shared_tables",))
    with pytest.raises(FutureSchemaError, match="newer"):
        SharedTables(database)


def test_migrations_apply_in_order_on_both_databases(database: Database) -> None:
    steps = (("CREATE TABLE demo (id INTEGER PRIMARY KEY)",),
             ({"sqlite": "ALTER TABLE demo ADD COLUMN note TEXT",
               "postgresql": "ALTER TABLE demo ADD COLUMN note TEXT"},))
    assert migrate(database, "demo", steps[:1]) == 1
    assert migrate(database, "demo", steps) == 2
    with database.transaction(write=True) as connection:
        connection.execute("INSERT INTO demo (id, note) VALUES ({}, {})", (1, "two"))
        assert connection.execute("SELECT note FROM demo").fetchone()[0] == "two"
