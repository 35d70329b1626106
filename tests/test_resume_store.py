"""The resume store: one record per device token, found only by that token, kept a week, bounded
in number and size, never holding a usable token, surviving a restart; a value that is not a
token is refused before the file is touched. The same suite on SQLite and PostgreSQL."""

from __future__ import annotations

import base64
import hashlib
import sqlite3
import string
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage import resume as resume_module
from storage.resume import (
    KEEP_FOR_S,
    MAX_STATE_LENGTH,
    FutureResumeFileError,
    ResumeStore,
    is_device_token,
    new_device_token,
    resume_location,
    resume_path,
    seal,
    unseal,
)

NOW = 1_700_000_000.0
HOSTILE = ["", "short", "A" * 65, "x" * 100_000, "²" * 22, "' OR 1=1 --aaaaaaaaaaaaa",
           "../../../../etc/passwd_aaaa", "a" * 22 + "\n", None, 12345, b"a" * 22]


@pytest.fixture
def store(database_url: str) -> Iterator[ResumeStore]:
    store = ResumeStore(database_url)
    yield store
    store.close()


def sqlite_only(store: ResumeStore) -> Path:
    if store.path is None:
        pytest.skip("a SQLite file's own behaviour")
    return store.path


def test_a_state_comes_back_to_its_device_only(store: ResumeStore) -> None:
    mine, other = new_device_token(), new_device_token()
    store.save(mine, "game=g1.abc&me=1", now=NOW)
    assert store.load(mine, now=NOW) == "game=g1.abc&me=1"
    assert store.load(other, now=NOW) is None
    store.save(mine, "game=g1.def", now=NOW + 1)  # the device's latest state replaces it
    assert store.load(mine, now=NOW + 1) == "game=g1.def"
    assert store.count() == 1


def test_forget(store: ResumeStore) -> None:
    mine, other = new_device_token(), new_device_token()
    store.save(mine, "a", now=NOW)
    store.save(other, "b", now=NOW)
    store.forget(mine)
    assert store.load(mine, now=NOW) is None
    assert store.load(other, now=NOW) == "b"


def test_tokens_are_long_random_and_url_safe() -> None:
    tokens = {new_device_token() for _ in range(1000)}
    assert len(tokens) == 1000
    assert all(is_device_token(token) and len(token) == 22 for token in tokens)


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_token_is_refused_before_the_file(store: ResumeStore, value,
                                                    monkeypatch) -> None:
    monkeypatch.setattr(ResumeStore, "_connection", lambda self, **_: pytest.fail("file touched"))
    assert not is_device_token(value)
    assert store.load(value) is None
    store.forget(value)
    with pytest.raises(ValueError, match="not a device token"):
        store.save(value, "game=g1.abc")


def test_a_state_is_bounded(store: ResumeStore) -> None:
    token = new_device_token()
    for state in ("", "x" * (MAX_STATE_LENGTH + 1), None):
        with pytest.raises(ValueError, match="a state is"):
            store.save(token, state)  # type: ignore[arg-type]
    store.save(token, "x" * MAX_STATE_LENGTH)


def test_a_record_expires_a_week_after_its_last_save(store: ResumeStore) -> None:
    old, fresh = new_device_token(), new_device_token()
    store.save(old, "old", now=NOW)
    assert store.load(old, now=NOW + KEEP_FOR_S) == "old"
    assert store.load(old, now=NOW + KEEP_FOR_S + 1) is None
    assert store.count() == 1  # not returned, not yet deleted
    store.save(fresh, "fresh", now=NOW + KEEP_FOR_S + 1)  # the next save deletes it
    assert store.count() == 1
    assert store.load(fresh, now=NOW + KEEP_FOR_S + 1) == "fresh"


def test_a_flood_of_tokens_keeps_only_the_newest(store: ResumeStore, monkeypatch) -> None:
    monkeypatch.setattr(resume_module, "MAX_DEVICES", 5)
    tokens = [new_device_token() for _ in range(12)]
    for index, token in enumerate(tokens):
        store.save(token, f"state {index}", now=NOW + index)
    assert store.count() == 5
    assert [store.load(token, now=NOW + 20) for token in tokens[-5:]] == [
        f"state {index}" for index in range(7, 12)]
    assert all(store.load(token, now=NOW + 20) is None for token in tokens[:7])


def test_the_file_holds_no_usable_token(store: ResumeStore) -> None:
    token = new_device_token()
    store.save(token, "game=g1.abc", now=NOW)
    store.save(new_device_token(), "game=g1.def", now=NOW)
    with store.database.transaction() as connection:
        rows = connection.execute("SELECT device, state FROM resume_games").fetchall()
    assert hashlib.sha256(token.encode()).hexdigest() in [key for key, _ in rows]
    assert not any(token in key or token in state for key, state in rows)
    if store.path is not None:
        assert token.encode() not in b"".join(
            path.read_bytes() for path in store.path.parent.iterdir() if path.is_file())


def test_a_record_survives_a_restart(tmp_path: Path) -> None:
    token = new_device_token()
    ResumeStore(tmp_path / "resume.sqlite3").save(token, "game=g1.abc")
    assert ResumeStore(tmp_path / "resume.sqlite3").load(token) == "game=g1.abc"


