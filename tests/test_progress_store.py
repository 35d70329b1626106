"""The progress store: migrations, files it must refuse and leave alone, concurrent
writers, a writer killed mid-write, and the queries behind the charts. What a store does is
tested on SQLite and on a real PostgreSQL alike (the ``database_url`` fixture); what a file
does, on SQLite."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from platformdirs.macos import MacOS
from platformdirs.unix import Unix

from perudo_math import Rules
from practice.drills import generate_drill, grade_drill
from practice.rating import Rating, rate_answer
from practice.scenarios import generate, grade
from storage import sql
from storage.progress import (
    ENV_VAR,
    OVERALL,
    POSTGRESQL_MIGRATIONS,
    SCHEMA_VERSION,
    SQLITE_MIGRATIONS,
    STORE,
    Answer,
    CorruptDatabaseError,
    FutureVersionError,
    GameRecord,
    ProgressStore,
    UnknownProfileError,
    database_path,
    spot_key,
)
from storage.resume import resume_path
from storage.sql import APP_NAME, default_path

DAY = 86_400.0
WRITERS = 20
ANSWERS_EACH = 8


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def answer(seed: int, correct: bool = True, **fields) -> Answer:
    values = {"kind": "scenario", "theme": "calza", "level": 2, "action": "dudo",
              "best": "dudo", "regret": 0.0, **fields}
    return Answer(correct=correct, seed=seed, **values)


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {name for (name,) in rows}


@pytest.fixture
def store(database_url: str) -> ProgressStore:
    return ProgressStore(database_url)


def count_and_check(store: ProgressStore) -> int:
    """How many answers the store holds, after an integrity check of a SQLite file."""
    with store.database.transaction() as connection:
        if store.path is not None:
            assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return int(connection.execute("SELECT COUNT(*) FROM answers").fetchone()[0])


# --- where the file lives ----------------------------------------------------------------


def test_the_path_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "deep" / "er" / "p.sqlite3"))
    store = ProgressStore()
    assert store.path == tmp_path / "deep" / "er" / "p.sqlite3"
    assert store.path.exists()


OLD_FILE = ".local/share/perudo-coach/progress.sqlite3"
MAC_FOLDER = "Library/Application Support/perudo-coach"


@pytest.fixture
def home(monkeypatch, tmp_path) -> Path:
    """A home folder of its own, and neither ``$PERUDO_COACH_DB`` nor ``$XDG_DATA_HOME``."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_the_default_path_is_the_os_folder_for_app_data(home, monkeypatch):
    monkeypatch.setattr(sql, "PlatformDirs", Unix)  # Linux, whatever runs the test
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    assert database_path() == home / "data/perudo-coach/progress.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert database_path() == home / OLD_FILE
    ProgressStore()
    assert (home / OLD_FILE).exists()


def test_on_macos_it_is_application_support(home):
    mac = MacOS(APP_NAME, appauthor=False)
    assert default_path(mac) == home / MAC_FOLDER / "progress.sqlite3"


def test_a_file_at_the_old_place_is_found_where_it_is(home, monkeypatch):
    """An earlier version kept the file in ``~/.local/share`` on every OS: it is used in
    place, the resume file beside it too, until the OS's folder exists; the environment
    still wins."""
    monkeypatch.setattr(sql, "PlatformDirs", MacOS)
    earlier = ProgressStore(home / OLD_FILE)
    token = earlier.create_profile()
    assert database_path() == home / OLD_FILE
    assert resume_path() == home / OLD_FILE.replace("progress", "progress-resume")
    assert ProgressStore().has_profile(token)
    assert not (home / "Library").exists()  # nothing was moved or copied
    monkeypatch.setenv(ENV_VAR, str(home / "chosen.sqlite3"))
    assert database_path() == home / "chosen.sqlite3"
    monkeypatch.delenv(ENV_VAR)
    (home / MAC_FOLDER).mkdir(parents=True)
    assert database_path() == home / MAC_FOLDER / "progress.sqlite3"


