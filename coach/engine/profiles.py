"""What showdowns teach about each opponent: how often they bluff, when they call.

Every lifted cup is evidence. Each bid of a hand now shown was either honest or a bluff
that says nothing (the mixture of the reading's likelihood, by default
:func:`coach.engine.hands.choice_likelihood`); the chance it
was a bluff, given the hand, averaged over the seat's bids and shrunk toward the
population's share, is how far their bids are read (one EM step per showdown). When a
showdown shows every hand, each decision the opponent made this round is evidence of when
they call dudo: the chance, from their own dice, that the bid they faced was true, against
what they did; and by what margin they call (:meth:`OpponentProfiles.call_margin`), judged
as the rollouts judge a caller, through the bids they had read. A tracked game shows only
the count, and then only the bids on the called face tell whether they held
(:meth:`OpponentProfiles.held`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import exp, log

import numpy as np

from coach.engine.beliefs import (
    TABLE_READ_BIDS,
    BidReading,
    PublicReading,
    RoundReading,
    prefix_readings,
)
from coach.engine.hands import (
    bid_likelihood,
    hand_space,
    informed_choice,
    uniform_choice,
    uniform_survival,
)
from coach.engine.showdown import Showdown
from perudo_math import MAX_STARTING_DICE, Bid, Rules, odds, smallest_raises

STANDARD_RULES = Rules()
THRESHOLDS = tuple(step / 20 for step in range(1, 20))
MARGINS = tuple(step / 20 for step in range(-10, 17))
"""The call margins a seat's calls are fitted to (see :meth:`OpponentProfiles.call_margin`)."""
HELD_PRIOR = 0.67
"""How often a bid on the counted face held at a showdown, over arena play against odds
players, readers, liars and tight players (0.76, 0.43, 0.59 and 0.91 of about 3,400)."""
READING_TEMPER = 0.5
"""How much a showdown's evidence that a seat reads the table counts: the models compared
are both approximate, so their likelihood ratio is tempered."""
HELD_SLOPE = 1.0
"""Bluff share per point of held rate below the population's: across those four kinds of
player the share learned from whole hands falls about one for one as the held rate rises."""


_THRESHOLDS = np.array(THRESHOLDS)
_MARGINS = np.array(MARGINS)


