"""One shared table under load and faults (issue 13, point 5), on loopback only.

``make bench-live`` runs it in full: :data:`FOLLOWERS` phones (headless Chromium pages at
390 × 844, each its own browser context) follow one shared table served by two app processes
on one PostgreSQL database, half on each process, as behind a load balancer. The host's moves
are written through the store (what the host's phone does on a tap) and timed until each
follower's screen shows them. ``make test`` runs a small round of every step (a few
followers, a few moves, both faults), which only checks that each still works.

Measured, and printed at the end (also kept in the benchmark's ``extra_info``):

- **update latency**: from the move's commit to the follower's page showing it (a
  MutationObserver in the page stamps the time; the machine's one clock serves both), median
  and p95 over every follower and move;
- **server**: CPU of both app processes over the moves (percent of one core) and their
  memory (resident, the larger of the two, sampled during the moves);
- **errors**: page errors, console errors, exceptions drawn by Streamlit, and updates never
  seen within :data:`UPDATE_TIMEOUT_S` (all must be 0).

Then the faults:

- **an app process killed** (``SIGKILL``) while the table is live: its followers reopen
  the same link on the other process (what a load balancer does) and find the table as it
  stood; the next move reaches every follower and the table holds every move once;
- **PostgreSQL stopped** under the table: every follower says it is reconnecting within
  a few seconds without a touch; once the server is back, that note goes and the next move
  reaches everyone.
"""

from __future__ import annotations

import os
import re
import signal
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Response, expect

from perudo_math import GameState
from storage.sql import Database, close_pools
from storage.tables import SharedTables
from tests import postgres
from tests.benchmarks.conftest import BrowserThread
from tests.browser import conftest as browser
from tests.browser.kit import IDLE, phone_context
from tests.servers import streamlit_app
from views.i18n import translate

FOLLOWERS, MOVES = 20, 12
"""Full run (``make bench-live``): phones following the table, moves timed."""
QUICK_FOLLOWERS, QUICK_MOVES = 4, 2
"""``make test``: enough to run every step once."""
UPDATE_TIMEOUT_S = 10.0
"""A follower that has not shown a move this long after it was recorded counts an error."""
MOVE_GAP_S = 1.0
"""Time between one move reaching everyone and the next, as at a real table (and so each
move is timed from a quiet start)."""
PLAYERS = ("Ann", "Bob", "Cid")
FACE = 5
SEEN_JS = """
() => {
  window.__seen = {};
  window.__expect = null;
  const look = () => {
    const wanted = window.__expect;
    if (wanted === null || window.__seen[wanted] !== undefined) return;
    if (new RegExp(`bid\\\\s+${wanted}\\\\s*×\\\\s*FACE(?!\\\\d)`).test(document.body.innerText)) {
      window.__seen[wanted] = Date.now();
    }
  };
  new MutationObserver(look).observe(document.body,
    {subtree: true, childList: true, characterData: true});
}
""".replace("FACE", str(FACE))
"""Stamps, in ``window.__seen``, when the bid ``window.__expect`` (a quantity of fives) first
shows on the page."""


KNOWN_PROBES = re.compile(r"/game/_stcore/(health|host-config)$")
"""Streamlit's page first asks for these under a deep link's path, then at the root: the
404 is its own fallback, not an error."""


@dataclass
class Follower:
    page: Page
    server: str
    errors: list[str] = field(default_factory=list)
    counting: bool = True
    """Off while its server is killed: a page cut from a dead server complains, rightly."""

    def watch(self) -> None:
        self.page.on("pageerror", lambda error: self._error(f"page: {error}"))
        self.page.on("console", self._console)
        self.page.on("response", self._response)

    def _error(self, text: str) -> None:
        if self.counting:
            self.errors.append(text[:200])

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self._error(f"console: {message.text}")

    def _response(self, response: Response) -> None:
        if response.status >= 400 and not KNOWN_PROBES.search(response.url):
            self._error(f"HTTP {response.status}: {response.url}")

    def open(self, link: str) -> None:
        self.page.goto(link)
        expect(self.page.get_by_text(translate("en", "live.status.follower.host"))
               ).to_be_visible()
        self.page.wait_for_selector(IDLE)
        self.page.evaluate(SEEN_JS)

    def expect_move(self, quantity: int) -> None:
        self.page.evaluate(f"() => {{ window.__expect = {quantity}; }}")

    def seen_at(self, quantity: int) -> float | None:
        stamp = self.page.evaluate(f"() => window.__seen[{quantity}] ?? null")
        return None if stamp is None else stamp / 1000

    def drawn_exceptions(self) -> int:
        return self.page.locator("[data-testid='stException']").count()