# --- migrations ----------------------------------------------------------------------------


def test_a_new_file_gets_every_migration(tmp_path):
    path = tmp_path / "new.sqlite3"
    ProgressStore(path)
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"profiles", "answers", "ratings", "games"} <= tables(path)
    ProgressStore(path)  # opening again changes nothing
    assert len(SQLITE_MIGRATIONS) == len(POSTGRESQL_MIGRATIONS) == SCHEMA_VERSION


def test_an_empty_file_is_a_new_store(tmp_path):
    path = tmp_path / "empty.sqlite3"
    path.touch()
    ProgressStore(path)
    assert "answers" in tables(path)


def test_an_older_file_is_migrated_and_keeps_its_answers(tmp_path):
    path = tmp_path / "v1.sqlite3"
    connection = sqlite3.connect(path, isolation_level=None)
    for statement in SQLITE_MIGRATIONS[0]:
        connection.execute(statement)
    connection.execute("PRAGMA user_version = 1")
    connection.execute("INSERT INTO profiles VALUES ('old-token', 0)")
    connection.execute("INSERT INTO answers (profile, ts, kind, theme, correct) "
                       "VALUES ('old-token', 1.0, 'drill', 'odds', 1)")
    connection.close()
    store = ProgressStore(path)
    assert [a.theme for a in store.answers("old-token")] == ["odds"]
    assert "ratings" in tables(path)
    store.record("old-token", answer(1))
    assert store.rating("old-token", "calza") != Rating()


def test_a_version_2_file_gets_the_games_and_keeps_its_ratings(tmp_path):
    path = tmp_path / "v2.sqlite3"
    connection = sqlite3.connect(path, isolation_level=None)
    for step in SQLITE_MIGRATIONS[:2]:
        for statement in step:
            connection.execute(statement)
    connection.execute("PRAGMA user_version = 2")
    connection.execute("INSERT INTO profiles VALUES ('old-token', 0)")
    connection.close()
    store = ProgressStore(path)
    assert "games" in tables(path) and store.games("old-token") == []
    assert store.record_game("old-token", GameRecord(7, ("reader",), True, 10, 12.5))


def version_3_answers(database_url: str) -> ProgressStore:
    """A store left at version 3 by an older app, with a profile ``old-token`` that answered
    the same spot twice (nothing kept an answer once then), then opened by this app."""
    if database_url.startswith("postgresql"):
        sql.migrate(sql.Database.at(database_url), STORE, POSTGRESQL_MIGRATIONS[:3])
    else:
        sql.migrate_file(sqlite3.connect(database_url, isolation_level=None),
                         SQLITE_MIGRATIONS[:3], ValueError)
    with sql.Database.at(database_url).transaction(write=True) as connection:
        connection.execute("INSERT INTO profiles VALUES ('old-token', 0)")
        for ts in (1.0, 2.0):
            connection.execute("INSERT INTO answers (profile, ts, kind, theme, level, seed, "
                               "correct) VALUES ('old-token', {}, 'scenario', 'calza', 2, 4, 1)",
                               (ts,))
    return ProgressStore(database_url)


def test_a_version_3_store_keeps_its_answers_and_then_keeps_a_spot_once(database_url):
    store = version_3_answers(database_url)
    assert [(a.seed, a.spot) for a in store.answers("old-token")] == [(4, None), (4, None)]
    scenario = generate(4, "calza", 2)
    record = Answer.from_scenario(scenario, grade(scenario, "dudo"))
    assert store.record("old-token", record)
    assert store.record("old-token", record) is None
    assert len(store.answers("old-token")) == 3


# --- an answer to a spot is kept once ----------------------------------------------------------


