"""Settings shared by every test."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from storage.sql import close_pools
from tests import postgres

# The machine is shared: a property test may wait for a core. Correctness, not timing.
settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")


@pytest.fixture(scope="session", autouse=True)
def throwaway_progress_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test writes practice progress to the user's real file."""
    before = os.environ.get("PERUDO_COACH_DB")
    path = tmp_path_factory.mktemp("progress") / "progress.sqlite3"
    os.environ["PERUDO_COACH_DB"] = str(path)
    yield
    if before is None:
        os.environ.pop("PERUDO_COACH_DB", None)
    else:
        os.environ["PERUDO_COACH_DB"] = before


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A real PostgreSQL server for this test session (see ``tests.postgres``)."""
    with postgres.server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """Where a store test keeps its data: a new SQLite file, then a new PostgreSQL database
    (the same suite runs against both)."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.sqlite3")
        return
    yield postgres.fresh_database(request.getfixturevalue("postgres_server"))
    close_pools()  # each test's database has its own pool: release its connections
