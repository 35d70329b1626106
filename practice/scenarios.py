"""Practice scenarios: realistic spots taken from simulated games, with the coach's answer.

A scenario is one decision of one seat in a game played by the practice table's players
(:mod:`practice.table`): they make the bid history and hold the hidden dice. The coach's
best action, with bid reading on, is the answer; :func:`grade` scores any legal action by
its regret, the extra chance of losing a die compared with the coach's choice.

Dealing and grading are kept apart. The *deal* (the games, the learner's seat, the order in
which its spots are tried: :func:`candidate_spots`) never asks the coach: the table is
played by frozen players, so a shared link keeps its games as the coach improves. The
*grading* (the options and their ranking, the regret, the level's gap, whether a spot shows
its theme) always asks the current coach (:func:`~coach.engine.decide.advise` with its
default settings, the app's coach). So a link can still move when a new coach sees one of its
spots differently: :func:`generate` returns the first spot of the deal that the coach puts
at the theme and level asked for, and a spot near a level's border may cross it.

Everything is reproducible: ``generate(seed, theme, level)`` always returns the same
scenario for the same coach, and a scenario is generated again from its own ``seed``,
``theme`` and ``level``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from coach.engine.beliefs import PURE_ODDS
from coach.engine.decide import Advice, CoachSettings, Option, advise, weigh_raise
from coach.engine.situation import Action, Situation
from coach.engine.steady import steady
from coach.play.arena import iter_decisions
from coach.play.bots import BotFactory, N3Bot, ProbabilityBot
from coach.review import Outcome
from perudo_math import Bid, GameState, Hand, Rules, roll_for_first_opener, settle_round
from perudo_math.checks import wrong_type
from practice.levels import LEVELS, check_level
from practice.table import TableRegular

THEMES = ("dudo-or-raise", "calza", "palifico", "paco-conversion", "reading-bids", "endgame")
"""Every scenario theme, in the order a page lists them."""

LEVEL_GAPS = {1: 0.30, 2: 0.10}
"""The smallest gap (in P(losing a die)) between the best action and the best action of
another kind for a spot to be level 1 or 2; a closer call is level 3."""

_COACH = CoachSettings()
"""The coach that grades: the app's own, with bid reading on."""
_PURE = replace(_COACH, reading=PURE_ODDS)

CORRECT_REGRET = _COACH.pressure
"""An answer whose regret is at most this counts as right: the coach's own ``pressure``
(it picks the stronger of two raises this close)."""

ENDGAME_MAX_PLAYERS = 3
ENDGAME_MAX_DICE = 6
"""An endgame spot has at most this many players holding dice and dice on the table."""

MAX_GAMES = 400
"""How many simulated games :func:`generate` plays at most before giving up."""

BOT_MIX: tuple[BotFactory, ...] = (ProbabilityBot, N3Bot, TableRegular)
"""The players of the simulated games, each seat one at random: frozen, never the coach
(see :mod:`practice.table`)."""

DEFAULT_RULES = Rules()


class ScenarioNotFound(RuntimeError):
    """No spot of the theme and level turned up within :data:`MAX_GAMES` games."""