def test_an_answer_to_a_spot_is_kept_once_and_moves_the_rating_once(store):
    token, other = store.create_profile(), store.create_profile()
    scenario = generate(4, "calza", 2)
    first = Answer.from_scenario(scenario, grade(scenario, "dudo"))
    moved = store.record(token, first)
    assert moved is not None and set(moved) == {"calza", OVERALL}
    again = Answer.from_scenario(scenario, grade(scenario, str(scenario.best)))
    for _ in range(5):  # reruns, a reload, a second tap: the same spot, even answered otherwise
        assert store.record(token, again) is None
    assert [a.action for a in store.answers(token)] == ["dudo"]
    assert store.ratings(token) == moved
    assert store.theme_stats(token)[0].answers == 1
    assert store.record(other, again) is not None  # another profile's answer is its own
    assert len(store.answers(other)) == 1


def test_the_spots_identity_is_what_gives_the_spot_again():
    scenario = generate(4, "calza", 2)
    key = spot_key(scenario)
    assert spot_key(generate(4, "calza", 2)) == key and len(key) == 64
    assert Answer.from_scenario(scenario, grade(scenario, "dudo")).spot == key
    others = [generate(5, "calza", 2), generate(4, "calza", 3),
              generate(4, "calza", 2, Rules(starting_dice=4)),
              replace(scenario, source="1~odds~dudo")]
    assert len({key, *(spot_key(other) for other in others)}) == 5
    drill = generate_drill(2, "odds")
    assert Answer.from_drill(drill, grade_drill(drill, 0.5)).spot is None


def test_answers_without_a_spot_are_each_kept(store):
    token = store.create_profile()
    drill = generate_drill(2, "odds")
    for _ in range(3):
        store.record(token, Answer.from_drill(drill, grade_drill(drill, 0.5)))
    assert len(store.answers(token)) == 3


# --- games against the bots ------------------------------------------------------------------


def test_a_game_is_kept_once_and_counts_for_each_style_it_met(store):
    token = store.create_profile()
    first = GameRecord(1, ("reader", "liar"), True, 20, 40.0, timestamp=10.0)
    again = GameRecord(1, ("reader", "liar"), True, 20, 40.0, timestamp=11.0)
    second = GameRecord(2, ("reader", "reader"), False, 10, 50.0, timestamp=12.0)
    assert store.record_game(token, first)
    assert not store.record_game(token, again)  # a rerun of the end of the same game
    assert store.record_game(token, second)
    assert store.games(token) == [first, second]
    by_style = {row.style: row for row in store.results_by_style(token)}
    assert (by_style["reader"].games, by_style["reader"].wins) == (2, 1)
    assert by_style["reader"].added_per_decision == pytest.approx(90.0 / 30)
    assert (by_style["liar"].games, by_style["liar"].win_rate) == (1, 1.0)
    store.delete_profile(token)
    with pytest.raises(UnknownProfileError):
        store.games(token)


@pytest.mark.parametrize("record", [
    lambda: GameRecord(1, (), True, 1, 0.0),
    lambda: GameRecord(1, ("re ader",), True, 1, 0.0),
    lambda: GameRecord(1, ("odds",), True, -1, 0.0),
    lambda: GameRecord(1, ("odds",), True, 1, float("nan")),
    lambda: GameRecord(1, ("odds",), True, 1, -2.0),
])
def test_a_game_that_cannot_be_is_refused(record):
    with pytest.raises(ValueError):
        record()


# --- files that must be refused and left alone -------------------------------------------


@pytest.mark.parametrize("wal", [False, True])
def test_a_file_from_a_newer_app_is_refused_untouched(tmp_path, wal):
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as connection:
        if wal:
            connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("CREATE TABLE answers (x)")
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    before = digest(path)
    with pytest.raises(FutureVersionError, match="newer"):
        ProgressStore(path)
    assert digest(path) == before
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


@pytest.mark.parametrize("content", [b"not a database at all\n", os.urandom(8192),
                                     b"SQLite format 3\x00" + os.urandom(4080)])
def test_a_garbage_file_is_refused_untouched(tmp_path, content):
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(content)
    with pytest.raises(CorruptDatabaseError, match="untouched"):
        ProgressStore(path)
    assert path.read_bytes() == content


