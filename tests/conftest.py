"""Settings shared by every test."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

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