@dataclass(frozen=True, slots=True)
class Scenario:
    """One practice spot: what the learner sees, what is hidden and the coach's verdict.

    ``seat`` is the learner's seat; ``seat_dice`` every seat's dice count (0: out);
    ``bids`` this round's (seat, bid) pairs in order; ``hidden`` every seat's dice, the
    learner's included (empty for a seat that is out); ``options`` every option weighed by
    :func:`~coach.engine.decide.advise` with bid reading on, best first.
    """

    seed: int
    theme: str
    level: int
    rules: Rules
    seat: int
    seat_dice: tuple[int, ...]
    palifico: bool
    bids: tuple[tuple[int, Bid], ...]
    hidden: tuple[tuple[int, ...], ...]
    options: tuple[Option, ...]
    pure_odds_best: Action
    """What the coach would do reading nothing from the bids."""
    source: str | None = None
    """Where a spot taken from a whole game comes from (:func:`from_decision`), as its
    link writes it; ``None`` for a generated scenario."""
    showdown: tuple[Bid, int] | None = None
    """A spot from a real game kept in the tracker (:func:`from_tracked`): the bid the round
    ended on and the count the table made. Only the learner's dice are known then: the
    others' ``hidden`` hands are empty, and no cup is lifted."""

    @property
    def cups(self) -> bool:
        """Whether every seat's dice are known (not so for a tracked game's spot)."""
        return self.showdown is None

    @property
    def hand(self) -> tuple[int, ...]:
        """The learner's own dice, sorted, pacos first."""
        return self.hidden[self.seat]

    @property
    def dice(self) -> int:
        """All dice on the table, the learner's included."""
        return sum(self.seat_dice)

    @property
    def players(self) -> int:
        """Players still holding dice, the learner included."""
        return sum(1 for count in self.seat_dice if count)

    @property
    def history(self) -> tuple[str, ...]:
        """This round's bids in order, written ``5x4`` or ``3xP``."""
        return tuple(str(bid) for _, bid in self.bids)

    @property
    def bidders(self) -> tuple[int, ...]:
        """The seat that made each bid of :attr:`history`."""
        return tuple(seat for seat, _ in self.bids)

    @property
    def last_bid(self) -> Bid:
        """The bid on the table: the one a dudo or calza is about."""
        return self.bids[-1][1]

    @property
    def last_bidder(self) -> int:
        """The seat that made :attr:`last_bid`."""
        return self.bids[-1][0]

    @property
    def true_count(self) -> int | None:
        """How many of the hidden dice count toward the last bid; for a tracked game's spot,
        the table's count when the round ended on the same face, else ``None`` (unknown)."""
        if self.showdown is not None:
            called, count = self.showdown
            return count if called.face == self.last_bid.face else None
        return true_count(self.hidden, self.last_bid, self.palifico)

    @property
    def best(self) -> Action:
        """The coach's recommended action: the answer to the scenario."""
        return self.options[0].action

    @property
    def gap(self) -> float:
        """How much more P(losing a die) the best action of another kind costs."""
        return alternative_gap(self.options)

    def situation(self) -> Situation:
        """The learner's view of the table, as the coach sees it."""
        return Situation(self.rules, self.seat_dice, self.seat, Hand(self.hand), self.bids,
                         self.palifico)

    def option(self, action: Action) -> Option | None:
        """The coach's numbers for ``action``, if the coach weighed it."""
        return next((option for option in self.options if option.action == action), None)

    def to_dict(self) -> dict[str, Any]:
        """The scenario as plain JSON values."""
        return {
            "seed": self.seed,
            "theme": self.theme,
            "level": self.level,
            "rules": self.rules.changed(),
            "seat": self.seat,
            "seat_dice": list(self.seat_dice),
            "hand": list(self.hand),
            "dice": self.dice,
            "players": self.players,
            "palifico": self.palifico,
            "history": list(self.history),
            "bidders": list(self.bidders),
            "last_bid": str(self.last_bid),
            "last_bidder": self.last_bidder,
            "hidden": [list(hand) for hand in self.hidden],
            "cups": self.cups,
            "showdown": None if self.showdown is None else {
                "bid": str(self.showdown[0]), "count": self.showdown[1]},
            "true_count": self.true_count,
            "best": self.best.to_dict(),
            "pure_odds_best": self.pure_odds_best.to_dict(),
            "gap": round(self.gap, 6),
            "options": [option.to_dict() for option in self.options],
        }


