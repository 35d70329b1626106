"""The odds engine side by side with scipy's binomial survival function.

Run with ``make bench``. Each group compares our call with the per-bid scipy loop
it replaces; "cold" clears the engine's caches before every round.
"""

from __future__ import annotations

import pytest
from scipy.stats import binom

from perudo_math import Bid, odds, odds_table
from perudo_math.probability import clear_caches

HAND = (1, 2, 2, 5, 6)


def scipy_table(hand: tuple[int, ...], dice: int) -> list[list[float]]:
    """The (6, dice + 1) table one bid at a time with ``binom.sf``, pacos wild."""
    unknown = dice - len(hand)
    rows = []
    for face in range(1, 7):
        own = sum(d == face or (face != 1 and d == 1) for d in hand)
        p = 1 / 6 if face == 1 else 1 / 3
        rows.append([float(binom.sf(q - own - 1, unknown, p)) for q in range(dice + 1)])
    return rows


@pytest.mark.parametrize("dice", [30, 60])
def test_table_scipy_loop(benchmark, dice):
    benchmark.group = f"table-{dice}"
    benchmark(scipy_table, HAND, dice)


@pytest.mark.parametrize("dice", [30, 60])
def test_table_engine(benchmark, dice):
    benchmark.group = f"table-{dice}"
    table = benchmark(odds_table, HAND, dice)
    assert table[3, 5] == pytest.approx(scipy_table(HAND, dice)[3][5], abs=1e-12)


@pytest.mark.parametrize("dice", [30, 60])
def test_table_engine_cold(benchmark, dice):
    benchmark.group = f"table-{dice}"
    benchmark.pedantic(odds_table, args=(HAND, dice), setup=clear_caches, rounds=200)


def test_single_scipy(benchmark):
    benchmark.group = "single-bid-20"
    benchmark(binom.sf, 3, 15, 1 / 3)


def test_single_engine(benchmark):
    benchmark.group = "single-bid-20"
    bid = Bid(5, 4)
    result = benchmark(odds, bid, HAND, 20)
    assert result.at_least == pytest.approx(float(binom.sf(3, 15, 1 / 3)), abs=1e-12)


def test_single_engine_cold(benchmark):
    benchmark.group = "single-bid-20"
    benchmark.pedantic(odds, args=(Bid(5, 4), HAND, 20), setup=clear_caches, rounds=500)
