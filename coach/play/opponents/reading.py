"""The reader's model of the table: a posterior over every opponent's hand, updated bid by
bid through a model of how a player bids from their own dice (with a share of random bids),
and the styles of bidding and calling it fits to each opponent from the hands showdowns lift.
:class:`~coach.play.opponents.reader.ReaderBot` plays by it."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from coach.engine.situation import Situation
from coach.play.opponents.common import one_in_three, raise_window
from perudo_math import (
    FACES,
    MAX_STARTING_DICE,
    PACO,
    Bid,
    Hand,
    Rules,
    count_distribution,
    count_survival,
)

READ_LIMIT = MAX_STARTING_DICE
"""A seat holding more dice than this (only in hand-made situations) is not read: its dice
stay uniform. Up to it, every multiset of the seat's dice is weighed (3,003 for ten dice)."""

OFFSET = READ_LIMIT + 1
"""Padding in front of a survival table, so that ``quantity - own dice`` indexes it."""


# --- Hands as multisets --------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class HandSpace:
    """Every hand of ``dice`` dice as a multiset of faces, with its prior probability.

    ``matches[palifico][h, f - 1]`` is how many dice of hand ``h`` count toward a bid on face
    ``f`` (pacos are jokers unless palifico); ``indicators[palifico]`` is the same as a
    one-hot table of shape (hands, 6 × (dice + 1)), so that a posterior times it gives the
    distribution of each face's count in one product.
    """

    dice: int
    counts: np.ndarray
    log_prior: np.ndarray
    matches: tuple[np.ndarray, np.ndarray]
    indicators: tuple[np.ndarray, np.ndarray]

    @property
    def size(self) -> int:
        return len(self.counts)


@cache
def hand_space(dice: int) -> HandSpace:
    """The multisets of ``dice`` dice (1 to :data:`READ_LIMIT`), computed once per count."""
    if not 1 <= dice <= READ_LIMIT:
        raise ValueError(f"hands of 1 to {READ_LIMIT} dice are enumerated, not {dice}")
    combos = list(combinations_with_replacement(range(6), dice))
    counts = np.zeros((len(combos), 6), dtype=np.int64)
    for row, combo in enumerate(combos):
        for face in combo:
            counts[row, face] += 1
    log_factorials = np.array([math.lgamma(k + 1) for k in range(dice + 1)])
    log_prior = log_factorials[dice] - log_factorials[counts].sum(axis=1) - dice * math.log(6)
    normal = counts.copy()
    normal[:, 1:] += counts[:, :1]
    matches = (normal, counts)
    indicators = (_one_hot(normal, dice), _one_hot(counts, dice))
    for array in (counts, log_prior, normal, *indicators):
        array.setflags(write=False)
    return HandSpace(dice, counts, log_prior, matches, indicators)


def _one_hot(matches: np.ndarray, dice: int) -> np.ndarray:
    width = dice + 1
    table = np.zeros((len(matches), 6 * width))
    columns = matches + np.arange(6) * width
    np.put_along_axis(table, columns, 1.0, axis=1)
    return table


@cache
def survival_tables(unknown: int) -> np.ndarray:
    """P(at least k of ``unknown`` dice count), rows [paco-like 1/6, ordinary 1/3], indexed by
    ``k + OFFSET``: 1 for k ≤ 0, 0 past ``unknown``."""
    tables = np.zeros((2, OFFSET + unknown + 2))
    tables[:, :OFFSET] = 1.0
    tables[0, OFFSET:OFFSET + unknown + 1] = count_survival(unknown, PACO)
    tables[1, OFFSET:OFFSET + unknown + 1] = count_survival(unknown, 2)
    tables.setflags(write=False)
    return tables


@cache
def prior_pmfs(dice: int, palifico: bool) -> np.ndarray:
    """Each face's count distribution for ``dice`` unread dice: shape (6, dice + 1)."""
    pmfs = np.stack([count_distribution(dice, face, palifico) for face in FACES])
    pmfs.setflags(write=False)
    return pmfs




