"""Bots: plain callables from a :class:`~coach.engine.situation.Situation` to an :class:`Action`.

A bot is any callable ``bot(situation) -> Action``. The arena builds a fresh bot for
every game from a *bot factory*: a callable ``factory(rng) -> bot`` taking a
:class:`random.Random`. Each built-in bot class is its own factory.
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable
from dataclasses import replace

from coach.engine.beliefs import PURE_ODDS
from coach.engine.decide import CoachSettings, advise
from coach.engine.profiles import OpponentProfiles
from coach.engine.showdown import Showdown
from coach.engine.situation import CALZA, DUDO, Action, ActionKind, Situation
from coach.engine.table_play import COACH_TABLE_PLAY, TABLES_ANYWHERE, TablePlay
from coach.play.opponents import OPPONENTS
from perudo_math import PACO, Rules, legal_raises, odds_table, smallest_raises

Bot = Callable[[Situation], Action]
BotFactory = Callable[[random.Random], Bot]


class RandomBot:
    """Any legal move, uniformly: dudo, calza where allowed, or a raise up to the table."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def __call__(self, situation: Situation) -> Action:
        moves = [Action(ActionKind.RAISE, bid) for bid in legal_raises(
            situation.last_bid, situation.table_dice, palifico=situation.palifico,
            rules=situation.rules, bidder_dice=situation.dice[situation.me])]
        if situation.may_dudo():
            moves.append(DUDO)
        if situation.may_calza():
            moves.append(CALZA)
        return self.rng.choice(moves)


def _expected_counts(situation: Situation) -> dict[int, float]:
    """Per face, my matching dice plus the unknown dice's share (a third, or a sixth)."""
    unknown = situation.table_dice - len(situation.hand)
    return {
        face: situation.hand.count(face, palifico=situation.palifico)
        + unknown / (6 if face == PACO or situation.palifico else 3)
        for face in range(1, 7)
    }


class N3Bot:
    """Bids toward the expected count (n/3, n/6 for pacos) and challenges above it.

    It opens with the expected count, rounded down, of its best face; it raises with the
    smallest legal raise that stays within the expected count of its face, preferring the
    face with the most room; with no such raise, or when the bid is above the expected
    count of its face, it calls dudo.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng

    def __call__(self, situation: Situation) -> Action:
        expected = _expected_counts(situation)
        last = situation.last_bid
        if last is not None and last.quantity > expected[last.face]:
            return DUDO
        smallest = smallest_raises(last, palifico=situation.palifico, rules=situation.rules,
                                   bidder_dice=situation.dice[situation.me])
        if last is None:
            face = max(smallest, key=lambda f: (expected[f], f))
            quantity = max(1, int(expected[face]))
            return Action(ActionKind.RAISE, smallest[face].__class__(quantity, face))
        within = [bid for bid in smallest.values() if bid.quantity <= expected[bid.face]]
        if not within:
            return DUDO
        best = max(within, key=lambda bid: (expected[bid.face] - bid.quantity, bid.face))
        return Action(ActionKind.RAISE, best)


class ProbabilityBot:
    """Dudo when the bid is true with probability below ½ from its own dice alone;
    otherwise the raise most likely true (ties: the face it holds most of)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng

    def __call__(self, situation: Situation) -> Action:
        table = odds_table(situation.hand, situation.table_dice, situation.palifico)
        last = situation.last_bid
        if last is not None:
            p_true = table[last.face - 1, last.quantity] if last.quantity <= situation.table_dice \
                else 0.0
            if p_true < 0.5:
                return DUDO
        smallest = smallest_raises(last, palifico=situation.palifico, rules=situation.rules,
                                   bidder_dice=situation.dice[situation.me])

        def chance(face: int) -> float:
            q = smallest[face].quantity
            return float(table[face - 1, q]) if q <= situation.table_dice else 0.0

        face = max(smallest, key=lambda f: (chance(f), situation.hand.count(
            f, palifico=situation.palifico), f))
        if last is not None and chance(face) == 0.0:
            return DUDO
        return Action(ActionKind.RAISE, smallest[face])


