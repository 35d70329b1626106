"""Exact odds of bids: the distribution of the matching count on the table.

Unknown dice are independent and uniform on 1–6. A die matches a bid on face
2–6 with probability 1/3 in a normal round (the face or a paco) and 1/6 in a
palifico round; it matches a paco bid with probability 1/6.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from perudo_math.bid import FACES, PACO, Bid
from perudo_math.hand import Hand, as_hand
from perudo_math.limits import MAX_TABLE_DICE


@dataclass(frozen=True, slots=True, eq=False)
class Odds:
    """The exact odds of one bid, seen from one player's hand.

    ``distribution[k]`` is P(exactly k dice on the whole table match the bid),
    own dice included, for k = 0 .. table dice.
    """

    bid: Bid
    palifico: bool
    unknown_dice: int
    own_matches: int
    at_least: float
    """P(the bid is true): at least ``bid.quantity`` matching dice."""
    exactly: float
    """P(a calza is right): exactly ``bid.quantity`` matching dice."""
    expected: float
    """The expected number of matching dice on the table."""
    distribution: np.ndarray


def odds(
    bid: Bid | str,
    hand: Hand | Iterable[int],
    dice: int,
    palifico: bool = False,
) -> Odds:
    """The exact odds of ``bid`` for a player holding ``hand`` at a table of ``dice`` dice."""
    bid = Bid.parse(bid) if isinstance(bid, str) else bid
    hand = as_hand(hand)
    unknown = _unknown_dice(hand, dice)
    own = hand.count(bid.face, palifico=palifico)
    third = _is_third(bid.face, palifico)
    distribution = _shifted_pmf(unknown, own, dice, third)
    q = bid.quantity
    return Odds(
        bid=bid,
        palifico=bool(palifico),
        unknown_dice=unknown,
        own_matches=own,
        at_least=float(_shifted_survival(unknown, own, dice, third)[q]) if q <= dice else 0.0,
        exactly=float(distribution[q]) if q <= dice else 0.0,
        expected=own + unknown * (1 / 3 if third else 1 / 6),
        distribution=distribution,
    )


def odds_table(hand: Hand | Iterable[int], dice: int, palifico: bool = False) -> np.ndarray:
    """P(at least q dice show f) as an array of shape (6, dice + 1): row f − 1, column q."""
    hand = as_hand(hand)
    unknown = _unknown_dice(hand, dice)
    table = np.empty((6, dice + 1))
    for face in FACES:
        own = hand.count(face, palifico=palifico)
        table[face - 1] = _shifted_survival(unknown, own, dice, _is_third(face, palifico))
    return table


def count_distribution(unknown_dice: int, face: int, palifico: bool = False) -> np.ndarray:
    """P(exactly k of ``unknown_dice`` unknown dice count toward ``face``), k = 0 .. n."""
    _check_unknown(unknown_dice)
    return _pmf(unknown_dice, _is_third(face, palifico))


def count_survival(unknown_dice: int, face: int, palifico: bool = False) -> np.ndarray:
    """P(at least k of ``unknown_dice`` unknown dice count toward ``face``), k = 0 .. n."""
    _check_unknown(unknown_dice)
    return _survival(unknown_dice, _is_third(face, palifico))


def _check_unknown(unknown_dice: int) -> None:
    if isinstance(unknown_dice, bool) or not isinstance(unknown_dice, int):
        raise ValueError(f"a number of dice must be a whole number, not {unknown_dice!r}")
    if not 0 <= unknown_dice <= MAX_TABLE_DICE:
        raise ValueError(f"a number of dice must be from 0 to {MAX_TABLE_DICE}, "
                         f"not {unknown_dice}")


def clear_caches() -> None:
    """Forget every cached distribution (for measuring cold calls)."""
    for cached in (_pmf, _survival, _shifted_pmf, _shifted_survival):
        cached.cache_clear()


def _is_third(face: int, palifico: bool) -> bool:
    if face not in FACES:
        raise ValueError(f"a die shows 1 (paco) to 6, not {face!r}")
    return not palifico and face != PACO


def _unknown_dice(hand: Hand, dice: int) -> int:
    if isinstance(dice, bool) or not isinstance(dice, int):
        raise ValueError(f"the number of dice on the table must be a whole number, not {dice!r}")
    if dice < 1:
        raise ValueError(f"the table must hold at least one die, not {dice}")
    if dice > MAX_TABLE_DICE:
        raise ValueError(f"the table holds at most {MAX_TABLE_DICE} dice, not {dice}")
    if len(hand) > dice:
        raise ValueError(
            f"your hand has {len(hand)} dice but the table only {dice}: "
            "the table count includes your own dice"
        )
    return dice - len(hand)


@lru_cache(maxsize=1024)
def _pmf(n: int, third: bool) -> np.ndarray:
    """Binomial(n, 1/3 or 1/6) probabilities, each computed exactly and rounded once."""
    hits, misses, sides = (1, 2, 3) if third else (1, 5, 6)
    denominator = sides**n
    pmf = np.array(
        [comb(n, k) * hits**k * misses ** (n - k) / denominator for k in range(n + 1)]
    )
    pmf.setflags(write=False)
    return pmf


@lru_cache(maxsize=1024)
def _survival(n: int, third: bool) -> np.ndarray:
    """P(at least k of n unknown dice match), k = 0 .. n, exact then rounded once."""
    hits, misses, sides = (1, 2, 3) if third else (1, 5, 6)
    denominator = sides**n
    terms = [comb(n, k) * hits**k * misses ** (n - k) for k in range(n + 1)]
    tails = [0] * (n + 1)
    running = 0
    for k in range(n, -1, -1):
        running += terms[k]
        tails[k] = running
    survival = np.array([tail / denominator for tail in tails])
    survival.setflags(write=False)
    return survival


@lru_cache(maxsize=4096)
def _shifted_pmf(unknown: int, own: int, dice: int, third: bool) -> np.ndarray:
    distribution = np.zeros(dice + 1)
    distribution[own : own + unknown + 1] = _pmf(unknown, third)
    distribution.setflags(write=False)
    return distribution


@lru_cache(maxsize=4096)
def _shifted_survival(unknown: int, own: int, dice: int, third: bool) -> np.ndarray:
    row = np.zeros(dice + 1)
    row[: own + 1] = 1.0
    row[own : own + unknown + 1] = _survival(unknown, third)
    row.setflags(write=False)
    return row
