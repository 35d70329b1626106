"""The value of a die: the game-win chance of :mod:`coach.engine.stakes` against a closed form
heads-up and a brute-force walk over every order of losers on small tables."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coach.engine import stakes
from coach.engine.stakes import after, win_chance


def heads_up(mine: int, theirs: int) -> Fraction:
    """P(I win) when each round costs one of us a die, each alike: they lose their last die
    at round theirs + j, having taken j < mine of mine (the problem of points)."""
    return sum((Fraction(comb(theirs - 1 + j, j), 2 ** (theirs + j)) for j in range(mine)),
               Fraction(0))


@cache
def walk(dice: tuple[int, ...], me: int) -> Fraction:
    """Every seat in its place (nothing sorted): the average over which active seat loses."""
    if dice[me] == 0:
        return Fraction(0)
    active = [seat for seat, count in enumerate(dice) if count]
    if len(active) == 1:
        return Fraction(1)
    return sum((walk(after(dice, seat, -1), me) for seat in active),
               Fraction(0)) / len(active)


@pytest.mark.parametrize(("mine", "theirs"), [(a, b) for a in range(1, 6) for b in range(1, 6)])
def test_heads_up_is_the_problem_of_points(mine, theirs):
    assert win_chance((mine, theirs), 0) == pytest.approx(float(heads_up(mine, theirs)),
                                                          abs=1e-12)


@given(st.lists(st.integers(0, 3), min_size=2, max_size=4), st.data())
def test_small_tables_match_the_walk_over_every_order_of_losers(dice, data):
    dice = tuple(dice)
    me = data.draw(st.integers(0, len(dice) - 1))
    assert win_chance(dice, me) == pytest.approx(float(walk(dice, me)), abs=1e-12)


@pytest.mark.parametrize("dice", [(5, 5, 5, 5, 5, 5), (1, 5, 2, 4, 3), (3, 3, 0, 1)])
def test_the_chances_of_every_player_add_up_to_one(dice):
    active = [seat for seat, count in enumerate(dice) if count]
    assert sum(win_chance(dice, seat) for seat in active) == pytest.approx(1.0, abs=1e-12)


def test_big_tables_use_the_share_model_and_it_adds_up_to_one():
    dice = (10,) * 10
    assert stakes._state_count(10, dice[1:]) > stakes.MAX_STATES
    chances = [win_chance(dice, seat) for seat in range(10)]
    assert chances == pytest.approx([0.1] * 10)
    uneven = (10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
    assert sum(win_chance(uneven, seat) for seat in range(10)) == pytest.approx(1.0)
    assert win_chance(uneven, 0) > win_chance(uneven, 9)


def test_out_of_dice_loses_and_alone_wins():
    assert win_chance((0, 3), 0) == 0.0
    assert win_chance((2, 0, 0), 0) == 1.0
    with pytest.raises(ValueError):
        win_chance((1, 1), 2)
