"""A player's view of the table at their turn: the rules, every seat's dice, their own hand and
this round's bids (:class:`Situation`), and its one JSON form.

The game gives each player's view (:meth:`perudo_math.GameState.situation`); a table known only
by its dice and players, as the odds page and ``coach advise --hand`` know it, gives seat 0's
(:meth:`Situation.at_table`). The game and the view share one reading of the round's bids
(:class:`RoundBids`: the bid on the table and who made it) and of whose turn follows whose
(:func:`next_with_dice`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Protocol

from perudo_math.bid import Bid
from perudo_math.checks import is_whole, require_items, sample, shown, wrong_type
from perudo_math.hand import Hand
from perudo_math.legality import check_bid
from perudo_math.limits import MAX_MOVES, MAX_PLAYERS, MAX_TABLE_DICE, MIN_PLAYERS
from perudo_math.moves import calza_refusal, dudo_refusal
from perudo_math.rules import Rules


class RoundBids:
    """What this round's ``bids``, its (seat, bid) pairs in the order spoken, say for all to
    hear: the one definition of the bid on the table and who made it, shared by
    :class:`~perudo_math.GameState` and :class:`Situation`."""

    __slots__ = ()
    bids: tuple[tuple[int, Bid], ...]

    @property
    def last_bid(self) -> Bid | None:
        """The bid on the table, or ``None`` before the opening bid."""
        return self.bids[-1][1] if self.bids else None

    @property
    def last_bidder(self) -> int | None:
        """The seat that made the last bid, or ``None`` before the opening bid."""
        return self.bids[-1][0] if self.bids else None


def next_with_dice(seat: int, dice: Sequence[int]) -> int:
    """The first seat clockwise after ``seat`` that still holds dice (``dice``: every seat's,
    in seat order)."""
    for step in range(1, len(dice) + 1):
        candidate = (seat + step) % len(dice)
        if dice[candidate] > 0:
            return candidate
    raise AssertionError("no player holds dice")


def even_split(hand_dice: int, table_dice: int, players: int) -> tuple[int, ...]:
    """Every seat's dice when only the table's total is known: mine (seat 0) first, the rest
    split as evenly as whole dice allow. ``ValueError`` when the others cannot each hold one."""
    for name, value in (("hand_dice", hand_dice), ("table_dice", table_dice),
                        ("players", players)):
        if not is_whole(value):
            raise wrong_type(f"even_split: {name}", "a whole number", value)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {shown(players)}")
    others, opponents = table_dice - hand_dice, players - 1
    if others < opponents:
        raise ValueError(f"{opponents} other players need at least {opponents} dice between "
                         f"them, but the table has only {others} besides yours")
    share, extra = divmod(others, opponents)
    return (hand_dice, *(share + (seat < extra) for seat in range(opponents)))


def spoken_in_turn(bids: Sequence[Bid], seats: int) -> tuple[tuple[int, Bid], ...]:
    """``bids`` as (seat, bid) pairs made in turn around a table of ``seats``, the last by the
    seat before seat 0 (whose turn it is)."""
    return tuple(((seats - len(bids) + index) % seats, bid) for index, bid in enumerate(bids))


class Choice(Protocol):
    """A move as :meth:`Situation.is_legal` reads it (:class:`coach.Action` is one): its kind,
    ``raise``, ``dudo`` or ``calza``, and a raise's bid."""

    @property
    def kind(self) -> str: ...

    @property
    def bid(self) -> Bid | None: ...