class Table:
    """The shared table, written as the host's phone writes it."""

    def __init__(self, url: str) -> None:
        self.tables = SharedTables(Database(url))
        self.game = GameState.new(list(PLAYERS))
        hosted = self.tables.host(self.game.to_code())
        self.host_token, self.follow_token = hosted.host_token, hosted.follow_token
        self.version = 1
        self.quantity = 0

    def link(self, server: str) -> str:
        return f"{server}/game?share={self.follow_token}&lang=en"

    def move(self) -> tuple[int, float]:
        """The next bid (one more five), recorded; its quantity and when it landed."""
        self.quantity += 1
        self.game = self.game.bid(f"{self.quantity}x{FACE}")
        state = self.tables.record(self.host_token, self.version, self.game.to_code())
        self.version = state.version
        return self.quantity, time.time()


class ServerWatch:
    """CPU and memory of the app processes, sampled while the moves are made."""

    def __init__(self, pids: list[int]) -> None:
        self.processes = [psutil.Process(pid) for pid in pids]
        self.peak_rss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            for process in self.processes:
                with suppress(psutil.NoSuchProcess):
                    self.peak_rss = max(self.peak_rss, process.memory_info().rss)

    def __enter__(self) -> ServerWatch:
        self.started = time.monotonic()
        self.cpu_before = sum(sum(p.cpu_times()[:2]) for p in self.processes)
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self.seconds = time.monotonic() - self.started
        self.cpu_seconds = sum(sum(p.cpu_times()[:2]) for p in self.processes) - self.cpu_before


def listening_pid(url: str) -> int:
    port = int(url.rsplit(":", 1)[1])
    for connection in psutil.net_connections("tcp"):
        if connection.laddr and connection.laddr.port == port and connection.status == "LISTEN":
            assert connection.pid is not None
            return connection.pid
    raise AssertionError(f"nothing listens on {port}")


def spread(followers: list[Follower], quantity: int, landed: float,
           timeout_s: float = UPDATE_TIMEOUT_S) -> list[float | None]:
    """Each follower's latency for the move ``quantity`` (``None``: never seen in time)."""
    deadline = time.monotonic() + timeout_s
    latencies: list[float | None] = [None] * len(followers)
    while time.monotonic() < deadline:
        for index, follower in enumerate(followers):
            if latencies[index] is None:
                seen = follower.seen_at(quantity)
                if seen is not None:
                    latencies[index] = max(0.0, seen - landed)
        if all(latency is not None for latency in latencies):
            break
        time.sleep(0.1)  # polling pages that update by themselves; not a timed wait
    return latencies


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


@pytest.fixture(scope="module")
def cluster() -> Iterator[postgres.Cluster]:
    """A PostgreSQL of this benchmark's own: it is stopped and started again mid-run, which
    the server the other tests share must never see."""
    browser._require_chromium()
    with postgres.temporary_cluster() as started:
        yield started
    close_pools()


