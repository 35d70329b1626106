"""What a player knows when it is their turn: the table, their hand and this round's bids."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from operator import itemgetter
from typing import Any

from perudo_math import (
    MAX_MOVES,
    MAX_PLAYERS,
    MAX_TABLE_DICE,
    MIN_PLAYERS,
    Bid,
    Hand,
    Rules,
    calza_refusal,
    check_bid,
    dudo_refusal,
)
from perudo_math.checks import is_whole, require_items, shown, wrong_type


class ActionKind(StrEnum):
    """What a move does."""

    RAISE = "raise"
    """Bid higher (or open the round)."""
    DUDO = "dudo"
    """Challenge the last bid."""
    CALZA = "calza"
    """Claim the last bid is exactly right."""


_KIND_BY_WORD = {kind.value: kind for kind in ActionKind}


class InvalidActionError(ValueError):
    """An action that cannot be read or built: an unknown kind, a raise without a bid..."""


@dataclass(frozen=True, slots=True)
class Action:
    """A move: raise to ``bid`` (an opening when there is no bid yet), dudo or calza.

    Written as text, an action is ``dudo``, ``calza`` or its bid (``5x4``): :meth:`parse`
    reads what ``str`` writes. As JSON it is ``{"action": "raise", "bid": "5x4"}`` or
    ``{"action": "dudo"}``: :meth:`from_dict` reads what :meth:`to_dict` writes.
    """

    kind: ActionKind
    bid: Bid | None = None

    def __post_init__(self) -> None:
        kind: ActionKind | None = self.kind
        if kind.__class__ is not ActionKind:  # bots build many actions: keep the check cheap
            kind = _KIND_BY_WORD.get(kind) if isinstance(kind, str) else None
            if kind is None:
                raise InvalidActionError(
                    f"an action is raise, dudo or calza, not {_sample(self.kind)}")
            object.__setattr__(self, "kind", kind)
        if kind is ActionKind.RAISE:
            if not isinstance(self.bid, Bid):
                raise InvalidActionError(f"a raise needs a bid, not {_sample(self.bid)}")
        elif self.bid is not None:
            raise InvalidActionError(f"{kind} takes no bid, not {_sample(self.bid)}")

    @classmethod
    def raise_to(cls, bid: Bid | str) -> Action:
        """A raise to ``bid`` (a :class:`Bid` or its text, ``5x4``)."""
        if isinstance(bid, str):
            try:
                bid = Bid.parse(bid)
            except ValueError as error:
                raise InvalidActionError(str(error)) from None
        return cls(ActionKind.RAISE, bid)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action written ``dudo``, ``calza`` (any case) or a bid, ``5x4`` or ``3xP``."""
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is written dudo, calza or like 5x4, not {text!r}")
        word = text.strip().lower()
        if word in (ActionKind.DUDO, ActionKind.CALZA):
            return cls(ActionKind(word))
        try:
            bid = Bid.parse(text)
        except ValueError as error:
            raise InvalidActionError(
                f"{_sample(text)} is not dudo, calza or a bid: {error}") from None
        return cls(ActionKind.RAISE, bid)

    def __str__(self) -> str:
        return str(self.bid) if self.bid is not None else self.kind.value

    def to_dict(self) -> dict[str, str]:
        """``{"action": "raise", "bid": "5x4"}``, ``{"action": "dudo"}`` or
        ``{"action": "calza"}``: the one JSON form of an action."""
        if self.bid is None:
            return {"action": self.kind.value}
        return {"action": self.kind.value, "bid": str(self.bid)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """Read the form :meth:`to_dict` writes, and nothing else."""
        if not isinstance(data, dict):
            raise InvalidActionError(f"an action is a JSON object, not {_sample(data)}")
        unknown = sorted(str(key) for key in set(data) - {"action", "bid"})
        if unknown:
            raise InvalidActionError(f"an action has no field {unknown[0][:40]!r}")
        if "action" not in data:
            raise InvalidActionError("an action needs its kind: raise, dudo or calza")
        word = data["action"]
        kind = _KIND_BY_WORD.get(word) if isinstance(word, str) else None
        if kind is None:
            raise InvalidActionError(f"an action is raise, dudo or calza, not {_sample(word)}")
        if "bid" not in data:
            return cls(kind)
        bid = data["bid"]
        if not isinstance(bid, str):
            raise InvalidActionError(f"a bid is written like 5x4, not {_sample(bid)}")
        try:
            parsed = Bid.parse(bid)
        except ValueError as error:
            raise InvalidActionError(str(error)) from None
        return cls(kind, parsed)


DUDO = Action(ActionKind.DUDO)
CALZA = Action(ActionKind.CALZA)


@dataclass(frozen=True, slots=True)
class Situation:
    """One player's view of the table at their turn.

    ``dice`` holds every seat's dice count in seat order (0 for an eliminated
    player); ``bids`` this round's bids in order as (seat, bid) pairs, as they were
    spoken: the coach reads them but does not police them (tables play house rules),
    only the move it is asked about must be legal. ``dice`` and ``bids`` may be given as
    lists (they are kept as tuples); ``hand`` is a :class:`Hand` and each bid a :class:`Bid`.
    """

    rules: Rules
    dice: tuple[int, ...]
    me: int
    hand: Hand
    bids: tuple[tuple[int, Bid], ...] = ()
    palifico: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise wrong_type("Situation: rules", "a Rules", self.rules)
        dice = self._checked_dice()
        if not is_whole(self.me):
            raise wrong_type("Situation: me", "a seat number", self.me)
        if not 0 <= self.me < len(dice):
            raise ValueError(f"seat {shown(self.me)} is not at a table of {len(dice)}")
        if not isinstance(self.hand, Hand):
            raise wrong_type("Situation: hand", "a Hand", self.hand)
        if len(self.hand) != dice[self.me]:
            raise ValueError(
                f"your hand has {len(self.hand)} dice but your seat holds {dice[self.me]}"
            )
        if dice[self.me] == 0:
            raise ValueError("an eliminated player has no turn")
        if len(self.active_seats) < 2:
            raise ValueError("at least two players must still hold dice")
        self._check_bids(dice)
        if self.palifico is not False and self.palifico is not True:
            raise wrong_type("Situation: palifico", "True or False", self.palifico)

    def _checked_dice(self) -> tuple[int, ...]:
        """Every seat's dice, checked and kept as a tuple."""
        dice: object = self.dice  # a list too: kept as a tuple
        if dice.__class__ is not tuple:
            dice = tuple(dice) if isinstance(dice, list) else require_items(
                "Situation: dice", dice, "a list of every seat's dice", MAX_PLAYERS)
            object.__setattr__(self, "dice", dice)
        if not MIN_PLAYERS <= len(dice) <= MAX_PLAYERS:
            raise ValueError(f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {len(dice)}")
        for count in dice:
            if count.__class__ is int and count >= 0:
                continue
            if not is_whole(count):
                raise wrong_type("Situation: dice", "whole numbers of dice", count)
            if count < 0:
                raise ValueError("dice counts must be whole numbers, 0 or more")
        if sum(dice) > MAX_TABLE_DICE:
            raise ValueError(f"the table holds at most {MAX_TABLE_DICE} dice, "
                             f"not {shown(sum(dice))}")
        return dice

    def _check_bids(self, dice: tuple[int, ...]) -> None:
        """This round's (seat, bid) pairs, checked and kept as a tuple of tuples."""
        bids: Sequence[object] = self.bids  # lists too: kept as tuples
        changed = bids.__class__ is not tuple
        if changed:
            bids = require_items("Situation: bids", bids, "a list of (seat, Bid) pairs",
                                 MAX_MOVES)
        if len(bids) > MAX_MOVES:
            raise ValueError(f"a round holds at most {MAX_MOVES} bids, not more")
        if not changed and _well_formed(bids, dice):
            return
        pairs = []
        for pair in bids:
            if pair.__class__ is not tuple:
                if not isinstance(pair, list):
                    raise wrong_type("Situation: bids", "(seat, Bid) pairs", pair)
                pair, changed = tuple(pair), True
            if len(pair) != 2:
                raise wrong_type("Situation: bids", "(seat, Bid) pairs", pair)
            seat, bid = pair
            if not (seat.__class__ is int and 0 <= seat < len(dice) and dice[seat]):
                if not is_whole(seat):
                    raise wrong_type("Situation: a bidder's seat", "a seat number", seat)
                raise ValueError(f"seat {shown(seat)} cannot bid: no such player with dice")
            if not isinstance(bid, Bid):
                raise wrong_type("Situation: a bid in bids", "a Bid", bid)
            pairs.append(pair)
        if changed:
            object.__setattr__(self, "bids", tuple(pairs))

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

    def to_dict(self, written: dict[int, list[Any]] | None = None, *,
                bids: bool = True) -> dict[str, Any]:
        """The situation as plain JSON values (bids written ``5x4``). ``written``: the
        ``[seat, bid]`` pairs already written, by the identity of the pair they write, to
        write each once when many situations of a round share its bids (a review);
        ``bids=False``: the fields before the bids only."""
        data: dict[str, Any] = {
            "rules": self.rules.changed(),
            "dice": list(self.dice),
            "me": self.me,
            "hand": list(self.hand.faces),
        }
        if not bids:
            return data
        if written is None:
            data["bids"] = [[seat, str(bid)] for seat, bid in self.bids]
        else:
            data["bids"] = [written.get(id(pair))
                            or written.setdefault(id(pair), [pair[0], str(pair[1])])
                            for pair in self.bids]
        data["palifico"] = self.palifico
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Situation:
        """Read the form :meth:`to_dict` writes; ``rules``, ``bids`` and ``palifico`` may be
        left out. Every field's type is checked: ValueError names the first one wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"not a situation: expected a JSON object, not {_sample(data)}")
        unknown = sorted(str(key) for key in set(data) - _SITUATION_FIELDS)
        if unknown:
            raise ValueError(f"not a situation: unknown field {unknown[0][:40]!r}")
        missing = [name for name in ("dice", "me", "hand") if name not in data]
        if missing:
            raise ValueError(f"not a situation: {missing[0]!r} is missing")
        palifico = data.get("palifico", False)
        if not isinstance(palifico, bool):
            raise ValueError(f"not a situation: palifico must be true or false, "
                             f"not {_sample(palifico)}")
        try:
            bids = tuple(_seat_and_bid(pair) for pair in _list_of(data.get("bids", []), "bids"))
            return cls(
                rules=Rules.from_dict(data.get("rules", {})),
                dice=tuple(_whole(n, "a seat's dice") for n in _list_of(data["dice"], "dice")),
                me=_whole(data["me"], "me (your seat)"),
                hand=Hand(_whole(face, "a die of the hand") for face in
                          _list_of(data["hand"], "hand")),
                bids=bids,
                palifico=palifico,
            )
        except ValueError as error:
            message = str(error)
            raise ValueError(message if message.startswith("not a situation")
                             else f"not a situation: {message}") from None

    def to_json(self) -> str:
        """The situation as compact JSON, as :meth:`from_json` reads it: ``to_dict``'s, its
        bids written once for all the spots of a round that share them (a review seeds the
        play-outs of each of its spots from this text)."""
        data = self.to_dict(bids=False)
        head = json.dumps(data, separators=(",", ":"))[:-1]
        palifico = "true" if self.palifico else "false"
        return f'{head},"bids":{_bids_json(self.bids)},"palifico":{palifico}}}'

    @classmethod
    def from_json(cls, text: str) -> Situation:
        """Read :meth:`to_json`'s form; ValueError for anything else, however malformed."""
        if not isinstance(text, str):
            raise ValueError(f"not a situation: expected JSON text, not {_sample(text)}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not a situation: {error}") from None
        except RecursionError:
            raise ValueError("not a situation: the JSON is nested too deeply") from None
        return cls.from_dict(data)


_LAST_WRITTEN: list[tuple[tuple[tuple[int, Bid], ...], str]] = [((), "[]")]
"""The bids last written as JSON, and their text: the spots of a round that a review weighs
one after another share their bids, each spot's a few more."""


def _bids_json(bids: tuple[tuple[int, Bid], ...]) -> str:
    """``bids`` as ``json.dumps`` writes ``[[seat, "5x4"], ...]`` compactly (a bid's text is
    digits, ``x`` and a digit or ``P``: nothing to escape), extending the text last written
    when these bids begin with those."""
    kept, text = _LAST_WRITTEN[0]  # one step: another session may change it meanwhile
    known = len(kept)
    if 0 < known <= len(bids) and bids[known - 1] is kept[-1] and bids[:known] == kept:
        if known == len(bids):
            return text
        text = f"{text[:-1]},{_pairs_json(bids[known:])}]"
    else:
        text = f"[{_pairs_json(bids)}]"
    _LAST_WRITTEN[0] = (bids, text)
    return text


def _pairs_json(bids: tuple[tuple[int, Bid], ...]) -> str:
    return ",".join([f'[{seat},"{bid}"]' for seat, bid in bids])


def _well_formed(bids: tuple[object, ...], dice: tuple[int, ...]) -> bool:
    """Whether ``bids`` is a tuple of (seat, Bid) pairs, each seat holding dice: the common
    case, checked a pair at a time in C rather than in Python (a review builds a spot for each
    of a long round's decisions)."""
    if set(map(type, bids)) - {tuple} or set(map(len, bids)) - {2}:  # type: ignore[arg-type]
        return False
    seats, made = set(map(itemgetter(0), bids)), set(map(type, map(itemgetter(1), bids)))
    return (made <= {Bid}
            and all(seat.__class__ is int and 0 <= seat < len(dice) and dice[seat]
                    for seat in seats))


_SITUATION_FIELDS = frozenset({"rules", "dice", "me", "hand", "bids", "palifico"})


def _sample(value: object) -> str:
    """``value`` for an error message, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _list_of(value: object, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{name} must be a list, not {_sample(value)}")
    return value


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {_sample(value)}")
    return value


def _seat_and_bid(pair: object) -> tuple[int, Bid]:
    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], str)):
        raise ValueError(f"a bid is a [seat, \"5x4\"] pair, not {_sample(pair)}")
    return _whole(pair[0], "a bidder's seat"), Bid.parse(pair[1])
