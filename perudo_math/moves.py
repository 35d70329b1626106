"""Which moves may be made: who may call dudo or calza, and why a move is refused, as data.

A refused move is a :class:`RefusedMove`: a :class:`MoveRefusal` code and the seats, bid
verdict or count it concerns. The app words the code in the player's language;
:attr:`RefusedMove.reason` words it in English for the library and the command lines.
:class:`perudo_math.GameState` raises :class:`IllegalMove`, which carries the refusal.

:func:`dudo_refusal` and :func:`calza_refusal` are the one place that decides whether a
player may call: the game, the coach and the solver all ask them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from perudo_math.checks import WrongTypeError, shown
from perudo_math.legality import Refusal, Verdict
from perudo_math.limits import MAX_MOVES, MAX_ROUNDS
from perudo_math.rules import Rules

MoveKind = Literal["bid", "dudo", "calza", "rules"]
CallKind = Literal["dudo", "calza"]
CALL_KINDS: tuple[CallKind, ...] = ("dudo", "calza")


class MoveRefusal(StrEnum):
    """Why a move is refused: the seat, the turn, the rules of calling, the count, or the bid.

    The bid codes are :class:`~perudo_math.legality.Refusal`'s, with the same values.
    """

    GAME_OVER = "game-over"
    """The game has a winner: nobody moves any more."""
    NO_SUCH_SEAT = "no-such-seat"
    """The seat is not a seat of this table."""
    PLAYER_OUT = "player-out"
    """The seat has lost all its dice."""
    NOT_YOUR_TURN = "not-your-turn"
    """Only the player whose turn it is may bid."""
    NO_BID_YET = "no-bid-yet"
    """Dudo and calza are calls on a bid: there is none yet this round."""
    OWN_BID = "own-bid"
    """Nobody calls dudo or calza on their own bid."""
    SALSA_OFF = "salsa-off"
    """Dudo out of turn needs the salsa setting."""
    CALZA_OFF = "calza-off"
    """Calza is switched off at this table."""
    CALZA_OUT_OF_TURN_OFF = "calza-out-of-turn-off"
    """Calza out of turn needs the calza-out-of-turn setting."""
    CALZA_HEADS_UP = "calza-heads-up"
    """With two players left, calza needs the calza-heads-up setting."""
    BAD_COUNT = "bad-count"
    """The revealed count is not a whole number of dice, 0 or more."""
    COUNT_ABOVE_TABLE = "count-above-table"
    """The revealed count is more than the dice on the table."""
    GAME_TOO_LONG = "game-too-long"
    """The game holds the most moves or rounds a game may (``perudo_math.limits``)."""
    SETTING_FIXED = "setting-fixed"
    """The setting cannot change during a game (the starting dice: see ``Setting.mid_game``)."""
    RULE_UNCHANGED = "rule-unchanged"
    """The table already plays the setting at that value."""
    OPEN_ON_PACOS = Refusal.OPEN_ON_PACOS.value
    QUANTITY_TOO_LOW = Refusal.QUANTITY_TOO_LOW.value
    FACE_MUST_RISE = Refusal.FACE_MUST_RISE.value
    QUANTITY_MUST_STAY = Refusal.QUANTITY_MUST_STAY.value
    PACOS_TOO_FEW = Refusal.PACOS_TOO_FEW.value
    ORDINARY_TOO_FEW = Refusal.ORDINARY_TOO_FEW.value
    PALIFICO_FACE_FROZEN = Refusal.PALIFICO_FACE_FROZEN.value
    NOT_HIGHER = Refusal.NOT_HIGHER.value

    @classmethod
    def of_bid(cls, refusal: Refusal) -> MoveRefusal:
        """The move code of a bid refused by :func:`~perudo_math.check_bid`."""
        return cls(refusal.value)


@dataclass(frozen=True, slots=True)
class RefusedMove:
    """A move refused, with what the refusal concerns.

    ``seat`` is the seat that tried to move (``None`` when it was no seat number at all);
    ``turn`` the seat whose turn it is (for the turn codes); ``winner`` the winner (for
    ``GAME_OVER``); ``verdict`` the legality verdict of a refused bid (bid, previous bid,
    smallest fix); ``count`` and ``table_dice`` the refused count and the dice on the table;
    ``setting`` the rule setting of a refused change of rules (its name in :class:`Rules`).
    ``names`` are the players' names in seat order, for :attr:`reason` only.
    """

    code: MoveRefusal
    move: MoveKind
    seat: int | None = None
    turn: int | None = None
    winner: int | None = None
    verdict: Verdict | None = None
    count: int | None = None
    table_dice: int | None = None
    setting: str | None = None
    names: tuple[str, ...] = field(default=(), repr=False)

    @property
    def reason(self) -> str:
        """The refusal in plain English, for the library and the command lines."""
        words = _REASONS.get(self.code)
        if words is not None:
            return words(self)
        assert self.verdict is not None, self.code  # a bid's: the legality verdict says it
        return self.verdict.reason

    @property
    def wrong_type(self) -> bool:
        """Whether the move was refused because its seat or count is not a whole number."""
        return ((self.code is MoveRefusal.NO_SUCH_SEAT and self.seat is None)
                or (self.code is MoveRefusal.BAD_COUNT and self.count is None))

    def _name(self, seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"seat {seat}"


def _no_such_seat(move: RefusedMove) -> str:
    seats = f": seats run from 0 to {len(move.names) - 1}" if move.names else ""
    if move.seat is None:
        return f"that is not a seat number{seats}"
    return f"there is no seat {shown(move.seat)}{seats}"


def _out_of_turn(move: RefusedMove, setting_off: str = "") -> str:
    return f"it is {move._name(move.turn)}'s turn, not {move._name(move.seat)}'s{setting_off}"


def _own_bid(move: RefusedMove) -> str:
    call = "challenge it" if move.move == "dudo" else "call calza on it"
    return f"{move._name(move.seat)} made the last bid and cannot {call}"


def _bad_count(move: RefusedMove) -> str:
    given = "" if move.count is None else f", not {shown(move.count)}"
    return f"the count must be a whole number of dice, 0 or more{given}"


_REASONS: dict[MoveRefusal, Callable[[RefusedMove], str]] = {
    MoveRefusal.GAME_OVER: lambda move: f"the game is over: {move._name(move.winner)} won",
    MoveRefusal.NO_SUCH_SEAT: _no_such_seat,
    MoveRefusal.PLAYER_OUT: lambda move: f"{move._name(move.seat)} is out of the game",
    MoveRefusal.NOT_YOUR_TURN: _out_of_turn,
    MoveRefusal.NO_BID_YET: lambda move: ("no bid to challenge yet" if move.move == "dudo"
                                          else "no bid to call calza on yet"),
    MoveRefusal.OWN_BID: _own_bid,
    MoveRefusal.SALSA_OFF: lambda move: _out_of_turn(move, " (salsa is switched off)"),
    MoveRefusal.CALZA_OFF: lambda _: "calza is switched off in these rules",
    MoveRefusal.CALZA_OUT_OF_TURN_OFF:
        lambda move: _out_of_turn(move, " (calza out of turn is switched off)"),
    MoveRefusal.CALZA_HEADS_UP: lambda _: "calza is not allowed when only two players are left",
    MoveRefusal.BAD_COUNT: _bad_count,
    MoveRefusal.COUNT_ABOVE_TABLE: lambda move: (f"count {shown(move.count)} is more than the "
                                                 f"{move.table_dice} dice on the table"),
    MoveRefusal.GAME_TOO_LONG: lambda _: (f"the game holds {MAX_MOVES} moves or {MAX_ROUNDS} "
                                          "rounds, the most a game may: start a new game"),
    MoveRefusal.SETTING_FIXED: lambda move: f"{move.setting} cannot change during a game",
    MoveRefusal.RULE_UNCHANGED:
        lambda move: f"the table already plays {move.setting} at that value",
}
"""How :attr:`RefusedMove.reason` words each code but a bid's (its verdict words that)."""