def test_a_store_with_a_damaged_page_is_refused_untouched(tmp_path):
    path = tmp_path / "damaged.sqlite3"
    token = ProgressStore(path).create_profile()
    with sqlite3.connect(path) as connection:
        connection.executemany(
            "INSERT INTO answers (profile, ts, kind, theme, action, correct) "
            "VALUES (?, 0, 'drill', 'odds', ?, 1)", [(token, "x" * 50)] * 300)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # fold the WAL into the file
    connection.close()
    damaged = bytearray(path.read_bytes())
    damaged[2 * 4096 + 100: 3 * 4096] = b"\xff" * (4096 - 100)
    path.write_bytes(bytes(damaged))
    with pytest.raises(CorruptDatabaseError):
        ProgressStore(path)
    assert path.read_bytes() == bytes(damaged)


def test_another_apps_database_is_refused_untouched(tmp_path):
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE recipes (name TEXT)")
    connection.close()
    before = digest(path)
    with pytest.raises(CorruptDatabaseError, match="not a Perudo Coach"):
        ProgressStore(path)
    assert digest(path) == before


# --- profiles and answers --------------------------------------------------------------


def test_profiles_have_unguessable_tokens(store):
    tokens = {store.create_profile() for _ in range(20)}
    assert len(tokens) == 20
    assert all(len(token) >= 22 and store.has_profile(token) for token in tokens)
    assert not store.has_profile("guess")
    assert not any("profiles" in name for name in dir(store))  # nothing lists them
    with pytest.raises(UnknownProfileError):
        store.record("guess", answer(1))
    with pytest.raises(UnknownProfileError):
        store.answers("guess")


def test_answers_come_back_in_order(store):
    token = store.create_profile()
    written = [answer(seed, correct=seed % 2 == 0, timestamp=1000.0 + seed)
               for seed in range(5)]
    for item in written:
        store.record(token, item)
    assert store.answers(token) == written
    assert store.answers(token, limit=2) == written[-2:]


def test_each_answer_moves_its_theme_and_overall_ratings(store):
    token = store.create_profile()
    moved = store.record(token, answer(1, level=3))
    expected = rate_answer(Rating(), 3, True)
    assert moved == {"calza": expected, OVERALL: expected}
    assert store.rating(token) == expected and store.rating(token, "calza") == expected
    drill = store.record(token, Answer("drill", "odds", False, level=1))
    assert set(drill) == {"odds"}
    assert store.rating(token, "odds") == rate_answer(Rating(), 1, False)
    assert store.rating(token) == expected
    assert store.next_level(token) in (1, 2, 3)
    assert store.record(token, Answer("drill", "odds", True)) == {}


def test_a_graded_scenario_and_drill_are_stored(store):
    token = store.create_profile()
    scenario = generate(4, "calza", 2)
    result = grade(scenario, "dudo")
    store.record(token, Answer.from_scenario(scenario, result))
    drill = generate_drill(2, "odds")
    estimate = grade_drill(drill, 0.5)
    store.record(token, Answer.from_drill(drill, estimate))
    first, second = store.answers(token)
    assert (first.kind, first.theme, first.seed, first.action, first.best) == (
        "scenario", "calza", 4, "dudo", str(scenario.best))
    assert first.regret == result.regret and first.correct == result.correct
    assert (second.kind, second.theme, second.estimate, second.truth, second.outcome) == (
        "drill", "odds", 0.5, drill.answer, drill.outcome)


def test_a_profile_can_be_forgotten(store):
    token, other = store.create_profile(), store.create_profile()
    store.record(token, answer(1))
    store.record(other, answer(2))
    store.delete_profile(token)
    assert not store.has_profile(token)
    assert [a.seed for a in store.answers(other)] == [2]


