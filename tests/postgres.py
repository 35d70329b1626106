"""A real PostgreSQL server for the store tests.

``$PERUDO_COACH_TEST_PG`` (a ``postgresql://`` URL, which ``.ci/run`` exports after starting
its own server) is used as it is. Otherwise a throwaway cluster is created in a temporary
folder and served on loopback for the test session (``initdb`` and ``pg_ctl`` from the PATH
or Debian's ``/usr/lib/postgresql/*/bin``; as root, run as the ``postgres`` user). Without a
server the PostgreSQL tests skip on a workstation and fail under ``CI``.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

URL_VAR = "PERUDO_COACH_TEST_PG"
USER = "perudo"


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def unavailable(reason: str) -> None:
    """Skip on a workstation; under CI a missing server is a failure."""
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL tests must run in CI: {reason}")
    pytest.skip(reason)


@dataclass(frozen=True)
class Cluster:
    """A throwaway PostgreSQL cluster this test session started (and may stop or restart)."""

    url: str
    data: Path
    pg_ctl: str
    prefix: tuple[str, ...]
    options: str
    log: Path

    def stop(self) -> None:
        """Stop the server at once (``-m fast``: sessions are cut, as in a crash)."""
        subprocess.run([*self.prefix, self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w",
                        "stop"], check=True, capture_output=True)

    def start(self) -> None:
        """Start it again on the same port, waiting until it accepts connections."""
        subprocess.run([*self.prefix, self.pg_ctl, "-D", str(self.data), "-o", self.options,
                        "-l", str(self.log), "-w", "start"], check=True, capture_output=True)


@contextmanager
def temporary_cluster() -> Iterator[Cluster]:
    """A new PostgreSQL cluster in a temporary folder, served on a free loopback port (its
    socket in that folder too). Stopped and removed afterwards."""
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        unavailable("no PostgreSQL server binaries (initdb, pg_ctl)")
    assert initdb is not None and pg_ctl is not None
    prefix: tuple[str, ...] = ()
    folder = Path(tempfile.mkdtemp(prefix="perudo-pg-"))
    if os.geteuid() == 0:  # initdb refuses root: run the server as the postgres user
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            unavailable("running as root without a postgres user")
        prefix = ("runuser", "-u", "postgres", "--")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    data, port = folder / "data", _free_port()
    try:
        subprocess.run([*prefix, initdb, "-D", str(data), "-U", USER, "--auth=trust",
                        "--no-sync", "-E", "UTF8"], check=True, capture_output=True)
        cluster = Cluster(
            url=f"postgresql://{USER}@127.0.0.1:{port}/postgres", data=data, pg_ctl=pg_ctl,
            prefix=prefix, log=folder / "server.log",
            options=f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off")
        cluster.start()
        try:
            yield cluster
        finally:
            subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
                           capture_output=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def server() -> Iterator[str]:
    """The URL of a PostgreSQL server for this test session."""
    given = os.environ.get(URL_VAR)
    if given:
        yield given
        return
    with temporary_cluster() as cluster:
        yield cluster.url


def fresh_database(url: str) -> str:
    """A new, empty database on the server at ``url`` (each test its own); its URL."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + f"/{name}"
