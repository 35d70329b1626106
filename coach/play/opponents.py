"""League opponents: bots written apart from the coach, to measure it against.

- ``reader``: an exact Bayesian reader. It keeps a posterior over every opponent's hand (each
  multiset of faces, weighted by the multinomial prior), updates it with every bid of the
  round through a model of how a player bids from their own dice (with a share of random
  bids), calls by that posterior, and weighs each raise by the chance that the next player,
  reading too, calls it. From the hands each showdown lifts it fits every opponent's style of
  bidding (its random-bid share among it) and its way of calling, pooled across the table.
- ``liar``: half of its raises go to a face it holds fewest of; otherwise it plays the odds
  of its own dice, and calls by them.
- ``tight``: never bluffs, raises to the bid its own dice make likeliest, calls readily.
- ``mix``: one style drawn at the start of each game (reader, liar, tight, bold, odds).

A bot is built per game from a factory taking the game's ``random.Random`` (a class whose
``__init__`` takes it is its own factory); every random choice comes from that generator, so a
game replays from its seed. :data:`OPPONENTS` names them for the league; the arena loads one
as ``coach.play.opponents:ReaderBot``. Nothing here reads the coach's engine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from coach.engine.showdown import Showdown
from coach.engine.situation import CALZA, DUDO, Action, ActionKind, Situation
from perudo_math import (
    FACES,
    MAX_STARTING_DICE,
    PACO,
    Bid,
    Hand,
    Rules,
    check_bid,
    count_distribution,
    count_survival,
    smallest_raises,
)

OpponentBot = Callable[[Situation], Action]
OpponentFactory = Callable[[random.Random], OpponentBot]

READ_LIMIT = MAX_STARTING_DICE
"""A seat holding more dice than this (only in hand-made situations) is not read: its dice
stay uniform. Up to it, every multiset of the seat's dice is weighed (3,003 for ten dice)."""

_OFFSET = READ_LIMIT + 1
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
def _survival_tables(unknown: int) -> np.ndarray:
    """P(at least k of ``unknown`` dice count), rows [paco-like 1/6, ordinary 1/3], indexed by
    ``k + _OFFSET``: 1 for k ≤ 0, 0 past ``unknown``."""
    tables = np.zeros((2, _OFFSET + unknown + 2))
    tables[:, :_OFFSET] = 1.0
    tables[0, _OFFSET:_OFFSET + unknown + 1] = count_survival(unknown, PACO)
    tables[1, _OFFSET:_OFFSET + unknown + 1] = count_survival(unknown, 2)
    tables.setflags(write=False)
    return tables


@cache
def _prior_pmfs(dice: int, palifico: bool) -> np.ndarray:
    """Each face's count distribution for ``dice`` unread dice: shape (6, dice + 1)."""
    pmfs = np.stack([count_distribution(dice, face, palifico) for face in FACES])
    pmfs.setflags(write=False)
    return pmfs


def _third(face: int, palifico: bool) -> bool:
    return not palifico and face != PACO


# --- Which raises a player weighs ----------------------------------------------------------


@lru_cache(maxsize=65536)
def _smallest(previous: Bid | None, palifico: bool, rules: Rules,
              one_die: bool) -> tuple[Bid, ...]:
    """The smallest legal raise on each face (one-die matters only for palifico rules)."""
    raises = smallest_raises(previous, palifico=palifico, rules=rules,
                             bidder_dice=1 if one_die else 2)
    return tuple(raises[face] for face in sorted(raises))


