"""Bounded work for a game link (``make bench``; no timed assertion).

Targets (issue 15): any game code decoded or refused under 50 ms; the tracker showing the
longest accepted game under 1 s. The crafted code is the one of the issue: two players and
a die lost then won back by a right calza, repeated up to the longest game and beyond.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from perudo_math import MAX_ROUNDS, GameState
from perudo_math.game import DamagedGameCode
from tests.app.conftest import ENTRY
from tests.test_game_limits import CYCLE_ROUNDS, crafted

LONGEST = MAX_ROUNDS // CYCLE_ROUNDS


@pytest.mark.parametrize("cycles", [1, LONGEST // 4, LONGEST])
def test_decode_a_crafted_code(benchmark, cycles: int) -> None:
    benchmark.group = "game-code"
    code = crafted(cycles)
    game = benchmark(GameState.from_code, code)
    assert len(game.results) == cycles * CYCLE_ROUNDS


@pytest.mark.parametrize("cycles", [LONGEST + 1, 20_000])
def test_refuse_a_crafted_code(benchmark, cycles: int) -> None:
    benchmark.group = "game-code"
    code = crafted(cycles)

    def refuse() -> None:
        with pytest.raises(DamagedGameCode):
            GameState.from_code(code)

    benchmark(refuse)


def test_tracker_shows_the_longest_game(benchmark) -> None:
    benchmark.group = "tracker-longest-game"
    code = GameState.from_code(crafted(LONGEST)).to_code()
    warm = AppTest.from_file(ENTRY, default_timeout=60)
    warm.run()  # imports done once, as on a running server

    def open_game() -> AppTest:
        at = AppTest.from_file(ENTRY, default_timeout=60)
        at.query_params["game"] = code
        at.run()
        at.switch_page("app_pages/tracker.py").run()
        return at

    at = benchmark.pedantic(open_game, rounds=5)
    assert not at.exception


def test_advise_on_the_longest_round(benchmark) -> None:
    """Advice on a round of the most bids a situation accepts (the coach reads bids as
    spoken, house rules and all), cold caches: well under a second."""
    from coach import Situation, advise
    from coach.engine.beliefs import clear_caches
    from perudo_math import MAX_MOVES, Bid, Hand, Rules

    benchmark.group = "advise-longest-round"
    bids = tuple((1 + k % 5, Bid(min(1 + k // 6, 30), 2 + k % 5)) for k in range(MAX_MOVES))
    spot = Situation(Rules(), (5,) * 6, 0, Hand([1, 2, 3, 4, 5]), bids)
    advice = benchmark.pedantic(advise, args=(spot,), setup=clear_caches, rounds=5)
    assert advice.options
