"""A game of Perudo as an immutable state machine: seats, bids, dudo, calza and rounds.

Every transition returns a new :class:`GameState`; the history of events replays the game
from its start, which gives undo and the compact game codes of :meth:`GameState.to_code`.
A table may change a rule setting during the game (:class:`RulesChanged`, an event of the
history like a move): ``GameState.rules`` are the rules in force now, ``start_rules`` those
the game started with.
A refused move raises :class:`~perudo_math.moves.IllegalMove`, whose refusal is data (a code
and the seats it concerns); the ``*_refusal`` methods return the same value without raising.
A round ends through :func:`~perudo_math.settle.settle_round`. A player's view of the table
at their turn is :meth:`GameState.situation` (a :class:`~perudo_math.situation.Situation`).
"""

from __future__ import annotations

import base64
import json
import random
import re
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any

from perudo_math.bid import Bid, as_bid
from perudo_math.checks import (
    WrongTypeError,
    is_iterable,
    is_whole,
    require_items,
    shown,
    wrong_type,
)
from perudo_math.hand import Hand, as_hand
from perudo_math.legality import check_bid, smallest_raises
from perudo_math.limits import MAX_MOVES, MAX_PLAYERS, MAX_ROUNDS, MIN_PLAYERS
from perudo_math.moves import (
    CallKind,
    IllegalMove,
    MoveKind,
    MoveRefusal,
    RefusedMove,
    call_refusal,
)
from perudo_math.names import check_table, checked_name
from perudo_math.rules import (
    SETTING_BY_NAME,
    SETTING_BY_SHORT,
    SETTINGS,
    PalificoRule,
    Rules,
    Setting,
    SettingKind,
)
from perudo_math.settle import settle_round
from perudo_math.situation import RoundBids, Situation, next_with_dice

CODE_PREFIX = "g1."
DAMAGED_CODE = "this game link is damaged or not from Perudo Coach"
"""The message of a :class:`DamagedGameCode` (followed by the first illegal move, if any)."""

_DEFAULT_RULES = Rules()
MAX_CODE_LENGTH = 16_384
"""The longest game code read: the longest game (MAX_MOVES moves, ten long names) packs into
about 7,000 characters; a longer code is refused unread."""
_MAX_PAYLOAD_BYTES = 64 * 1024
"""The most a code may inflate to: the longest game's moves and names take about 15 kB."""
_CALL_PATTERN = re.compile(r"([dc])([0-9]{1,4})@([0-9]{1,2})")


class DamagedGameCode(ValueError):
    """A game code :meth:`GameState.to_code` did not write, or one that replays an illegal move.

    ``move_number`` (from 1) and ``move`` name the first move that could not be replayed, or
    are ``None`` when the code itself is damaged; ``refusal`` says why the game refused
    that move (``None`` when it could not even be read).
    """

    def __init__(self, move_number: int | None = None, move: str | None = None,
                 cause: ValueError | None = None) -> None:
        message = DAMAGED_CODE
        if move_number is not None:
            message = f"{DAMAGED_CODE}: move {move_number} ({move}) is illegal: {cause}"
        super().__init__(message)
        self.move_number = move_number
        self.move = move
        self.refusal: RefusedMove | None = (
            cause.refusal if isinstance(cause, IllegalMove) else None)


@dataclass(frozen=True, slots=True)
class Player:
    """A seat at the table: the player's name and the dice they still hold."""

    name: str
    dice: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", checked_name(self.name))
        if not is_whole(self.dice):
            raise wrong_type("a player's dice", "a whole number", self.dice)
        if self.dice < 0:
            raise ValueError(f"a player holds a whole number of dice, not {shown(self.dice)}")


@dataclass(frozen=True, slots=True)
class BidMade:
    """The player at ``seat`` bid ``bid``; ``seat`` ``None``: the player to act (a game's
    history records the seat)."""

    seat: int | None
    bid: Bid


@dataclass(frozen=True, slots=True)
class DudoCalled:
    """The player at ``seat`` challenged the last bid; ``count`` revealed dice matched it.
    ``seat`` ``None``: the player to act (a game's history records the seat)."""

    seat: int | None
    count: int