def test_bad_answers_are_refused():
    with pytest.raises(ValueError):
        Answer("quiz", "calza", True)
    with pytest.raises(ValueError):
        Answer("scenario", "calza", True, level=4)
    with pytest.raises(ValueError):
        Answer("scenario", OVERALL, True)


# --- queries for the charts ------------------------------------------------------------


def test_accuracy_and_regret_per_day_and_per_run(store):
    token = store.create_profile()
    start = 1_700_000_000.0  # 2023-11-14 22:13 UTC
    plan = [(0, True, 0.0), (0, False, 0.2), (1, True, 0.0), (2, False, 0.1), (2, False, 0.3)]
    for index, (day, correct, regret) in enumerate(plan):
        store.record(token, answer(index, correct, regret=regret,
                                   timestamp=start + day * DAY + index))
    daily = store.accuracy_over_time(token)
    assert [point.label for point in daily] == ["2023-11-14", "2023-11-15", "2023-11-16"]
    assert [point.answers for point in daily] == [2, 1, 2]
    assert [point.accuracy for point in daily] == [0.5, 1.0, 0.0]
    assert daily[2].mean_regret == pytest.approx(0.2)
    shifted = store.accuracy_over_time(token, utc_offset_minutes=120)
    assert shifted[0].label == "2023-11-15"
    runs = store.accuracy_over_time(token, per=2)
    assert [(p.label, p.answers, p.accuracy) for p in runs] == [
        ("1–2", 2, 0.5), ("3–4", 2, 0.5), ("5–6", 1, 0.0)]
    assert store.accuracy_over_time(token, theme="palifico") == []
    with pytest.raises(ValueError):
        store.accuracy_over_time(token, per=0)


def test_calibration_buckets(store):
    token = store.create_profile()
    rows = [(0.05, 0.10, False), (0.08, 0.02, False), (0.55, 0.50, True), (0.52, 0.60, False),
            (0.95, 0.90, True), (1.0, 0.97, True)]
    for seed, (estimate, truth, outcome) in enumerate(rows):
        store.record(token, Answer("drill", "odds", abs(estimate - truth) <= 0.1, level=1,
                                   seed=seed, estimate=estimate, truth=truth, outcome=outcome))
    store.record(token, answer(99))  # no estimate: not in the buckets
    buckets = store.calibration(token, buckets=10)
    assert [(b.low, b.high, b.answers) for b in buckets] == [
        (0.0, 0.1, 2), (0.5, 0.6, 2), (0.9, 1.0, 2)]
    assert buckets[0].mean_estimate == pytest.approx(0.065)
    assert buckets[1].mean_truth == pytest.approx(0.55)
    assert [b.observed for b in buckets] == [0.0, 0.5, 1.0]


def test_weakest_themes_come_first(store):
    token = store.create_profile()
    plan = {"calza": [True, True, False], "palifico": [False, False, True],
            "endgame": [True, True, True]}
    for theme, results in plan.items():
        for seed, correct in enumerate(results):
            store.record(token, answer(seed, correct, theme=theme, regret=0.0 if correct
                                       else 0.1))
    weakest = store.weakest_themes(token, limit=2)
    assert [row.theme for row in weakest] == ["palifico", "calza"]
    assert weakest[0].accuracy == pytest.approx(1 / 3)
    assert weakest[0].rating == store.rating(token, "palifico")
    assert store.weakest_themes(token, min_answers=4) == []
    assert [row.theme for row in store.weakest_themes(token, limit=3)] == ["palifico", "calza"]


def test_a_theme_answered_right_every_time_is_not_among_the_weakest(store):
    token = store.create_profile()
    for seed in range(3):
        store.record(token, answer(seed, True, theme="endgame"))
    store.record(token, answer(9, True, theme="calza"))
    assert store.weakest_themes(token) == []
    store.record(token, answer(10, False, theme="calza", regret=0.2))
    assert [row.theme for row in store.weakest_themes(token)] == ["calza"]


# --- concurrency and crashes -------------------------------------------------------------


