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

    def by_face(self, palifico: bool) -> np.ndarray:
        """``[f - 1, h]``: :meth:`matches` face by face, each face's counts side by side."""
        return _counts_by_face_rows(self.dice, palifico)

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


def honest_choice(dice: int, bid: Bid, previous: Bid | None, table_dice: int,
                  palifico: bool, rules: Rules, sharpness: float, held: float,
                  reach: int = 2) -> tuple[np.ndarray, int]:
    """:func:`choice_likelihood` with no bluff, for each hand, and how many moves the
    player chose among (a bluff picks each of them alike)."""
    table = uniform_choice(dice, bid, previous, table_dice, palifico, rules, sharpness, held,
                           reach)
    return table.honest(palifico), table.moves


@lru_cache(maxsize=4096)
def uniform_choice(dice: int, bid: Bid, previous: Bid | None, table_dice: int,
                   palifico: bool, rules: Rules, sharpness: float, held: float,
                   reach: int = 2) -> ChoiceTable:
    """The :class:`ChoiceTable` of :func:`honest_choice`: a few hundred numbers whatever the
    dice, so that the bids kept cost little memory."""
    return choice_table(dice, bid, previous, palifico, rules, sharpness, held,
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
    table = choice_table(dice, bid, previous, palifico, rules, sharpness, held, survival, reach)
    return table.honest(palifico), table.moves


_SAFE_EXPONENT = 700.0
"""Scores lie between 0 and sharpness + held × dice: below this, exp cannot overflow."""


@dataclass(frozen=True, slots=True, eq=False)
class ChoiceTable:
    """The moves a bidder chose among, weighed by what a hand counts rather than hand by hand.

    A move's weight (the exponential of its score) depends on the hand only through the
    dice of the move's face the hand counts: ``weights[j, k]`` is move j's weight for a hand
    counting k dice toward its face ``faces[j]`` (a face index, face − 1), and ``chosen`` is
    the move made. A few hundred numbers whatever the dice, where the moves weighed hand by
    hand take 3,003 times as many for a seat of ten dice.
    """

    dice: int
    faces: np.ndarray
    weights: np.ndarray
    chosen: int

    @property
    def moves(self) -> int:
        """How many moves the bidder chose among (a bluff picks each of them alike)."""
        return len(self.faces)

    def honest(self, palifico: bool) -> np.ndarray:
        """P(each hand of :func:`hand_space` made the move): every move weighed for every
        hand, and the move made's share of each hand's weights. Read-only.

        The moves' weights are laid out a move a row and summed as numpy sums each hand's
        row of them (:func:`numpy_row_sums`): the same numbers, to the last bit, as summing
        a hand-by-move table along its rows, in a third of the time."""
        counts = hand_space(self.dice).by_face(palifico)
        weights = np.empty((len(self.faces), counts.shape[1]))
        for start, end, face in _runs(self.faces):  # the moves of a face side by side
            # Every count is a column of the weights: "clip" changes none, and spares the
            # copy numpy makes to leave ``out`` untouched should an index be out of range.
            self.weights[start:end].take(counts[face], axis=1, out=weights[start:end],
                                         mode="clip")
        honest = weights[self.chosen] / numpy_row_sums(weights)
        honest.setflags(write=False)
        return honest


def _runs(faces: np.ndarray) -> list[tuple[int, int, int]]:
    """``(start, end, face)`` of each run of equal faces in ``faces``."""
    runs: list[tuple[int, int, int]] = []
    start = 0
    for index in range(1, len(faces) + 1):
        if index == len(faces) or faces[index] != faces[start]:
            runs.append((start, index, int(faces[start])))
            start = index
    return runs


def numpy_row_sums(rows: np.ndarray) -> np.ndarray:
    """``rows.T.sum(axis=1)`` for ``rows`` a few dozen long, to the last bit, summing whole
    rows: numpy adds a short row (under 8 numbers) in order, and a longer one pairwise, in
    eight running sums (numpy's ``pairwise_sum``), as done here for every column at once.
    ``tests/test_long_rounds.py`` checks it against numpy for every length up to 300."""
    count = len(rows)
    if count < 8:
        total = rows[0].copy()
        for row in rows[1:count]:
            total += row
        return total
    if count <= _PAIRWISE_BLOCK:
        sums = rows[:8].copy()
        whole = count - count % 8
        for start in range(8, whole, 8):
            sums += rows[start:start + 8]
        total = (sums[0] + sums[1]) + (sums[2] + sums[3])
        total += (sums[4] + sums[5]) + (sums[6] + sums[7])
        for row in rows[whole:count]:
            total += row
        return total
    half = count // 2
    half -= half % 8
    return numpy_row_sums(rows[:half]) + numpy_row_sums(rows[half:count])


_PAIRWISE_BLOCK = 128
"""numpy's ``PW_BLOCKSIZE``: a longer row is summed as two halves."""


@lru_cache(maxsize=2 * (MAX_STARTING_DICE + 1))
def _counts_by_face_rows(dice: int, palifico: bool) -> np.ndarray:
    """:meth:`HandSpace.by_face`, worked out once."""
    rows = np.ascontiguousarray(hand_space(dice).matches(palifico).T)
    rows.setflags(write=False)
    return rows


def choice_table(dice: int, bid: Bid, previous: Bid | None, palifico: bool, rules: Rules,
                 sharpness: float, held: float, survival: np.ndarray,
                 reach: int = 2) -> ChoiceTable:
    """The moves a bidder of ``dice`` dice chose ``bid`` among, after ``previous``, weighed
    by the dice of their face a hand counts (:class:`ChoiceTable`), for a bidder who sees
    the dice they cannot see through ``survival``: the smallest raises of each face and
    ``reach`` above, the bid made, and dudo when there is a bid."""
    unknown = survival.shape[1] - 2
    # A quantity past every die is as false as one past the table: bounded, a typed 10**30
    # stays inside numpy's integers.
    ceiling = unknown + MAX_STARTING_DICE + 1
    faces: list[int] = []
    quantities: list[int] = []
    pick = -1
    spans = legal_quantities(previous, unknown + dice, palifico=palifico, rules=rules,
                             bidder_dice=dice)
    for face, span in spans.items():
        lowest = span.start
        highest = min(span.stop, lowest + reach + 1)
        if face == bid.face and lowest <= bid.quantity < highest:
            pick = len(faces) + bid.quantity - lowest
        faces.extend([face] * (highest - lowest))
        quantities.extend(range(lowest, highest))
    if pick < 0:
        pick = len(faces)
        faces.append(bid.face)
        quantities.append(min(bid.quantity, ceiling))
    raises = len(faces)
    if previous is not None:  # dudo, weighed by the chance the bid it calls is false
        faces.append(previous.face)
        quantities.append(min(previous.quantity, ceiling))
    counted = _COUNTS[:dice + 1]
    index = np.array(faces) - 1
    needed = np.array(quantities, dtype=np.int64)[:, None] - counted
    np.maximum(needed, 0, out=needed)
    np.minimum(needed, unknown + 1, out=needed)
    # Each move's chance of being right, for each count of its face: a raise's of being
    # true, dudo's of the bid it calls being false.
    needed += index[:, None] * (unknown + 2)
    scores = survival.take(needed)
    scores[raises:] = 1.0 - scores[raises:]
    scores *= sharpness
    scores[:raises] += held * counted
    if sharpness + held * dice > _SAFE_EXPONENT:
        # Scores this far apart could overflow: every score is moved down alike, which
        # changes no share.
        scores -= scores.max()
    weights = np.exp(scores, out=scores)
    weights.setflags(write=False)
    index.setflags(write=False)
    return ChoiceTable(dice, index, weights, pick)


_COUNTS = np.arange(MAX_STARTING_DICE + 1)
_COUNTS.setflags(write=False)