@dataclass
class LiveRun:
    """One run: the shared table, its followers on the two app processes (``servers``,
    listening as ``pids``), the figures measured, each step a method run in Chromium's
    thread. ``stack`` closes what the run opens."""

    table: Table
    servers: list[str]
    pids: list[int]
    stack: ExitStack
    chromium_thread: BrowserThread
    cluster: postgres.Cluster
    count: int
    moves: int
    followers: list[Follower] = field(default_factory=list)
    latencies: list[float | None] = field(default_factory=list)
    figures: dict[str, float] = field(default_factory=dict)

    def open_followers(self, chromium: Browser) -> None:
        for index in range(self.count):
            context = phone_context(chromium)
            self.stack.callback(self.chromium_thread.run,
                                lambda _, context=context: context.close())
            follower = Follower(context.new_page(), self.servers[index % 2])
            follower.watch()
            follower.open(self.table.link(follower.server))
            self.followers.append(follower)

    def one_move(self) -> list[float | None]:
        time.sleep(MOVE_GAP_S)
        quantity = self.table.quantity + 1
        for follower in self.followers:
            follower.expect_move(quantity)
        moved, landed = self.table.move()
        return spread(self.followers, moved, landed)

    def moves_under_watch(self, _: Browser) -> None:
        with ServerWatch(self.pids) as watch:
            for _ in range(self.moves):
                self.latencies.extend(self.one_move())
        self.figures["cpu_percent_of_a_core"] = 100 * watch.cpu_seconds / watch.seconds
        self.figures["peak_rss_mb"] = watch.peak_rss / 2**20

    def count_latencies(self) -> None:
        seen = [latency for latency in self.latencies if latency is not None]
        self.figures["updates"] = len(self.latencies)
        self.figures["missed"] = len(self.latencies) - len(seen)
        self.figures["median_s"] = statistics.median(seen)
        self.figures["p95_s"] = p95(seen)
        self.figures["max_s"] = max(seen)

    def kill_a_process(self, _: Browser) -> None:
        """The second process is killed; its followers reopen the link on the first."""
        moved = [f for f in self.followers if f.server == self.servers[1]]
        for follower in moved:
            follower.counting = False
        os.kill(self.pids[1], signal.SIGKILL)
        started = time.monotonic()
        for follower in moved:
            follower.server = self.servers[0]
            follower.open(self.table.link(self.servers[0]))
            follower.counting = True
            expect(follower.page.get_by_text(
                re.compile(rf"bid\s+{self.table.quantity}\s*×\s*{FACE}"))).to_be_visible()
        self.figures["reopen_after_kill_s"] = (time.monotonic() - started) / max(1, len(moved))
        self.figures["missed_after_kill"] = sum(latency is None for latency in self.one_move())

    def restart_the_database(self, _: Browser) -> None:
        """PostgreSQL stopped under the table, then started again."""
        reconnecting = translate("en", "live.offline")
        self.cluster.stop()
        started = time.monotonic()
        for follower in self.followers:
            expect(follower.page.get_by_text(reconnecting)).to_be_visible(timeout=15_000)
        self.figures["reconnecting_shown_s"] = time.monotonic() - started
        self.cluster.start()
        started = time.monotonic()
        for follower in self.followers:
            expect(follower.page.get_by_text(reconnecting)).to_be_hidden(timeout=15_000)
        self.figures["recovered_s"] = time.monotonic() - started
        self.figures["missed_after_restart"] = sum(
            latency is None for latency in self.one_move())

    def errors(self) -> list[str]:
        errors = [error for follower in self.followers for error in follower.errors]
        return errors + self.chromium_thread.run(lambda _: [
            f"{n} exceptions drawn" for f in self.followers if (n := f.drawn_exceptions())])


def test_twenty_followers_and_two_faults(benchmark, capsys, cluster: postgres.Cluster,
                                         chromium_thread: BrowserThread,
                                         tmp_path: Path) -> None:
    benchmark.group = "live-table"
    full = not benchmark.disabled
    count, moves = (FOLLOWERS, MOVES) if full else (QUICK_FOLLOWERS, QUICK_MOVES)
    url = postgres.fresh_database(cluster.url)
    env = dict(os.environ, PERUDO_COACH_DB=url)

    with ExitStack() as stack:
        servers = [stack.enter_context(streamlit_app(tmp_path, env)) for _ in range(2)]
        run = LiveRun(Table(url), servers, [listening_pid(server) for server in servers],
                      stack, chromium_thread, cluster, count, moves)
        chromium_thread.run(run.open_followers)
        benchmark.pedantic(chromium_thread.run, args=(run.moves_under_watch,), rounds=1,
                           iterations=1)
        run.count_latencies()
        chromium_thread.run(run.kill_a_process)
        chromium_thread.run(run.restart_the_database)
        stored = SharedTables(Database(url)).open(run.table.follow_token)
        assert GameState.from_code(stored.game) == run.table.game  # every move, once
        assert stored.version == moves + 3
        errors = run.errors()
        figures = run.figures
        figures["errors"] = len(errors)

    figures["followers"] = count
    benchmark.extra_info.update(figures)
    with capsys.disabled():
        print(f"\nShared table, {count} followers on 2 app processes, {moves} moves:")
        for name, value in figures.items():
            print(f"  {name:>24}: {value:.3f}" if isinstance(value, float)
                  else f"  {name:>24}: {value}")
    assert errors == [], errors[:5]
    assert figures["missed"] == figures["missed_after_kill"] == 0
    assert figures["missed_after_restart"] == 0