@dataclass(frozen=True, slots=True)
class Situation(RoundBids):
    """One player's view of the table at their turn.

    ``dice`` holds every seat's dice count in seat order (0 for an eliminated
    player); ``bids`` this round's bids in order as (seat, bid) pairs, as they were
    spoken: the coach reads them but does not police them (tables play house rules),
    only the move it is asked about must be legal. ``dice`` and ``bids`` may be given as
    lists (they are kept as tuples); ``hand`` is a :class:`Hand` and each bid a :class:`Bid`.
    A value: equal views are equal and hash alike (caches key on them).
    """

    rules: Rules
    dice: tuple[int, ...]
    me: int
    hand: Hand
    bids: tuple[tuple[int, Bid], ...] = ()
    palifico: bool = False

    def __post_init__(self) -> None:
        self._check(bids_checked=False)

    @classmethod
    def of_game(cls, rules: Rules, dice: tuple[int, ...], me: int, hand: Hand,
                bids: tuple[tuple[int, Bid], ...], palifico: bool) -> Situation:
        """The view :meth:`GameState.situation` gives: the game's bids were checked one by
        one as they were made, so they are not read again (a review builds a view for each of
        a long round's decisions: reading every bid each time would cost the square of the
        round's length). Everything else is checked as by the constructor."""
        view = object.__new__(cls)
        for name, value in (("rules", rules), ("dice", dice), ("me", me), ("hand", hand),
                            ("bids", bids), ("palifico", palifico)):
            object.__setattr__(view, name, value)
        view._check(bids_checked=True)
        return view

    def _check(self, bids_checked: bool) -> None:
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
        if not bids_checked:
            self._check_bids(dice)
        if self.palifico is not False and self.palifico is not True:
            raise wrong_type("Situation: palifico", "True or False", self.palifico)

    @classmethod
    def at_table(cls, rules: Rules, hand: Hand, table_dice: int, players: int,
                 bids: Sequence[Bid] = (), palifico: bool = False) -> Situation:
        """Seat 0's view of a table known by its dice and players only (the odds page's
        inputs, ``coach advise --hand``): the others' dice split evenly (:func:`even_split`),
        ``bids`` spoken in turn, the last by the seat before mine."""
        if not isinstance(hand, Hand):
            raise wrong_type("Situation.at_table: hand", "a Hand", hand)
        dice = even_split(len(hand), table_dice, players)
        return cls(rules, dice, 0, hand, spoken_in_turn(bids, len(dice)), palifico)

    def __hash__(self) -> int:
        # Equal views hash alike without reading every bid: a round may hold thousands, and
        # the app's caches hash a view at every lookup.
        bids = self.bids
        return hash((self.rules, self.dice, self.me, self.hand, self.palifico, len(bids),
                     bids[-1] if bids else None))

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

    def next_seat(self, seat: int | None = None) -> int:
        """The next player with dice clockwise after ``seat`` (default: me)."""
        return next_with_dice(self.me if seat is None else seat, self.dice)

    def may_dudo(self) -> bool:
        """Whether I may call dudo now (the rules' own decision, asked of perudo_math)."""
        return dudo_refusal(self.rules, caller=self.me, turn=self.me,
                            last_bidder=self.last_bidder) is None

    def may_calza(self) -> bool:
        """Whether I may call calza now (the rules' own decision, asked of perudo_math)."""
        return calza_refusal(self.rules, caller=self.me, turn=self.me,
                             last_bidder=self.last_bidder,
                             players_left=len(self.active_seats)) is None

    def is_legal(self, action: Choice) -> bool:
        """Whether I may take ``action`` (a :class:`coach.Action`) now."""
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
            raise ValueError(f"not a situation: expected a JSON object, not {sample(data)}")
        unknown = sorted(str(key) for key in set(data) - _SITUATION_FIELDS)
        if unknown:
            raise ValueError(f"not a situation: unknown field {unknown[0][:40]!r}")
        missing = [name for name in ("dice", "me", "hand") if name not in data]
        if missing:
            raise ValueError(f"not a situation: {missing[0]!r} is missing")
        palifico = data.get("palifico", False)
        if not isinstance(palifico, bool):
            raise ValueError(f"not a situation: palifico must be true or false, "
                             f"not {sample(palifico)}")
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
        head = json.dumps(self.to_dict(bids=False), separators=(",", ":"))[:-1]
        palifico = "true" if self.palifico else "false"
        return f'{head},"bids":{_bids_json(self.bids)},"palifico":{palifico}}}'

    @classmethod
    def from_json(cls, text: str) -> Situation:
        """Read :meth:`to_json`'s form; ValueError for anything else, however malformed."""
        if not isinstance(text, str):
            raise ValueError(f"not a situation: expected JSON text, not {sample(text)}")
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


def _well_formed(bids: Sequence[Any], dice: tuple[int, ...]) -> bool:
    """Whether ``bids`` is a tuple of (seat, Bid) pairs, each seat holding dice: the common
    case, checked a pair at a time in C rather than in Python (a review builds a spot for each
    of a long round's decisions)."""
    if set(map(type, bids)) - {tuple} or set(map(len, bids)) - {2}:
        return False
    seats, made = set(map(itemgetter(0), bids)), set(map(type, map(itemgetter(1), bids)))
    return (made <= {Bid}
            and all(seat.__class__ is int and 0 <= seat < len(dice) and dice[seat]
                    for seat in seats))


_SITUATION_FIELDS = frozenset({"rules", "dice", "me", "hand", "bids", "palifico"})


def _list_of(value: object, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{name} must be a list, not {sample(value)}")
    return value


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {sample(value)}")
    return value


def _seat_and_bid(pair: object) -> tuple[int, Bid]:
    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], str)):
        raise ValueError(f"a bid is a [seat, \"5x4\"] pair, not {sample(pair)}")
    return _whole(pair[0], "a bidder's seat"), Bid.parse(pair[1])
