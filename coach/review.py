"""A game reviewed move by move, as an analysis board does: each decision beside the coach's.

For every decision of the player the coach weighs the spot as :func:`coach.advise` does. The
risk the move added is its net loss (the chance it costs a die, less the chance it wins one
back) minus the best move's, in points (hundredths): the same measure as a practice grade. A
move within :data:`GOOD_BELOW` points of the best is good, one from :data:`COSTLY_FROM` is
costly, and in between it is doubtful. The turning points are the costliest moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from coach.engine.decide import Advice, CoachSettings, Option, Reason, advise, weigh_raise
from coach.engine.situation import CALZA, DUDO, Action, Situation
from perudo_math import BidMade, CalzaCalled, GameState, Hand, RulesChanged
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

    @property
    def added(self) -> float:
        """The risk the move added over the best, in points (never below 0)."""
        return max(0.0, self.played_option.net_loss - self.best_option.net_loss) * 100.0

    @property
    def verdict(self) -> Verdict:
        return Verdict.GOOD if self.played == self.best else verdict_for(self.added)

    def to_dict(self) -> dict[str, Any]:
        return {
            "situation": self.situation.to_dict(),
            "played": str(self.played),
            "best": str(self.best),
            "lose": round(self.played_option.lose, 6),
            "best_lose": round(self.best_option.lose, 6),
            "added_points": round(self.added, 2),
            "verdict": self.verdict.value,
            "reason": self.reason.to_dict(),
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
        return {"summary": self.summary(), "turning_points": list(self.turning_points()),
                "moves": [move.to_dict() for move in self.moves]}


def review_move(situation: Situation, played: Action,
                settings: CoachSettings = DEFAULT_SETTINGS) -> ReviewedMove:
    """``played`` in ``situation`` beside the coach's best move."""
    if not isinstance(situation, Situation):
        raise wrong_type("review_move: situation", "a Situation", situation)
    if not isinstance(played, Action):
        raise wrong_type("review_move: played", "an Action", played)
    if not situation.is_legal(played):
        raise ValueError(f"review_move: {played} is not a legal move here")
    advice = advise(situation, settings)
    option = advice.option(played)
    if option is None:  # a raise the coach did not list
        assert played.bid is not None
        option = weigh_raise(situation, played.bid, settings)
    return ReviewedMove(situation, played, advice.action, option, advice.best, advice.reason,
                        advice)


def review(decisions: Iterable[tuple[Situation, Action]],
           settings: CoachSettings = DEFAULT_SETTINGS) -> GameReview:
    """Every ``(situation, played)`` decision reviewed (:func:`review_move`)."""
    return GameReview(tuple(review_move(situation, played, settings)
                            for situation, played in decisions))


def tracked_decisions(game: GameState, me: int,
                      hands: Mapping[int, Hand]) -> list[tuple[Situation, Action]]:
    """The decisions of seat ``me`` in a tracked ``game``, in the rounds whose hand is in
    ``hands`` (round number, from 1: the dice ``me`` held that round), each under the rules
    in force when it was taken (a table may change them during the game). ValueError when a
    hand is not the size ``me`` held that round, or names a round that was not played."""
    if not isinstance(game, GameState):
        raise wrong_type("tracked_decisions: game", "a GameState", game)
    if not is_whole(me) or not 0 <= me < len(game.players):
        raise ValueError(f"tracked_decisions: seat {me!r} is not at this table of "
                         f"{len(game.players)}")
    decisions: list[tuple[Situation, Action]] = []
    state = game.restart()
    held: dict[int, int] = {state.round_number: state.players[me].dice}
    for event in game.history:
        number = state.round_number
        hand = hands.get(number)
        if not isinstance(event, RulesChanged) and event.seat == me and hand is not None:
            if len(hand) != state.players[me].dice:
                raise ValueError(f"round {number}: seat {me} held {state.players[me].dice} "
                                 f"dice, not {len(hand)}")
            dice = tuple(player.dice for player in state.players)
            situation = Situation(state.rules, dice, me, hand, state.bids, state.palifico)
            action = (Action.raise_to(event.bid) if isinstance(event, BidMade)
                      else CALZA if isinstance(event, CalzaCalled) else DUDO)
            decisions.append((situation, action))
        state = state.apply(event)
        held.setdefault(state.round_number, state.players[me].dice)
    for number, hand in hands.items():
        if number not in held:
            raise ValueError(f"round {number} was not played: the game has "
                             f"{state.round_number} rounds")
        if len(hand) != held[number]:
            raise ValueError(f"round {number}: seat {me} held {held[number]} dice, "
                             f"not {len(hand)}")
    return decisions