@dataclass(frozen=True, slots=True)
class Reveal:
    """The cups lifted: the last bid's true count and who loses or wins a die.

    ``loser`` and ``gainer`` follow the learner's action: for a raise, what happens if the
    next player calls dudo on it (``raise_count`` is then the raise's true count).
    """

    bid: Bid
    count: int
    dudo_loser: int
    calza_right: bool
    loser: int | None
    gainer: int | None
    raise_count: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The reveal as plain JSON values."""
        return {"bid": str(self.bid), "count": self.count, "dudo_loser": self.dudo_loser,
                "calza_right": self.calza_right, "loser": self.loser, "gainer": self.gainer,
                "raise_count": self.raise_count}


@dataclass(frozen=True, slots=True)
class Grade:
    """How good the learner's action was.

    ``regret`` = net loss of the action − net loss of the best, where net loss is
    P(losing a die) − P(winning one back); never below 0. ``correct``: the best action, or
    a regret of at most :data:`CORRECT_REGRET`.
    """

    action: Action
    best: Action
    lose: float
    gain: float
    regret: float
    is_best: bool
    correct: bool
    reveal: Reveal | None
    """The cups lifted; ``None`` for a tracked game's spot, where they cannot be."""
    best_lose: float
    best_gain: float
    """The coach's best move's chances of losing a die and of winning one back."""
    outcome: Outcome | None
    """What the cups say of the move (for a tracked game's spot, the count the table made);
    ``None`` when they do not tell."""

    @property
    def against_the_grade(self) -> bool:
        """Whether the cups said otherwise than the grade: a wrong answer that was right
        this time, or a right one that was wrong."""
        if self.outcome is None or self.outcome is Outcome.UNTESTED:
            return False
        return (self.outcome is Outcome.RIGHT) is not self.correct

    def to_dict(self) -> dict[str, Any]:
        """The grade as plain JSON values."""
        return {"action": self.action.to_dict(), "best": self.best.to_dict(),
                "lose": self.lose, "gain": self.gain, "regret": self.regret,
                "is_best": self.is_best, "correct": self.correct,
                "reveal": None if self.reveal is None else self.reveal.to_dict(),
                "best_lose": self.best_lose, "best_gain": self.best_gain,
                "outcome": None if self.outcome is None else self.outcome.value}


# --- public helpers ---------------------------------------------------------------------


def parse_action(text: str) -> Action:
    """Read an action written ``dudo``, ``calza`` or a bid such as ``5x4``."""
    return Action.parse(text)


def true_count(hidden: Sequence[Sequence[int]], bid: Bid, palifico: bool) -> int:
    """How many of the dice in ``hidden`` count toward ``bid``."""
    return sum(Hand(hand).count(bid.face, palifico=palifico) for hand in hidden)


def alternative_gap(options: Sequence[Option]) -> float:
    """The net loss of the best option of another kind than the first, minus the first's."""
    best = options[0]
    others = [option.net_loss for option in options if option.action.kind != best.action.kind]
    return max(0.0, min(others) - best.net_loss) if others else 1.0


def level_for_gap(gap: float) -> int:
    """The level of a spot whose best action beats every other kind of move by ``gap``."""
    if gap >= LEVEL_GAPS[1]:
        return 1
    return 2 if gap >= LEVEL_GAPS[2] else 3


def generate(seed: int, theme: str | None = None, level: int | None = None,
             rules: Rules = DEFAULT_RULES) -> Scenario:
    """The scenario of ``seed``: the same arguments always give the same scenario.

    With no ``theme`` or ``level``, the seed picks them; the scenario returned is then also
    ``generate(seed, scenario.theme, scenario.level)``.
    """
    theme, level = picked(seed, theme, level, rules)
    for spot in candidate_spots(seed, theme, level, rules):
        scenario = _evaluate(spot, seed, theme, level)
        if scenario is not None:
            return scenario
    raise ScenarioNotFound(f"no {theme} spot of level {level} in {MAX_GAMES} games")


