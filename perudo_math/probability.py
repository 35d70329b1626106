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

from perudo_math.bid import FACES, PACO, Bid, as_bid
from perudo_math.checks import is_whole, require_face, require_table_dice, shown, wrong_type
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
    """The exact odds of ``bid`` for a player holding ``hand`` at a table of ``dice`` dice.

    ``bid`` is a :class:`Bid` or its text (``5x4``); ``hand`` a :class:`Hand`, its text
    (``1 2 5``) or a list of faces; ``dice`` counts every die on the table, yours included.
    """
    if bid.__class__ is not Bid:
        bid = as_bid(bid, "odds: bid")
    if hand.__class__ is not Hand:
        hand = as_hand(hand, "odds: hand")
    if palifico is not False and palifico is not True:
        raise wrong_type("odds: palifico", "True or False", palifico)
    unknown = _unknown_dice(hand, dice, "odds")
    own = hand.count(bid.face, palifico=palifico)
    third = _is_third(bid.face, palifico)
    distribution = _shifted_pmf(unknown, own, dice, third)
    q = bid.quantity
    return Odds(
        bid=bid,
        palifico=palifico,
        unknown_dice=unknown,
        own_matches=own,
        at_least=float(_shifted_survival(unknown, own, dice, third)[q]) if q <= dice else 0.0,
        exactly=float(distribution[q]) if q <= dice else 0.0,
        expected=own + unknown * (1 / 3 if third else 1 / 6),
        distribution=distribution,
    )


def odds_table(hand: Hand | Iterable[int], dice: int, palifico: bool = False) -> np.ndarray:
    """P(at least q dice show f) as an array of shape (6, dice + 1): row f − 1, column q."""
    if hand.__class__ is not Hand:
        hand = as_hand(hand, "odds_table: hand")
    if palifico is not False and palifico is not True:
        raise wrong_type("odds_table: palifico", "True or False", palifico)
    unknown = _unknown_dice(hand, dice, "odds_table")
    table = np.empty((6, dice + 1))
    for face in FACES:
        own = hand.count(face, palifico=palifico)
        table[face - 1] = _shifted_survival(unknown, own, dice, _is_third(face, palifico))
    return table


def count_distribution(unknown_dice: int, face: int, palifico: bool = False) -> np.ndarray:
    """P(exactly k of ``unknown_dice`` unknown dice count toward ``face``), k = 0 .. n."""
    if not _plain_count_arguments(unknown_dice, face, palifico):
        _check_count_arguments("count_distribution", unknown_dice, face, palifico)
    return _pmf(unknown_dice, _is_third(face, palifico))


def count_survival(unknown_dice: int, face: int, palifico: bool = False) -> np.ndarray:
    """P(at least k of ``unknown_dice`` unknown dice count toward ``face``), k = 0 .. n."""
    if not _plain_count_arguments(unknown_dice, face, palifico):
        _check_count_arguments("count_survival", unknown_dice, face, palifico)
    return _survival(unknown_dice, _is_third(face, palifico))


def _plain_count_arguments(unknown_dice: object, face: object, palifico: object) -> bool:
    """The common case of valid arguments, in one test: the engine asks often."""
    return (unknown_dice.__class__ is int and face.__class__ is int
            and 0 <= unknown_dice <= MAX_TABLE_DICE and 1 <= face <= 6
            and (palifico is False or palifico is True))


def _check_count_arguments(where: str, unknown_dice: object, face: object,
                           palifico: object) -> None:
    if not is_whole(unknown_dice):
        raise wrong_type(f"{where}: unknown_dice", "a whole number", unknown_dice)
    assert isinstance(unknown_dice, int)
    if not 0 <= unknown_dice <= MAX_TABLE_DICE:
        raise ValueError(f"a number of dice must be from 0 to {MAX_TABLE_DICE}, "
                         f"not {shown(unknown_dice)}")
    require_face(f"{where}: face", face)
    if palifico is not False and palifico is not True:
        raise wrong_type(f"{where}: palifico", "True or False", palifico)


def clear_caches() -> None:
    """Forget every cached distribution (for measuring cold calls)."""
    for cached in (_pmf, _survival, _shifted_pmf, _shifted_survival):
        cached.cache_clear()


def _is_third(face: int, palifico: bool) -> bool:
    """Whether a die counts toward ``face`` with probability 1/3 (pacos are wild)."""
    return not palifico and face != PACO


def _unknown_dice(hand: Hand, dice: object, where: str) -> int:
    if dice.__class__ is not int or not 1 <= dice <= MAX_TABLE_DICE:
        require_table_dice(f"{where}: dice", dice)
    assert isinstance(dice, int)
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