# --- The reading model ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Style:
    """How one player is assumed to bid from their own dice.

    They choose among the raises of :func:`raise_window` (and dudo, when there is a bid) by a
    softmax of ``sharpness`` × the chance each move wins seen from their own dice, plus
    ``held_bonus`` per die they hold of the bid's face; with the share ``random_share`` they
    bid at random instead.
    """

    sharpness: float = 6.0
    held_bonus: float = 2.5
    random_share: float = 0.15


SHARPNESSES = (2.0, 6.0, 15.0, 35.0)
HELD_BONUSES = (0.0, 1.0, 2.5, 5.0)
RANDOM_SHARES = (0.05, 0.15, 0.35, 0.6, 0.9)
"""The grid of styles the reader fits each opponent to, from the hands showdowns lift."""


@dataclass(frozen=True, slots=True)
class Caller:
    """How one player calls dudo: with the chance a logistic of how likely they see the bid
    (``threshold``, ``steepness``). They see it from their own dice and the others' read from
    the bids, weighed ``reading`` (1: a full reader), or as uniform (0: their own dice alone)."""

    reading: float = 1.0
    threshold: float = 0.45
    steepness: float = 12.0

    def calls(self, chance: np.ndarray) -> np.ndarray:
        return _CALL_FLOOR + (1.0 - 2 * _CALL_FLOOR) / (
            1.0 + np.exp(self.steepness * (chance - self.threshold)))


_CALL_FLOOR = 0.02
CALL_THRESHOLDS = (0.15, 0.25, 0.35, 0.45, 0.55, 0.65)
CALL_STEEPNESSES = (5.0, 12.0, 30.0)
CALL_READINGS = (0.0, 0.5, 1.0)
"""The grid of callers the reader fits each opponent to, both ways of seeing the bid."""


@dataclass(frozen=True, slots=True)
class ReadingModel:
    """The reader's settings: the prior style, and how it weighs its own moves.

    ``caller`` is the prior model of the next player's dudo until showdowns tell.
    ``stay_risk`` prices the round going on after my raise, times ``false_stay`` when the
    raise is false. ``others_weight`` is what
    another player's lost die is worth to me at a table of more than two; ``calza_cost`` what a
    calza must clear on top of its odds. ``pooling`` is the weight of the rest of the table's
    evidence when fitting one opponent.
    """

    prior: Style = Style()
    prior_weight: float = 1.0
    reach: int = 2
    caller: Caller = Caller()
    stay_risk: float = 0.05
    false_stay: float = 4.0
    others_weight: float = 0.15
    calza_cost: float = 0.25
    pooling: float = 0.5
    learn_styles: bool = True
    learn_calls: bool = True