@dataclass(frozen=True, slots=True)
class CalzaCalled:
    """The player at ``seat`` claimed the last bid exact; ``count`` revealed dice matched it.
    ``seat`` ``None``: the player to act (a game's history records the seat)."""

    seat: int | None
    count: int


@dataclass(frozen=True, slots=True)
class RulesChanged:
    """From here on the table plays ``setting`` (a :class:`Rules` field name) at ``value``
    (its JSON value: ``"any-face"``, ``True``). Nobody's move: the table agreed on it, so
    it has no seat. ValueError when there is no such setting or the value is not one of it.
    Which settings may change during a game: :attr:`~perudo_math.rules.Setting.mid_game`."""

    setting: str
    value: int | str | bool

    def __post_init__(self) -> None:
        if not isinstance(self.setting, str) or self.setting not in SETTING_BY_NAME:
            raise ValueError(f"there is no rule setting {shown(self.setting)}")
        setting, value = SETTING_BY_NAME[self.setting], self.value
        if setting.kind is SettingKind.CHOICE:
            value = value.value if isinstance(value, StrEnum) else value
            if not isinstance(value, str) or value not in setting.choices:
                raise ValueError(f"{setting.name} must be one of {', '.join(setting.choices)}, "
                                 f"not {shown(value)}")
            object.__setattr__(self, "value", value)  # "any-face", never RaiseRule.ANY_FACE
        elif setting.kind is SettingKind.SWITCH:
            if not isinstance(value, bool):
                raise wrong_type(setting.name, "true or false", value)
        else:
            checked: dict[str, Any] = {setting.name: value}  # any type: Rules checks it
            Rules(**checked)  # its own range and type checks


Move = BidMade | DudoCalled | CalzaCalled
"""A player's move."""
Event = Move | RulesChanged
"""What the history of a game records: the players' moves and the table's rule changes."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended and how the next one starts.

    ``calza_right`` is ``None`` after a dudo. ``gainer`` is the calza caller who was right
    below the starting dice. ``next_opener`` is ``None`` when the game is over.
    """

    kind: CallKind
    bid: Bid
    bidder: int
    caller: int
    count: int
    palifico: bool
    loser: int | None
    gainer: int | None
    calza_right: bool | None
    eliminated: int | None
    next_opener: int | None
    next_palifico: bool


