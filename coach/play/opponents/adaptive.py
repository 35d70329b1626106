"""``adaptive``: a reader that learns, showdown by showdown, how far to trust each seat.

It reads the bids and fits every opponent's style of bidding and calling as
:class:`~coach.play.opponents.reader.ReaderBot` does, and keeps besides, for each seat, what
the lifted cups told of it (:class:`SeatRecord`):

- how often its bids held: every bid of a lifted round is checked against the cups, beside
  the chance the adaptive reader gave it when it was made, so a seat whose bids hold less
  often than read has its bids read as that much less likely (in log-odds, fitted with a
  prior towards none), and is called more readily; one whose bids hold more often, less;
- its bluffs: the share of its bids on a face it held none of;
- its calls: how often it called dudo on the adaptive reader's own raises, against how often
  the reader's model of it said it would. A seat that calls less than its model says has its
  calls scaled down, so bolder raises (bluffs) go into it; one that calls more, the other way.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from coach.engine.showdown import Showdown
from coach.engine.situation import CALZA, DUDO, Action, ActionKind, Situation
from coach.play.opponents.common import raise_window
from coach.play.opponents.reader import ReaderBot, TableCounts
from coach.play.opponents.reading import (
    Caller,
    ReadingModel,
    RoundBook,
    bounded,
    candidate_arrays,
)
from perudo_math import Bid, Hand

SHIFTS = np.linspace(-2.5, 2.5, 51)
"""The grid of log-odds shifts fitted to each seat's bids."""


@dataclass(frozen=True, slots=True)
class AdaptSettings:
    """How far the adaptive reader moves from the reader.

    ``shift_prior``: the standard deviation of the prior on a seat's log-odds shift;
    ``pooling``: the weight of the rest of the table's bids in a seat's shift (players at
    one table often play alike, and a seat seen little borrows from the others);
    ``call_prior``: the weight, in calls, of the prior that a seat calls as modelled;
    ``scale_range``: the least and most a seat's calls are scaled by.
    """

    shift_prior: float = 0.6
    pooling: float = 0.5
    call_prior: float = 3.0
    scale_range: tuple[float, float] = (0.4, 2.0)


@dataclass(slots=True)
class SeatRecord:
    """What the showdowns told of one seat."""

    log_likelihood: np.ndarray = field(default_factory=lambda: np.zeros(len(SHIFTS)))
    bids: int = 0
    held: int = 0
    bluffs: int = 0
    faced: int = 0
    called: int = 0
    expected_calls: float = 0.0

    def learn_bid(self, chance: float, held: bool) -> None:
        """One bid the adaptive reader saw as true with ``chance``; whether it held."""
        chance = min(max(chance, 1e-4), 1 - 1e-4)
        logit = math.log(chance / (1.0 - chance)) + SHIFTS
        p = 1.0 / (1.0 + np.exp(-logit))
        self.log_likelihood += np.log(p if held else 1.0 - p)
        self.bids += 1
        self.held += held

    def shift(self, prior: float, table: np.ndarray | float = 0.0) -> float:
        """The posterior mean log-odds shift of this seat's bids; ``table`` adds evidence
        pooled from the other seats."""
        logs = self.log_likelihood + table - 0.5 * (SHIFTS / prior) ** 2
        weights = np.exp(logs - logs.max())
        return float(weights @ SHIFTS / weights.sum())

    def call_scale(self, prior: float, low: float, high: float) -> float:
        """How much more (or less) often than modelled this seat calls my raises."""
        scale = (self.called + prior) / (self.expected_calls + prior)
        return min(max(scale, low), high)

    @property
    def bluff_share(self) -> float:
        return self.bluffs / self.bids if self.bids else 0.0


@dataclass(frozen=True, slots=True)
class ScaledCaller(Caller):
    """A caller whose chance of calling is scaled (kept under 1); ``seen`` keeps each chance
    it was asked about, for the adaptive reader to tell what the unscaled model said."""

    scale: float = 1.0
    seen: list[np.ndarray] = field(default_factory=list, compare=False)

    def calls(self, chance: np.ndarray) -> np.ndarray:
        self.seen.append(chance)
        return np.minimum(Caller.calls(self, chance) * self.scale, 0.98)


