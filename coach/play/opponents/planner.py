"""``planner``: a determinized Monte-Carlo planner.

At each decision it deals the other players' hands many times over from the reader's posterior
(:mod:`coach.play.opponents.reading`: every bid of the round weighed by a model of how a player
bids from their own dice, each opponent's style fitted from the showdowns), then weighs every
move it may make on those same deals: dudo and calza by the count each deal shows, each raise
by playing the rest of the round out, every seat (itself included) playing a fast policy from
its own dice in that deal and the others' as the bids read them. It takes the move that costs
it a die least often, a die lost by another player counting a little in its favour. Every
deal comes from a generator seeded from the game's ``random.Random``, so a game replays from
its seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from coach.engine.situation import CALZA, DUDO, Action, ActionKind, Situation
from coach.play.opponents.common import one_in_three, raise_window
from coach.play.opponents.reader import ReaderBot
from coach.play.opponents.reading import OFFSET, READ_LIMIT, RoundBook, hand_space, survival_tables
from perudo_math import FACES, Bid


@dataclass(frozen=True, slots=True)
class PlanSettings:
    """How the planner plans.

    ``samples`` deals per decision; ``reach`` how far above the smallest legal raise on each
    face it looks (``rollout_reach`` for the players of a rollout); a player of a rollout
    calls dudo when it sees the bid false more likely, by ``call_margin``, than it sees its
    likeliest raise true, from its own dice in the deal and the others' as the bids read them
    when the decision is made (``reading_views``; else as uniform dice). (Against the
    league's readers, that rule and a window of the smallest raise on each face foretold
    96 % of their calls and 85 % of their raises.) ``others_weight`` what another player's lost
    die is worth to it at a table of more than two; ``calza_margin`` what a calza must clear
    on top of its odds; ``opening_faces`` how many faces (those it holds most of) it weighs
    for an opening; above ``most_table`` dice on the table it plays as the reader does.
    """

    samples: int = 160
    reach: int = 2
    rollout_reach: int = 0
    call_margin: float = 0.2
    reading_views: bool = True
    others_weight: float = 0.15
    calza_margin: float = 0.2
    opening_faces: int = 3
    most_table: int = 40


def others_counts(pmfs: Mapping[int, np.ndarray], seat: int) -> list[np.ndarray]:
    """For each face, the distribution of the count held by every seat of ``pmfs`` (each a
    :meth:`~coach.play.opponents.reading.RoundBook.count_pmfs`) but ``seat``."""
    rest = [np.ones(1)] * 6
    for other, faces in pmfs.items():
        if other != seat:
            rest = [np.convolve(rest[face], faces[face]) for face in range(6)]
    return rest


Window = tuple[tuple[Bid, int, int], ...]
"""Raises as (bid, face index, quantity kept within the table + 1)."""


class _Rollouts:
    """One decision's deals and the fast policy every seat plays on them.

    The policy is deterministic on a deal (a seat calls dudo when it sees the bid false more
    likely than its likeliest raise true, by ``call_margin``, else raises to that raise),
    and bids only climb, so a round played out on a deal always ends, and every state it
    passes through ends the same way: that outcome is kept for the other moves weighed.
    """

    def __init__(self, situation: Situation, totals: list[list[int]],
                 matches: dict[int, list[list[int]]], settings: PlanSettings,
                 public: dict[int, np.ndarray] | None,
                 margins: dict[int, float] | None = None) -> None:
        self.situation = situation
        self.totals = totals
        self.matches = matches
        self.settings = settings
        self.me = situation.me
        dice = situation.dice
        table = situation.table_dice
        self.table = table
        self.pad = table + 1
        self.next_of = {seat: situation.next_seat(seat) for seat in situation.active_seats}
        seats = situation.active_seats
        self.odds = {seat: self._odds_rows(table - dice[seat]) if public is None
                     else self._read_rows(seat, public) for seat in seats}
        self.one_die = {seat: dice[seat] == 1 for seat in situation.active_seats}
        self.others_weight = 1.0 if situation.heads_up else settings.others_weight
        self.margins = {seat: settings.call_margin for seat in seats}
        self.margins.update(margins or {})
        self.limit = 6 * (table + 1)
        self._windows: dict[tuple[Bid | None, bool, int], Window] = {}
        self._ends: dict[tuple[int, Bid, int], float] = {}

    def _odds_rows(self, unknown: int) -> list[list[float]]:
        """For each face, P(at least ``need`` of ``unknown`` uniform dice count toward it),
        indexed by ``need + pad``: 1 for every need ≤ 0, 0 above ``unknown``."""
        tables = survival_tables(unknown)
        length = 2 * self.pad + 2
        rows = []
        for row in tables.tolist():
            front = [1.0] * (self.pad - OFFSET) + row
            rows.append((front + [0.0] * length)[:length])
        palifico = self.situation.palifico
        return [rows[int(one_in_three(face, palifico))] for face in FACES]

    def _read_rows(self, seat: int, public: dict[int, np.ndarray]) -> list[list[float]]:
        """For each face, P(at least ``need`` of the other seats' dice count toward it) as
        the bids read them in public, indexed by ``need + pad``."""
        rest = np.stack(others_counts(public, seat))
        length = 2 * self.pad + 2
        rows = np.zeros((6, length))
        rows[:, :self.pad + 1] = 1.0
        tail = np.cumsum(rest[:, ::-1], axis=1)[:, ::-1]
        width = min(tail.shape[1], length - self.pad)
        rows[:, self.pad:self.pad + width] = np.minimum(tail[:, :width], 1.0)
        return rows.tolist()

    def window(self, bid: Bid | None, one_die: bool, reach: int) -> Window:
        """The raises a player weighs over ``bid``, kept for the rest of the decision."""
        key = (bid, one_die, reach)
        found = self._windows.get(key)
        if found is not None:
            return found
        situation = self.situation
        raises = raise_window(bid, situation.table_dice, situation.palifico, situation.rules,
                              one_die, reach)
        top = self.table + 1
        window = tuple((b, b.face - 1, min(b.quantity, top)) for b in raises)
        self._windows[key] = window
        return window

    def outcome(self, loser: int) -> float:
        return -1.0 if loser == self.me else self.others_weight

    def play_out(self, deal: int, bid: Bid, bidder: int) -> float:
        """The rest of the round on one deal after ``bidder`` bid ``bid``: my value."""
        ends = self._ends
        key = (deal, bid, bidder)
        known = ends.get(key)
        if known is not None:
            return known
        totals = self.totals[deal]
        margins = self.margins
        reach = self.settings.rollout_reach
        pad = self.pad
        face, quantity = bid.face - 1, min(bid.quantity, self.table + 1)
        seat = self.next_of[bidder]
        path = [key]
        value: float | None = None
        for _ in range(self.limit):
            own = self.matches[seat][deal]
            rows = self.odds[seat]
            doubt = 1.0 - rows[face][quantity - own[face] + pad] - margins[seat]
            best_bid, best_chance, best_face, best_quantity = bid, -1.0, face, quantity
            for raised, f, q in self.window(bid, self.one_die[seat], reach):
                seen = rows[f][q - own[f] + pad]
                if seen > best_chance:
                    best_bid, best_chance, best_face, best_quantity = raised, seen, f, q
            if doubt > best_chance:
                break
            bid, bidder, seat = best_bid, seat, self.next_of[seat]
            face, quantity = best_face, best_quantity
            key = (deal, bid, bidder)
            value = ends.get(key)
            if value is not None:
                break
            path.append(key)
        if value is None:
            value = self.outcome(seat if totals[face] >= quantity else bidder)
        for step in path:
            ends[step] = value
        return value


class PlannerBot(ReaderBot):
    """A determinized Monte-Carlo planner (see the module's docstring); build one per game.

    It reads the bids and learns from the showdowns as :class:`ReaderBot` does, and plays
    as the reader does only at tables too large for its deals (``most_table``).
    """

    def __init__(self, rng: random.Random, settings: PlanSettings | None = None) -> None:
        super().__init__(rng)
        self.settings = settings or PlanSettings()
        self._deals = np.random.default_rng(rng.getrandbits(64))

    def _choose(self, situation: Situation, book: RoundBook) -> Action:
        if situation.table_dice > self.settings.most_table:
            return super()._choose(situation, book)
        settings = self.settings
        totals, matches = self._deal(situation, book)
        public = None
        if settings.reading_views:
            public = {seat: book.count_pmfs(seat) for seat in situation.active_seats}
        rollouts = _Rollouts(situation, totals.tolist(),
                             {seat: rows.tolist() for seat, rows in matches.items()}, settings,
                             public, self.call_margins(situation))
        weights = self.deal_weights(situation, totals)
        me, last = situation.me, situation.last_bid
        best_action: Action | None = None
        best_value = -np.inf
        if last is not None:
            column = totals[:, last.face - 1]
            true = _average(column >= last.quantity, weights)
            if situation.may_dudo():
                best_action, best_value = DUDO, -true + rollouts.others_weight * (1.0 - true)
            if situation.may_calza():
                exact = _average(column == last.quantity, weights)
                gain = 1.0 if situation.dice[me] < situation.rules.starting_dice else 0.2
                value = gain * exact - (1.0 - exact) - settings.calza_margin
                if value > best_value:
                    best_action, best_value = CALZA, value
        deals = range(settings.samples)
        for bid in self._candidates(situation, rollouts):
            if weights is None:
                value = sum(rollouts.play_out(deal, bid, me) for deal in deals) / len(deals)
            else:
                value = float(weights @ np.fromiter((rollouts.play_out(deal, bid, me)
                                                     for deal in deals), float, len(deals)))
            if value > best_value or best_action is None:
                best_action, best_value = Action(ActionKind.RAISE, bid), value
        assert best_action is not None
        return best_action

    def call_margins(self, situation: Situation) -> dict[int, float]:
        """Each seat's margin as a caller in the rollouts: the same for all, here."""
        return {}

    def deal_weights(self, situation: Situation, totals: np.ndarray) -> np.ndarray | None:
        """Each deal's weight (they sum to 1); None: equal, here."""
        return None

    def _candidates(self, situation: Situation, rollouts: _Rollouts) -> list[Bid]:
        """The raises weighed: the window above the last bid; for an opening, around the
        expected count of the faces I hold most of."""
        one_die = situation.dice[situation.me] == 1
        window = [entry[0] for entry in rollouts.window(situation.last_bid, one_die,
                                                        self.settings.reach)]
        if situation.last_bid is not None:
            return window
        palifico, hand = situation.palifico, situation.hand
        unknown = situation.table_dice - len(hand)
        faces = sorted({bid.face for bid in window},
                       key=lambda f: (-hand.count(f, palifico=palifico), -f))
        chosen = set(faces[:self.settings.opening_faces])
        kept = []
        for bid in window:
            if bid.face not in chosen:
                continue
            share = 3 if one_in_three(bid.face, palifico) else 6
            expected = hand.count(bid.face, palifico=palifico) + unknown / share
            if expected - 4.5 <= bid.quantity <= expected + 1.5:
                kept.append(bid)
        return kept or window

    def _deal(self, situation: Situation,
              book: RoundBook) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """``samples`` deals of the others' hands from the posterior: each face's count on the
        table (samples, 6) and each seat's own count toward each face (samples, 6)."""
        samples = self.settings.samples
        palifico = situation.palifico
        mine = np.array([situation.hand.count(face, palifico=palifico)
                         for face in range(1, 7)])
        matches: dict[int, np.ndarray] = {situation.me: np.broadcast_to(mine, (samples, 6))}
        totals = np.tile(mine, (samples, 1))
        for seat in situation.active_seats:
            if seat == situation.me:
                continue
            dice = situation.dice[seat]
            weights = book.posterior(seat) if dice <= READ_LIMIT else None
            if weights is None:
                counts = self._deals.multinomial(dice, [1 / 6] * 6, size=samples)
                if not palifico:
                    counts[:, 1:] += counts[:, :1]
                seat_matches = counts
            else:
                space = hand_space(dice)
                drawn = self._deals.choice(space.size, size=samples, p=weights)
                seat_matches = space.matches[palifico][drawn]
            matches[seat] = seat_matches
            totals = totals + seat_matches
        return totals, matches


def _average(values: np.ndarray, weights: np.ndarray | None) -> float:
    return float(np.mean(values) if weights is None else weights @ values)


__all__ = ["PlanSettings", "PlannerBot"]
