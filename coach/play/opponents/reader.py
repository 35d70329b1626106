"""``reader``: an exact Bayesian reader (:mod:`coach.play.opponents.reading` is its model).

It keeps a posterior over every opponent's hand, updates it with every bid of the round, calls
by that posterior, and weighs each raise by the chance that the next player, reading too,
calls it. From the hands each showdown lifts it fits every opponent's style of bidding (its
random-bid share among it) and its way of calling, pooled across the table.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from coach.engine.showdown import Showdown
from coach.engine.situation import CALZA, DUDO, Action, ActionKind, Situation
from coach.play.opponents.common import raise_window
from coach.play.opponents.reading import (
    OFFSET,
    Caller,
    CallFit,
    ReadingModel,
    RoundBook,
    Style,
    StyleFit,
    bounded,
    candidate_arrays,
    hand_space,
    honest_choice,
    pooled,
    prior_pmfs,
    survival_tables,
)
from perudo_math import FACES, Bid, Hand, Rules


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
            self._styles = pooled(self._fits, model.pooling, self._seat)
        if model.learn_calls:
            self._callers = pooled(self._call_fits, model.pooling, self._seat)

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
            face, q = last.face - 1, bounded(last.quantity, table)
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
        faces, quantities, thirds = candidate_arrays(candidates, table, situation.palifico)
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
            tables = survival_tables(table - next_dice)
            index = np.minimum(quantities[:, None] - np.arange(next_dice + 1)[None, :]
                               + OFFSET, tables.shape[1] - 1)
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
        faces, _, _ = candidate_arrays(candidates, table, palifico)
        if weights is None:
            return prior_pmfs(n, palifico)[faces]
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

