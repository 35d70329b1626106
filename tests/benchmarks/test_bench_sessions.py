"""One session never starves the others (issue 15): a page's load time, idle and while another
session keeps the server on the largest spot the app accepts (``make bench``; no timed
assertion). Target: beside the busy session, within 1.5x the idle time.

The busy session follows a tracked game of ten players holding ten dice each, a long round
of bids, and taps dice into its hand again and again: every tap makes the coach advise on
a new hand (cache misses) and redraw the charts.
"""

from __future__ import annotations

import contextlib
import threading
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from perudo_math import Bid, BidMade, GameState
from tests.benchmarks.conftest import first_page
from tests.browser.kit import IDLE, PHONE

NAMES = [f"P{seat}" for seat in range(10)]


def largest_spot() -> str:
    """A ten-player, hundred-dice game with a round of 18 bids, me to act."""
    game = GameState.new(NAMES)
    game = game.replay([BidMade(None, Bid(quantity, 4))
                        for quantity in range(2, 20)])  # every player bids fours
    return game.to_code()


def tap(page, selector: str) -> None:
    """Tap, then wait for the run it starts to end: one busy session, not a flood of taps."""
    page.locator(selector).click()
    with contextlib.suppress(PlaywrightTimeout):  # the run ended before the first check
        page.wait_for_function(f"document.querySelector({IDLE!r}) === null", timeout=1_000)
    page.wait_for_selector(IDLE)


def keep_busy(url: str, stop: threading.Event, taps: list[int]):
    def job(chromium) -> None:
        context = chromium.new_context(viewport=PHONE, locale="en-US")
        try:
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector(IDLE)
            face = 0
            while not stop.is_set():
                face = face % 6 + 1
                tap(page, f".st-key-odds_add_{face} button")
                taps[0] += 1
                if taps[0] % 9 == 0:
                    tap(page, ".st-key-odds_clear button")
        finally:
            context.close()
    return job


def test_page_load_idle(benchmark, app_url, two_browsers) -> None:
    benchmark.group = "page-load-beside-the-largest-spot"
    measuring, _ = two_browsers
    benchmark.pedantic(measuring.run, args=(first_page(app_url),), rounds=8, warmup_rounds=1)


def test_page_load_beside_the_largest_spot(benchmark, app_url, two_browsers) -> None:
    benchmark.group = "page-load-beside-the-largest-spot"
    measuring, busy = two_browsers
    stop, taps = threading.Event(), [0]
    runner = threading.Thread(
        target=busy.run, args=(keep_busy(f"{app_url}/bid-odds?game={largest_spot()}&me=0",
                                         stop, taps),), daemon=True)
    runner.start()
    deadline = time.monotonic() + 90
    while taps[0] == 0 and runner.is_alive() and time.monotonic() < deadline:
        time.sleep(0.1)  # measure only once the busy session is at work
    assert taps[0] > 0, "the busy session never tapped"
    try:
        benchmark.pedantic(measuring.run, args=(first_page(app_url),), rounds=8, warmup_rounds=1)
    finally:
        stop.set()
        runner.join(timeout=120)
    benchmark.extra_info["busy_taps"] = taps[0]
