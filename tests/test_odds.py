"""Exact odds against brute-force enumeration, published values and docs/RULES.md."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement, pairwise

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo_math import Bid, Hand, odds, odds_table
from tests.brute_force import table_distribution

HANDS = [(), (1,), (3,), (1, 1), (2, 5), (1, 4, 4), (6, 6, 6, 1), (1, 2, 3, 4, 5)]


def _close(value: float, exact: Fraction) -> bool:
    return abs(value - float(exact)) <= 1e-15


@pytest.mark.parametrize("palifico", [False, True], ids=["normal", "palifico"])
@pytest.mark.parametrize("unknown", range(7))
@pytest.mark.parametrize("hand", HANDS, ids=str)
def test_every_bid_matches_brute_force(hand: tuple[int, ...], unknown: int, palifico: bool):
    dice = len(hand) + unknown
    if dice == 0:
        return
    table = odds_table(hand, dice, palifico=palifico)
    for face in range(1, 7):
        exact = table_distribution(hand, dice, face, palifico)
        for quantity in range(1, dice + 2):
            result = odds(Bid(quantity, face), hand, dice, palifico=palifico)
            at_least = sum(exact[quantity:], Fraction(0))
            assert _close(result.at_least, at_least), (face, quantity)
            assert _close(result.exactly, exact[quantity] if quantity <= dice else Fraction(0))
            if quantity <= dice:
                assert _close(table[face - 1, quantity], at_least)
        assert all(_close(p, e) for p, e in zip(result.distribution, exact, strict=True))
        assert _close(result.expected, sum(k * p for k, p in enumerate(exact)))
        assert table[face - 1, 0] == 1.0


def test_every_hand_of_three_in_a_table_of_six_matches_brute_force():
    for hand in combinations_with_replacement(range(1, 7), 3):
        for palifico in (False, True):
            for face in range(1, 7):
                exact = table_distribution(hand, 6, face, palifico)
                got = odds(Bid(1, face), hand, 6, palifico=palifico).distribution
                assert np.allclose(got, [float(p) for p in exact], rtol=0, atol=1e-15)


@pytest.mark.parametrize(
    ("bid", "expected"),
    [("5x4", 0.790760), ("5x5", 0.920643), ("6x3", 0.595935), ("3xP", 0.740378)],
)
def test_published_perudo_stats_values(bid: str, expected: float):
    assert odds(bid, [1, 2, 2, 5, 6], 20).at_least == pytest.approx(expected, abs=5e-7)


def test_rules_worked_fact_two_fives_among_four_unknown():
    exact = 1 - Fraction(2, 3) ** 4 - 4 * Fraction(1, 3) * Fraction(2, 3) ** 3
    assert exact == Fraction(11, 27)
    assert odds("2x5", [], 4).at_least == pytest.approx(float(exact), abs=1e-15)


def test_one_unknown_die_matches_with_a_third_or_a_sixth():
    assert odds("1x5", [], 1).at_least == pytest.approx(1 / 3)
    assert odds("1xP", [], 1).at_least == pytest.approx(1 / 6)
    assert odds("1x5", [], 1, palifico=True).at_least == pytest.approx(1 / 6)


def test_pacos_are_jokers_only_in_normal_rounds():
    assert odds("3x5", [1, 1, 5], 3).at_least == 1.0
    assert odds("3x5", [1, 1, 5], 3, palifico=True).at_least == 0.0
    assert odds("2xP", [1, 1, 5], 3, palifico=True).exactly == 1.0


def test_a_bid_above_the_table_is_certainly_false():
    result = odds("21x4", [1, 2], 20)
    assert (result.at_least, result.exactly) == (0.0, 0.0)


def test_results_are_read_only():
    result = odds("5x4", [1, 2], 20)
    with pytest.raises(ValueError, match="read-only"):
        result.distribution[0] = 1.0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("5x4", [7], 20), "a die shows 1 \\(paco\\) to 6, not 7"),
        (("5x4", [1, 2, 3], 2), "your hand has 3 dice but the table only 2"),
        (("5x4", [], 0), "at least one die"),
        (("5x4", [], 101), "at most 100"),
        (("0x4", [], 5), "cannot read bid|at least 1"),
        (("5x9", [], 5), "cannot read bid"),
    ],
)
def test_bad_input_raises_value_error_with_a_precise_message(args, message):
    with pytest.raises(ValueError, match=message):
        odds(*args)


hands = st.lists(st.integers(1, 6), max_size=6).map(Hand)


@given(hand=hands, extra=st.integers(0, 40), face=st.integers(1, 6), palifico=st.booleans())
def test_probability_properties(hand: Hand, extra: int, face: int, palifico: bool):
    dice = max(1, len(hand) + extra)
    chances = [odds(Bid(q, face), hand, dice, palifico).at_least for q in range(1, dice + 2)]
    assert all(0.0 <= p <= 1.0 for p in chances)
    assert all(a >= b for a, b in pairwise(chances))
    distribution = odds(Bid(1, face), hand, dice, palifico).distribution
    assert distribution.sum() == pytest.approx(1.0, abs=1e-12)
    for q in range(1, dice + 1):
        result = odds(Bid(q, face), hand, dice, palifico)
        assert chances[q - 1] - chances[q] == pytest.approx(result.exactly, abs=1e-12)


@given(hand=hands, extra=st.integers(0, 60), palifico=st.booleans())
def test_table_rows_agree_with_single_bids(hand: Hand, extra: int, palifico: bool):
    dice = max(1, len(hand) + extra)
    table = odds_table(hand, dice, palifico)
    assert table.shape == (6, dice + 1)
    for face in range(1, 7):
        for quantity in {1, dice // 2 or 1, dice}:
            single = odds(Bid(quantity, face), hand, dice, palifico).at_least
            assert table[face - 1, quantity] == single
