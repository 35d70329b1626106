"""A whole game against the league's bots: the learner in seat 0, a bot in every other seat.

Everything follows from the seed: who opens, every round's dice (each seat's dice of round r
roll from their own stream, so a different move earlier changes a later hand only in its
number of dice) and each bot's random choices. A game is therefore its setup and the
learner's moves (:class:`BotGame`): a short link resumes it, and the same seed and moves
replay the same game, bot for bot.

:class:`BotTable` plays a :class:`BotGame` out: the learner's moves in turn, the bots' in
between, up to the learner's next turn or the end of the game. It keeps every move
(:class:`Step`), every round's lifted cups (:class:`PlayedRound`) and the learner's own
decisions (:class:`MyDecision`) for a review.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from coach.engine.showdown import Showdown
from coach.engine.situation import Action, InvalidActionError, Situation
from coach.play.arena import apply_action, show_showdown
from coach.play.bots import BUILTIN_BOTS, Bot
from coach.play.names import MAX_OPPONENTS, STYLES
from perudo_math import (
    MAX_MOVES,
    MAX_ROUNDS,
    Bid,
    GameState,
    Hand,
    RoundResult,
    Rules,
    roll_for_first_opener,
)
from perudo_math.checks import is_whole, wrong_type
from perudo_math.moves import IllegalMove

MAX_TABLE_DICE = 30
"""The most dice a game against the bots starts with (six players of five, or three of
ten): the readers then answer within a phone's patience, and a link replays in well under
a second."""
MAX_SEED = 2**63 - 1
ME = 0
"""The learner's seat."""
_MOVE = re.compile(r"dudo|calza|[0-9]{1,3}x[1-6P]", re.IGNORECASE)


class BotGameError(ValueError):
    """A game against the bots that cannot be: a bad setup, or a move that is not legal when
    its turn comes (``move_number`` counts the learner's moves from 1)."""

    def __init__(self, message: str, move_number: int | None = None) -> None:
        super().__init__(message)
        self.move_number = move_number


