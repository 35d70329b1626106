"""``adaptive``: a planner that learns, showdown by showdown, how each seat bids and calls.

It plans as :class:`~coach.play.opponents.planner.PlannerBot` does (deals of the others' hands
from the reader's posterior, every move weighed by playing the round out on them), and keeps
besides, for each seat, what the lifted cups told of it (:class:`SeatRecord`):

- how often its bids held: every bid of a lifted round is checked against the cups, beside
  the chance the adaptive planner read it with when it was made. A seat whose bids hold less
  often than read has its bids read as that much less likely (a shift in log-odds, fitted
  with a prior towards none): the deals where its last bid is false weigh more, so it is
  called more readily; one whose bids hold more often, less;
- its bluffs: the share of its bids on a face it held none of (the reader's fit of its
  random bids, which the deals are drawn by, learns the same from the same cups);
- how it calls: every time it faced a bid in a lifted round, how likely it saw the bid false
  against how likely it saw its best raise true (from its own dice and the bids as read), and
  whether it called. The margin it calls by is fitted per seat, and is the one its player
  uses in the rollouts: raises (bluffs included) go more readily into a seat that rarely
  calls, less into one that calls often.

The fits of every seat lend to each other (players at one table often play alike, and a
seat seen little borrows from the others).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from coach.engine.showdown import Showdown
from coach.engine.situation import Situation
from coach.play.opponents.common import raise_window
from coach.play.opponents.planner import PlannerBot, PlanSettings, others_counts
from coach.play.opponents.reading import RoundBook
from perudo_math import Bid, Hand

SHIFTS = np.linspace(-2.5, 2.5, 51)
"""The grid of log-odds shifts fitted to each seat's bids."""
MARGINS = np.linspace(-0.4, 0.8, 49)
"""The grid of call margins fitted to each seat's calls."""
CALL_STEEPNESS = 20.0
CALL_FLOOR = 0.02


@dataclass(frozen=True, slots=True)
class AdaptSettings:
    """How the adaptive planner learns.

    ``shift_prior``: the standard deviation of the prior on a seat's log-odds shift;
    ``margin_prior``: that of the prior on its call margin, around the planner's;
    ``pooling``: the weight of the rest of the table's evidence in each seat's fits.
    """

    shift_prior: float = 0.6
    margin_prior: float = 0.15
    pooling: float = 0.5


@dataclass(slots=True)
class SeatRecord:
    """What the showdowns told of one seat."""

    shift_evidence: np.ndarray = field(default_factory=lambda: np.zeros(len(SHIFTS)))
    margin_evidence: np.ndarray = field(default_factory=lambda: np.zeros(len(MARGINS)))
    bids: int = 0
    held: int = 0
    bluffs: int = 0
    faced: int = 0
    called: int = 0

    def learn_bid(self, chance: float, held: bool) -> None:
        """One bid I read as true with ``chance``; whether it held."""
        chance = min(max(chance, 1e-4), 1 - 1e-4)
        logit = math.log(chance / (1.0 - chance)) + SHIFTS
        p = 1.0 / (1.0 + np.exp(-logit))
        self.shift_evidence += np.log(p if held else 1.0 - p)
        self.bids += 1
        self.held += held

    def learn_call(self, doubt: float, best: float, called: bool) -> None:
        """One bid it faced: how likely it saw it false (``doubt``) and its best raise true."""
        p = calls(doubt - best - MARGINS)
        self.margin_evidence += np.log(p if called else 1.0 - p)
        self.faced += 1
        self.called += called

    @property
    def bluff_share(self) -> float:
        return self.bluffs / self.bids if self.bids else 0.0


def calls(edge: np.ndarray | float) -> np.ndarray:
    """The chance of a call when the bid's doubt exceeds the best raise's chance by its margin
    by ``edge``."""
    return CALL_FLOOR + (1.0 - 2 * CALL_FLOOR) / (1.0 + np.exp(-CALL_STEEPNESS * np.asarray(edge)))


def _posterior_mean(grid: np.ndarray, evidence: np.ndarray, centre: float,
                    spread: float) -> float:
    logs = evidence - 0.5 * ((grid - centre) / spread) ** 2
    weights = np.exp(logs - logs.max())
    return float(weights @ grid / weights.sum())


