"""No valid game costs more than a normal one by much (issue 31, point 1): the longest round
the limits allow beside a normal spot, in one run (``make bench``; no timed assertion).

The issue's round (``tests/long_round.py``): ten players holding ten dice, the any-face rule,
2,999 smallest legal raises (a game of ``MAX_MOVES`` moves with its dudo), past the table
from bid 501 on. Beside it, its useful range alone (500 bids, the last 100 × 6: the most a
round reads at the largest table, the player to act facing a bid still possible) and a
normal spot at the same table (one bid a player). Every figure starts from cold caches.

- **advice**: ``coach.advise`` for the player to act; the peak of memory it held
  (tracemalloc) is in ``extra_info``. Target: within 50 ms and 20 MB of the normal spot.
- **review**: ``coach.review`` of seat 9's decisions in the finished round, as
  ``coach review --game CODE --seat 9 --hand 1:…`` does, beside a normal round's. Target:
  the longest game within 2 s.
- **odds page**: the tap of the tenth die on ``/bid-odds?game=CODE&me=9`` (the coach's
  advice and charts on a new hand), and **practice link**: ``/train?review=…`` on seat 9's
  last decision of the finished round, each one script run of the app (AppTest). Target:
  0.5 s of server time.

Four such practice links at once beside a fifth session's page load are measured in the
browser (``test_page_load_beside_four``), and four links of a normal round beside it, for
what four busy browsers cost the measuring one whatever the round: target, within 1.5× the
idle load.
"""

from __future__ import annotations

import contextlib
import threading
import time
import tracemalloc
from collections.abc import Callable
from urllib.parse import quote

import pytest
from streamlit.testing.v1 import AppTest

from coach import Situation, advise
from coach.engine import decide
from coach.engine.beliefs import clear_caches
from coach.review import move_outcomes, review, tracked_decisions
from perudo_math import MAX_MOVES, GameState, Hand
from tests.app.conftest import ENTRY
from tests.benchmarks.test_bench_app import BrowserThread, first_page
from tests.browser import conftest as browser
from tests.browser.conftest import app_url  # noqa: F401 (the browser tests' app server)
from tests.browser.kit import IDLE, PHONE
from tests.long_round import finished_long_round, long_round
from views import charts, engine_cache, practice_view

HAND = Hand([1, 2, 2, 3, 4, 4, 5, 5, 6, 6])
FACES = HAND.faces
ME = 9
SPOTS = {"normal": 9, "useful-range": 500, "issue-round": MAX_MOVES - 1}
"""How many bids of the issue's round each spot holds (seat 9 to act after the first)."""


def forget_everything() -> None:
    """Every cache of the coach and the app's engine: each figure starts cold."""
    clear_caches()
    decide._LAST_BELIEFS.clear()
    for cached in (engine_cache.cached_odds, engine_cache.cached_advice,
                   engine_cache.cached_read_odds, engine_cache.cached_count_shift,
                   engine_cache.cached_raise_grid, engine_cache.cached_smallest_raises,
                   charts.cached_distribution_html,
                   charts.cached_read_distribution_html, charts.cached_raise_html):
        cached.cache_clear()
    practice_view.cached_game_scenario.clear()


def spot(bids: int) -> Situation:
    game = long_round(bids)
    assert game.turn is not None
    return game.situation(game.turn, HAND)


def peak_bytes(work: Callable[[], object]) -> int:
    forget_everything()
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", SPOTS)
def test_advice(benchmark, name: str) -> None:
    benchmark.group = "long-round-advice"
    situation = spot(SPOTS[name])
    benchmark.extra_info["bids"] = len(situation.bids)
    benchmark.extra_info["peak_mb"] = round(peak_bytes(lambda: advise(situation)) / 1e6, 2)
    advice = benchmark.pedantic(advise, args=(situation,), setup=forget_everything, rounds=5)
    assert advice.options


def finished(bids: int) -> GameState:
    return finished_long_round(bids, count=min(30, bids))


@pytest.mark.parametrize("bids", [SPOTS["normal"] + 10, MAX_MOVES - 1],
                         ids=["normal-round", "longest-game"])
def test_review(benchmark, bids: int) -> None:
    benchmark.group = "long-round-review"
    game = finished(bids)
    hands = {1: HAND}

    def reviewed() -> int:
        decisions = tracked_decisions(game, ME, hands)
        return len(review(decisions, outcomes=move_outcomes(game, ME, hands)).moves)

    benchmark.extra_info["moves"] = len(game.history)
    benchmark.extra_info["peak_mb"] = round(peak_bytes(reviewed) / 1e6, 2)
    assert benchmark.pedantic(reviewed, setup=forget_everything, rounds=3) > 0


def odds_page_before_the_last_die(code: str) -> AppTest:
    """The odds page of the game ``code`` for seat 9, nine of its ten dice tapped."""
    at = AppTest.from_file(ENTRY, default_timeout=120)
    at.context = {"locale": "en-US"}
    at.query_params.update(game=code, me=str(ME))
    at.run()
    at.switch_page("app_pages/odds.py").run()
    for face in FACES[:-1]:
        at.button(key=f"odds_add_{face}").click().run()
    assert not at.exception, [error.message for error in at.exception]
    return at