def _margin_of(errors: np.ndarray) -> float:
    """The margin of :data:`MARGINS` that misreads fewest decisions (``errors``, per
    margin): the middle of those that do it equally well."""
    best = np.flatnonzero(errors == errors.min())
    return float(_MARGINS[best[best.size // 2]])


def _threshold_of(errors: np.ndarray) -> float:
    """The threshold of :data:`THRESHOLDS` that misreads fewest decisions (``errors``, per
    threshold): the lowest of those that do it equally well."""
    return float(_THRESHOLDS[int(np.argmin(errors))])


def _shrunk(prior: float, total: float, seen: int, weight: float) -> float:
    """The mean of ``seen`` observations adding up to ``total``, pulled toward ``prior`` as if
    the prior had been observed ``weight`` times."""
    return (prior * weight + total) / (weight + seen)


@dataclass(slots=True)
class SeatRecord:
    """One opponent's evidence so far."""

    bids: int = 0
    bluffs: float = 0.0
    held: int = 0
    judged: int = 0
    faced: list[tuple[float, bool]] = field(default_factory=list)
    """(P(the bid they faced was true) from their own dice, whether they called dudo)."""
    reads_table: float = 0.0
    """log P(their bids | they read the bids before theirs) − log P(… | their dice alone)."""
    gaps: list[tuple[float, bool]] = field(default_factory=list)
    """(1 − P(the bid they faced was true) − P(their likeliest raise true), both from their
    own dice and the others' as the bids before the one faced told them, whether they called
    dudo)."""
    threshold_misses: np.ndarray = field(
        default_factory=lambda: np.zeros(len(THRESHOLDS), dtype=np.int64), compare=False)
    """Per threshold of :data:`THRESHOLDS`, how many of ``faced`` it misreads (a seat taken
    to call below the threshold, and to raise at or above it): counted as they come, so that
    a fit costs the same however many decisions were seen."""
    margin_misses: np.ndarray = field(
        default_factory=lambda: np.zeros(len(MARGINS), dtype=np.int64), compare=False)
    """Per margin of :data:`MARGINS`, how many of ``gaps`` it misreads (a seat taken to
    call where its gap is above the margin, and to raise elsewhere)."""

    def add_faced(self, chance: float, called: bool) -> None:
        """One decision facing a bid that looked true with ``chance`` from their dice."""
        self.faced.append((chance, called))
        self.threshold_misses += (chance < _THRESHOLDS) != called

    def add_gap(self, gap: float, called: bool) -> None:
        """One decision facing a bid, with its gap (see ``gaps``)."""
        self.gaps.append((gap, called))
        self.margin_misses += (gap > _MARGINS) != called


@dataclass(slots=True)
class OpponentProfiles:
    """Per-seat estimates from showdowns, shrunk toward the population's with ``weight``
    bids' (or decisions') worth of prior."""

    bluff_prior: float = 0.2
    threshold_prior: float = 0.45
    weight: float = 10.0
    margin_weight: float = 5.0
    """How many decisions' worth the prior of :meth:`call_margin` counts for: fewer than the
    other estimates', so that a seat shown to call readily is played so sooner."""
    reading: BidReading = field(default_factory=BidReading)
    """How bids are read: a bluff is weighed against the honest bid under this model."""
    seats: dict[int, SeatRecord] = field(default_factory=dict)

    def observe(self, showdown: Showdown, me: int | None = None,
                rules: Rules = STANDARD_RULES) -> None:
        """Learn from one showdown (my own seat, ``me``, teaches nothing) played under
        ``rules``."""
        # One EM step: every bid is weighed with the estimates from before this showdown,
        # so the table's reading of the round is one and is extended bid by bid.
        before = self._snapshot(len(showdown.hands) if showdown.hands is not None else 0)
        readings = self._readings(showdown, rules, before)
        for index, (seat, bid) in enumerate(showdown.bids):
            if seat == me:
                continue
            record = self.seats.setdefault(seat, SeatRecord())
            held = showdown.held(bid)
            if held is not None:
                record.judged += 1
                record.held += held
            if showdown.hands is None:
                continue
            bluff, reads = self._bluff_chance(showdown, index, rules, before, readings)
            record.bluffs += bluff
            record.reads_table += reads
            record.bids += 1
            if index:
                faced = showdown.bids[index - 1][1]
                record.add_faced(self._own_odds(showdown, seat, faced), False)
                record.add_gap(self._gap(showdown, seat, faced, rules,
                                         self._view(showdown, index - 1, seat, before,
                                                    readings)), False)
        caller = showdown.caller
        if showdown.hands is not None and caller != me and showdown.kind == "dudo":
            record = self.seats.setdefault(caller, SeatRecord())
            record.add_faced(self._own_odds(showdown, caller, showdown.called_bid), True)
            view = self._view(showdown, len(showdown.bids) - 1, caller, before, readings)
            record.add_gap(self._gap(showdown, caller, showdown.called_bid, rules, view), True)

    @staticmethod
    def _readings(showdown: Showdown, rules: Rules,
                  public: PublicReading) -> list[RoundReading] | None:
        """The table's reading of the showdown's first i bids, for every i
        (:func:`beliefs.prefix_readings`, one pass); None where nothing is read hand by hand
        (no hands shown, or a seat of more dice than a hand's reading holds)."""
        if showdown.hands is None:
            return None
        dice = tuple(len(other) for other in showdown.hands)
        if max(dice) > MAX_STARTING_DICE:
            return None
        return prefix_readings(dice, showdown.bids, showdown.palifico, rules, public)

    @staticmethod
    def _view(showdown: Showdown, read: int, seat: int, public: PublicReading,
              readings: list[RoundReading] | None) -> np.ndarray | None:
        """How ``seat`` saw the dice it could not see, reading the first ``read`` bids as the
        rollouts take it to (:meth:`TableBeliefs.view_of`); None: as fair dice."""
        assert showdown.hands is not None
        if not read or readings is None or read > TABLE_READ_BIDS:
            return None
        dice = tuple(len(other) for other in showdown.hands)
        return readings[read].seen(dice, seat, showdown.palifico, public.table_readings[seat])

    def _snapshot(self, seats: int) -> PublicReading:
        """The table's reading of bids with what is known of each of ``seats`` seats now."""
        reading = self.reading
        return PublicReading(reading.sharpness, reading.held,
                             tuple(self.table_reading(seat) for seat in range(seats)),
                             tuple(self.bluff(seat) for seat in range(seats)))

    def _bluff_chance(self, showdown: Showdown, index: int, rules: Rules,
                      public: PublicReading,
                      readings: list[RoundReading] | None) -> tuple[float, float]:
        """P(the ``index``-th bid was a bluff), given the hand the showdown shows and the
        seat's share; and the log-likelihood ratio of that bid between a bidder who read the
        bids before theirs and one who judged from their own dice alone."""
        assert showdown.hands is not None
        seat, bid = showdown.bids[index]
        previous = showdown.bids[index - 1][1] if index else None
        hand = showdown.hands[seat]
        dice = tuple(len(other) for other in showdown.hands)
        share = public.bluffs[seat]
        if not 0 < len(hand) <= MAX_STARTING_DICE:
            return share, 0.0
        space = hand_space(len(hand))
        row = space.row(hand.faces)
        table = sum(dice)
        reading, palifico = self.reading, showdown.palifico
        if reading.sharpness <= 0 or not reading.by_hands:
            honest = float(bid_likelihood(space, bid, table, palifico, reading.strength,
                                          reading.overbid, 0.0)[row])
            random_pick, ratio = 1.0, 0.0  # the hands model's bluff floor, on the same scale
        else:
            from_dice = uniform_choice(len(hand), bid, previous, table, palifico, rules,
                                       reading.sharpness, reading.held)
            honest, random_pick = float(from_dice.honest(palifico)[row]), 1.0 / from_dice.moves
            ratio = 0.0
            if readings is not None and 0 < index < TABLE_READ_BIDS:
                read_honest = float(informed_choice(
                    len(hand), bid, previous, palifico, rules, reading.sharpness, reading.held,
                    readings[index].seen(dice, seat, palifico, 1.0))[0][row])
                ratio = log((share * random_pick + (1.0 - share) * read_honest)
                            / (share * random_pick + (1.0 - share) * honest))
                reads = public.table_readings[seat]
                honest = (1.0 - reads) * honest + reads * read_honest
        return share * random_pick / (share * random_pick + (1.0 - share) * honest), ratio

    @staticmethod
    def _own_odds(showdown: Showdown, seat: int, bid: Bid) -> float:
        assert showdown.hands is not None
        table = sum(len(hand) for hand in showdown.hands)
        return odds(bid, showdown.hands[seat], table, showdown.palifico).at_least

    @staticmethod
    def _gap(showdown: Showdown, seat: int, bid: Bid, rules: Rules,
             view: np.ndarray | None = None) -> float:
        """1 − P(``bid`` true) − P(``seat``'s likeliest smallest raise true), from its own dice
        and the others' as ``view`` (laid out as :func:`hands.uniform_survival`) sees them
        (None: fair dice)."""
        assert showdown.hands is not None
        hand = showdown.hands[seat]
        table = sum(len(other) for other in showdown.hands)
        palifico = showdown.palifico
        seen = uniform_survival(table - len(hand), palifico) if view is None else view

        def chance(step: Bid) -> float:
            needed = step.quantity - hand.count(step.face, palifico=palifico)
            if needed <= 0:
                return 1.0
            return float(seen[step.face - 1, needed]) if needed < seen.shape[1] else 0.0

        smallest = smallest_raises(bid, palifico=palifico, rules=rules, bidder_dice=len(hand))
        raised = max((chance(step) for step in smallest.values() if step.quantity <= table),
                     default=0.0)
        return 1.0 - chance(bid) - raised

    def call_margin(self, seat: int, prior: float) -> float:
        """By how much more ``seat`` sees a bid false than its raise true when it calls: the
        margin that best separates its calls from its raises, shrunk toward ``prior``, and
        never above ``prior``.

        A seat shown to call more readily than the prior says is played so: against four
        tight players or four liars (margins learned near 0) the coach won 0.45 and 0.40 of
        its games at five players, not 0.31 and 0.34. One shown to call less readily is not:
        the planners' and adaptive readers' margins came out at 0.25 to 0.45, and played at
        those the coach won 0.215 against four adaptive readers, not 0.242. Calls are judged
        through the bids the caller had read, as the rollouts see them: judged from its dice
        alone, with a prior of 0.3, the coach won 0.160 against four planners, not 0.204."""
        record = self.seats.get(seat)
        if record is None or not record.gaps:
            return prior
        seen = len(record.gaps)
        return min(prior, _shrunk(prior, _margin_of(record.margin_misses) * seen, seen,
                                  self.margin_weight))

    def bluff(self, seat: int) -> float:
        """The share of ``seat``'s bids that said nothing of their hand: learned from their
        hands where showdowns showed them, else from how often their bids held."""
        record = self.seats.get(seat)
        if record is None:
            return self.bluff_prior
        if record.bids:
            return _shrunk(self.bluff_prior, record.bluffs, record.bids, self.weight)
        if not record.judged:
            return self.bluff_prior
        held = _shrunk(HELD_PRIOR, record.held, record.judged, self.weight)
        return min(0.95, max(0.02, self.bluff_prior + HELD_SLOPE * (HELD_PRIOR - held)))

    def table_reading(self, seat: int) -> float:
        """How far ``seat`` reads the bids before theirs when they bid: the reading's prior,
        moved by what their shown hands said of it (a tempered Bayes factor)."""
        prior = self.reading.table_reading
        record = self.seats.get(seat)
        if record is None or not record.reads_table:
            return prior
        prior = min(0.98, max(0.02, prior))
        odds_for = prior / (1.0 - prior) * exp(max(-30.0, min(30.0,
                                                             READING_TEMPER * record.reads_table)))
        return round(odds_for / (1.0 + odds_for), 4)

    def threshold(self, seat: int, prior: float | None = None) -> float:
        """Below what chance (from their own dice) ``seat`` calls dudo: the threshold that
        best separates their calls from their raises, shrunk toward ``prior`` (the
        population's, :attr:`threshold_prior`, unless told: a table's size changes it). (Pooling
        every opponent's calls into the prior was tried: +8 points against four odds
        players, −4 against four readers, at five players.)"""
        record = self.seats.get(seat)
        prior = self.threshold_prior if prior is None else prior
        if record is None or not record.faced:
            return prior
        seen = len(record.faced)
        return _shrunk(prior, _threshold_of(record.threshold_misses) * seen, seen, self.weight)

    def held(self, seat: int) -> tuple[int, int]:
        """How many of ``seat``'s bids a showdown judged, and how many of them held."""
        record = self.seats.get(seat)
        return (0, 0) if record is None else (record.held, record.judged)