def picked(seed: int, theme: str | None = None, level: int | None = None,
           rules: Rules = DEFAULT_RULES) -> tuple[str, int]:
    """The theme and level :func:`generate` deals ``seed`` with: those given, the seed's
    pick (among the themes ``rules`` allow) for those left out. ``generate(seed, theme,
    level)`` and ``generate(seed, *picked(seed, theme, level))`` are the same scenario, so a
    cache can key on the pick."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a scenario seed is a whole number, not {seed!r}")
    picker = random.Random(f"perudo-coach/scenario/{seed}")
    if theme is None:  # among the themes the table can play: calza needs calza switched on
        theme = picker.choice([name for name in THEMES if name != "calza" or rules.calza])
    return _checked_theme(rules, theme), check_level(
        picker.choice(LEVELS) if level is None else level)


def candidate_spots(seed: int, theme: str, level: int,
                    rules: Rules = DEFAULT_RULES) -> Iterator[Spot]:
    """The deal of ``generate(seed, theme, level)``: the spots it weighs, in order.

    Up to :data:`MAX_GAMES` games of the practice table; of each, the learner's seat's
    decisions facing a bid that may fit ``theme`` (before any advice), shuffled. The coach
    is never asked: the deal stays the same whatever the coach becomes.
    """
    theme, level = _checked_theme(rules, theme), check_level(level)
    settings = json.dumps(rules.changed(), sort_keys=True)
    rng = random.Random(f"perudo-coach/scenario/{seed}/{theme}/{level}/{settings}")
    for _ in range(MAX_GAMES):
        spots = [spot for spot in _hero_spots(rng, rules, theme) if _may_fit(theme, spot)]
        rng.shuffle(spots)
        yield from spots


def grade(scenario: Scenario, action: Action | str) -> Grade:
    """Score the learner's ``action`` (an :class:`Action` or ``dudo``/``calza``/``5x4``)."""
    action = parse_action(action) if isinstance(action, str) else action
    situation = scenario.situation()
    if not situation.is_legal(action):
        raise ValueError(f"{action} is not a legal move here")
    chosen = scenario.option(action) or _weigh_any(situation, action)
    best = scenario.options[0]
    regret = max(0.0, steady(chosen.net_loss - best.net_loss))  # a tie is no regret
    is_best = action == best.action
    return Grade(action=action, best=best.action, lose=chosen.lose, gain=chosen.gain,
                 regret=regret, is_best=is_best, correct=is_best or regret <= CORRECT_REGRET,
                 reveal=reveal(scenario, action) if scenario.cups else None,
                 best_lose=best.lose, best_gain=best.gain, outcome=outcome(scenario, action))


def outcome(scenario: Scenario, action: Action) -> Outcome | None:
    """What the cups say of ``action``: the count of the bid it concerns (the bid on the
    table for a dudo or calza, the raise's own), from every hidden die, or for a tracked
    game's spot from the table's count when the round ended on that face; ``None`` when
    that count is not known. A raise is put to the count as if the next player called
    dudo on it (:class:`Reveal`)."""
    bid = scenario.last_bid if action.bid is None else action.bid
    if scenario.showdown is None:
        count = true_count(scenario.hidden, bid, scenario.palifico)
    else:
        called, table_count = scenario.showdown
        if called.face != bid.face:
            return None
        count = table_count
    if action.kind == "dudo":
        right = count < bid.quantity
    elif action.kind == "calza":
        right = count == bid.quantity
    else:
        right = count >= bid.quantity
    return Outcome.RIGHT if right else Outcome.WRONG


def reveal(scenario: Scenario, action: Action) -> Reveal:
    """What the lifted cups show after the learner's ``action``. ValueError for a tracked
    game's spot: its cups were never entered."""
    if not scenario.cups:
        raise ValueError("a tracked game's spot has no cups to lift")
    bid, me = scenario.last_bid, scenario.seat
    count = true_count(scenario.hidden, bid, scenario.palifico)
    settle = partial(settle_round, dice=scenario.seat_dice, rules=scenario.rules)
    dudo = settle(bid, bidder=scenario.last_bidder, caller=me, kind="dudo", count=count)
    calza = settle(bid, bidder=scenario.last_bidder, caller=me, kind="calza", count=count)
    raise_count = None
    if action.kind in ("dudo", "calza"):
        settled = dudo if action.kind == "dudo" else calza
    else:
        assert action.bid is not None
        raise_count = true_count(scenario.hidden, action.bid, scenario.palifico)
        settled = settle(action.bid, bidder=me, caller=scenario.situation().next_seat(),
                         kind="dudo", count=raise_count)
    assert dudo.loser is not None and calza.calza_right is not None  # settled by their calls
    return Reveal(bid, count, dudo.loser, calza.calza_right, settled.loser, settled.gainer,
                  raise_count)


