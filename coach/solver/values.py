"""Heads-up game values: the chance of winning the game from the start of a round.

A round of the solver pays what it leads to (``payoff="game"`` in
:class:`coach.solver.games.PerudoRound`): the state after the call, as
:class:`perudo_math.GameState` plays it out (who loses or wins back a die, who opens next,
whether that round is palifico, or who has won), valued by P(win the game) from there.
Under the default rules the loser opens the next round, and a player who drops from two dice
to one opens it as a palifico round; a player left with no dice has lost.

:class:`GameValues` holds P(the opener wins the game) from the start of each round,
``V(a, b, palifico)`` for an opener with ``a`` dice against ``b``:

* for a *solved* round, its equilibrium value (the shipped tables record it as
  ``game_value``, solved bottom-up: 1v1 first, whose calls end the game, then 1v2 and 2v1,
  whose calls lead to a 1v1 round or end the game, then 2v2);
* for any other round (more dice than the tables, or a right calza under
  ``calza_heads_up`` that climbs above them), the *fallback model*: each round the opener
  loses a die with probability ``q(a, b, palifico)`` and the responder otherwise, and the
  next round follows from :class:`~perudo_math.GameState` as above, recursively down to
  solved rounds or the end of the game (calzas are left out of the model: every round
  costs someone a die). ``q`` is fitted to the solved rounds by least squares on its
  logit: ``logit q = α + β ln(a / b)`` for normal rounds; ``logit q = α + β ln b`` for
  palifico rounds, where the opener's own dice make no difference (the solved 2v1 and 2v2
  palifico rounds are lost as often as 1v1 and 1v2, to 1e-4) and the responder's dice do.
  With no solved round of a kind, ``q`` is 1/2.

:func:`heads_up_value` answers from the shipped tables under the default rules.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from perudo_math import Bid, GameState, Player, Rules
from perudo_math.checks import require_int, wrong_type
from perudo_math.limits import MAX_STARTING_DICE

Payoff = Literal["dice", "game"]
PAYOFFS: tuple[Payoff, ...] = ("dice", "game")
"""``dice``: +1 / −1 per die won or lost in the round; ``game``: 2 V − 1, where V is the
player's chance of winning the game from the state the round leads to."""

INDEX_FILE = Path(__file__).resolve().parent / "data" / "heads_up_tables.json"
"""The shipped tables' index (written by :func:`coach.solver.tables.write_tables`)."""

_LOGIT_CLIP = 1e-6


class StateValues(Protocol):
    """P(I win the game) at the start of a heads-up round."""

    def __call__(self, my_dice: int, their_dice: int, i_open: bool, palifico: bool) -> float:
        ...


@dataclass(frozen=True, slots=True)
class RoundStart:
    """A heads-up round about to be played, seen from its opener."""

    opener_dice: int
    responder_dice: int
    palifico: bool


@dataclass(frozen=True, slots=True)
class SolvedRound:
    """A solved round's figures: P(the opener wins the game) from its start, and how often
    the opener loses a die in it, both under its equilibrium."""

    game_value: float
    opener_loses: float


@dataclass(frozen=True, slots=True)
class After:
    """Where a settled heads-up round leaves the game: the winner, or the next round."""

    dice: tuple[int, int]
    opener: int | None
    palifico: bool
    winner: int | None

    def chance(self, seat: int, values: StateValues) -> float:
        """P(``seat`` wins the game) from here."""
        if self.winner is not None:
            return float(self.winner == seat)
        assert self.opener is not None
        return values(self.dice[seat], self.dice[1 - seat], self.opener == seat,
                      self.palifico)


def after_call(rules: Rules, dice: tuple[int, int], palifico: bool, bid: Bid, caller: int,
               kind: str, count: int) -> After:
    """The game after ``caller`` (seat 0 opened the round) calls ``kind`` on the other
    seat's ``bid`` and ``count`` dice match, as :class:`~perudo_math.GameState` plays it.

    Whoever opened a palifico round counts as having had one (``once-per-player``); no
    earlier palifico rounds are known.
    """
    return _after_call(rules, dice, palifico, bid, caller, kind, count)


@cache
def _after_call(rules: Rules, dice: tuple[int, int], palifico: bool, bid: Bid, caller: int,
                kind: str, count: int) -> After:
    players = (Player("opener", dice[0]), Player("responder", dice[1]))
    had = frozenset({0}) if palifico else frozenset()
    state = GameState(rules, players, 0, 0, palifico, ((1 - caller, bid),), had)
    state = state.dudo(count, caller) if kind == "dudo" else state.calza(count, caller)
    held = (state.players[0].dice, state.players[1].dice)
    return After(held, state.opener, state.palifico, state.winner)


def after_loss(rules: Rules, start: RoundStart, loser: int) -> After:
    """The game after ``loser`` (0: the opener, 1: the responder) loses a die in ``start``."""
    dice = (start.opener_dice, start.responder_dice)
    return after_call(rules, dice, start.palifico, Bid(1, 2), 1 - loser, "dudo", 0)