def write_as_one_learner(path: str, index: int) -> tuple[str, list[int]]:
    """One writer: a profile of its own and a few answers with seeds it owns."""
    store = ProgressStore(path)
    token = store.create_profile()
    seeds = [index * 1000 + n for n in range(ANSWERS_EACH)]
    for seed in seeds:
        store.record(token, answer(seed, correct=seed % 3 == 0))
    return token, seeds


def check_every_writer_kept_its_own(path: str, results: list[tuple[str, list[int]]]) -> None:
    store = ProgressStore(path)
    assert len({token for token, _ in results}) == WRITERS
    for token, seeds in results:
        assert [a.seed for a in store.answers(token)] == seeds
        assert store.rating(token, "calza") != Rating()
    assert count_and_check(store) == WRITERS * ANSWERS_EACH


def test_twenty_processes_write_at_once(database_url):
    # the SQLite file and the PostgreSQL tables are created by the writers, all at once
    context = multiprocessing.get_context("fork")
    with context.Pool(WRITERS) as pool:
        results = pool.starmap(write_as_one_learner, [(database_url, n) for n in range(WRITERS)])
    check_every_writer_kept_its_own(database_url, results)


def test_twenty_threads_share_one_store(database_url):
    path = database_url
    ProgressStore(path)
    results: list[tuple[str, list[int]]] = [("", [])] * WRITERS
    failures: list[BaseException] = []

    def work(index: int) -> None:
        try:
            results[index] = write_as_one_learner(str(path), index)
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    check_every_writer_kept_its_own(path, results)


def test_answers_of_one_profile_at_once_each_move_its_rating(store):
    """Eight threads answer for one learner at once: each answer moves the rating from the
    one before it, none from a value another answer already moved (a lost update)."""
    token = store.create_profile()
    each, threads = 5, 8

    def work() -> None:
        for _ in range(each):
            store.record(token, answer(1, correct=True))

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    expected = Rating()
    for _ in range(each * threads):
        expected = rate_answer(expected, 2, True)
    assert store.rating(token, "calza").rating == pytest.approx(expected.rating)
    assert len(store.answers(token)) == each * threads


KILLED_WRITER = """
import sys
from storage.progress import Answer, ProgressStore
store = ProgressStore(sys.argv[1])
token = store.create_profile()
print(token, flush=True)
seed = 0
while True:
    store.record(token, Answer("scenario", "calza", seed % 2 == 0, level=2, seed=seed,
                               action="dudo", best="dudo", regret=0.0))
    print(seed, flush=True)
    seed += 1
"""


def test_a_writer_killed_mid_write_loses_at_most_the_answer_in_flight(database_url):
    path = database_url
    writer = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(path)],
                              stdout=subprocess.PIPE, text=True,
                              cwd=Path(__file__).resolve().parent.parent)
    token = writer.stdout.readline().strip()
    committed = -1
    deadline = time.monotonic() + 30
    while committed < 40 and time.monotonic() < deadline:
        committed = int(writer.stdout.readline())
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    printed = [int(line) for line in writer.stdout.read().split()]
    writer.stdout.close()
    last = max([committed, *printed])  # every printed seed was committed before printing
    store = ProgressStore(path)
    seeds = [a.seed for a in store.answers(token)]
    assert committed >= 40
    assert seeds == list(range(len(seeds)))
    assert last + 1 <= len(seeds) <= last + 2  # at most one committed, not yet printed
    assert count_and_check(store) == len(seeds)
    store.record(token, answer(len(seeds)))  # and the store goes on


def test_a_file_where_a_table_was_shared_first_is_a_new_store(tmp_path):
    """Shared tables live in the same file: sharing a table before any practice made the
    file, and practice must still open it."""
    from storage.sql import Database
    from storage.tables import SharedTables

    path = tmp_path / "progress.sqlite3"
    SharedTables(Database(str(path))).host("g1.code")
    store = ProgressStore(path)
    assert store.has_profile(store.create_profile())