def from_decision(situation: Situation, hidden: Sequence[Sequence[int]], seed: int,
                  source: str) -> Scenario:
    """The scenario of a decision taken in a whole game (a review's costly move), with
    every seat's dice ``hidden`` as the cups showed them: its theme is the first of
    :data:`THEMES` it shows, its level the gap between its best kinds of move. ValueError
    for an opening: a practice spot faces a bid."""
    if not isinstance(situation, Situation):
        raise wrong_type("from_decision: situation", "a Situation", situation)
    if not situation.bids:
        raise ValueError("a practice spot faces a bid: an opening is not one")
    cups = tuple(tuple(sorted(hand)) for hand in hidden)
    if tuple(len(hand) for hand in cups) != situation.dice or (
            Hand(cups[situation.me]) != situation.hand):
        raise ValueError("the hidden dice do not fit the table")
    return _weighed(Spot(situation, cups), seed, source)


def from_tracked(situation: Situation, showdown: tuple[Bid, int], source: str) -> Scenario:
    """The scenario of a decision in a real game kept in the tracker, where only the
    learner's dice are known: ``showdown`` is the bid the round ended on and the count the
    table made. Theme and level as :func:`from_decision`'s; ValueError for an opening."""
    if not isinstance(situation, Situation):
        raise wrong_type("from_tracked: situation", "a Situation", situation)
    if not situation.bids:
        raise ValueError("a practice spot faces a bid: an opening is not one")
    called, count = showdown
    if not isinstance(called, Bid) or not 0 <= count <= situation.table_dice:
        raise ValueError(f"the showdown {showdown!r} does not fit the table")
    hidden = tuple(situation.hand.faces if seat == situation.me else ()
                   for seat in range(len(situation.dice)))
    return _weighed(Spot(situation, hidden), 0, source, (called, count))


def _weighed(spot: Spot, seed: int, source: str,
             showdown: tuple[Bid, int] | None = None) -> Scenario:
    """A whole game's spot weighed by the coach: its theme is the first of :data:`THEMES`
    it shows, its level the gap between its best kinds of move."""
    situation = spot.situation
    coach, pure = advise(situation, _COACH), advise(situation, _PURE)
    theme = next((theme for theme in THEMES
                  if (theme != "calza" or situation.rules.calza) and _may_fit(theme, spot)
                  and _fits(theme, situation, coach, pure)), THEMES[0])
    return Scenario(seed=seed, theme=theme, level=level_for_gap(alternative_gap(coach.options)),
                    rules=situation.rules, seat=situation.me, seat_dice=situation.dice,
                    palifico=situation.palifico, bids=situation.bids, hidden=spot.hidden,
                    options=coach.options, pure_odds_best=pure.best.action, source=source,
                    showdown=showdown)


# --- the simulated games -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Spot:
    """A decision of the learner's seat in a simulated game, with every seat's dice."""

    situation: Situation
    hidden: tuple[tuple[int, ...], ...]


def _hero_spots(rng: random.Random, rules: Rules, theme: str) -> Iterator[Spot]:
    """Play one game of bots and yield each decision of one chosen seat facing a bid,
    until that seat is out or the game ends."""
    seats = rng.choice((2, 3)) if theme == "endgame" else rng.randint(3, 6)
    bots = [rng.choice(BOT_MIX)(random.Random(rng.getrandbits(64))) for _ in range(seats)]
    hero = rng.randrange(seats)
    state = GameState.new([f"seat {seat}" for seat in range(seats)], rules,
                          first_opener=roll_for_first_opener(rng, seats))
    for decision in iter_decisions(bots, state, rng):
        situation = decision.situation
        if situation.dice[hero] == 0:
            return
        if situation.me == hero and situation.bids:
            yield Spot(situation, tuple(hand.faces for hand in decision.hands))


# --- themes and levels -------------------------------------------------------------------


