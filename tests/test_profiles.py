"""storage.profiles: the token format, the store at $PERUDO_COACH_DB, store failures classified."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage.profiles import (
    STORE_ERRORS,
    StoreProblem,
    is_well_formed,
    open_store,
    parse_token,
    problem_of,
    store_path,
)
from storage.progress import CorruptDatabaseError, FutureVersionError, UnknownProfileError


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "progress.sqlite3"
    monkeypatch.setenv("PERUDO_COACH_DB", str(path))
    return path


def test_a_new_profile_has_a_well_formed_token(db: Path) -> None:
    token = open_store().create_profile()
    assert is_well_formed(token) and parse_token(token) == token


@pytest.mark.parametrize("text", ["", "short", "A" * 15, "A" * 65, "<script>alert(1)</script>",
                                  "A" * 21 + "²", "A" * 21 + " ", "1" * 100_000])
def test_anything_else_is_not_a_token(text: str) -> None:
    assert not is_well_formed(text)
    with pytest.raises(ValueError, match="not a profile token"):
        parse_token(text)


def test_the_store_lives_at_the_environment_path(db: Path) -> None:
    assert store_path() == db
    open_store().create_profile()
    assert db.exists()


def test_future_and_damaged_files_are_refused_untouched(db: Path) -> None:
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA user_version = 99")
    connection.commit()
    connection.close()
    with pytest.raises(FutureVersionError) as future:
        open_store()
    assert problem_of(future.value) is StoreProblem.FUTURE
    db.write_bytes(b"not a database" * 200)
    with pytest.raises(CorruptDatabaseError) as damaged:
        open_store()
    assert problem_of(damaged.value) is StoreProblem.CORRUPT


@pytest.mark.parametrize("error", [OSError("disk full"), sqlite3.OperationalError("locked"),
                                   UnknownProfileError("gone")])
def test_other_store_failures_make_it_unavailable(error: Exception) -> None:
    assert isinstance(error, STORE_ERRORS)
    assert problem_of(error) is StoreProblem.UNAVAILABLE


def test_a_bug_is_not_a_store_failure() -> None:
    assert problem_of(KeyError("oops")) is None
    assert problem_of(ValueError("oops")) is None
