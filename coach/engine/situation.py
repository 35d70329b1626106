"""What a player knows when it is their turn: the table, their hand and this round's bids."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from perudo_math import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Bid,
    Hand,
    Rules,
    calza_refusal,
    check_bid,
    dudo_refusal,
)

ActionKind = Literal["raise", "dudo", "calza"]


@dataclass(frozen=True, slots=True)
class Action:
    """A move: raise to ``bid`` (an opening when there is no bid yet), dudo or calza."""

    kind: ActionKind
    bid: Bid | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("raise", "dudo", "calza"):
            raise ValueError(f"an action is raise, dudo or calza, not {self.kind!r}")
        if (self.kind == "raise") != (self.bid is not None):
            raise ValueError("a raise needs a bid; dudo and calza take none")

    @classmethod
    def raise_to(cls, bid: Bid | str) -> Action:
        return cls("raise", Bid.parse(bid) if isinstance(bid, str) else bid)

    def __str__(self) -> str:
        return str(self.bid) if self.kind == "raise" else self.kind


DUDO = Action("dudo")
CALZA = Action("calza")


@dataclass(frozen=True, slots=True)
class Situation:
    """One player's view of the table at their turn.

    ``dice`` holds every seat's dice count in seat order (0 for an eliminated
    player); ``bids`` this round's bids in order as (seat, bid) pairs, as they were
    spoken: the coach reads them but does not police them (tables play house rules),
    only the move it is asked about must be legal.
    """

    rules: Rules
    dice: tuple[int, ...]
    me: int
    hand: Hand
    bids: tuple[tuple[int, Bid], ...] = ()
    palifico: bool = False

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.dice) <= MAX_PLAYERS:
            raise ValueError(f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {len(self.dice)}")
        if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in self.dice):
            raise ValueError("dice counts must be whole numbers, 0 or more")
        if not 0 <= self.me < len(self.dice):
            raise ValueError(f"seat {self.me} is not at a table of {len(self.dice)}")
        if len(self.hand) != self.dice[self.me]:
            raise ValueError(
                f"your hand has {len(self.hand)} dice but your seat holds {self.dice[self.me]}"
            )
        if self.dice[self.me] == 0:
            raise ValueError("an eliminated player has no turn")
        if len(self.active_seats) < 2:
            raise ValueError("at least two players must still hold dice")
        for seat, _ in self.bids:
            if not 0 <= seat < len(self.dice) or self.dice[seat] == 0:
                raise ValueError(f"seat {seat} cannot bid: no such player with dice")
        for _, bid in self.bids:
            if not isinstance(bid, Bid):
                raise ValueError(f"a bid in the history is not a Bid: {bid!r}")

    @property
    def table_dice(self) -> int:
        return sum(self.dice)

    @property
    def active_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, n in enumerate(self.dice) if n > 0)

    @property
    def heads_up(self) -> bool:
        return len(self.active_seats) == 2

    @property
    def last_bid(self) -> Bid | None:
        return self.bids[-1][1] if self.bids else None

    @property
    def last_bidder(self) -> int | None:
        return self.bids[-1][0] if self.bids else None

    def next_seat(self, seat: int | None = None) -> int:
        """The next player with dice clockwise after ``seat`` (default: me)."""
        start = self.me if seat is None else seat
        for step in range(1, len(self.dice) + 1):
            candidate = (start + step) % len(self.dice)
            if self.dice[candidate] > 0:
                return candidate
        raise AssertionError("no other player has dice")

    def may_dudo(self) -> bool:
        """Whether I may call dudo now (the rules' own decision, asked of perudo_math)."""
        return dudo_refusal(self.rules, caller=self.me, turn=self.me,
                            last_bidder=self.last_bidder) is None

    def may_calza(self) -> bool:
        """Whether I may call calza now (the rules' own decision, asked of perudo_math)."""
        return calza_refusal(self.rules, caller=self.me, turn=self.me,
                             last_bidder=self.last_bidder,
                             players_left=len(self.active_seats)) is None

    def is_legal(self, action: Action) -> bool:
        """Whether I may take ``action`` now."""
        if action.kind == "dudo":
            return self.may_dudo()
        if action.kind == "calza":
            return self.may_calza()
        assert action.bid is not None
        return check_bid(action.bid, self.last_bid, palifico=self.palifico, rules=self.rules,
                         bidder_dice=self.dice[self.me]).legal

    def to_dict(self) -> dict[str, Any]:
        """The situation as plain JSON values (bids written ``5x4``)."""
        return {
            "rules": self.rules.changed(),
            "dice": list(self.dice),
            "me": self.me,
            "hand": list(self.hand.faces),
            "bids": [[seat, str(bid)] for seat, bid in self.bids],
            "palifico": self.palifico,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Situation:
        try:
            return cls(
                rules=Rules.from_dict(data.get("rules", {})),
                dice=tuple(data["dice"]),
                me=data["me"],
                hand=Hand(data["hand"]),
                bids=tuple((seat, Bid.parse(bid)) for seat, bid in data.get("bids", [])),
                palifico=bool(data.get("palifico", False)),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a situation: missing or malformed {error}") from None

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Situation:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not a situation: {error}") from None
        if not isinstance(data, dict):
            raise ValueError("not a situation: expected a JSON object")
        return cls.from_dict(data)