class IllegalMove(ValueError):
    """A move the rules or the game refuse; :attr:`refusal` says why, as data.

    ``index`` is the refused move's position among the moves replayed together, if any.
    Build one with :meth:`of`: a seat or count that is not a whole number makes it a
    ``TypeError`` too (a :class:`~perudo_math.checks.WrongTypeError`).
    """

    def __init__(self, refusal: RefusedMove, index: int | None = None) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal
        self.index = index

    @staticmethod
    def of(refusal: RefusedMove, index: int | None = None) -> IllegalMove:
        """The error for ``refusal``: a :class:`MistypedMove` when its seat or count was not a
        whole number (:attr:`RefusedMove.wrong_type`)."""
        return (MistypedMove if refusal.wrong_type else IllegalMove)(refusal, index)


class MistypedMove(IllegalMove, WrongTypeError):
    """A move refused because its seat or count is not a whole number: an :class:`IllegalMove`
    (the tracker words its code like any refusal) that is also a ``TypeError``."""


def dudo_refusal(rules: Rules, *, caller: int, turn: int,
                 last_bidder: int | None) -> MoveRefusal | None:
    """Why ``caller``, holding dice, may not call dudo now; ``None`` when they may.

    ``turn`` is the seat to act and ``last_bidder`` the seat of the bid on the table
    (``None`` before the opening bid).
    """
    if last_bidder is None:
        return MoveRefusal.NO_BID_YET
    if caller == last_bidder:
        return MoveRefusal.OWN_BID
    if caller != turn and not rules.salsa:
        return MoveRefusal.SALSA_OFF
    return None


def calza_refusal(rules: Rules, *, caller: int, turn: int, last_bidder: int | None,
                  players_left: int) -> MoveRefusal | None:
    """Why ``caller``, holding dice, may not call calza now; ``None`` when they may.

    ``players_left`` counts the players still holding dice (calza heads-up is a setting).
    """
    if not rules.calza:
        return MoveRefusal.CALZA_OFF
    if last_bidder is None:
        return MoveRefusal.NO_BID_YET
    if caller == last_bidder:
        return MoveRefusal.OWN_BID
    if caller != turn and not rules.calza_out_of_turn:
        return MoveRefusal.CALZA_OUT_OF_TURN_OFF
    if players_left == 2 and not rules.calza_heads_up:
        return MoveRefusal.CALZA_HEADS_UP
    return None


def call_refusal(kind: CallKind, rules: Rules, *, caller: int, turn: int,
                 last_bidder: int | None, players_left: int) -> MoveRefusal | None:
    """:func:`dudo_refusal` or :func:`calza_refusal`, by ``kind``."""
    if kind == "dudo":
        return dudo_refusal(rules, caller=caller, turn=turn, last_bidder=last_bidder)
    if kind == "calza":
        return calza_refusal(rules, caller=caller, turn=turn, last_bidder=last_bidder,
                             players_left=players_left)
    raise ValueError(f"a call is dudo or calza, not {kind!r}")


__all__ = [
    "CALL_KINDS",
    "CallKind",
    "IllegalMove",
    "MistypedMove",
    "MoveKind",
    "MoveRefusal",
    "RefusedMove",
    "call_refusal",
    "calza_refusal",
    "dudo_refusal",
]