@pytest.mark.parametrize("name", ["normal", "issue-round"])
def test_odds_page_tap_of_the_tenth_die(benchmark, name: str) -> None:
    benchmark.group = "long-round-odds-page"
    code = long_round(SPOTS[name]).to_code()
    AppTest.from_file(ENTRY, default_timeout=120).run()  # imports done, as on a server

    def ready() -> tuple[tuple[AppTest], dict]:
        at = odds_page_before_the_last_die(code)
        forget_everything()
        return (at,), {}

    def tap(at: AppTest) -> AppTest:
        return at.button(key=f"odds_add_{FACES[-1]}").click().run()

    at = benchmark.pedantic(tap, setup=ready, rounds=3)
    assert not at.exception, [error.message for error in at.exception]


def practice_link(game: GameState, decision: int) -> str:
    return practice_view.tracked_spot(game, ME, 1, HAND, decision)


@pytest.mark.parametrize("bids", [SPOTS["normal"] + 10, MAX_MOVES - 1],
                         ids=["normal", "issue-round"])
def test_practice_link(benchmark, bids: int) -> None:
    benchmark.group = "long-round-practice-link"
    game = finished(bids)
    link = practice_link(game, len(tracked_decisions(game, ME, {1: HAND})) - 1)
    AppTest.from_file(ENTRY, default_timeout=120).run()

    def ready() -> tuple[tuple[AppTest], dict]:
        at = AppTest.from_file(ENTRY, default_timeout=120)
        at.context = {"locale": "en-US"}
        at.query_params.update(review=link)
        forget_everything()
        return (at,), {}

    def open_link(at: AppTest) -> AppTest:
        at.run()
        return at.switch_page("app_pages/practice.py").run()

    at = benchmark.pedantic(open_link, setup=ready, rounds=3)
    assert not at.exception, [error.message for error in at.exception]


# --- four sessions on the longest game beside a fifth, in the browser -------------------------


def four_practice_links(url: str, stop: threading.Event, loads: list[int],
                        bids: int = MAX_MOVES - 1) -> Callable:
    """A job for a browser thread: four sessions open a practice link of a game whose one
    round holds ``bids`` bids (the longest game by default) at once, again and again, each
    time on other decisions (each a spot not asked before)."""
    game = finished(bids)
    decisions = len(tracked_decisions(game, ME, {1: HAND}))

    def job(chromium) -> None:
        decision = decisions - 1
        while not stop.is_set():
            contexts = [chromium.new_context(viewport=PHONE, locale="en-US") for _ in range(4)]
            try:
                pages = [context.new_page() for context in contexts]
                for page in pages:
                    link = quote(practice_link(game, decision), safe="~")
                    page.goto(f"{url}/train?review={link}", wait_until="commit")
                    decision = (decision - 37) % decisions
                for page in pages:
                    page.wait_for_selector(IDLE, timeout=60_000)
                loads[0] += len(pages)
            finally:
                for context in contexts:
                    context.close()

    return job


@pytest.fixture(scope="module")
def browsers():
    browser._require_chromium()
    measuring, busy = BrowserThread(), BrowserThread()
    try:
        yield measuring, busy
    finally:
        measuring.close()
        busy.close()


@pytest.mark.browser
def test_page_load_idle(benchmark, app_url, browsers) -> None:  # noqa: F811
    benchmark.group = "page-load-beside-four-long-rounds"
    measuring, _ = browsers
    benchmark.pedantic(measuring.run, args=(first_page(app_url),), rounds=8, warmup_rounds=1)


@pytest.mark.browser
@pytest.mark.parametrize("bids", [SPOTS["normal"] + 10, MAX_MOVES - 1],
                         ids=["normal-rounds", "long-rounds"])
def test_page_load_beside_four(benchmark, app_url, browsers, bids: int) -> None:  # noqa: F811
    """Beside four sessions opening practice links: of the longest game, and of a normal
    round (what four busy browsers cost the measuring one on this machine, whatever the
    round)."""
    benchmark.group = "page-load-beside-four-long-rounds"
    measuring, busy = browsers
    stop, loads = threading.Event(), [0]
    runner = threading.Thread(target=busy.run,
                              args=(four_practice_links(app_url, stop, loads, bids),),
                              daemon=True)
    runner.start()
    deadline = time.monotonic() + 120
    while loads[0] == 0 and runner.is_alive() and time.monotonic() < deadline:
        time.sleep(0.1)  # measure only once the four sessions are at work
    assert loads[0] > 0, "the four sessions never loaded their links"
    try:
        benchmark.pedantic(measuring.run, args=(first_page(app_url),), rounds=8, warmup_rounds=1)
    finally:
        stop.set()
        with contextlib.suppress(RuntimeError):
            runner.join(timeout=180)
    benchmark.extra_info["busy_loads"] = loads[0]