class AdaptiveBot(ReaderBot):
    """An adaptive reader (see the module's docstring); build one per game."""

    def __init__(self, rng: random.Random, model: ReadingModel | None = None,
                 settings: AdaptSettings | None = None) -> None:
        super().__init__(rng, model)
        self.settings = settings or AdaptSettings()
        self.records: dict[int, SeatRecord] = {}
        self._my_raises: list[tuple[int, float]] = []
        """This round's raises of mine: the next seat, and the chance the model gave it to
        call."""
        self._round_key: object = None
        self._asked: list[np.ndarray] = []

    def record(self, seat: int) -> SeatRecord:
        found = self.records.get(seat)
        if found is None:
            found = self.records[seat] = SeatRecord()
        return found

    def shift(self, seat: int) -> float:
        """How far (in log-odds) ``seat``'s bids hold more often than I read them."""
        record = self.records.get(seat)
        if record is None:
            return 0.0
        others = sum((other.log_likelihood for s, other in self.records.items()
                      if s != seat), start=np.zeros(len(SHIFTS)))
        return record.shift(self.settings.shift_prior, self.settings.pooling * others)

    def caller(self, seat: int) -> Caller:
        base = super().caller(seat)
        record = self.records.get(seat)
        scale = 1.0
        if record is not None:
            low, high = self.settings.scale_range
            scale = record.call_scale(self.settings.call_prior, low, high)
        return ScaledCaller(base.reading, base.threshold, base.steepness, scale, self._asked)

    # Learning.

    def observe(self, showdown: Showdown) -> None:
        self._learn_my_raises(showdown)
        hands = showdown.hands
        me = self._seat
        if hands is not None and me is not None and 0 <= me < len(hands) and hands[me]:
            self._learn_bids(showdown, hands, me)
        super().observe(showdown)

    def _learn_my_raises(self, showdown: Showdown) -> None:
        """Whether the seat after each of my raises this round called it."""
        raises, self._my_raises = self._my_raises, []
        bids = showdown.bids
        if not raises or not bids:
            return
        last_seat = bids[-1][0]
        for number, (following, chance) in enumerate(raises):
            called = (number == len(raises) - 1 and last_seat == self._seat
                      and showdown.kind == "dudo" and showdown.caller == following)
            record = self.record(following)
            record.faced += 1
            record.called += called
            record.expected_calls += chance

    def _learn_bids(self, showdown: Showdown, hands: tuple[Hand, ...], me: int) -> None:
        """Each opponent's bids against the cups, beside the chance I gave them."""
        dice = tuple(len(hand) for hand in hands)
        palifico = showdown.palifico
        book = RoundBook(dice, palifico, self._rules)
        bids = showdown.bids
        for index, (seat, bid) in enumerate(bids):
            if not 0 <= seat < len(hands) or not hands[seat]:
                return  # not a round of this table
            book.read(bids[:index + 1], self._reading_style, self.model.reach)
            if seat == me:
                continue
            count = sum(hand.count(bid.face, palifico=palifico) for hand in hands)
            record = self.record(seat)
            record.learn_bid(self._chance(book, hands[me], me, bid), count >= bid.quantity)
            record.bluffs += hands[seat].count(bid.face, palifico=palifico) == 0

    @staticmethod
    def _chance(book: RoundBook, hand: Hand, me: int, bid: Bid) -> float:
        """How likely ``bid`` is true, seen from ``hand`` with the others read by ``book``."""
        need = bid.quantity - hand.count(bid.face, palifico=book.palifico)
        if need <= 0:
            return 1.0
        total = np.ones(1)
        for seat, dice in enumerate(book.dice):
            if dice and seat != me:
                total = np.convolve(total, book.face_pmf(seat, bid.face))
        return float(total[need:].sum()) if need < len(total) else 0.0

    # Playing.

    def __call__(self, situation: Situation) -> Action:
        key = (situation.dice, situation.hand, situation.palifico)
        if key != self._round_key:
            self._my_raises = []  # a round whose showdown I was not shown
            self._round_key = key
        return super().__call__(situation)

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
            face, q = last.face - 1, bounded(last.quantity, table)
            true = _shifted(float(survival[face, q]), self.shift(situation.bids[-1][0]))
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
        self._asked.clear()
        values = self._raise_values(situation, book, candidates, counts, others_weight)
        top = int(np.argmax(values))
        if values[top] > best_value or best_action is None:
            best_action = Action(ActionKind.RAISE, candidates[top])
            if self._asked:
                self._my_raises.append((following, self._call_chance(
                    situation, candidates, top, counts)))
        return best_action

    def _call_chance(self, situation: Situation, candidates: tuple[Bid, ...], top: int,
                     counts: TableCounts) -> float:
        """The chance the next seat calls ``candidates[top]`` by its model, unscaled."""
        believed = self._asked[-1][top]
        caller = super().caller(situation.next_seat())
        faces = candidate_arrays(candidates, situation.table_dice, situation.palifico)[0]
        return float(caller.calls(believed) @ counts.next_pmfs[faces[top]])


def _shifted(chance: float, shift: float) -> float:
    """``chance`` moved by ``shift`` in log-odds (0 and 1 stay)."""
    if chance <= 0.0 or chance >= 1.0 or shift == 0.0:
        return chance
    return 1.0 / (1.0 + math.exp(-(math.log(chance / (1.0 - chance)) + shift)))


__all__ = ["AdaptSettings", "AdaptiveBot", "ScaledCaller", "SeatRecord"]