class AdaptiveBot(PlannerBot):
    """An adaptive planner (see the module's docstring); build one per game."""

    def __init__(self, rng: random.Random, settings: PlanSettings | None = None,
                 adapt: AdaptSettings | None = None) -> None:
        super().__init__(rng, settings)
        self.adapt = adapt or AdaptSettings()
        self.records: dict[int, SeatRecord] = {}

    def record(self, seat: int) -> SeatRecord:
        found = self.records.get(seat)
        if found is None:
            found = self.records[seat] = SeatRecord()
        return found

    def _pooled(self, seat: int, evidence: str) -> np.ndarray | None:
        record = self.records.get(seat)
        if record is None:
            return None
        own: np.ndarray = getattr(record, evidence)
        everyone = sum((getattr(other, evidence) for other in self.records.values()),
                       start=np.zeros_like(own))
        return own + self.adapt.pooling * (everyone - own)

    def shift(self, seat: int) -> float:
        """How far (in log-odds) ``seat``'s bids hold more often than I read them."""
        evidence = self._pooled(seat, "shift_evidence")
        if evidence is None:
            return 0.0
        return _posterior_mean(SHIFTS, evidence, 0.0, self.adapt.shift_prior)

    def margin(self, seat: int) -> float:
        """The margin ``seat`` calls by: it calls when it sees the bid false more likely than
        its best raise true by this much."""
        prior = self.settings.call_margin
        evidence = self._pooled(seat, "margin_evidence")
        if evidence is None:
            return prior
        return _posterior_mean(MARGINS, evidence, prior, self.adapt.margin_prior)

    # What the planner asks.

    def call_margins(self, situation: Situation) -> dict[int, float]:
        return {seat: self.margin(seat) for seat in situation.active_seats
                if seat != situation.me and seat in self.records}

    def deal_weights(self, situation: Situation, totals: np.ndarray) -> np.ndarray | None:
        """The deals where the last bid is false weigh more when its bidder's bids hold less
        often than read (and the other way)."""
        last = situation.last_bid
        if last is None or situation.bids[-1][0] == situation.me:
            return None
        shift = self.shift(situation.bids[-1][0])
        true = totals[:, last.face - 1] >= last.quantity
        count = int(true.sum())
        if shift == 0.0 or count in (0, len(totals)):
            return None
        read = count / len(totals)
        target = 1.0 / (1.0 + math.exp(-(math.log(read / (1.0 - read)) + shift)))
        return np.where(true, target / count, (1.0 - target) / (len(totals) - count))

    # Learning.

    def observe(self, showdown: Showdown) -> None:
        hands = showdown.hands
        me = self._seat
        if (hands is not None and me is not None and 0 <= me < len(hands) and hands[me]
                and all(0 <= seat < len(hands) and hands[seat] for seat, _ in showdown.bids)):
            self._learn(showdown, hands, me)
        super().observe(showdown)

    def _learn(self, showdown: Showdown, hands: tuple[Hand, ...], me: int) -> None:
        """Each opponent's bids against the cups, beside the chance I read them with; and
        each decision it made facing a bid, as it saw it."""
        dice = tuple(len(hand) for hand in hands)
        palifico = showdown.palifico
        book = RoundBook(dice, palifico, self._rules)
        bids = showdown.bids
        for index, (seat, bid) in enumerate(bids):
            book.read(bids[:index + 1], self._reading_style, self.model.reach)
            acting = bids[index + 1][0] if index + 1 < len(bids) else (
                showdown.caller if showdown.kind == "dudo" else None)
            if acting is not None and acting != me and 0 <= acting < len(hands) \
                    and hands[acting]:
                doubt, best = self._seen_by(book, hands, acting, bid)
                self.record(acting).learn_call(doubt, best, index + 1 == len(bids))
            if seat == me:
                continue
            count = sum(hand.count(bid.face, palifico=palifico) for hand in hands)
            record = self.record(seat)
            record.learn_bid(book.chance_seen_by(me, hands[me], bid)[1], count >= bid.quantity)
            record.bluffs += hands[seat].count(bid.face, palifico=palifico) == 0

    def _seen_by(self, book: RoundBook, hands: tuple[Hand, ...], seat: int,
                 bid: Bid) -> tuple[float, float]:
        """How likely ``seat`` saw ``bid`` false, and its likeliest smallest raise true, from
        its own dice and the others' as the bids read them."""
        palifico = book.palifico
        hand = hands[seat]
        rest = others_counts({other: book.count_pmfs(other)
                              for other, dice in enumerate(book.dice) if dice}, seat)

        def chance(raised: Bid) -> float:
            need = raised.quantity - hand.count(raised.face, palifico=palifico)
            tail = rest[raised.face - 1]
            return 1.0 if need <= 0 else float(tail[need:].sum()) if need < len(tail) else 0.0

        raises = raise_window(bid, book.table, palifico, self._rules, len(hand) == 1, 0)
        return 1.0 - chance(bid), max(chance(raised) for raised in raises)


__all__ = ["AdaptSettings", "AdaptiveBot", "SeatRecord"]
