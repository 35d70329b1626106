"""How fast the app answers: a rerun after a tap on the server, and the first page in a browser.

Run with ``make bench`` (pytest-benchmark; no timed assertion here). Targets: a rerun after a
tap under 100 ms (median), the first page ready in headless Chromium under 3 s.

- ``test_rerun_after_a_tap_new_hand``: AppTest taps a die on a hand it has not seen, so the
  coach, the odds and the charts are computed afresh (``st.cache_data`` misses), as at the
  table. ``..._seen_hand`` taps to a hand already answered (cache hits): the lower bound.
- ``test_first_page_ready``: a fresh browser context (empty HTTP cache) opens the app on
  localhost; the clock stops when the script run is over (``notRunning``) and the title shows.
  It uses the browser tests' app server and their Chromium binary and flags.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.steppers import set_stepper
from tests.benchmarks.conftest import first_page

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "streamlit_app.py"
ROUNDS = 40


def ready_app() -> AppTest:
    """The Odds & advice page, past its first run (imports done), with a bid set."""
    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.context = {"locale": "en-US"}
    at.run()
    set_stepper(at, "odds_dice", 20)
    at.segmented_control(key="odds_qty").set_value(6)
    at.segmented_control(key="odds_face").set_value(5)
    return at.run()


def four_dice_hands() -> list[list[int]]:
    """Every hand of four dice, shuffled: each round taps a fifth die onto a new one."""
    hands = [list(hand) for hand in itertools.combinations_with_replacement(range(1, 7), 4)]
    random.Random(4).shuffle(hands)
    return hands


def test_rerun_after_a_tap_new_hand(benchmark) -> None:
    benchmark.group = "rerun-after-tap"
    at = ready_app()
    hands = iter(four_dice_hands())

    def new_hand() -> None:
        at.session_state["odds_hand"] = next(hands)

    def tap() -> None:
        at.button(key="odds_add_5").click().run()

    benchmark.pedantic(tap, setup=new_hand, rounds=ROUNDS, warmup_rounds=2)
    assert not at.exception
    assert any(m.value.startswith("## ") for m in at.markdown)  # the advice was drawn


def test_rerun_after_a_tap_seen_hand(benchmark) -> None:
    benchmark.group = "rerun-after-tap"
    at = ready_app()

    def same_hand() -> None:
        at.session_state["odds_hand"] = [1, 2, 2, 6]

    def tap() -> None:
        at.button(key="odds_add_5").click().run()

    benchmark.pedantic(tap, setup=same_hand, rounds=ROUNDS, warmup_rounds=2)
    assert not at.exception


@pytest.mark.browser
def test_first_page_ready(benchmark, app_url, chromium_thread) -> None:
    benchmark.group = "first-page"

    benchmark.pedantic(chromium_thread.run, args=(first_page(app_url),), rounds=8,
                       warmup_rounds=1)