@dataclass(frozen=True, slots=True)
class GameState(RoundBids):
    """Where a game stands. Create one with :meth:`new`; every move returns a new state.

    ``opener`` is ``None`` once the game is over. ``bids`` are this round's (seat, bid)
    pairs. ``had_palifico`` holds the seats that have opened a palifico round. ``rules``
    are the rules in force now; ``start_rules`` those the game started with (``None``, for
    a state built without :meth:`new`: ``rules``).
    """

    rules: Rules
    players: tuple[Player, ...]
    first_opener: int
    opener: int | None
    palifico: bool
    bids: tuple[tuple[int, Bid], ...] = ()
    had_palifico: frozenset[int] = frozenset()
    results: tuple[RoundResult, ...] = ()
    history: tuple[Event, ...] = ()
    start_rules: Rules | None = None

    @classmethod
    def new(
        cls, names: Iterable[str], rules: Rules = _DEFAULT_RULES, first_opener: int = 0
    ) -> GameState:
        """A game between ``names`` in clockwise seat order, each with the starting dice."""
        if isinstance(names, str):
            raise WrongTypeError("GameState.new: give the players' names as a list, not as one "
                                 "text")
        if not isinstance(rules, Rules):
            raise wrong_type("GameState.new: rules", "a Rules", rules)
        given = require_items("GameState.new: names", names, "a list of names", MAX_PLAYERS)
        players = tuple(Player(name, rules.starting_dice) for name in given)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            count = len(names) if isinstance(names, tuple | list) else len(players)
            given_count = f"{count} or more" if count > MAX_PLAYERS else count
            raise ValueError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {given_count}")
        check_table([player.name for player in players])  # no two alike
        if not is_whole(first_opener):
            raise wrong_type("GameState.new: first_opener", "a seat number", first_opener)
        if refusal := _seat_number_refusal(first_opener, len(players)):
            raise ValueError(refusal)
        palifico = rules.palifico is PalificoRule.WHILE_ONE_DIE and rules.starting_dice == 1
        had = frozenset({first_opener}) if palifico else frozenset()
        return cls(rules, players, first_opener, first_opener, palifico, had_palifico=had,
                   start_rules=rules)

    # What the table looks like.

    @property
    def table_dice(self) -> int:
        """The number of dice still in play."""
        return sum(player.dice for player in self.players)

    @property
    def active_seats(self) -> tuple[int, ...]:
        """The seats still holding dice, in seat order."""
        return tuple(seat for seat, player in enumerate(self.players) if player.dice > 0)

    @property
    def winner(self) -> int | None:
        """The seat of the last player holding dice, or ``None`` while the game goes on."""
        found = None
        for seat, player in enumerate(self.players):
            if player.dice > 0:
                if found is not None:
                    return None  # a second player holds dice: asked every move, so stop early
                found = seat
        return found

    @property
    def is_over(self) -> bool:
        """Whether only one player still holds dice."""
        return self.winner is not None

    @property
    def round_number(self) -> int:
        """The current round, from 1; the last round played once the game is over."""
        return len(self.results) + (0 if self.is_over else 1)

    @property
    def turn(self) -> int | None:
        """The seat to act: the opener, then each active seat clockwise after the last bidder."""
        if self.is_over:
            return None
        if not self.bids:
            return self.opener
        return next_with_dice(self.bids[-1][0], [player.dice for player in self.players])

    def name(self, seat: int) -> str:
        """The name of the player at ``seat``."""
        return self.players[seat].name

    def situation(self, seat: int, hand: Hand | Iterable[int] | str) -> Situation:
        """The view of the player at ``seat`` holding ``hand`` (a :class:`Hand`, its faces or
        its text): the rules in force, every seat's dice, this round's bids. ValueError when
        ``hand`` is not the size of the seat's dice, or the seat has no turn to take (out of
        the game, or the game over)."""
        if hand.__class__ is not Hand:
            hand = as_hand(hand, "GameState.situation: hand")
        dice = tuple(player.dice for player in self.players)
        return Situation.of_game(self.rules, dice, seat, hand, self.bids, self.palifico)

    def smallest_raises(self) -> dict[int, Bid]:
        """For each face with a legal bid for the player to act, the smallest one."""
        if self.turn is None:
            return {}
        return smallest_raises(self.last_bid, palifico=self.palifico, rules=self.rules,
                               bidder_dice=self.players[self.turn].dice)

    # Why a move would be refused.

    def bid_refusal(self, bid: Bid, seat: int | None = None) -> RefusedMove | None:
        """Why ``seat`` (default: the turn) may not bid ``bid`` (a Bid or ``"5x4"``) now, or
        ``None`` if it may."""
        if bid.__class__ is not Bid:
            bid = as_bid(bid, "GameState.bid_refusal: bid")
        seat = self.turn if seat is None else seat
        if refused := self._seat_refusal(seat, "bid"):
            return refused
        assert seat is not None  # refused above
        if seat != self.turn:
            return self._refused(MoveRefusal.NOT_YOUR_TURN, "bid", seat)
        verdict = check_bid(bid, self.last_bid, palifico=self.palifico, rules=self.rules,
                            bidder_dice=self.players[seat].dice)
        if verdict.legal:
            return None
        assert verdict.refusal is not None
        return RefusedMove(MoveRefusal.of_bid(verdict.refusal), "bid", seat, self.turn,
                           verdict=verdict, names=self._names)

    def dudo_refusal(self, seat: int | None = None) -> RefusedMove | None:
        """Why ``seat`` (default: the turn) may not call dudo now, or ``None`` if it may."""
        return self.call_refusal("dudo", seat)

    def calza_refusal(self, seat: int | None = None) -> RefusedMove | None:
        """Why ``seat`` (default: the turn) may not call calza now, or ``None`` if it may."""
        return self.call_refusal("calza", seat)

    def calza_allowed(self, seat: int | None = None) -> bool:
        """Whether ``seat`` (default: the turn) may call calza now."""
        return self.calza_refusal(seat) is None

    def call_refusal(self, kind: CallKind, seat: int | None = None) -> RefusedMove | None:
        """Why ``seat`` (default: the turn) may not call ``kind`` (dudo or calza) now."""
        seat = self.turn if seat is None else seat
        if refused := self._seat_refusal(seat, kind):
            return refused
        assert seat is not None and self.turn is not None  # no seat or game over: refused above
        code = call_refusal(kind, self.rules, caller=seat, turn=self.turn,
                            last_bidder=self.last_bidder, players_left=len(self.active_seats))
        return None if code is None else self._refused(code, kind, seat)

    def count_refusal(self, count: object, kind: CallKind = "dudo") -> RefusedMove | None:
        """Why ``count`` cannot be the number of matching dice revealed after a call."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            whole = count if isinstance(count, int) and not isinstance(count, bool) else None
            return RefusedMove(MoveRefusal.BAD_COUNT, kind, count=whole, names=self._names)
        if count > self.table_dice:
            return RefusedMove(MoveRefusal.COUNT_ABOVE_TABLE, kind, count=count,
                               table_dice=self.table_dice, names=self._names)
        return None

    def rule_change_refusal(self, change: RulesChanged) -> RefusedMove | None:
        """Why the table may not make ``change`` now, or ``None`` if it may: the game is over
        or full, the setting cannot change during a game, or the table already plays it."""
        if not isinstance(change, RulesChanged):
            raise wrong_type("GameState.rule_change_refusal: change", "a RulesChanged", change)
        code = None
        if (winner := self.winner) is not None:
            code = MoveRefusal.GAME_OVER
        elif len(self.history) >= MAX_MOVES or len(self.results) >= MAX_ROUNDS:
            code = MoveRefusal.GAME_TOO_LONG
        elif not SETTING_BY_NAME[change.setting].mid_game:
            code = MoveRefusal.SETTING_FIXED
        elif getattr(self.rules, change.setting) == change.value:
            code = MoveRefusal.RULE_UNCHANGED
        if code is None:
            return None
        return RefusedMove(code, "rules", turn=self.turn, winner=winner,
                           setting=change.setting, names=self._names)

    def changes_allowing(self, move: Event) -> tuple[RulesChanged, ...]:
        """The changes of one setting, each of which would make the refused ``move`` legal
        now (``()`` when it is legal, is a change of rules, or when no single setting refuses
        it): 4 × 2 after 3 × 5 under ``same-face`` gives ``raise_rule`` ``any-face``."""
        if self.refusal(move) is None or isinstance(move, RulesChanged):
            return ()
        found = []
        for change in _changes_from(self.rules):
            if (self.rule_change_refusal(change) is None
                    and self._step(change)[0]._refusal(move) is None):
                found.append(change)
        return tuple(found)

    def refusal(self, event: Event) -> RefusedMove | None:
        """Why the move ``event`` records would be refused now, or ``None`` if it is legal.

        An event whose seat is ``None`` is the move of the player to act. A seat or count
        that is not a whole number is refused first, whatever the state of the game.
        """
        _check_event(event, "GameState.refusal: event")
        return self._refusal(event)

    def _refusal(self, event: Event) -> RefusedMove | None:
        if isinstance(event, RulesChanged):
            return self.rule_change_refusal(event)
        seat = event.seat
        if seat is not None and not is_whole(seat):
            return RefusedMove(MoveRefusal.NO_SUCH_SEAT, _move_kind(event), None, self.turn,
                               names=self._names)
        if isinstance(event, BidMade):
            return self.bid_refusal(event.bid, seat)
        kind: CallKind = "dudo" if isinstance(event, DudoCalled) else "calza"
        if not is_whole(event.count):
            return self.count_refusal(event.count, kind)
        return self.call_refusal(kind, seat) or self.count_refusal(event.count, kind)

    # Moves.

    def bid(self, bid: Bid | str, seat: int | None = None) -> GameState:
        """The state after ``seat`` (default: the turn) bids ``bid`` (a Bid or ``"5x4"``).

        Raises :class:`~perudo_math.moves.IllegalMove` when :meth:`bid_refusal` refuses it.
        """
        if bid.__class__ is not Bid:
            bid = as_bid(bid, "GameState.bid: bid")
        return self._replay((BidMade(self.turn if seat is None else seat, bid),))

    def dudo(self, count: int, seat: int | None = None) -> GameState:
        """The state after ``seat`` (default: the turn) challenges and ``count`` dice match.

        Raises :class:`~perudo_math.moves.IllegalMove` when the call or the count is refused.
        """
        return self._replay((DudoCalled(self.turn if seat is None else seat, count),))

    def calza(self, count: int, seat: int | None = None) -> GameState:
        """The state after ``seat`` (default: the turn) calls calza and ``count`` dice match.

        Raises :class:`~perudo_math.moves.IllegalMove` when the call or the count is refused.
        """
        return self._replay((CalzaCalled(self.turn if seat is None else seat, count),))

    def change_rule(self, setting: str, value: int | str | bool) -> GameState:
        """The state after the table switches ``setting`` to ``value`` from now on.

        ValueError when there is no such setting or value; :class:`IllegalMove` when
        :meth:`rule_change_refusal` refuses it.
        """
        return self._replay((RulesChanged(setting, value),))

    def apply(self, event: Event) -> GameState:
        """The state after ``event``; :class:`~perudo_math.moves.IllegalMove` when refused.

        An event whose seat is ``None`` is the move of the player to act.
        """
        return self._replay((event,))

    def replay(self, events: Iterable[Event]) -> GameState:
        """The state after every event in turn, in time linear in the number of events.

        Raises :class:`~perudo_math.moves.IllegalMove` at the first refused event; its
        ``index`` attribute is that event's position in ``events``.
        """
        if isinstance(events, str | bytes | bytearray | dict) or not is_iterable(events):
            raise wrong_type("GameState.replay: events", "an iterable of game events", events)
        return self._replay(events, many=True)

    def _replay(self, events: Iterable[Event], many: bool = False) -> GameState:
        """:meth:`replay` once ``events`` is known to be iterable; ``many``: for its messages,
        whether they came to :meth:`replay` rather than :meth:`apply` or a move method."""
        state = self
        history, results = list(self.history), list(self.results)
        for index, event in enumerate(events):
            kind = event.__class__
            if kind not in _EVENT_TYPES or (isinstance(event, BidMade)
                                            and event.bid.__class__ is not Bid):
                _check_event(event, f"GameState.replay: events[{index}]" if many
                             else "GameState.apply: event")
            refused = state._refusal(event)
            if refused is None and (len(history) >= MAX_MOVES or len(results) >= MAX_ROUNDS):
                seat = None if isinstance(event, RulesChanged) else event.seat
                refused = RefusedMove(MoveRefusal.GAME_TOO_LONG, _move_kind(event), seat,
                                      state.turn, names=state._names)
            if refused is not None:
                raise IllegalMove.of(refused, index)
            if not isinstance(event, RulesChanged) and event.seat is None:
                event = _with_seat(event, state.turn)
            state, result = state._step(event)
            history.append(event)
            if result is not None:
                results.append(result)
        if state is self:
            return self
        return replace(state, history=tuple(history), results=tuple(results))

    def restart(self) -> GameState:
        """The same game as it stood before its first move, under the rules it started with."""
        names = [player.name for player in self.players]
        return GameState.new(names, self.start_rules or self.rules, self.first_opener)

    def before(self, moves: int) -> GameState:
        """The state after this game's first ``moves`` moves (the state its move number
        ``moves`` was made from, counting from 0): its own moves replayed from its start
        without checking them again (each was checked when the game was made), in time
        linear in them. ValueError for a number of moves the game does not hold."""
        if not is_whole(moves) or not 0 <= moves <= len(self.history):
            raise ValueError(f"GameState.before: the game holds {len(self.history)} moves, "
                             f"not {shown(moves)}")
        state = self.restart()
        results = []
        for event in self.history[:moves]:
            state, result = state._step(event)
            if result is not None:
                results.append(result)
        return replace(state, history=self.history[:moves], results=tuple(results))

    def undo(self) -> GameState:
        """The state before the last move."""
        if not self.history:
            raise ValueError("nothing to undo: no move has been made yet")
        return self.restart().replay(self.history[:-1])

    # Game codes.

    def to_code(self) -> str:
        """A short text that :meth:`from_code` turns back into this very state."""
        names = [player.name for player in self.players]
        moves = " ".join(_move_text(event) for event in self.history)
        payload = [(self.start_rules or self.rules).changed(), names, self.first_opener, moves]
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        return CODE_PREFIX + _pack(text.encode("utf-8"))

    @classmethod
    def from_code(cls, code: str) -> GameState:
        """The game that :meth:`to_code` wrote, replayed move by move.

        Raises :class:`DamagedGameCode` when the code was not written by :meth:`to_code` or
        one of its moves is illegal. The same code read again gives the same state, replayed
        once while it is kept (a page reads its link's game at every run, and a game may
        hold thousands of moves).
        """
        if cls is GameState and isinstance(code, str) and len(code) <= MAX_CODE_LENGTH:
            return _read_code(code)
        return cls._read(code)

    @classmethod
    def _read(cls, code: str) -> GameState:
        """:meth:`from_code`, replayed."""
        try:
            if not isinstance(code, str) or len(code) > MAX_CODE_LENGTH:
                raise ValueError("not a code of a game's size")
            code = code.strip()
            if not code.startswith(CODE_PREFIX):
                raise ValueError("wrong prefix")
            payload = json.loads(_unpack(code[len(CODE_PREFIX):]).decode("utf-8"))
            rules_data, names, first_opener, moves = payload
            if not (isinstance(names, list) and type(first_opener) is int
                    and isinstance(moves, str)):
                raise ValueError("wrong payload")
            state = cls.new(names, Rules.from_dict(rules_data), first_opener)
            texts = moves.split()
            calls = sum(1 for text in texts if text[0] in "dc" and "@" in text)
            if len(texts) > MAX_MOVES or calls > MAX_ROUNDS:
                raise ValueError("longer than any game may be")
        except (ValueError, TypeError, KeyError, IndexError, zlib.error, RecursionError):
            raise DamagedGameCode() from None
        events = []
        for number, text in enumerate(texts, start=1):
            try:
                events.append(_read_move(text))
            except ValueError as error:
                raise DamagedGameCode(number, text, error) from None
        try:
            return state.replay(events)
        except IllegalMove as error:
            number = (error.index or 0) + 1
            raise DamagedGameCode(number, texts[number - 1], error) from None

    # Helpers.

    @property
    def _names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)

    def _refused(self, code: MoveRefusal, move: MoveKind, seat: int) -> RefusedMove:
        return RefusedMove(code, move, seat, self.turn, names=self._names)

    def _seat_refusal(self, seat: object, move: MoveKind) -> RefusedMove | None:
        """Why ``seat`` may not move at all: the game is over, there is no such seat, or out."""
        if (winner := self.winner) is not None:
            return RefusedMove(MoveRefusal.GAME_OVER, move, winner=winner, names=self._names)
        if len(self.history) >= MAX_MOVES or len(self.results) >= MAX_ROUNDS:
            return RefusedMove(MoveRefusal.GAME_TOO_LONG, move, turn=self.turn,
                               names=self._names)
        if _seat_number_refusal(seat, len(self.players)):
            number = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
            return RefusedMove(MoveRefusal.NO_SUCH_SEAT, move, number, self.turn,
                               names=self._names)
        assert isinstance(seat, int)
        if self.players[seat].dice == 0:
            return self._refused(MoveRefusal.PLAYER_OUT, move, seat)
        return None

    def _step(self, event: Event) -> tuple[GameState, RoundResult | None]:
        """The state after the legal ``event``, and the round's result when it ends one.

        The state returned keeps this state's ``history`` and ``results``: :meth:`replay`
        adds to them once at the end, so that replaying stays linear.
        """
        if isinstance(event, BidMade):
            assert event.seat is not None  # _replay gave it the seat to act
            # The constructor, not dataclasses.replace: five times faster, on every bid.
            bids = (*self.bids, (event.seat, event.bid))
            return GameState(self.rules, self.players, self.first_opener, self.opener,
                             self.palifico, bids, self.had_palifico, self.results,
                             self.history, self.start_rules), None
        if isinstance(event, RulesChanged):
            rules = _with_setting(self.rules, event.setting, event.value)
            return GameState(rules, self.players, self.first_opener, self.opener,
                             self.palifico, self.bids, self.had_palifico, self.results,
                             self.history, self.start_rules), None
        return self._end_round(event)

    def _end_round(self, call: DudoCalled | CalzaCalled) -> tuple[GameState, RoundResult]:
        """Settle the last bid after ``call`` and set up the next round."""
        bidder, bid = self.bids[-1]
        caller = call.seat
        assert caller is not None  # _replay gave it the seat to act
        settled = settle_round(
            bid, bidder=bidder, caller=caller, count=call.count, rules=self.rules,
            kind="dudo" if isinstance(call, DudoCalled) else "calza",
            dice=[player.dice for player in self.players],
        )
        dice, loser = settled.dice, settled.loser
        over = sum(1 for held in dice if held > 0) == 1
        starter = caller if loser is None else loser
        opener = None if over else starter if dice[starter] else next_with_dice(starter, dice)
        dropped = loser is not None and dice[loser] == 1
        palifico = opener is not None and self._palifico_next(opener, dice, dropped)
        result = RoundResult(
            kind=settled.kind, bid=bid, bidder=bidder, caller=caller, count=call.count,
            palifico=self.palifico, loser=loser, gainer=settled.gainer,
            calza_right=settled.calza_right, eliminated=settled.eliminated,
            next_opener=opener, next_palifico=palifico,
        )
        players = tuple(replace(p, dice=held) for p, held in zip(self.players, dice, strict=True))
        state = replace(
            self,
            players=players,
            opener=opener,
            palifico=palifico,
            bids=(),
            had_palifico=(self.had_palifico | {opener} if palifico and opener is not None
                          else self.had_palifico),
        )
        return state, result

    def _palifico_next(self, opener: int, dice: Sequence[int], dropped: bool) -> bool:
        """Whether the round opened by ``opener`` is palifico; ``dropped``: a 2 → 1 drop."""
        match self.rules.palifico:
            case PalificoRule.WHILE_ONE_DIE:
                return dice[opener] == 1
            case PalificoRule.ONCE_PER_PLAYER:
                return dropped and opener not in self.had_palifico
        return dropped


@lru_cache(maxsize=8)
def _read_code(code: str) -> GameState:
    """:meth:`GameState.from_code` of the last codes read (a refused code is not kept)."""
    return GameState._read(code)


def roll_for_first_opener(rng: random.Random, seats: int) -> int:
    """The seat that opens the game: highest sum of two dice, ties among the highest reroll."""
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
        raise ValueError(f"at least one seat must roll, not {seats!r}")
    contenders = list(range(seats))
    while len(contenders) > 1:
        sums = [rng.randint(1, 6) + rng.randint(1, 6) for _ in contenders]
        best = max(sums)
        contenders = [seat for seat, total in zip(contenders, sums, strict=True) if total == best]
    return contenders[0]


_EVENT_TYPES = (BidMade, DudoCalled, CalzaCalled, RulesChanged)


def _check_event(event: object, name: str) -> None:
    """Refuse anything but a game event, and a BidMade whose bid is not a :class:`Bid`."""
    if not isinstance(event, _EVENT_TYPES):
        raise wrong_type(name, "a BidMade, DudoCalled, CalzaCalled or RulesChanged", event)
    if isinstance(event, BidMade) and not isinstance(event.bid, Bid):
        raise wrong_type(f"{name}.bid", "a Bid", event.bid)


def _seat_number_refusal(seat: object, seats: int) -> str | None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        return f"there is no seat {shown(seat)}: seats run from 0 to {seats - 1}"
    return None


@lru_cache(maxsize=64)
def _changes_from(rules: Rules) -> tuple[RulesChanged, ...]:
    """Every change of one setting that a table may make during a game under ``rules``
    (asked on every tap that shows a refused move: worked out once per rules)."""
    current = rules.to_dict()
    return tuple(RulesChanged(setting.name, value) for setting in SETTINGS if setting.mid_game
                 for value in _values(setting) if value != current[setting.name])


@lru_cache(maxsize=256)
def _with_setting(rules: Rules, setting: str, value: int | str | bool) -> Rules:
    """``rules`` with one setting changed."""
    changed: dict[str, Any] = {setting: value}  # any type: Rules checks it
    return replace(rules, **changed)


def _values(setting: Setting) -> tuple[int | str | bool, ...]:
    """The values of a setting that is a choice or a switch."""
    return (False, True) if setting.kind is SettingKind.SWITCH else setting.choices


def _move_text(event: Event) -> str:
    """One move in a game code: ``5x4`` for a bid, ``d3@2`` for seat 2's dudo on a count of 3,
    ``raise=any-face`` for a change of rules (the setting as a link writes it)."""
    if isinstance(event, BidMade):
        return str(event.bid)
    if isinstance(event, RulesChanged):
        setting = SETTING_BY_NAME[event.setting]
        return f"{setting.short}={setting.format(event.value)}"
    kind = "d" if isinstance(event, DudoCalled) else "c"
    return f"{kind}{event.count}@{event.seat}"


def _read_move(move: str) -> Event:
    """One move read from a game code: a bid is the move of the player to act."""
    short, equals, value = move.partition("=")
    if equals:
        if short not in SETTING_BY_SHORT:
            raise ValueError(f"there is no rule setting {short[:20]!r}")
        setting = SETTING_BY_SHORT[short]
        return RulesChanged(setting.name, setting.parse(value))
    call = _CALL_PATTERN.fullmatch(move)
    if call is None:
        return BidMade(None, Bid.parse(move))
    kind, count, seat = call.groups()
    return (DudoCalled if kind == "d" else CalzaCalled)(int(seat), int(count))


def _with_seat(event: Move, seat: int | None) -> Move:
    if isinstance(event, BidMade):
        return BidMade(seat, event.bid)
    return type(event)(seat, event.count)


def _move_kind(event: Event) -> MoveKind:
    if isinstance(event, BidMade):
        return "bid"
    if isinstance(event, RulesChanged):
        return "rules"
    return "dudo" if isinstance(event, DudoCalled) else "calza"


def _pack(data: bytes) -> str:
    """Raw-deflated ``data`` with its CRC-32, base64url without padding."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = compressor.compress(data) + compressor.flush()
    blob = deflated + zlib.crc32(deflated).to_bytes(4, "little")
    return base64.urlsafe_b64encode(blob).decode("ascii").rstrip("=")


def _unpack(text: str) -> bytes:
    """The data :func:`_pack` wrote; ValueError when any character differs."""
    blob = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    deflated, check = blob[:-4], blob[-4:]
    canonical = base64.urlsafe_b64encode(blob).decode("ascii").rstrip("=")
    if canonical != text or not deflated or zlib.crc32(deflated).to_bytes(4, "little") != check:
        raise ValueError("checksum mismatch")
    inflater = zlib.decompressobj(-15)
    data = inflater.decompress(deflated, _MAX_PAYLOAD_BYTES)
    if not inflater.eof or inflater.unconsumed_tail or inflater.unused_data:
        raise ValueError("truncated or oversized")
    return data


__all__ = [
    "CODE_PREFIX",
    "DAMAGED_CODE",
    "MAX_CODE_LENGTH",
    "BidMade",
    "CalzaCalled",
    "DamagedGameCode",
    "DudoCalled",
    "Event",
    "GameState",
    "Move",
    "Player",
    "RoundResult",
    "RulesChanged",
    "roll_for_first_opener",
]
