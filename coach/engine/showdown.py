"""What the end of a round shows everyone: the bids, and the true count of the called face.

A bot may learn from showdowns: the arena calls ``bot.observe(showdown)`` after every round
on each bot that has an ``observe`` method, and the tracker builds the same value from a
tracked round. ``hands`` is known in the arena (every cup is lifted); a tracked game knows
only the count.
"""

from __future__ import annotations

from dataclasses import dataclass

from perudo_math import Bid, Hand


@dataclass(frozen=True, slots=True)
class Showdown:
    """A round that ended with a call: its bids in order, the call, and what the cups held.

    ``count`` is how many dice on the table counted toward the last bid (its face).
    """

    bids: tuple[tuple[int, Bid], ...]
    palifico: bool
    caller: int
    kind: str
    count: int
    hands: tuple[Hand, ...] | None = None

    def __post_init__(self) -> None:
        if not self.bids:
            raise ValueError("a showdown follows at least one bid")
        if self.kind not in ("dudo", "calza"):
            raise ValueError(f"a round ends with dudo or calza, not {self.kind!r}")
        if self.count < 0:
            raise ValueError(f"a count is 0 or more, not {self.count}")

    @property
    def called_bid(self) -> Bid:
        return self.bids[-1][1]

    def held(self, bid: Bid) -> bool | None:
        """Whether ``bid`` was true, when the showdown tells (same face as the called bid,
        or any face when the hands are known); ``None`` when it cannot tell."""
        called = self.called_bid
        if self.hands is not None:
            count = sum(hand.count(bid.face, palifico=self.palifico) for hand in self.hands)
            return count >= bid.quantity
        if bid.face != called.face:
            return None
        return self.count >= bid.quantity