def test_a_file_from_a_newer_app_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "resume.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA user_version = 99")
    before = path.read_bytes()
    with pytest.raises(FutureResumeFileError, match="newer"):
        ResumeStore(path)
    assert path.read_bytes() == before


def test_a_damaged_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "resume.sqlite3"
    path.write_bytes(b"not a database at all" * 100)
    with pytest.raises(sqlite3.DatabaseError):
        ResumeStore(path)


def test_concurrent_saves_all_land(store: ResumeStore) -> None:
    """The server's threads share the store; a second store (another server process on the
    same file) shares the file."""
    neighbour = ResumeStore(store.database)
    tokens = [new_device_token() for _ in range(8)]

    def play(index: int, token: str) -> None:
        for move in range(20):
            (store if index % 2 else neighbour).save(token, f"move {move}")

    threads = [threading.Thread(target=play, args=pair) for pair in enumerate(tokens)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [store.load(token) for token in tokens] == ["move 19"] * len(tokens)
    assert [neighbour.load(token) for token in tokens] == ["move 19"] * len(tokens)
    neighbour.close()


def test_a_save_does_not_checkpoint_the_log(store: ResumeStore) -> None:
    """Every move of a tracked game saves, so a save only appends to the write-ahead log: a
    connection closed after each call checkpointed and deleted the log every time (30 ms a
    move on this machine, against 0.1 ms)."""
    path = sqlite_only(store)
    log = path.with_name(path.name + "-wal")
    token = new_device_token()
    sizes = []
    for move in range(3):
        store.save(token, f"game=g1.{'x' * 300}&move={move}")
        sizes.append(log.stat().st_size)
    assert sizes == sorted(sizes) and sizes[0] > 0


def test_the_file_sits_beside_the_progress_file(tmp_path: Path, monkeypatch) -> None:
    assert resume_path(tmp_path / "progress.sqlite3") == tmp_path / "progress-resume.sqlite3"
    monkeypatch.setenv("PERUDO_COACH_DB", str(tmp_path / "other.db"))
    assert resume_path() == tmp_path / "other-resume.db"


def test_with_postgresql_the_records_share_its_database(monkeypatch) -> None:
    url = "postgresql://coach@db.example/perudo"
    monkeypatch.setenv("PERUDO_COACH_DB", url)
    assert resume_location().url == url
    with pytest.raises(ValueError, match="PostgreSQL"):
        resume_path()


def test_a_file_of_the_first_version_is_migrated_with_its_records(tmp_path: Path) -> None:
    path = tmp_path / "resume.sqlite3"
    token = new_device_token()
    with sqlite3.connect(path) as connection:
        for statement in resume_module.SQLITE_MIGRATIONS[0]:
            connection.execute(statement)
        connection.execute("INSERT INTO games VALUES (?, 'game=g1.old', ?)",
                           (hashlib.sha256(token.encode()).hexdigest(), NOW))
        connection.execute("PRAGMA user_version = 1")
    assert ResumeStore(path).load(token, now=NOW) == "game=g1.old"


TABLE, DEVICE, OTHER = "A" * 32, "d" * 22, "e" * 22


def test_a_seal_opens_only_with_its_device_token() -> None:
    sealed = seal(TABLE, DEVICE)
    assert sealed.startswith(resume_module.SEAL_PREFIX) and TABLE not in sealed
    assert unseal(sealed, DEVICE) == TABLE
    assert seal(TABLE, DEVICE) == sealed  # the same record text: saved only when it changed
    assert seal(TABLE, OTHER) != sealed
    with pytest.raises(ValueError, match="does not open"):
        unseal(sealed, OTHER)
    for bad in ("", "x", "A" * 31 + "!", None):
        with pytest.raises(ValueError):
            seal(bad, DEVICE)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            unseal(bad, DEVICE)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        unseal(sealed, "short")


def test_a_seal_altered_by_one_bit_or_one_character_does_not_open() -> None:
    sealed = seal(TABLE, DEVICE)
    prefix, body = sealed[:3], sealed[3:]
    raw = base64.urlsafe_b64decode(body + "==")
    for index in range(len(raw)):
        for bit in range(8):
            altered = bytearray(raw)
            altered[index] ^= 1 << bit
            text = base64.urlsafe_b64encode(bytes(altered)).decode().rstrip("=")
            with pytest.raises(ValueError, match="does not open"):
                unseal(prefix + text, DEVICE)
    alphabet = string.ascii_letters + string.digits + "-_"
    for index in range(len(body)):  # the last character's spare bits included
        for other in alphabet.replace(body[index], ""):
            with pytest.raises(ValueError):
                unseal(prefix + body[:index] + other + body[index + 1:], DEVICE)


def test_a_code_sealed_the_first_way_still_opens() -> None:
    """What the first seal (XOR with a SHA-256 of the token) wrote before issue 29: records
    up to a week old hold such codes."""
    assert unseal("SGXyMca9Cs-ogGkZ7orkTksSRLmpQ8o7", DEVICE) == TABLE
    assert unseal("vW8DPUVJGz9ADmv3Z5TKXp1dPWM36M5X", "Dev1ce-token_of-22chab") \
        == "tEsT" + "x" * 28
