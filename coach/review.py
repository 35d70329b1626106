"""A game reviewed move by move, as an analysis board does: each decision beside the coach's.

For every decision of the player the coach weighs the spot as :func:`coach.advise` does. The
risk the move added is its net loss (the chance it costs a die, less the chance it wins one
back) minus the best move's, in points (hundredths): the same measure as a practice grade. A
move within :data:`GOOD_BELOW` points of the best is good, one from :data:`COSTLY_FROM` is
costly, and in between it is doubtful. The turning points are the costliest moves.

A grade weighs the move before the dice were shown; what the cups then said is its
:class:`Outcome`, kept beside it (:func:`move_outcomes`): a costly dudo can be right this
time, a good one wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from coach.engine.decide import Advice, CoachSettings, Option, Reason, advise, weigh_raise
from coach.engine.situation import CALZA, DUDO, Action, Situation
from perudo_math import (
    BidMade,
    CalzaCalled,
    DudoCalled,
    GameState,
    Hand,
    RoundResult,
    RulesChanged,
)
from perudo_math.checks import is_whole, wrong_type

GOOD_BELOW = 3.0
"""Points of added risk below which a move is good: closer than the coach's own margins."""
COSTLY_FROM = 10.0
"""Points of added risk from which a move is costly: one die in ten over such spots."""
TURNING_POINTS = 3
"""How many of the costliest moves a review singles out."""
DEFAULT_SETTINGS = CoachSettings()


class Verdict(StrEnum):
    GOOD = "good"
    DOUBTFUL = "doubtful"
    COSTLY = "costly"


class Outcome(StrEnum):
    """What the lifted cups said of a move, once its round was over."""

    RIGHT = "right"
    """A dudo or calza that was right; a raise the round ended on, and that was true."""
    WRONG = "wrong"
    """A dudo or calza that was wrong; a raise the round ended on, and that was false."""
    UNTESTED = "untested"
    """A raise the round went past: it was never put to the count."""


def outcome_of(action: Action, me: int, result: RoundResult) -> Outcome:
    """What ``result``, the end of the round in which seat ``me`` played ``action``, says
    of that move."""
    if action.bid is not None:
        if result.bidder != me or result.bid != action.bid:
            return Outcome.UNTESTED
        return Outcome.RIGHT if result.count >= action.bid.quantity else Outcome.WRONG
    if action == CALZA:
        return Outcome.RIGHT if result.calza_right else Outcome.WRONG
    return Outcome.WRONG if result.loser == me else Outcome.RIGHT


def verdict_for(points: float) -> Verdict:
    """The verdict on a move that added ``points`` of risk."""
    if points < GOOD_BELOW:
        return Verdict.GOOD
    return Verdict.DOUBTFUL if points < COSTLY_FROM else Verdict.COSTLY


@dataclass(frozen=True, slots=True)
class ReviewedMove:
    """One decision: what was played, the coach's best, the risk each carries and why."""

    situation: Situation
    played: Action
    best: Action
    played_option: Option
    best_option: Option
    reason: Reason
    """Why the coach's best move (:func:`coach.advise`'s reason)."""
    advice: Advice
    """The coach's whole advice in the spot (every option weighed)."""
    outcome: Outcome | None = None
    """What the cups said of the move; ``None`` while its round is not over."""

    @property
    def added(self) -> float:
        """The risk the move added over the best, in points (never below 0)."""
        return max(0.0, self.played_option.net_loss - self.best_option.net_loss) * 100.0

    @property
    def verdict(self) -> Verdict:
        return Verdict.GOOD if self.played == self.best else verdict_for(self.added)

    @property
    def against_the_grade(self) -> bool:
        """Whether the cups said otherwise than the grade: a doubtful or costly move that
        was right this time, or a good one that was wrong."""
        if self.outcome is None or self.outcome is Outcome.UNTESTED:
            return False
        return (self.outcome is Outcome.RIGHT) is not (self.verdict is Verdict.GOOD)

    def to_dict(self, written: dict[int, list[Any]] | None = None) -> dict[str, Any]:
        """The move as plain JSON values; ``written``: as :meth:`Situation.to_dict`'s."""
        return {
            "situation": self.situation.to_dict(written),
            "played": str(self.played),
            "best": str(self.best),
            "lose": round(self.played_option.lose, 6),
            "gain": round(self.played_option.gain, 6),
            "best_lose": round(self.best_option.lose, 6),
            "best_gain": round(self.best_option.gain, 6),
            "added_points": round(self.added, 2),
            "verdict": self.verdict.value,
            "reason": self.reason.to_dict(),
            "outcome": None if self.outcome is None else self.outcome.value,
        }