class CoachBot:
    """The coach's recommendation: bid reading and the next player's likely response,
    each opponent read by what the showdowns of this game have shown of them."""

    def __init__(self, rng: random.Random | None = None,
                 settings: CoachSettings | None = None, *, learn: bool = True) -> None:
        self.rng = rng
        self.settings = settings or CoachSettings()
        self.learn = learn
        reading = self.settings.reading
        self.profiles = OpponentProfiles(bluff_prior=reading.bluff,
                                         threshold_prior=self.settings.challenge_below,
                                         reading=reading)
        self.me: int | None = None
        self.rules = Rules()
        self._learned = self.settings
        self._learned_for: int | None = None
        """The players in the game when :attr:`_learned` was weighed."""

    def observe(self, showdown: Showdown) -> None:
        if not self.learn:
            return
        self.profiles.observe(showdown, self.me, self.rules)
        self._learned_for = None  # weighed again at the next decision

    def _settings_for(self, players: int) -> CoachSettings:
        """The settings with what the showdowns told of each seat, each seat's calls shrunk
        toward the threshold of a table of ``players`` players."""
        prior = self.settings.challenge_for(players)
        seats = sorted(self.profiles.seats)
        if not seats:
            return self.settings
        reading = replace(self.settings.reading, bluffs=tuple(
            (seat, round(self.profiles.bluff(seat), 4)) for seat in seats), table_readings=tuple(
            (seat, self.profiles.table_reading(seat)) for seat in seats))
        margin = self.settings.rollout_call_margin
        margins = () if margin is None or not self.settings.learn_margins else tuple(
            (seat, round(self.profiles.call_margin(seat, margin), 4)) for seat in seats)
        return replace(self.settings, reading=reading, thresholds=tuple(
            (seat, round(self.profiles.threshold(seat, prior), 4)) for seat in seats),
            call_margins=margins)

    def __call__(self, situation: Situation) -> Action:
        self.me, self.rules = situation.me, situation.rules
        players = len(situation.active_seats)
        if self._learned_for != players:
            self._learned, self._learned_for = self._settings_for(players), players
        return advise(situation, self._learned).action


class PureOddsCoachBot(CoachBot):
    """The coach with bid reading switched off: the same engine on uniform dice."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng, CoachSettings(reading=PURE_ODDS))


BUILTIN_BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "n3": N3Bot,
    "probability": ProbabilityBot,
    "coach": lambda rng: _tables_bot(rng, COACH_TABLE_PLAY),
    "coach-tables": lambda rng: _tables_bot(rng, TABLES_ANYWHERE),
    "coach-no-tables": CoachBot,
    "coach-pure-odds": PureOddsCoachBot,
    "coach-low-opening": lambda rng: _tables_bot(rng, COACH_TABLE_PLAY, LOW_OPENING),
    **OPPONENTS,
}
"""The coach's variants, simple baselines, and the league's opponents, written apart from the
coach (:mod:`coach.play.opponents`)."""


LOW_OPENING: CoachSettings = CoachSettings(opening_floor=0.0)
"""The coach without its opening floor (:data:`coach.engine.decide.OPENING_FLOOR`): it
opened as low as 2 × 4 with 19 dice on the table. Kept to measure the floor against."""


def _tables_bot(rng: random.Random, play: TablePlay,
                settings: CoachSettings | None = None) -> Bot:
    """The coach playing the shipped heads-up equilibrium tables where ``play`` says it
    does (:data:`~coach.engine.table_play.COACH_TABLE_PLAY`: where the app's advice plays
    them too)."""
    from coach.solver.tables import CoachTablesBot  # the tables load on first use

    return CoachTablesBot(rng, fallback=CoachBot(rng, settings), play=play)


def load_bot(spec: str) -> BotFactory:
    """A built-in bot by name, or an external one as ``module:attribute``.

    The attribute may be a class or function taking a ``rng`` (a factory), or a
    plain bot callable, used as it is for every game. ``ValueError`` when the name leads
    nowhere, whatever importing the module raised.
    """
    if spec in BUILTIN_BOTS:
        return BUILTIN_BOTS[spec]
    if ":" not in spec:
        names = ", ".join(BUILTIN_BOTS)
        raise ValueError(f"unknown bot {_shown(spec)}: use one of {names} or module:attribute")
    module_name, _, attribute = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import bot module {_shown(module_name)}: {error}") from None
    except (Exception, SystemExit) as error:  # "", "..", a module that fails as it loads
        raise ValueError(f"cannot import bot module {_shown(module_name)}: "
                         f"{type(error).__name__}: {error}") from None
    try:
        target = getattr(module, attribute)
    except Exception:
        raise ValueError(f"module {_shown(module_name)} has no attribute "
                         f"{_shown(attribute)}") from None
    if not callable(target):
        raise ValueError(f"bot {_shown(spec)} is not callable")
    if _takes_rng(target):
        return target
    return lambda rng: target


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 80 else repr(text[:80]) + f"… ({len(text)} characters)"


def _takes_rng(target: Callable[..., object]) -> bool:
    try:
        parameters = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return False
    return "rng" in parameters
