"""The coach's speed, side by side with the coach it replaced (commit 6988a3a's advise).

Run with ``make bench``. Issue 10 asks for one advise with a full round for six players
under 20 ms median on one core, cold caches included, and for the arena to play at least
500 five-player games a minute on one core with the coach as hero. "cold" clears every
cache of the engine before each round; the arena groups time one whole game each.
"""

from __future__ import annotations

import random

import pytest

from coach import CoachSettings, Situation, advise
from coach.engine.beliefs import PURE_ODDS, clear_caches
from coach.play.arena import play_game
from coach.play.bots import BUILTIN_BOTS
from perudo_math import Bid, Hand, Rules

SIX_PLAYERS = Situation(
    Rules(), (5, 5, 5, 5, 5, 5), 0, Hand([1, 2, 4, 4, 6]),
    tuple((seat, Bid.parse(bid)) for seat, bid in [
        (1, "3x4"), (2, "4x4"), (3, "5x4"), (4, "6x5"), (5, "7x5")]),
)
"""A full round: every other player has bid once, and it is my turn again."""


def test_advise_six_players_cold(benchmark):
    benchmark.group = "advise-6-players"
    advice = benchmark.pedantic(advise, args=(SIX_PLAYERS,), setup=clear_caches, rounds=200)
    assert advice.options


def test_advise_six_players_warm(benchmark):
    benchmark.group = "advise-6-players"
    benchmark(advise, SIX_PLAYERS)


def test_advise_six_players_pure_odds(benchmark):
    benchmark.group = "advise-6-players"
    benchmark(advise, SIX_PLAYERS, CoachSettings(reading=PURE_ODDS))


def _five_player_game(hero: str, opponents: str, seed: int) -> int:
    factories = [BUILTIN_BOTS[hero]] + [BUILTIN_BOTS[opponents]] * 4
    return play_game(factories, Rules(), random.Random(seed))


@pytest.mark.parametrize("opponents", ["probability", "coach"])
def test_arena_five_players_coach_hero(benchmark, opponents):
    """One five-player game, the coach in seat 0: 500 games a minute is 120 ms a game."""
    benchmark.group = "arena-5-players"
    seeds = iter(range(10**6))
    winner = benchmark.pedantic(lambda: _five_player_game("coach", opponents, next(seeds)),
                                rounds=30)
    assert 0 <= winner < 5


def test_arena_five_players_probability_only(benchmark):
    """The arena's own cost: five `probability` bots, the cheapest reasonable players."""
    benchmark.group = "arena-5-players"
    seeds = iter(range(10**6))
    benchmark.pedantic(lambda: _five_player_game("probability", "probability", next(seeds)),
                       rounds=30)