@lru_cache(maxsize=65536)
def candidate_arrays(candidates: tuple[Bid, ...], table_dice: int,
                      palifico: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Faces (0-based), quantities (kept within the table + 1) and 1/3-odds flags."""
    count = len(candidates)
    faces = np.fromiter((b.face - 1 for b in candidates), np.int64, count)
    quantities = np.fromiter((bounded(b.quantity, table_dice) for b in candidates),
                             np.int64, count)
    thirds = np.fromiter((one_in_three(b.face, palifico) for b in candidates), np.int64, count)
    for array in (faces, quantities, thirds):
        array.setflags(write=False)
    return faces, quantities, thirds


@lru_cache(maxsize=65536)
def _face_indicators(candidates: tuple[Bid, ...], table_dice: int,
                     palifico: bool) -> np.ndarray:
    """(6, candidates): 1 where the candidate is on that face."""
    faces = candidate_arrays(candidates, table_dice, palifico)[0]
    indicators = np.zeros((6, len(candidates)))
    indicators[faces, np.arange(len(candidates))] = 1.0
    indicators.setflags(write=False)
    return indicators


@dataclass(frozen=True, slots=True, eq=False)
class Choice:
    """An honest bidder's choice among ``candidates``, by how many dice they hold of each
    face: ``scores[k, m]`` is exp(score) of candidate k when holding m dice of its face,
    ``totals[f, m]`` the sum over the candidates on face f, ``dudo`` the dudo option's
    exp(score) by the dice held of the last bid's face (``dudo_face``, 0-based)."""

    candidates: tuple[Bid, ...]
    faces: np.ndarray
    scores: np.ndarray
    totals: np.ndarray
    dudo: np.ndarray | None
    dudo_face: int

    def normalizers(self, matches: np.ndarray) -> np.ndarray:
        """Each hand's sum of exp(score) over every option; ``matches`` is (hands, 6)."""
        total = self.totals[np.arange(6), matches].sum(axis=1)
        if self.dudo is not None:
            total += self.dudo[matches[:, self.dudo_face]]
        return total


@lru_cache(maxsize=1024)
def honest_choice(dice: int, palifico: bool, candidates: tuple[Bid, ...],
                  previous: Bid | None, table_dice: int, style: Style) -> Choice:
    """The choice model of a bidder holding ``dice`` dice among ``table_dice`` (cached: every
    reader at the table reads the same bids)."""
    unknown = table_dice - dice
    faces, quantities, thirds = candidate_arrays(candidates, table_dice, palifico)
    tables = survival_tables(unknown)
    held = np.arange(dice + 1)
    last_column = tables.shape[1] - 1
    index = np.minimum(quantities[:, None] - held[None, :] + OFFSET, last_column)
    chances = tables[thirds[:, None], index]
    scores = np.exp(style.sharpness * chances + style.held_bonus * held[None, :])
    totals = _face_indicators(candidates, table_dice, palifico) @ scores
    dudo, dudo_face = None, 0
    if previous is not None:
        dudo_face = previous.face - 1
        need = np.minimum(bounded(previous.quantity, table_dice) - held + OFFSET, last_column)
        true = tables[int(one_in_three(previous.face, palifico)), need]
        dudo = np.exp(style.sharpness * (1.0 - true))
    return Choice(candidates, faces, scores, totals, dudo, dudo_face)


def candidates_for(bid: Bid, previous: Bid | None, table_dice: int, palifico: bool,
                   rules: Rules, one_die: bool, reach: int) -> tuple[tuple[Bid, ...], int]:
    """The raises a bidder weighed before ``bid`` (``bid`` among them), and its index."""
    window = raise_window(previous, table_dice, palifico, rules, one_die, reach)
    if bid in window:
        return window, window.index(bid)
    return (*window, bid), len(window)


@lru_cache(maxsize=1024)
def bid_log_likelihood(dice: int, palifico: bool, bid: Bid, previous: Bid | None,
                       table_dice: int, rules: Rules, style: Style, reach: int) -> np.ndarray:
    """log P(this bid | each hand of ``dice`` dice, in :func:`hand_space` order): the honest
    choice mixed with random bids."""
    candidates, chosen = candidates_for(bid, previous, table_dice, palifico, rules,
                                        dice == 1, reach)
    choice = honest_choice(dice, palifico, candidates, previous, table_dice, style)
    matches = hand_space(dice).matches[palifico]
    honest = choice.scores[chosen, matches[:, bid.face - 1]] / choice.normalizers(matches)
    share = style.random_share
    logs = np.log(share / len(candidates) + (1.0 - share) * honest)
    logs.setflags(write=False)
    return logs


class RoundBook:
    """The log-posterior over each seat's hand for one round, updated bid by bid.

    A seat whose dice are not read (more than :data:`READ_LIMIT`) has no entry: its dice stay
    uniform.
    """

    def __init__(self, dice: tuple[int, ...], palifico: bool, rules: Rules,
                 key: object = None) -> None:
        self.dice, self.palifico, self.rules, self.key = dice, palifico, rules, key
        self.table = sum(dice)
        self.bids: tuple[tuple[int, Bid], ...] = ()
        self._posteriors: dict[int, np.ndarray] = {}
        self.log_weights: dict[int, np.ndarray] = {
            seat: hand_space(n).log_prior.copy()
            for seat, n in enumerate(dice) if 0 < n <= READ_LIMIT
        }

    @classmethod
    def of(cls, situation: Situation) -> RoundBook:
        return cls(situation.dice, situation.palifico, situation.rules, _round_key(situation))

    def follows(self, situation: Situation) -> bool:
        """Whether ``situation`` is this round, later on (its bids extend those read)."""
        return (self.key == _round_key(situation)
                and situation.bids[:len(self.bids)] == self.bids)

    def read(self, bids: tuple[tuple[int, Bid], ...], styles: Callable[[int], Style],
             reach: int) -> None:
        """Fold the bids not read yet (``bids`` extends those read) into the posteriors."""
        for index in range(len(self.bids), len(bids)):
            seat, bid = bids[index]
            previous = bids[index - 1][1] if index else None
            if seat in self.log_weights:
                self._posteriors.pop(seat, None)
                self.log_weights[seat] += bid_log_likelihood(
                    self.dice[seat], self.palifico, bid, previous, self.table, self.rules,
                    styles(seat), reach)
        self.bids = bids

    def posterior(self, seat: int) -> np.ndarray | None:
        """The posterior over ``seat``'s hands (:func:`hand_space` order); None if unread."""
        weights = self._posteriors.get(seat)
        if weights is None:
            logs = self.log_weights.get(seat)
            if logs is None:
                return None
            weights = np.exp(logs - logs.max())
            weights /= weights.sum()
            self._posteriors[seat] = weights
        return weights

    def count_pmfs(self, seat: int) -> np.ndarray:
        """Each face's count distribution for ``seat``: shape (6, dice + 1)."""
        dice = self.dice[seat]
        weights = self.posterior(seat)
        if weights is None:
            return prior_pmfs(dice, self.palifico)
        space = hand_space(dice)
        return (weights @ space.indicators[self.palifico]).reshape(6, dice + 1)

    def face_pmf(self, seat: int, face: int) -> np.ndarray:
        """The distribution of ``seat``'s count toward ``face``."""
        dice = self.dice[seat]
        weights = self.posterior(seat)
        if weights is None:
            return prior_pmfs(dice, self.palifico)[face - 1]
        columns = slice((face - 1) * (dice + 1), face * (dice + 1))
        return weights @ hand_space(dice).indicators[self.palifico][:, columns]

    def chance_seen_by(self, seat: int, hand: Hand, bid: Bid) -> tuple[float, float]:
        """How likely ``seat``, holding ``hand``, sees ``bid`` true: from its own dice alone,
        and reading the others' bids as this book does."""
        own = hand.count(bid.face, palifico=self.palifico)
        need = bounded(bid.quantity, self.table) - own
        tables = survival_tables(self.table - len(hand))
        alone = float(tables[int(one_in_three(bid.face, self.palifico)),
                             min(need + OFFSET, tables.shape[1] - 1)])
        if need <= 0:
            return alone, 1.0
        others = [self.face_pmf(s, bid.face) for s, n in enumerate(self.dice)
                  if n and s != seat]
        total = _convolve_all(others, self.table + 1)
        return alone, float(total[need:].sum())


def _round_key(situation: Situation) -> tuple[object, ...]:
    return (situation.dice, situation.hand, situation.palifico, situation.rules)


class CallFit:
    """What the showdowns told of one opponent's calls: the log-likelihood of each decision
    to call or to raise under each caller of the grid."""

    def __init__(self, prior: Caller, prior_weight: float) -> None:
        reading, threshold, steep = np.meshgrid(CALL_READINGS, CALL_THRESHOLDS,
                                                CALL_STEEPNESSES, indexing="ij")
        self.reading, self.threshold, self.steepness = (
            reading.ravel(), threshold.ravel(), steep.ravel())
        distance = (np.abs(self.reading - prior.reading) * 2
                    + np.abs(self.threshold - prior.threshold) * 5
                    + np.abs(np.log(self.steepness / prior.steepness)))
        self.log_prior = -prior_weight * distance
        self.log_likelihood = np.zeros_like(self.log_prior)
        self.decisions = 0

    def learn(self, alone: float, reading: float, called: bool) -> None:
        chance = self.reading * reading + (1.0 - self.reading) * alone
        calls = _CALL_FLOOR + (1.0 - 2 * _CALL_FLOOR) / (
            1.0 + np.exp(self.steepness * (chance - self.threshold)))
        self.log_likelihood += np.log(calls if called else 1.0 - calls)
        self.decisions += 1

    def best(self, table: np.ndarray | float = 0.0) -> Caller:
        """The most likely caller; ``table`` adds evidence pooled from the other players."""
        top = int(np.argmax(self.log_prior + self.log_likelihood + table))
        return Caller(float(self.reading[top]), float(self.threshold[top]),
                      float(self.steepness[top]))


class StyleFit:
    """What the showdowns told of one opponent: the log-likelihood of their bids under each
    style of the grid, shape (sharpness × held bonus, random share)."""

    _SHARP, _HELD = (grid.ravel() for grid in np.meshgrid(SHARPNESSES, HELD_BONUSES,
                                                            indexing="ij"))
    _SHARES = np.array(RANDOM_SHARES)

    def __init__(self, prior: Style, prior_weight: float) -> None:
        distance = (np.abs(np.log(self._SHARP / prior.sharpness))
                    + np.abs(self._HELD - prior.held_bonus))[:, None] + np.abs(
            np.log(self._SHARES / prior.random_share))[None, :]
        self.log_prior = -prior_weight * distance
        self.log_likelihood = np.zeros_like(self.log_prior)
        self.bids = 0

    def learn(self, hand: Hand, bid: Bid, previous: Bid | None, table_dice: int,
              palifico: bool, rules: Rules, reach: int) -> None:
        """Add one bid made by a player who held ``hand``."""
        hand_dice = len(hand)
        counts = [hand.count(face, palifico=palifico) for face in FACES]
        candidates, chosen = candidates_for(bid, previous, table_dice, palifico, rules,
                                            hand_dice == 1, reach)
        faces, quantities, thirds = candidate_arrays(candidates, table_dice, palifico)
        tables = survival_tables(table_dice - hand_dice)
        last_column = tables.shape[1] - 1
        held = np.array(counts)[faces]
        chances = tables[thirds, np.minimum(quantities - held + OFFSET, last_column)]
        options = np.exp(np.multiply.outer(self._SHARP, chances) + np.multiply.outer(
            self._HELD, held))
        total = options.sum(axis=1)
        if previous is not None:
            need = bounded(previous.quantity, table_dice) - counts[previous.face - 1]
            true = tables[int(one_in_three(previous.face, palifico)),
                          min(need + OFFSET, last_column)]
            total += np.exp(self._SHARP * (1.0 - true))
        honest = options[:, chosen] / total
        shares = self._SHARES
        self.log_likelihood += np.log(shares / len(candidates)
                                      + np.multiply.outer(honest, 1.0 - shares))
        self.bids += 1

    def best(self, table: np.ndarray | float = 0.0) -> Style:
        """The most likely style; its random share is the posterior mean. ``table`` adds
        evidence pooled from the other players."""
        logs = self.log_prior + self.log_likelihood + table
        weights = np.exp(logs - logs.max())
        top, _ = np.unravel_index(int(np.argmax(logs)), logs.shape)
        return Style(float(self._SHARP[top]), float(self._HELD[top]),
                     float((weights.sum(axis=0) @ self._SHARES) / weights.sum()))


def pooled(fits: dict[int, Any], pooling: float, me: int | None) -> dict[int, Any]:
    """Each seat's best fit, its own evidence plus ``pooling`` times the rest of the table's
    (but mine): players at one table often play alike, and a seat seen little borrows from
    the others."""
    fits = {seat: fit for seat, fit in fits.items() if seat != me}
    everyone = sum((fit.log_likelihood for fit in fits.values()), start=np.zeros(1))
    return {seat: fit.best(pooling * (everyone - fit.log_likelihood))
            for seat, fit in fits.items()}


# --- Small numeric helpers ------------------------------------------------------------------


def _convolve_all(pmfs: Sequence[np.ndarray], length: int) -> np.ndarray:
    """The distribution of a sum of independent counts, padded or cut to ``length``."""
    total = np.ones(1)
    for pmf in pmfs:
        total = np.convolve(total, pmf)
    out = np.zeros(length)
    out[:min(length, len(total))] = total[:length]
    return out


def bounded(quantity: int, table_dice: int) -> int:
    """A bid's quantity kept where arrays can index it (above the table is all the same)."""
    return min(quantity, table_dice + 1)