def _may_fit(theme: str, spot: Spot) -> bool:
    """The theme's conditions that need no advice: cheap, checked before weighing."""
    situation = spot.situation
    match theme:
        case "palifico":
            return situation.palifico
        case "endgame":
            return (len(situation.active_seats) <= ENDGAME_MAX_PLAYERS
                    and situation.table_dice <= ENDGAME_MAX_DICE)
        case "calza":
            return situation.may_calza()
        case "dudo-or-raise" | "paco-conversion":
            return not situation.palifico
    return True


def _fits(theme: str, situation: Situation, coach: Advice, pure: Advice) -> bool:
    """Whether the weighed spot shows the theme's point.

    dudo-or-raise: the two best kinds of move are dudo and raise. calza: calza is the best
    move, or the runner-up kind within the level-1 gap. paco-conversion: the last bid or
    the best raise goes between pacos and a face. reading-bids: the pure-odds answer is
    wrong once the bids are read.
    """
    top_two = _kinds_by_rank(coach.options)[:2]
    match theme:
        case "dudo-or-raise":
            return set(top_two) == {"dudo", "raise"}
        case "calza":
            return top_two[0] == "calza" or (
                top_two[1] == "calza" and alternative_gap(coach.options) < LEVEL_GAPS[1])
        case "paco-conversion":
            return _crosses(situation, coach.best.action)
        case "reading-bids":
            return _reading_matters(situation, coach, pure)
    return True


def _kinds_by_rank(options: Sequence[Option]) -> list[str]:
    """The kinds of action (raise, dudo, calza) in the order of their best option."""
    kinds: list[str] = []
    for option in options:
        if option.action.kind not in kinds:
            kinds.append(option.action.kind)
    return kinds


def _crosses(situation: Situation, best: Action) -> bool:
    """Whether the last bid, or the best raise over it, goes between pacos and a face."""
    bids = [bid for _, bid in situation.bids]
    if best.bid is not None and best.bid.is_paco != bids[-1].is_paco:
        return True
    return len(bids) >= 2 and bids[-1].is_paco != bids[-2].is_paco


def _reading_matters(situation: Situation, coach: Advice, pure: Advice) -> bool:
    """Whether the pure-odds answer differs and is graded wrong once the bids are read."""
    option = coach.option(pure.best.action) or _weigh_any(situation, pure.best.action)
    return option.net_loss - coach.best.net_loss > CORRECT_REGRET


def _evaluate(spot: Spot, seed: int, theme: str, level: int) -> Scenario | None:
    """The scenario made of ``spot``, or ``None`` when it misses the theme or the level."""
    situation = spot.situation
    coach = advise(situation, _COACH)
    if level_for_gap(alternative_gap(coach.options)) != level:
        return None
    pure = advise(situation, _PURE)
    if not _fits(theme, situation, coach, pure):
        return None
    return Scenario(seed=seed, theme=theme, level=level, rules=situation.rules,
                    seat=situation.me, seat_dice=situation.dice, palifico=situation.palifico,
                    bids=situation.bids, hidden=spot.hidden, options=coach.options,
                    pure_odds_best=pure.best.action)


def _weigh_any(situation: Situation, action: Action) -> Option:
    """The coach's numbers for a legal raise it did not list (a bigger jump, or a raise it
    did not play out to the end of the round)."""
    assert action.bid is not None
    return weigh_raise(situation, action.bid, _COACH)


def _checked_theme(rules: Rules, theme: str) -> str:
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}: use one of {', '.join(THEMES)}")
    if theme == "calza" and not rules.calza:
        raise ValueError("the calza theme needs rules with calza switched on")
    return theme


__all__ = [
    "CORRECT_REGRET",
    "THEMES",
    "Grade",
    "Reveal",
    "Scenario",
    "ScenarioNotFound",
    "Spot",
    "candidate_spots",
    "from_decision",
    "from_tracked",
    "generate",
    "grade",
    "level_for_gap",
    "outcome",
    "parse_action",
    "picked",
    "reveal",
    "true_count",
]