@dataclass(frozen=True, slots=True)
class GameReview:
    """Every decision reviewed, in the order played."""

    moves: tuple[ReviewedMove, ...]

    @property
    def added(self) -> float:
        """The risk added over the whole game, in points."""
        return sum(move.added for move in self.moves)

    def count(self, verdict: Verdict, kind: str | None = None) -> int:
        """How many moves got ``verdict`` (of one ``kind``: raise, dudo, calza)."""
        return sum(1 for move in self.moves if move.verdict is verdict
                   and (kind is None or move.played.kind == kind))

    def turning_points(self) -> tuple[int, ...]:
        """The indexes of the :data:`TURNING_POINTS` costliest non-good moves, in game order."""
        costly = sorted((index for index, move in enumerate(self.moves)
                         if move.verdict is not Verdict.GOOD),
                        key=lambda index: -self.moves[index].added)
        return tuple(sorted(costly[:TURNING_POINTS]))

    def summary(self) -> dict[str, Any]:
        """The counts a one-line summary says: moves of each verdict, the costly ones by
        kind, and the points added."""
        costly = Counter(move.played.kind.value for move in self.moves
                         if move.verdict is Verdict.COSTLY)
        return {
            "moves": len(self.moves),
            **{verdict.value: self.count(verdict) for verdict in Verdict},
            "costly_by_kind": dict(sorted(costly.items())),
            "added_points": round(self.added, 2),
        }

    def to_dict(self) -> dict[str, Any]:
        written: dict[int, list[Any]] = {}  # a round's bids, written once for all its moves
        return {"summary": self.summary(), "turning_points": list(self.turning_points()),
                "moves": [move.to_dict(written) for move in self.moves]}


def review_move(situation: Situation, played: Action,
                settings: CoachSettings = DEFAULT_SETTINGS,
                outcome: Outcome | None = None) -> ReviewedMove:
    """``played`` in ``situation`` beside the coach's best move; ``outcome``: what the
    cups said of it, when known."""
    if not isinstance(situation, Situation):
        raise wrong_type("review_move: situation", "a Situation", situation)
    if not isinstance(played, Action):
        raise wrong_type("review_move: played", "an Action", played)
    if not situation.is_legal(played):
        raise ValueError(f"review_move: {played} is not a legal move here")
    if outcome is not None and not isinstance(outcome, Outcome):
        raise wrong_type("review_move: outcome", "an Outcome or None", outcome)
    advice = advise(situation, settings)
    option = advice.option(played)
    if option is None:  # a raise the coach did not list
        assert played.bid is not None
        option = weigh_raise(situation, played.bid, settings)
    return ReviewedMove(situation, played, advice.action, option, advice.best, advice.reason,
                        advice, outcome)


def review(decisions: Iterable[tuple[Situation, Action]],
           settings: CoachSettings = DEFAULT_SETTINGS,
           outcomes: Sequence[Outcome | None] = ()) -> GameReview:
    """Every ``(situation, played)`` decision reviewed (:func:`review_move`), each with its
    outcome in ``outcomes`` (:func:`move_outcomes`; past its end, unknown)."""
    return GameReview(tuple(
        review_move(situation, played, settings,
                    outcomes[index] if index < len(outcomes) else None)
        for index, (situation, played) in enumerate(decisions)))


def move_outcomes(game: GameState, me: int,
                  rounds: Collection[int] | None = None) -> list[Outcome | None]:
    """What the cups said of each move of seat ``me`` in ``game``, in the order played (as
    :func:`tracked_decisions` gives them, for the same ``rounds``; every round when
    ``None``): ``None`` for a move of a round not over yet."""
    if not isinstance(game, GameState):
        raise wrong_type("move_outcomes: game", "a GameState", game)
    outcomes: list[Outcome | None] = []
    number = 1
    for event in game.history:
        if isinstance(event, RulesChanged):
            continue  # the table's, not a seat's move
        if event.seat == me and (rounds is None or number in rounds):
            action = (Action.raise_to(event.bid) if isinstance(event, BidMade)
                      else CALZA if isinstance(event, CalzaCalled) else DUDO)
            outcomes.append(outcome_of(action, me, game.results[number - 1])
                            if number <= len(game.results) else None)
        if isinstance(event, DudoCalled | CalzaCalled):
            number += 1
    return outcomes


