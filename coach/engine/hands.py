"""Every hand a player may hold, as a multiset of faces, and how likely each makes a bid.

A seat of n dice holds one of C(n + 5, 5) multisets (252 for five dice, 3,003 for ten),
each with its multinomial prior. Reading a bidder means weighing each multiset by how
likely it makes the bids they spoke (:func:`choice_likelihood`, or the older
:func:`bid_likelihood`), so the posterior is exact for the model whatever it is, with no
independence assumed between the dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np

from perudo_math import (
    FACES,
    MAX_STARTING_DICE,
    PACO,
    Bid,
    Rules,
    count_survival,
    legal_quantities,
)


@dataclass(frozen=True, slots=True, eq=False)
class HandSpace:
    """The multisets of ``dice`` dice: ``faces[h, f - 1]`` dice show face f in hand h;
    ``matches[palifico][h, f - 1]`` count toward a bid on f; ``prior[h]`` sums to 1."""

    dice: int
    faces: np.ndarray
    prior: np.ndarray
    normal: np.ndarray
    palifico: np.ndarray

    def matches(self, palifico: bool) -> np.ndarray:
        return self.palifico if palifico else self.normal

    def row(self, faces: tuple[int, ...]) -> int:
        """The index of the multiset holding ``faces``."""
        wanted = np.bincount(np.asarray(faces, dtype=np.int64) - 1, minlength=6)
        return int(np.flatnonzero((self.faces == wanted).all(axis=1))[0])


@lru_cache(maxsize=MAX_STARTING_DICE + 1)
def hand_space(dice: int) -> HandSpace:
    """Every multiset of ``dice`` dice (at most the starting dice limit)."""
    if not 0 <= dice <= MAX_STARTING_DICE:
        raise ValueError(f"a seat holds 0 to {MAX_STARTING_DICE} dice, not {dice}")
    rows = [np.bincount(np.asarray(combo, dtype=np.int64) - 1, minlength=6)
            for combo in combinations_with_replacement(FACES, dice)]
    faces = np.array(rows, dtype=np.int64).reshape(-1, 6)
    ways = np.array([factorial(dice) / np.prod([factorial(int(c)) for c in row])
                     for row in faces])
    prior = ways / 6.0 ** dice
    normal = faces.copy()
    normal[:, 1:] += faces[:, [PACO - 1]]  # pacos count toward every other face
    for array in (faces, prior, normal):
        array.setflags(write=False)
    return HandSpace(dice, faces, prior, normal, faces)


def share(face: int, palifico: bool) -> float:
    """The chance one unseen die counts toward ``face``."""
    return 1 / 6 if face == PACO or palifico else 1 / 3


def bid_likelihood(space: HandSpace, bid: Bid, table_dice: int, palifico: bool,
                   strength: float, overbid: float, bluff: float) -> np.ndarray:
    """P(a player makes ``bid``), up to a constant, for each hand of ``space``.

    An honest bid weighs exp(``strength`` × the bidder's matching dice), less
    exp(``overbid`` × how far the quantity exceeds their matching dice plus the share
    expected among the dice they cannot see); with the share ``bluff`` the bid says
    nothing of the hand.
    """
    matching = space.matches(palifico)[:, bid.face - 1]
    expected = (table_dice - space.dice) * share(bid.face, palifico)
    beyond = np.maximum(0.0, min(bid.quantity, table_dice + 1) - matching - expected)
    logs = strength * matching - overbid * beyond
    honest = np.exp(logs - logs.max())
    return bluff + (1.0 - bluff) * honest


def choice_likelihood(dice: int, bid: Bid, previous: Bid | None, table_dice: int,
                      palifico: bool, rules: Rules, sharpness: float, held: float,
                      bluff: float, reach: int = 2) -> np.ndarray:
    """P(a player of ``dice`` dice chose ``bid`` after ``previous``), for each hand of
    :func:`hand_space`, as a player who reads their own dice would choose.

    An honest player picks among the smallest raises of each face (and ``reach`` above) and,
    when there is a bid, dudo, by a softmax of ``sharpness`` × the chance each move is right
    seen from their own dice, plus ``held`` per die of the face they hold; with the share
    ``bluff`` they pick any of those moves alike.
    """
    honest, moves = honest_choice(dice, bid, previous, table_dice, palifico, rules, sharpness,
                                  held, reach)
    return bluff / moves + (1.0 - bluff) * honest


@lru_cache(maxsize=8192)
def honest_choice(dice: int, bid: Bid, previous: Bid | None, table_dice: int,
                  palifico: bool, rules: Rules, sharpness: float, held: float,
                  reach: int = 2) -> tuple[np.ndarray, int]:
    """:func:`choice_likelihood` with no bluff, for each hand, and how many moves the
    player chose among (a bluff picks each of them alike)."""
    return informed_choice(dice, bid, previous, palifico, rules, sharpness, held,
                           uniform_survival(table_dice - dice, palifico), reach)


@lru_cache(maxsize=1024)
def uniform_survival(unknown: int, palifico: bool) -> np.ndarray:
    """P(at least k of ``unknown`` unseen dice count toward each face), row f − 1 for face
    f, k = 0 .. unknown + 1 (the last column 0): how a player sees the dice they cannot see
    when they read nothing into the bids."""
    survival = np.zeros((6, unknown + 2))
    for face in FACES:
        survival[face - 1, :-1] = count_survival(unknown, face, palifico)
    survival.setflags(write=False)
    return survival


def informed_choice(dice: int, bid: Bid, previous: Bid | None, palifico: bool, rules: Rules,
                    sharpness: float, held: float, survival: np.ndarray,
                    reach: int = 2) -> tuple[np.ndarray, int]:
    """:func:`honest_choice` for a bidder who sees the dice they cannot see through
    ``survival`` (as :func:`uniform_survival` lays it out): a bidder who reads the bids
    before theirs raises a face the table has bid without holding it."""
    menu = _menu(dice, bid, previous, palifico, rules, survival.shape[1] - 2, reach)
    # Each move's chance of being right, for each hand: a raise's of being true, dudo's of
    # the bid it calls being false.
    scores = survival.take(menu.at)
    if previous is not None:
        scores[:, -1] = 1.0 - scores[:, -1]
    scores *= sharpness
    scores += held * menu.mine
    if sharpness + held * dice > _SAFE_EXPONENT:
        scores -= scores.max(axis=1, keepdims=True)
    weights = np.exp(scores, out=scores)
    honest = weights[:, menu.chosen] / weights.sum(axis=1)
    honest.setflags(write=False)
    return honest, scores.shape[1]


_SAFE_EXPONENT = 700.0
"""Scores lie between 0 and sharpness + held × dice: below this, exp cannot overflow."""


@dataclass(frozen=True, slots=True, eq=False)
class _Menu:
    """The moves a bidder chooses among, for each hand of their dice: where its chance of
    being true (for dudo, the bid it calls) lies in ``survival`` flattened, and the dice of
    its face the hand holds (0 for dudo); ``chosen`` is the move made."""

    at: np.ndarray
    mine: np.ndarray
    chosen: int


@lru_cache(maxsize=8192)
def _menu(dice: int, bid: Bid, previous: Bid | None, palifico: bool, rules: Rules,
          unknown: int, reach: int) -> _Menu:
    matching = hand_space(dice).matches(palifico)
    spans = legal_quantities(previous, unknown + dice, palifico=palifico, rules=rules,
                             bidder_dice=dice)
    candidates = [Bid(quantity, face) for face, span in spans.items()
                  for quantity in list(span)[: reach + 1]]
    if bid not in candidates:
        candidates.append(bid)
    chosen = candidates.index(bid)
    if previous is not None:
        candidates.append(previous)  # dudo, weighed by the chance the bid it calls is false
    faces = np.array([candidate.face for candidate in candidates]) - 1
    counted = matching[:, faces]
    # A quantity past every die is as false as one past the table: bounded, a typed 10**30
    # stays inside numpy's integers.
    ceiling = unknown + MAX_STARTING_DICE + 1
    quantities = np.array([min(candidate.quantity, ceiling) for candidate in candidates],
                          dtype=np.int64)
    needed = np.clip(quantities[None, :] - counted, 0, unknown + 1)
    at = faces[None, :] * (unknown + 2) + needed
    mine = counted.astype(float)
    if previous is not None:
        mine[:, -1] = 0.0
    for array in (at, mine):
        array.setflags(write=False)
    return _Menu(at, mine, chosen)