@dataclass(frozen=True, slots=True)
class LossModel:
    """The fallback's chance that the opener loses a die: ``logit q = α + β x`` per kind of
    round, ``x = ln(a / b)`` in a normal round and ``ln b`` in a palifico round."""

    normal: tuple[float, float] = (0.0, 0.0)
    palifico: tuple[float, float] = (0.0, 0.0)

    @staticmethod
    def regressor(start: RoundStart) -> float:
        if start.palifico:
            return math.log(start.responder_dice)
        return math.log(start.opener_dice / start.responder_dice)

    def opener_loses(self, start: RoundStart) -> float:
        alpha, beta = self.palifico if start.palifico else self.normal
        return 1.0 / (1.0 + math.exp(-(alpha + beta * self.regressor(start))))

    @classmethod
    def fit(cls, solved: Mapping[RoundStart, SolvedRound]) -> LossModel:
        """Least squares on the logits of the solved rounds, per kind of round."""
        return cls(*(_fit_line([(cls.regressor(start), round_.opener_loses)
                                for start, round_ in solved.items() if start.palifico == kind])
                     for kind in (False, True)))


def _fit_line(points: Iterable[tuple[float, float]]) -> tuple[float, float]:
    """(α, β) of ``logit q = α + β x``: 1/2 with no point, flat with one distinct ``x``."""
    data = list(points)
    if not data:
        return (0.0, 0.0)
    x = np.array([point[0] for point in data])
    q = np.clip([point[1] for point in data], _LOGIT_CLIP, 1 - _LOGIT_CLIP)
    y = np.log(q / (1 - q))
    if np.ptp(x) < 1e-12:
        return (float(y.mean()), 0.0)
    beta, alpha = np.polyfit(x, y, 1)
    return (float(alpha), float(beta))


class GameValues:
    """P(win the game) at the start of any heads-up round: the solved rounds' equilibrium
    values, the fallback model (see the module notes) elsewhere. Callable as
    :class:`StateValues`."""

    def __init__(self, solved: Mapping[RoundStart, SolvedRound] | None = None,
                 rules: Rules | None = None) -> None:
        self.solved = dict(solved or {})
        self.rules = rules or Rules()
        self.model = LossModel.fit(self.solved)
        self.model_states: set[RoundStart] = set()
        """Every state these values were asked about that no solved round covers."""
        self._memo: dict[RoundStart, float] = {}

    def with_solved(self, start: RoundStart, solved: SolvedRound) -> GameValues:
        """These values with one more solved round (the model refitted)."""
        return GameValues({**self.solved, start: solved}, self.rules)

    def is_solved(self, start: RoundStart) -> bool:
        return start in self.solved

    def opener_wins(self, start: RoundStart) -> float:
        """P(the opener of ``start`` wins the game)."""
        if start in self.solved:
            return self.solved[start].game_value
        self.model_states.add(start)
        if start not in self._memo:
            lose = self.model.opener_loses(start)
            self._memo[start] = (lose * after_loss(self.rules, start, 0).chance(0, self)
                                 + (1 - lose) * after_loss(self.rules, start, 1).chance(0, self))
        return self._memo[start]

    def __call__(self, my_dice: int, their_dice: int, i_open: bool, palifico: bool) -> float:
        mine, theirs = _checked_state(my_dice, their_dice, i_open, palifico)
        if mine == 0 or theirs == 0:
            return float(theirs == 0)
        if i_open:
            return self.opener_wins(RoundStart(mine, theirs, palifico))
        return 1.0 - self.opener_wins(RoundStart(theirs, mine, palifico))


def _checked_state(my_dice: object, their_dice: object, i_open: object,
                   palifico: object) -> tuple[int, int]:
    mine = require_int("heads_up_value: my_dice", my_dice, 0, MAX_STARTING_DICE)
    theirs = require_int("heads_up_value: their_dice", their_dice, 0, MAX_STARTING_DICE)
    if mine == 0 and theirs == 0:
        raise ValueError("heads_up_value: at least one player holds dice")
    for name, flag in (("i_open", i_open), ("palifico", palifico)):
        if not isinstance(flag, bool):
            raise wrong_type(f"heads_up_value: {name}", "True or False", flag)
    return mine, theirs


def solved_rounds(index: Mapping[str, object]) -> dict[RoundStart, SolvedRound]:
    """The solved rounds of a tables index (game-value tables only)."""
    if index.get("payoff") != "game":
        return {}
    tables = index.get("tables", {})
    assert isinstance(tables, dict)
    return {RoundStart(meta["dice"][0], meta["dice"][1], meta["palifico"]):
            SolvedRound(meta["game_value"], meta["opener_loses"])
            for meta in tables.values()}


@cache
def shipped_values() -> GameValues:
    """The game values of the shipped tables (default rules), with the fallback model."""
    index = json.loads(INDEX_FILE.read_text(encoding="utf-8")) if INDEX_FILE.exists() else {}
    return GameValues(solved_rounds(index))


def heads_up_value(my_dice: int, their_dice: int, i_open: bool, palifico: bool) -> float:
    """P(I win the game) at the start of a heads-up round under the default rules, with
    ``my_dice`` against ``their_dice``, opened by me or not, palifico or not."""
    return shipped_values()(my_dice, their_dice, i_open, palifico)