@lru_cache(maxsize=65536)
def raise_window(previous: Bid | None, table_dice: int, palifico: bool, rules: Rules,
                 one_die: bool, reach: int) -> tuple[Bid, ...]:
    """The raises a player weighs: on each face, the smallest legal quantity and up to
    ``reach`` more (openings reach to about a third of the table), within the table.

    When nothing legal fits on the table, the smallest raises (all surely false).
    """
    found: list[Bid] = []
    for lowest in _smallest(previous, palifico, rules, one_die):
        top = lowest.quantity + reach
        if previous is None:
            share = 3 if _third(lowest.face, palifico) else 6
            top = max(top, table_dice // share + 2)
        for quantity in range(lowest.quantity, min(top, table_dice) + 1):
            bid = Bid(quantity, lowest.face)
            if quantity == lowest.quantity or check_bid(
                    bid, previous, palifico=palifico, rules=rules,
                    bidder_dice=1 if one_die else 2).legal:
                found.append(bid)
            else:
                break
    return tuple(found) or _smallest(previous, palifico, rules, one_die)


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
def _candidate_arrays(candidates: tuple[Bid, ...], table_dice: int,
                      palifico: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Faces (0-based), quantities (kept within the table + 1) and 1/3-odds flags."""
    count = len(candidates)
    faces = np.fromiter((b.face - 1 for b in candidates), np.int64, count)
    quantities = np.fromiter((_bounded(b.quantity, table_dice) for b in candidates),
                             np.int64, count)
    thirds = np.fromiter((_third(b.face, palifico) for b in candidates), np.int64, count)
    for array in (faces, quantities, thirds):
        array.setflags(write=False)
    return faces, quantities, thirds


@lru_cache(maxsize=65536)
def _face_indicators(candidates: tuple[Bid, ...], table_dice: int,
                     palifico: bool) -> np.ndarray:
    """(6, candidates): 1 where the candidate is on that face."""
    faces = _candidate_arrays(candidates, table_dice, palifico)[0]
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
    faces, quantities, thirds = _candidate_arrays(candidates, table_dice, palifico)
    tables = _survival_tables(unknown)
    held = np.arange(dice + 1)
    last_column = tables.shape[1] - 1
    index = np.minimum(quantities[:, None] - held[None, :] + _OFFSET, last_column)
    chances = tables[thirds[:, None], index]
    scores = np.exp(style.sharpness * chances + style.held_bonus * held[None, :])
    totals = _face_indicators(candidates, table_dice, palifico) @ scores
    dudo, dudo_face = None, 0
    if previous is not None:
        dudo_face = previous.face - 1
        need = np.minimum(_bounded(previous.quantity, table_dice) - held + _OFFSET, last_column)
        true = tables[int(_third(previous.face, palifico)), need]
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
            return _prior_pmfs(dice, self.palifico)
        space = hand_space(dice)
        return (weights @ space.indicators[self.palifico]).reshape(6, dice + 1)

    def face_pmf(self, seat: int, face: int) -> np.ndarray:
        """The distribution of ``seat``'s count toward ``face``."""
        dice = self.dice[seat]
        weights = self.posterior(seat)
        if weights is None:
            return _prior_pmfs(dice, self.palifico)[face - 1]
        columns = slice((face - 1) * (dice + 1), face * (dice + 1))
        return weights @ hand_space(dice).indicators[self.palifico][:, columns]

    def chance_seen_by(self, seat: int, hand: Hand, bid: Bid) -> tuple[float, float]:
        """How likely ``seat``, holding ``hand``, sees ``bid`` true: from its own dice alone,
        and reading the others' bids as this book does."""
        own = hand.count(bid.face, palifico=self.palifico)
        need = _bounded(bid.quantity, self.table) - own
        tables = _survival_tables(self.table - len(hand))
        alone = float(tables[int(_third(bid.face, self.palifico)),
                             min(need + _OFFSET, tables.shape[1] - 1)])
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
        faces, quantities, thirds = _candidate_arrays(candidates, table_dice, palifico)
        tables = _survival_tables(table_dice - hand_dice)
        last_column = tables.shape[1] - 1
        held = np.array(counts)[faces]
        chances = tables[thirds, np.minimum(quantities - held + _OFFSET, last_column)]
        options = np.exp(np.multiply.outer(self._SHARP, chances) + np.multiply.outer(
            self._HELD, held))
        total = options.sum(axis=1)
        if previous is not None:
            need = _bounded(previous.quantity, table_dice) - counts[previous.face - 1]
            true = tables[int(_third(previous.face, palifico)),
                          min(need + _OFFSET, last_column)]
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


def _pooled(fits: dict[int, Any], pooling: float, me: int | None) -> dict[int, Any]:
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


def _bounded(quantity: int, table_dice: int) -> int:
    """A bid's quantity kept where arrays can index it (above the table is all the same)."""
    return min(quantity, table_dice + 1)


@dataclass(frozen=True, slots=True, eq=False)
class TableCounts:
    """Each face's count distribution, shape (6, table + 1): ``rest`` outside me and the
    next player, ``without_next`` mine added, ``total`` the whole table (``survival`` its
    P(at least q), one column longer), and ``next_pmfs`` the next player's alone."""

    rest: np.ndarray
    without_next: np.ndarray
    next_pmfs: np.ndarray
    total: np.ndarray
    survival: np.ndarray


def _add_counts(counts: np.ndarray, pmfs: np.ndarray) -> np.ndarray:
    """Each face's distribution of ``counts`` + an independent player's ``pmfs`` (6, n + 1),
    cut to the same length."""
    length = counts.shape[1]
    out = counts * pmfs[:, :1]
    for x in range(1, min(pmfs.shape[1], length)):
        out[:, x:] += counts[:, :length - x] * pmfs[:, x:x + 1]
    return out


# --- The reader -----------------------------------------------------------------------------


class ReaderBot:
    """An exact Bayesian reader (see the module's docstring); build one per game."""

    def __init__(self, rng: random.Random, model: ReadingModel | None = None) -> None:
        self.rng = rng
        self.model = model or ReadingModel()
        self._book: RoundBook | None = None
        self._fits: dict[int, StyleFit] = {}
        self._styles: dict[int, Style] = {}
        self._call_fits: dict[int, CallFit] = {}
        self._callers: dict[int, Caller] = {}
        self._rules = Rules()
        self._seat: int | None = None

    # Learning from showdowns.

    def style(self, seat: int) -> Style:
        """How ``seat`` is read: the style that best explains its bids so far, else the prior."""
        return self._styles.get(seat, self.model.prior)

    def random_share(self, seat: int) -> float:
        """The estimated share of random bids of ``seat``: the prior until showdowns tell."""
        return self.style(seat).random_share

    def caller(self, seat: int) -> Caller:
        """How ``seat`` is expected to call: fitted to its calls so far, else the prior."""
        return self._callers.get(seat, self.model.caller)

    def observe(self, showdown: Showdown) -> None:
        """Fit each opponent to the hands a showdown lifts: its style of bidding (and so its
        random-bid share), every bid weighed against the dice its bidder held, and its way of
        calling, every bid it faced weighed against how likely it saw it."""
        self._book = None
        hands = showdown.hands
        if hands is None:
            return
        dice = tuple(len(hand) for hand in hands)
        table = sum(dice)
        bids = showdown.bids
        model = self.model
        book = RoundBook(dice, showdown.palifico, self._rules)
        for index, (seat, bid) in enumerate(bids):
            if not 0 <= seat < len(hands) or not hands[seat]:
                return  # not a round of this table
            if seat != self._seat:
                previous = bids[index - 1][1] if index else None
                if index:
                    self._learn_call(book, seat, hands[seat], previous, called=False)
                self._style_fit(seat).learn(hands[seat], bid, previous, table,
                                            showdown.palifico, self._rules, model.reach)
            book.read(bids[:index + 1], self._reading_style, model.reach)
        caller = showdown.caller
        if (showdown.kind == "dudo" and caller != self._seat and 0 <= caller < len(hands)
                and hands[caller]):
            self._learn_call(book, caller, hands[caller], bids[-1][1], called=True)
        # A round may end before my first turn: my own seat is then learned, and left out here.
        if model.learn_styles:
            self._styles = _pooled(self._fits, model.pooling, self._seat)
        if model.learn_calls:
            self._callers = _pooled(self._call_fits, model.pooling, self._seat)

    def _style_fit(self, seat: int) -> StyleFit:
        fit = self._fits.get(seat)
        if fit is None:
            fit = self._fits[seat] = StyleFit(self.model.prior, self.model.prior_weight)
        return fit

    def _learn_call(self, book: RoundBook, seat: int, hand: Hand, faced: Bid | None,
                    called: bool) -> None:
        if faced is None:
            return
        fit = self._call_fits.get(seat)
        if fit is None:
            fit = self._call_fits[seat] = CallFit(self.model.caller, self.model.prior_weight)
        alone, reading = book.chance_seen_by(seat, hand, faced)
        fit.learn(alone, reading, called)

    # Playing.

    def __call__(self, situation: Situation) -> Action:
        self._rules = situation.rules
        self._seat = situation.me
        book = self._book
        if book is None or not book.follows(situation):
            book = self._book = RoundBook.of(situation)
        book.read(situation.bids, self._reading_style, self.model.reach)
        return self._choose(situation, book)

    def _reading_style(self, seat: int) -> Style:
        return self.model.prior if seat == self._seat else self.style(seat)

    def _choose(self, situation: Situation, book: RoundBook) -> Action:
        model = self.model
        me, dice, table = situation.me, situation.dice, situation.table_dice
        following = situation.next_seat()
        others_weight = 1.0 if situation.heads_up else model.others_weight
        counts = self._counts(situation, book, following)
        total, survival = counts.total, counts.survival

        best_action: Action | None = None
        best_value = -math.inf
        last = situation.last_bid
        if last is not None:
            face, q = last.face - 1, _bounded(last.quantity, table)
            true = float(survival[face, q])
            if situation.may_dudo():
                best_action, best_value = DUDO, -true + others_weight * (1.0 - true)
            if situation.may_calza():
                exact = float(total[face, q]) if q <= table else 0.0
                gain = 1.0 if dice[me] < situation.rules.starting_dice else 0.2
                value = gain * exact - (1.0 - exact) - model.calza_cost
                if value > best_value:
                    best_action, best_value = CALZA, value

        candidates = raise_window(last, table, situation.palifico, situation.rules,
                                  dice[me] == 1, model.reach)
        values = self._raise_values(situation, book, candidates, counts, others_weight)
        top = int(np.argmax(values))
        if values[top] > best_value or best_action is None:
            best_action = Action(ActionKind.RAISE, candidates[top])
        return best_action

    def _counts(self, situation: Situation, book: RoundBook, following: int) -> TableCounts:
        """Each face's count on the table as I read it, split around the next player."""
        me, table = situation.me, situation.table_dice
        palifico = situation.palifico
        length = table + 1
        rest = np.zeros((6, length))
        rest[:, 0] = 1.0
        for seat in situation.active_seats:
            if seat != me and seat != following:
                rest = _add_counts(rest, book.count_pmfs(seat))
        mine = [situation.hand.count(face, palifico=palifico) for face in FACES]
        without_next = np.zeros((6, length))
        for f in range(6):
            without_next[f, mine[f]:] = rest[f, :length - mine[f]]
        next_pmfs = book.count_pmfs(following)
        total = _add_counts(without_next, next_pmfs)
        survival = np.zeros((6, length + 1))
        survival[:, :length] = np.minimum(np.cumsum(total[:, ::-1], axis=1)[:, ::-1], 1.0)
        return TableCounts(rest, without_next, next_pmfs, total, survival)

    def _raise_values(self, situation: Situation, book: RoundBook,
                      candidates: tuple[Bid, ...], counts: TableCounts,
                      others_weight: float) -> np.ndarray:
        """The value of each candidate raise: a call caught against the call that costs the
        caller, and the risk that stays when the round goes on."""
        model = self.model
        table = situation.table_dice
        length = table + 1
        faces, quantities, thirds = _candidate_arrays(candidates, table, situation.palifico)
        caller = self.caller(situation.next_seat())
        next_dice = counts.next_pmfs.shape[1] - 1
        need = np.clip(quantities[:, None] - np.arange(next_dice + 1)[None, :], 0, length)
        believed: np.ndarray | float = 0.0
        if caller.reading > 0.0:
            # What the next player believes of the rest of the table: the public reading of
            # everyone but them, mine after the candidate.
            public = self._public_count_pmfs(situation, book, candidates)
            shifted = np.zeros((6, public.shape[1], length))
            for x in range(public.shape[1]):
                shifted[:, x, x:] = counts.rest[:, :length - x]
            seen = np.einsum("kx,kxl->kl", public, shifted[faces])
            seen_survival = np.zeros((len(candidates), length + 1))
            seen_survival[:, :length] = np.cumsum(seen[:, ::-1], axis=1)[:, ::-1]
            believed = caller.reading * seen_survival[np.arange(len(candidates))[:, None], need]
        if caller.reading < 1.0:
            tables = _survival_tables(table - next_dice)
            index = np.minimum(quantities[:, None] - np.arange(next_dice + 1)[None, :]
                               + _OFFSET, tables.shape[1] - 1)
            believed = believed + (1.0 - caller.reading) * tables[thirds[:, None], index]
        assert isinstance(believed, np.ndarray)  # reading > 0 or < 1: a branch above ran
        weights = caller.calls(believed) * counts.next_pmfs[faces]
        below = np.zeros((6, length + 1))
        np.cumsum(counts.without_next, axis=1, out=below[:, 1:])
        call = weights.sum(axis=1)
        caught = (weights * below[faces[:, None], need]).sum(axis=1)
        true = counts.survival[faces, quantities]
        stay = -model.stay_risk * (true + model.false_stay * (1.0 - true))
        return -caught + others_weight * (call - caught) + (1.0 - call) * stay

    def _public_count_pmfs(self, situation: Situation, book: RoundBook,
                           candidates: tuple[Bid, ...]) -> np.ndarray:
        """For each candidate, the distribution of my count of its face as the others read it
        from my bids this round and the candidate: shape (candidates, my dice + 1)."""
        me, dice, table = situation.me, situation.dice, situation.table_dice
        palifico = situation.palifico
        n = dice[me]
        weights = book.posterior(me)
        faces, _, _ = _candidate_arrays(candidates, table, palifico)
        if weights is None:
            return _prior_pmfs(n, palifico)[faces]
        space = hand_space(n)
        style = self.model.prior
        choice = honest_choice(n, palifico, candidates, situation.last_bid, table, style)
        matches = space.matches[palifico]
        indicators = space.indicators[palifico]
        plain = (weights @ indicators).reshape(6, n + 1)[faces]
        scaled = ((weights / choice.normalizers(matches)) @ indicators).reshape(6, n + 1)
        share = style.random_share
        pmfs = (share / len(candidates)) * plain + (1.0 - share) * choice.scores * scaled[faces]
        return pmfs / pmfs.sum(axis=1, keepdims=True)


# --- Players of their own dice ----------------------------------------------------------------


def own_odds(situation: Situation) -> np.ndarray:
    """P(at least q dice show f) from my own dice, shape (6, table + 2): row f − 1, column q
    (the last column, above the table, is 0)."""
    palifico = situation.palifico
    table = situation.table_dice
    unknown = table - len(situation.hand)
    rows = np.zeros((6, table + 2))
    for face in FACES:
        own = situation.hand.count(face, palifico=palifico)
        tail = count_survival(unknown, face, palifico)
        rows[face - 1, :own + 1] = 1.0
        rows[face - 1, own:own + unknown + 1] = tail
    return rows


def own_exact(situation: Situation, bid: Bid) -> float:
    """P(exactly the bid's quantity) from my own dice."""
    palifico = situation.palifico
    unknown = situation.table_dice - len(situation.hand)
    need = bid.quantity - situation.hand.count(bid.face, palifico=palifico)
    if not 0 <= need <= unknown:
        return 0.0
    return float(count_distribution(unknown, bid.face, palifico)[need])


def _chance(table: np.ndarray, bid: Bid) -> float:
    return float(table[bid.face - 1, min(bid.quantity, table.shape[1] - 1)])


def _legal_window(situation: Situation, reach: int) -> tuple[Bid, ...]:
    return raise_window(situation.last_bid, situation.table_dice, situation.palifico,
                        situation.rules, situation.dice[situation.me] == 1, reach)


def _best_face(situation: Situation, faces: Sequence[int]) -> int:
    """The face I hold most of (ties: the highest)."""
    return max(faces, key=lambda f: (situation.hand.count(f, palifico=situation.palifico), f))


def _opening(situation: Situation, face: int, confidence: float, odds: np.ndarray) -> Action:
    """The highest quantity on ``face`` my dice make at least ``confidence`` likely (≥ 1)."""
    row = odds[face - 1]
    quantity = max(1, int(np.flatnonzero(row >= confidence).max(initial=1)))
    return Action(ActionKind.RAISE, Bid(min(quantity, situation.table_dice), face))


def _opening_faces(situation: Situation) -> tuple[int, ...]:
    return tuple(b.face for b in _smallest(None, situation.palifico, situation.rules,
                                           situation.dice[situation.me] == 1))


@dataclass
class OddsPlayer:
    """Plays the odds of its own dice: raises to its likeliest bid, calls when the last bid is
    less likely true than that raise. ``caution`` lifts the bar for a raise."""

    rng: random.Random
    opening_confidence: float = 0.6
    caution: float = 0.0
    reach: int = 2

    def __call__(self, situation: Situation) -> Action:
        odds = own_odds(situation)
        last = situation.last_bid
        if last is None:
            return _opening(situation, _best_face(situation, _opening_faces(situation)),
                            self.opening_confidence, odds)
        best = max(_legal_window(situation, self.reach), key=self._preference(situation, odds))
        return self.respond(situation, odds, best)

    def _preference(self, situation: Situation,
                    odds: np.ndarray) -> Callable[[Bid], tuple[float, bool, int]]:
        """How raises rank: likeliest first, then on a face held, then the lowest."""
        held = self._held(situation)
        return lambda bid: (_chance(odds, bid), bid.face in held, -bid.quantity)

    def respond(self, situation: Situation, odds: np.ndarray, best: Bid) -> Action:
        last = situation.last_bid
        assert last is not None
        true = _chance(odds, last)
        raise_chance = _chance(odds, best) - self.caution
        if situation.may_calza() and own_exact(situation, last) > max(0.5, 1.0 - true):
            return CALZA
        if situation.may_dudo() and 1.0 - true >= raise_chance:
            return DUDO
        return Action(ActionKind.RAISE, best)

    @staticmethod
    def _held(situation: Situation) -> frozenset[int]:
        return frozenset(situation.hand.faces)


class LiarBot(OddsPlayer):
    """Half of its raises (and openings) go to a face it holds fewest of, chosen at random;
    otherwise it plays the odds of its own dice, and calls by them."""

    def __init__(self, rng: random.Random, lie_share: float = 0.5) -> None:
        super().__init__(rng)
        self.lie_share = lie_share

    def __call__(self, situation: Situation) -> Action:
        odds = own_odds(situation)
        last = situation.last_bid
        options = _legal_window(situation, self.reach)
        if last is not None:
            honest = max(options, key=lambda bid: (_chance(odds, bid), -bid.quantity))
            action = self.respond(situation, odds, honest)
            if action.kind != ActionKind.RAISE:
                return action
        if self.rng.random() < self.lie_share:
            return Action(ActionKind.RAISE, self._lie(situation, options, odds))
        if last is None:
            return _opening(situation, _best_face(situation, _opening_faces(situation)),
                            self.opening_confidence, odds)
        return Action(ActionKind.RAISE, honest)

    def _lie(self, situation: Situation, options: tuple[Bid, ...], odds: np.ndarray) -> Bid:
        """The smallest raise (an opening the table makes likely) on a face I hold fewest of."""
        faces = sorted({bid.face for bid in options})
        fewest = min(situation.hand.faces.count(face) for face in faces)
        face = self.rng.choice([f for f in faces if situation.hand.faces.count(f) == fewest])
        on_face = [bid for bid in options if bid.face == face]
        if situation.last_bid is None:
            unknown = situation.table_dice - len(situation.hand)
            share = 3 if _third(face, situation.palifico) else 6
            quantity = max(1, min(situation.table_dice, round(unknown / share)))
            return Bid(quantity, face)
        return on_face[0]


class TightBot(OddsPlayer):
    """A conservative player: opens low, never bluffs (its raise is always the one its own
    dice make likeliest) and calls dudo readily once the last bid is above what it expects on
    the table (when the bid is no likelier true than its best raise by ``eagerness``)."""

    def __init__(self, rng: random.Random, eagerness: float = 0.2) -> None:
        super().__init__(rng, opening_confidence=0.85)
        self.eagerness = eagerness

    def _preference(self, situation: Situation,
                    odds: np.ndarray) -> Callable[[Bid], tuple[float, bool, int]]:
        """Likeliest first, then the lowest: which faces it holds does not matter."""
        return lambda bid: (_chance(odds, bid), False, -bid.quantity)

    def respond(self, situation: Situation, odds: np.ndarray, best: Bid) -> Action:
        last = situation.last_bid
        assert last is not None
        true, safest = _chance(odds, last), _chance(odds, best)
        palifico = situation.palifico
        unknown = situation.table_dice - len(situation.hand)
        expected = situation.hand.count(last.face, palifico=palifico) + unknown * (
            1 / 3 if _third(last.face, palifico) else 1 / 6)
        margin = self.eagerness if last.quantity > expected else 0.0
        if situation.may_dudo() and 1.0 - true >= safest - margin:
            return DUDO
        if situation.may_calza() and own_exact(situation, last) > 0.55:
            return CALZA
        return Action(ActionKind.RAISE, best)


class BoldBot(OddsPlayer):
    """A bold bluffer: jumps its raises, bluffs a third of the time, rarely calls."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng, opening_confidence=0.45)

    def __call__(self, situation: Situation) -> Action:
        odds = own_odds(situation)
        last = situation.last_bid
        options = _legal_window(situation, 3)
        if last is not None and situation.may_dudo() and _chance(odds, last) < 0.25:
            return DUDO
        if last is None and self.rng.random() > 0.33:
            return _opening(situation, _best_face(situation, _opening_faces(situation)),
                            self.opening_confidence, odds)
        if self.rng.random() < 0.33:
            return Action(ActionKind.RAISE, self.rng.choice(options))
        plausible = [bid for bid in options if _chance(odds, bid) >= 0.4] or list(options)
        return Action(ActionKind.RAISE, max(plausible, key=lambda bid: (
            bid.quantity, _chance(odds, bid))))


MIX_STYLES: dict[str, OpponentFactory] = {
    "reader": ReaderBot,
    "liar": LiarBot,
    "tight": TightBot,
    "bold": BoldBot,
    "odds": OddsPlayer,
}
"""The styles ``mix`` draws from, one per game."""


def mix(rng: random.Random) -> OpponentBot:
    """A player of one style drawn at random for the whole game (see :data:`MIX_STYLES`)."""
    style = rng.choice(sorted(MIX_STYLES))
    return MIX_STYLES[style](rng)


OPPONENTS: dict[str, OpponentFactory] = {
    "reader": ReaderBot,
    "liar": LiarBot,
    "tight": TightBot,
    "mix": mix,
}
"""The league's opponents by name: each a factory taking the game's ``random.Random``."""