@dataclass(frozen=True, slots=True)
class BotGame:
    """A game against the bots: its ``seed``, the opponents' ``styles`` in seat order from
    seat 1 (keys of :data:`STYLES`), the ``rules`` and the learner's ``moves`` so far."""

    seed: int
    styles: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    moves: tuple[Action, ...] = ()

    def __post_init__(self) -> None:
        if not is_whole(self.seed) or not 0 <= self.seed <= MAX_SEED:
            raise BotGameError(f"a seed is a whole number from 0 to {MAX_SEED}, "
                               f"not {self.seed!r}"[:200])
        if not isinstance(self.styles, tuple):
            raise wrong_type("BotGame: styles", "a tuple of style names", self.styles)
        if not 1 <= len(self.styles) <= MAX_OPPONENTS:
            raise BotGameError(f"a game has 1 to {MAX_OPPONENTS} opponents, "
                               f"not {len(self.styles)}")
        for style in self.styles:
            if style not in STYLES:
                raise BotGameError(f"unknown style {str(style)[:40]!r}: use one of "
                                   f"{', '.join(STYLES)}")
        if not isinstance(self.rules, Rules):
            raise wrong_type("BotGame: rules", "a Rules", self.rules)
        if self.players * self.rules.starting_dice > MAX_TABLE_DICE:
            raise BotGameError(f"a game against the bots starts with at most {MAX_TABLE_DICE} "
                               f"dice, not {self.players} players of "
                               f"{self.rules.starting_dice}")
        if not isinstance(self.moves, tuple) or not all(
                isinstance(move, Action) for move in self.moves):
            raise wrong_type("BotGame: moves", "a tuple of Actions", self.moves)
        if len(self.moves) > MAX_MOVES:
            raise BotGameError(f"a game holds at most {MAX_MOVES} moves, not {len(self.moves)}")

    @property
    def players(self) -> int:
        return len(self.styles) + 1

    @staticmethod
    def most_opponents(rules: Rules) -> int:
        """How many opponents a game under ``rules`` may have (at least one)."""
        return max(1, min(MAX_OPPONENTS, MAX_TABLE_DICE // rules.starting_dice - 1))

    def with_move(self, action: Action) -> BotGame:
        return BotGame(self.seed, self.styles, self.rules, (*self.moves, action))

    def moves_text(self) -> str:
        """The learner's moves as text, ``3x4.dudo.5xP`` (:meth:`read_moves` reads it)."""
        return ".".join(str(move) for move in self.moves)

    @staticmethod
    def read_moves(text: str) -> tuple[Action, ...]:
        """The moves :meth:`moves_text` wrote; :class:`BotGameError` on anything else."""
        if not isinstance(text, str):
            raise wrong_type("BotGame moves", "a text", text)
        if not text:
            return ()
        if len(text) > MAX_MOVES * 6:
            raise BotGameError("the moves are longer than any game")
        moves = []
        for number, word in enumerate(text.split("."), start=1):
            if not _MOVE.fullmatch(word):
                raise BotGameError(f"move {number} is not a move: {word[:20]!r}", number)
            try:
                moves.append(Action.parse(word))
            except (InvalidActionError, ValueError) as error:
                raise BotGameError(f"move {number} is not a move: {error}", number) from None
        return tuple(moves)


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the game: ``seat`` took ``action`` in round ``round_number``."""

    seat: int
    action: Action
    round_number: int


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """A finished round: its bids, the call, every hand lifted and what it changed."""

    number: int
    bids: tuple[tuple[int, Bid], ...]
    hands: tuple[Hand, ...]
    result: RoundResult


@dataclass(frozen=True, slots=True)
class MyDecision:
    """The learner's move ``action`` in ``situation``, with every hand of that round."""

    situation: Situation
    action: Action
    hands: tuple[Hand, ...]


def seat_names(styles: Sequence[str]) -> list[str]:
    """Plain names for the seats: ``me``, then each bot's style and seat (``reader-1``)."""
    return ["me", *(f"{style}-{seat}" for seat, style in enumerate(styles, start=1))]


class BotTable:
    """A :class:`BotGame` played out: up to the learner's turn, or to the end.

    Raises :class:`BotGameError` when one of the game's moves is not legal when its turn
    comes, or comes after the learner is out of the game. ``names`` (one per seat, distinct)
    name the players in the game's state, for its words: they change nothing of the play.
    """

    def __init__(self, game: BotGame, names: Sequence[str] | None = None) -> None:
        if not isinstance(game, BotGame):
            raise wrong_type("BotTable: game", "a BotGame", game)
        names = seat_names(game.styles) if names is None else list(names)
        if len(names) != game.players:
            raise BotGameError(f"{game.players} players need {game.players} names, "
                               f"not {len(names)}")
        self.game = BotGame(game.seed, game.styles, game.rules)
        seed = game.seed
        self._bots: list[Bot | None] = [None] + [
            BUILTIN_BOTS[STYLES[style]](random.Random(f"{seed}:bot:{seat}"))
            for seat, style in enumerate(game.styles, start=1)]
        opener = roll_for_first_opener(random.Random(f"{seed}:opener"), game.players)
        self.state = GameState.new(names, game.rules, first_opener=opener)
        self.steps: list[Step] = []
        self.rounds: list[PlayedRound] = []
        self.decisions: list[MyDecision] = []
        self.stopped = False
        """The game reached the most moves or rounds a game may hold, and stops undecided."""
        self.hands = self._deal()
        self._play_bots()
        for number, move in enumerate(game.moves, start=1):
            if not self.my_turn:
                raise BotGameError(f"move {number}, {move}, comes when it is not your turn",
                                   number)
            try:
                self.play(move)
            except IllegalMove as refused:
                raise BotGameError(f"move {number}, {move}, is not legal: {refused}",
                                   number) from None

    # What the table shows.

    @property
    def finished(self) -> bool:
        """Over: won by someone, or stopped at the longest a game may be."""
        return self.state.is_over or self.stopped

    @property
    def my_turn(self) -> bool:
        return not self.finished and self.state.turn == ME

    @property
    def situation(self) -> Situation:
        """Seat ``seat``'s view now (the learner's by default)."""
        return self.situation_of(ME)

    def situation_of(self, seat: int) -> Situation:
        return self.state.situation(seat, self.hands[seat])

    @property
    def my_hand(self) -> Hand:
        return self.hands[ME]

    # Moves.

    def play(self, action: Action) -> None:
        """The learner's ``action``, then the bots' moves up to the learner's next turn or
        the end of the game. Raises :class:`perudo_math.IllegalMove` (nothing changes) when
        the rules refuse it, :class:`BotGameError` when it is not the learner's turn."""
        if not isinstance(action, Action):
            raise wrong_type("BotTable.play: action", "an Action", action)
        if not self.my_turn:
            raise BotGameError("it is not your turn")
        situation, hands = self.situation, self.hands
        self._apply(ME, action)
        self.decisions.append(MyDecision(situation, action, hands))
        self.game = self.game.with_move(action)
        self._play_bots()

    def play_at(self, action: Action, moves_before: int) -> bool:
        """:meth:`play` ``action`` if the learner has made ``moves_before`` moves so far:
        a tap on a screen of an earlier turn is dropped, never played blind on this one.
        Whether it was played."""
        if not self.my_turn or len(self.game.moves) != moves_before:
            return False
        self.play(action)
        return True

    def _play_bots(self) -> None:
        while not self.finished and self.state.turn != ME:
            seat = self.state.turn
            assert seat is not None
            bot = self._bots[seat]
            assert bot is not None
            self._apply(seat, bot(self.situation_of(seat)))

    def _apply(self, seat: int, action: Action) -> None:
        state, hands = self.state, self.hands
        if len(state.history) >= MAX_MOVES or len(state.results) >= MAX_ROUNDS:
            self.stopped = True  # the longest a game may be: it stops undecided
            return
        after, count = apply_action(state, action, hands)
        self.state = after
        self.steps.append(Step(seat, action, state.round_number))
        if action.kind == "raise":
            return
        result = after.results[-1]
        self.rounds.append(PlayedRound(state.round_number, state.bids, hands, result))
        show_showdown(self._bots, Showdown(state.bids, state.palifico, seat,
                                           action.kind.value, count, hands))
        if not after.is_over:
            self.hands = self._deal()

    def _deal(self) -> tuple[Hand, ...]:
        """This round's dice, each seat's from its own stream of the seed."""
        seed, number = self.game.seed, self.state.round_number
        hands = []
        for seat, player in enumerate(self.state.players):
            rng = random.Random(f"{seed}:round:{number}:seat:{seat}")
            hands.append(Hand(rng.randint(1, 6) for _ in range(player.dice)))
        return tuple(hands)