def tracked_decisions(game: GameState, me: int,
                      hands: Mapping[int, Hand]) -> list[tuple[Situation, Action]]:
    """The decisions of seat ``me`` in a tracked ``game``, in the rounds whose hand is in
    ``hands`` (round number, from 1: the dice ``me`` held that round), each under the rules
    in force when it was taken (a table may change them during the game). ValueError when a
    hand is not the size ``me`` held that round, or names a round that was not played."""
    return list(_tracked(game, me, hands))


def tracked_decision(game: GameState, me: int, hands: Mapping[int, Hand],
                     index: int) -> tuple[Situation, Action]:
    """Decision ``index`` (from 0) of :func:`tracked_decisions`: found among the game's moves
    without replaying them, its spot the only one built, the game replayed once up to it
    (:meth:`GameState.before`): a practice link names one decision of a game that may hold
    thousands of moves. IndexError when there are not that many; ValueError when its hand
    is not the size ``me`` held that round."""
    _check_seat(game, me)
    if not is_whole(index) or index < 0:
        raise IndexError(f"tracked_decision: no decision {index!r}")
    number, made = 1, 0
    for position, event in enumerate(game.history):
        if isinstance(event, RulesChanged):
            continue
        hand = hands.get(number)
        if event.seat == me and hand is not None:
            if made == index:
                state = game.before(position)
                if len(hand) != state.players[me].dice:
                    raise ValueError(f"round {number}: seat {me} held "
                                     f"{state.players[me].dice} dice, not {len(hand)}")
                return state.situation(me, hand), _action_of(event)
            made += 1
        if isinstance(event, DudoCalled | CalzaCalled):
            number += 1
    raise IndexError(f"tracked_decision: {made} decisions, not {index + 1}")


def _check_seat(game: GameState, me: int) -> None:
    if not isinstance(game, GameState):
        raise wrong_type("tracked_decisions: game", "a GameState", game)
    if not is_whole(me) or not 0 <= me < len(game.players):
        raise ValueError(f"tracked_decisions: seat {me!r} is not at this table of "
                         f"{len(game.players)}")


def _action_of(event: BidMade | DudoCalled | CalzaCalled) -> Action:
    return (Action.raise_to(event.bid) if isinstance(event, BidMade)
            else CALZA if isinstance(event, CalzaCalled) else DUDO)


def _tracked(game: GameState, me: int,
             hands: Mapping[int, Hand]) -> Iterator[tuple[Situation, Action]]:
    """:func:`tracked_decisions`, one at a time."""
    _check_seat(game, me)
    state = game.restart()
    number = state.round_number
    held: dict[int, int] = {number: state.players[me].dice}
    history, done = game.history, 0
    for index, event in enumerate(history):
        ends = isinstance(event, DudoCalled | CalzaCalled)
        hand = hands.get(number)
        mine = not isinstance(event, RulesChanged) and event.seat == me and hand is not None
        if not (mine or ends):
            continue  # replayed with the next move that matters, all at once
        state, done = state.replay(history[done:index]), index
        if mine:
            assert hand is not None and not isinstance(event, RulesChanged)
            if len(hand) != state.players[me].dice:
                raise ValueError(f"round {number}: seat {me} held {state.players[me].dice} "
                                 f"dice, not {len(hand)}")
            yield state.situation(me, hand), _action_of(event)
        state, done = state.apply(event), index + 1
        number = state.round_number
        held.setdefault(number, state.players[me].dice)
    state = state.replay(history[done:])
    for number, hand in hands.items():
        if number not in held:
            raise ValueError(f"round {number} was not played: the game has "
                             f"{state.round_number} rounds")
        if len(hand) != held[number]:
            raise ValueError(f"round {number}: seat {me} held {held[number]} dice, "
                             f"not {len(hand)}")


def decision_rounds(game: GameState, me: int, rounds: Collection[int]) -> list[tuple[int, int]]:
    """Where each decision of :func:`tracked_decisions` for a hand in each of ``rounds`` was
    taken: its round, and its rank among ``me``'s decisions of that round (from 0); one pass
    over the game's moves, none replayed."""
    if not isinstance(game, GameState):
        raise wrong_type("decision_rounds: game", "a GameState", game)
    places: list[tuple[int, int]] = []
    number, rank = 1, 0
    for event in game.history:
        if isinstance(event, RulesChanged):
            continue
        if event.seat == me and number in rounds:
            places.append((number, rank))
            rank += 1
        if isinstance(event, DudoCalled | CalzaCalled):
            number, rank = number + 1, 0
    return places
