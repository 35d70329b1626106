"""What reading the bids changed: a face's expected count, seat by seat, from the dice alone
and once each seat's bids are read (:class:`TableBeliefs`).

Returned as data (seats, bids and expected counts), for a page to word: which bids moved the
count, and by how much. A seat's reading changes only with its own bids (a later bid by
someone else reads the bidder, not the seats before), so each of its bids is credited with
the change it made, and these add up to the seat's change; the seats' changes add up to the
table's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from coach.engine.beliefs import PURE_ODDS, BidReading, TableBeliefs
from coach.engine.situation import Situation
from perudo_math import Bid
from perudo_math.checks import is_whole, wrong_type


@dataclass(frozen=True, slots=True)
class BidStep:
    """One bid of a seat, and the seat's expected count once it is read."""

    position: int
    """Where the bid stands in the round's bids (0: it opened the round)."""
    bid: Bid
    after: float
    moved: float
    """How far this bid moved the seat's expected count (negative: down)."""


@dataclass(frozen=True, slots=True)
class SeatShift:
    """A seat's expected count of the face from its dice alone (``before``) and once its
    bids are read (``after``); ``steps``: each of its bids that was read, in order (none
    when it has not bid, or its bids are not read)."""

    seat: int
    dice: int
    before: float
    after: float
    steps: tuple[BidStep, ...] = ()

    @property
    def shift(self) -> float:
        return self.after - self.before

    @property
    def last(self) -> BidStep | None:
        """The seat's last bid read, or ``None``."""
        return self.steps[-1] if self.steps else None

    @property
    def strongest(self) -> BidStep | None:
        """The bid that moved the seat's count most (the later one on a tie), or ``None``."""
        if not self.steps:
            return None
        return max(reversed(self.steps), key=lambda step: abs(step.moved))


@dataclass(frozen=True, slots=True)
class CountShift:
    """The table's expected count of ``face`` (jokers counted as the round counts them):
    my matching dice plus every other seat's expectation, from the dice alone and with the
    bids read."""

    face: int
    palifico: bool
    own: int
    seats: tuple[SeatShift, ...]
    """Every other seat holding dice, in seat order."""

    @property
    def before(self) -> float:
        return self.own + sum(seat.before for seat in self.seats)

    @property
    def after(self) -> float:
        return self.own + sum(seat.after for seat in self.seats)

    @property
    def shift(self) -> float:
        return self.after - self.before

    def movers(self) -> tuple[SeatShift, ...]:
        """The seats whose bids were read, the one that moved the count most first."""
        return tuple(sorted((seat for seat in self.seats if seat.steps),
                            key=lambda seat: -abs(seat.shift)))


DEFAULT_READING = BidReading()


def _mean(distribution: np.ndarray) -> float:
    return float(np.dot(np.arange(len(distribution)), distribution))


def count_shift(situation: Situation, face: int,
                reading: BidReading = DEFAULT_READING) -> CountShift:
    """How reading this round's bids (as ``reading`` reads them) moves the expected count of
    ``face`` in each other seat's dice, and which of its bids moved it."""
    if not isinstance(situation, Situation):
        raise wrong_type("count_shift: situation", "a Situation", situation)
    if not is_whole(face) or not 1 <= face <= 6:
        raise ValueError(f"a face is 1 to 6, not {face!r}")
    plain = TableBeliefs(situation, PURE_ODDS)
    read = TableBeliefs(situation, reading)
    steps = read.read_steps(face)
    seats = []
    for seat in situation.active_seats:
        if seat == situation.me:
            continue
        before = _mean(plain.seat_counts(seat, face))
        after = _mean(read.seat_counts(seat, face))
        seats.append(SeatShift(seat, situation.dice[seat], before, after,
                               _steps(situation, steps.get(seat, ()), before)))
    return CountShift(face, situation.palifico, read.own_matches(face), tuple(seats))


def _steps(situation: Situation, read: tuple[tuple[int, np.ndarray], ...],
           before: float) -> tuple[BidStep, ...]:
    """Each of a seat's bids read (:meth:`TableBeliefs.read_steps`) with the seat's expected
    count once the round up to it is read: the last one's is the seat's reading of the whole
    round."""
    steps, previous = [], before
    for position, counts in read:
        after = _mean(counts)
        steps.append(BidStep(position, situation.bids[position][1], after, after - previous))
        previous = after
    return tuple(steps)


__all__ = ["BidStep", "CountShift", "SeatShift", "count_shift"]
