"""Issue 31, point 7: during a PostgreSQL outage the connection pool logged about five lines a
second (each attempt to connect, for each store call of each polling page). An outage is now
logged once when it starts and once when it ends (storage.sql.OutageLog)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from storage.sql import POOL_LOGGER, Database, DatabaseError, OutageLog, close_pools
from tests import postgres

FAILED = "error connecting in %r: %s"
GAVE_UP = "reconnection attempt in pool %r failed after %s sec"


@pytest.fixture
def outages() -> Iterator[OutageLog]:
    """A fresh outage log on the pool's logger, alone there for this test."""
    log = OutageLog()
    logger = logging.getLogger(POOL_LOGGER)
    installed = list(logger.filters)
    logger.filters = [log]
    try:
        yield log
    finally:
        logger.filters = installed


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    return [(record.name, record.getMessage()) for record in caplog.records
            if record.levelno >= logging.WARNING]


def test_many_failures_make_one_line_and_the_end_another(
        outages: OutageLog, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    pool = logging.getLogger(POOL_LOGGER)
    for _ in range(50):
        pool.warning(FAILED, "perudo-coach-1", "connection refused")
        pool.warning(GAVE_UP, "perudo-coach-1", 0)
        pool.warning("discarding closed connection: %s", "<connection>")
    logged = warnings_of(caplog)
    assert [name for name, _ in logged] == ["storage.sql"]
    assert "cannot be reached (connection refused)" in logged[0][1]
    outages.ended("perudo-coach-1")
    outages.ended("perudo-coach-1")  # the end is said once too
    assert [message for _, message in warnings_of(caplog)[1:]] == [
        "PostgreSQL answers again, after 0 s unreachable"]
    pool.warning("discarding closed connection: %s", "<connection>")  # outside an outage
    assert len(warnings_of(caplog)) == 3


def test_another_pools_records_pass(outages: OutageLog,
                                    caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    for _ in range(3):
        logging.getLogger(POOL_LOGGER).warning(FAILED, "pool-1", "refused")
    assert [name for name, _ in warnings_of(caplog)] == [POOL_LOGGER] * 3


def test_a_real_outage_is_logged_once_at_its_start_and_once_at_its_end(
        caplog: pytest.LogCaptureFixture) -> None:
    with postgres.temporary_cluster() as cluster:
        database = Database(cluster.url)

        def select() -> bool:
            try:
                with database.transaction() as connection:
                    connection.execute("SELECT 1")
            except DatabaseError:
                return False
            return True

        try:
            assert select()
            caplog.set_level(logging.WARNING)
            cluster.stop()
            assert not any(select() for _ in range(12))
            during = warnings_of(caplog)
            cluster.start()
            assert all(select() for _ in range(3))
        finally:
            close_pools()
    assert [name for name, _ in during] == ["storage.sql"], during
    assert "PostgreSQL cannot be reached" in during[0][1]
    after = warnings_of(caplog)[len(during):]
    assert [name for name, _ in after] == ["storage.sql"], after
    assert after[0][1].startswith("PostgreSQL answers again")
