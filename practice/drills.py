"""Drills: short questions from a seed, each with its correct answer and a grader.

Three kinds (:data:`DRILL_KINDS`):

``smallest-raise``
    The smallest legal bid to or from pacos: after 7 × 4, the smallest paco bid? After
    3 × P, the smallest bid of fives? The answer is a :class:`~perudo_math.Bid`.
``legal-raise``
    Is this raise legal? Yes or no, with perudo_math's reason; the spots cover the
    same-face rule, the palifico frozen face and the paco conversions.
``odds``
    A hand, a table and a bid: the learner estimates P(the bid is true). Graded by the
    absolute error; the dice are rolled too, so the store can log calibration against
    what the cups really showed.

Everything is reproducible: ``generate_drill(seed, kind, level)`` always gives the same drill.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from perudo_math import (
    ORDINARY_FACES,
    PACO,
    Bid,
    Hand,
    RaiseRule,
    Rules,
    Verdict,
    check_bid,
    odds,
    smallest_raises,
)
from practice.levels import LEVELS, check_level

DRILL_KINDS = ("smallest-raise", "legal-raise", "odds")
"""Every drill kind."""

ODDS_TOLERANCE = 0.10
"""An odds estimate within this absolute error of the exact probability counts as right."""

ESTIMATE_STEP = 0.05
"""Estimates are given in steps of 5 points (the pages' sliders)."""


class EstimateGrade(StrEnum):
    """How near an estimate is to the exact probability."""

    SPOT_ON = "spot_on"
    """On the step nearest the exact probability: no estimate one can give is closer."""
    CLOSE = "close"
    """Within :data:`ODDS_TOLERANCE`: counts as right."""
    FAR = "far"


def estimate_grade(error: float) -> EstimateGrade:
    """The grade of an estimate ``error`` (absolute) away from the exact probability."""
    if error <= ESTIMATE_STEP / 2 + 1e-9:  # a tie between two steps: both are the nearest
        return EstimateGrade.SPOT_ON
    return EstimateGrade.CLOSE if error <= ODDS_TOLERANCE else EstimateGrade.FAR

ODDS_TABLE_DICE = {1: (4, 10), 2: (10, 20), 3: (20, 30)}
"""The range of dice on the table of an odds drill, per level."""

LEGALITY_TOPICS = ("same-face", "palifico-frozen", "paco-conversion")
"""What a legality drill is about."""

_ANY_FACE = Rules(raise_rule=RaiseRule.ANY_FACE)


@dataclass(frozen=True, slots=True)
class SmallestRaiseDrill:
    """After ``previous``, the smallest legal bid on ``face`` (pacos or an ordinary face)."""

    seed: int
    level: int
    previous: Bid
    face: int
    answer: Bid

    kind = "smallest-raise"

    def to_dict(self) -> dict[str, Any]:
        """The drill as plain JSON values."""
        return {"kind": self.kind, "seed": self.seed, "level": self.level,
                "previous": str(self.previous), "face": self.face, "answer": str(self.answer)}


@dataclass(frozen=True, slots=True)
class LegalityDrill:
    """Is ``bid`` a legal raise over ``previous`` (in a palifico round or not)?"""

    seed: int
    level: int
    topic: str
    previous: Bid
    bid: Bid
    palifico: bool
    rules: Rules
    verdict: Verdict

    kind = "legal-raise"

    @property
    def answer(self) -> bool:
        """Whether the raise is legal."""
        return self.verdict.legal

    @property
    def reason(self) -> str:
        """perudo_math's words for the verdict."""
        return self.verdict.reason

    def to_dict(self) -> dict[str, Any]:
        """The drill as plain JSON values."""
        refusal = self.verdict.refusal
        return {"kind": self.kind, "seed": self.seed, "level": self.level,
                "topic": self.topic, "previous": str(self.previous), "bid": str(self.bid),
                "palifico": self.palifico, "rules": self.rules.changed(),
                "answer": self.answer, "refusal": None if refusal is None else str(refusal),
                "reason": self.reason}


@dataclass(frozen=True, slots=True)
class OddsDrill:
    """From ``hand`` at a table of ``dice`` dice, P(``bid`` is true)?

    ``answer`` is the exact probability; ``hidden`` the other dice as rolled, and
    ``outcome`` whether the bid was really true with them.
    """

    seed: int
    level: int
    hand: tuple[int, ...]
    dice: int
    bid: Bid
    palifico: bool
    answer: float
    hidden: tuple[int, ...]

    kind = "odds"

    @property
    def count(self) -> int:
        """How many dice on the table, the hand's included, count toward the bid."""
        palifico = self.palifico
        return (Hand(self.hand).count(self.bid.face, palifico=palifico)
                + Hand(self.hidden).count(self.bid.face, palifico=palifico))

    @property
    def outcome(self) -> bool:
        """Whether the bid was true with the dice rolled."""
        return self.count >= self.bid.quantity

    def to_dict(self) -> dict[str, Any]:
        """The drill as plain JSON values."""
        return {"kind": self.kind, "seed": self.seed, "level": self.level,
                "hand": list(self.hand), "dice": self.dice, "bid": str(self.bid),
                "palifico": self.palifico, "answer": self.answer,
                "hidden": list(self.hidden), "count": self.count, "outcome": self.outcome}


Drill = SmallestRaiseDrill | LegalityDrill | OddsDrill


@dataclass(frozen=True, slots=True)
class DrillGrade:
    """The learner's response against the drill's answer.

    ``error`` is the absolute error of an odds estimate (``None`` for the other kinds),
    :attr:`estimate` its grade.
    """

    kind: str
    response: object
    answer: object
    correct: bool
    error: float | None = None
    reason: str | None = None

    @property
    def estimate(self) -> EstimateGrade | None:
        """An odds estimate's grade: spot on, close or far (``None`` for the other kinds)."""
        return None if self.error is None else estimate_grade(self.error)

    def to_dict(self) -> dict[str, Any]:
        """The grade as plain JSON values."""
        def plain(value: object) -> object:
            return str(value) if isinstance(value, Bid) else value
        return {"kind": self.kind, "response": plain(self.response),
                "answer": plain(self.answer), "correct": self.correct, "error": self.error,
                "reason": self.reason}


# --- generation -------------------------------------------------------------------------


def generate_drill(seed: int, kind: str | None = None, level: int | None = None) -> Drill:
    """The drill of ``seed``; with no ``kind`` or ``level`` the seed picks them."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a drill seed is a whole number, not {seed!r}")
    picker = random.Random(f"perudo-coach/drill/{seed}")
    kind = picker.choice(DRILL_KINDS) if kind is None else kind
    level = picker.choice(LEVELS) if level is None else level
    if kind not in DRILL_KINDS:
        raise ValueError(f"unknown drill {kind!r}: use one of {', '.join(DRILL_KINDS)}")
    check_level(level)
    rng = random.Random(f"perudo-coach/drill/{seed}/{kind}/{level}")
    match kind:
        case "smallest-raise":
            return smallest_raise_drill(rng, seed, level)
        case "legal-raise":
            return legality_drill(rng, seed, level)
    return odds_drill(rng, seed, level)


def smallest_raise_drill(rng: random.Random, seed: int, level: int) -> SmallestRaiseDrill:
    """From an ordinary bid to pacos, or from pacos to a face; bigger numbers at level 3.

    Level 1 goes to pacos, level 2 from pacos, level 3 either way.
    """
    to_pacos = {1: True, 2: False}.get(level, rng.random() < 0.5)
    top = 6 if level < 3 else 15
    if to_pacos:
        previous, face = Bid(rng.randint(1, 2 * top), rng.choice(ORDINARY_FACES)), PACO
    else:
        previous, face = Bid(rng.randint(1, top), PACO), rng.choice(ORDINARY_FACES)
    return SmallestRaiseDrill(seed, level, previous, face, smallest_raises(previous)[face])


def legality_drill(rng: random.Random, seed: int, level: int) -> LegalityDrill:
    """A raise near the boundary of the rule of the drawn topic, legal about half the time.

    Level 1 draws same-face spots, level 2 also palifico ones, level 3 every topic, with the
    any-face rule now and then.
    """
    topic = rng.choice(LEGALITY_TOPICS[:level])
    rules = _ANY_FACE if level == 3 and topic == "same-face" and rng.random() < 0.3 else Rules()
    palifico = topic == "palifico-frozen"
    make = {"same-face": _same_face_spot, "palifico-frozen": _palifico_spot,
            "paco-conversion": _conversion_spot}[topic]
    previous, bid = make(rng)
    verdict = check_bid(bid, previous, palifico=palifico, rules=rules)
    return LegalityDrill(seed, level, topic, previous, bid, palifico, rules, verdict)


def odds_drill(rng: random.Random, seed: int, level: int) -> OddsDrill:
    """A hand of up to five dice, a table sized by level and a bid near the expected count.

    Level 3 adds palifico rounds and paco bids.
    """
    low, high = ODDS_TABLE_DICE[level]
    dice = rng.randint(low, high)
    hand = Hand(rng.randint(1, 6) for _ in range(min(5, dice - 1)))
    palifico = level == 3 and rng.random() < 0.3
    face = PACO if level == 3 and rng.random() < 0.3 else rng.choice(ORDINARY_FACES)
    expected = odds(Bid(1, face), hand, dice, palifico).expected
    quantity = max(1, min(dice, round(expected) + rng.randint(-2, 2)))
    bid = Bid(quantity, face)
    hidden = tuple(rng.randint(1, 6) for _ in range(dice - len(hand)))
    return OddsDrill(seed, level, hand.faces, dice, bid, palifico,
                     odds(bid, hand, dice, palifico).at_least, hidden)


def _same_face_spot(rng: random.Random) -> tuple[Bid, Bid]:
    """After q × f: the same face up or down, a higher face with the same or more dice."""
    previous = Bid(rng.randint(2, 9), rng.randint(2, 5))
    q, f = previous.quantity, previous.face
    candidates = [Bid(q + 1, f), Bid(q, rng.randint(f + 1, 6)),
                  Bid(q + rng.randint(1, 3), rng.randint(f + 1, 6)),
                  Bid(q + 1, rng.randint(2, f)), Bid(q, f)]
    return previous, rng.choice(candidates)


def _palifico_spot(rng: random.Random) -> tuple[Bid, Bid]:
    """After q × f in palifico: the same face higher, or another face."""
    previous = Bid(rng.randint(1, 6), rng.randint(1, 6))
    q, f = previous.quantity, previous.face
    other = rng.choice([face for face in range(1, 7) if face != f])
    if rng.random() < 0.5:
        return previous, Bid(q + rng.randint(1, 2), f)
    return previous, rng.choice([Bid(q + 1, other), Bid(q, other), Bid(q, f)])


def _conversion_spot(rng: random.Random) -> tuple[Bid, Bid]:
    """To pacos around half the quantity, or from pacos around twice plus one."""
    if rng.random() < 0.5:
        previous = Bid(rng.randint(2, 12), rng.choice(ORDINARY_FACES))
        lowest = (previous.quantity + 1) // 2
        return previous, Bid(max(1, lowest + rng.randint(-1, 1)), PACO)
    previous = Bid(rng.randint(1, 6), PACO)
    lowest = 2 * previous.quantity + 1
    return previous, Bid(lowest + rng.randint(-2, 1), rng.choice(ORDINARY_FACES))


# --- grading ----------------------------------------------------------------------------


def grade_drill(drill: Drill, response: object) -> DrillGrade:
    """Grade ``response``: a bid (or its quantity) for smallest-raise, yes/no (a bool) for
    legal-raise, a probability from 0 to 1 for odds."""
    match drill:
        case SmallestRaiseDrill():
            return _grade_smallest(drill, response)
        case LegalityDrill():
            return _grade_legality(drill, response)
        case OddsDrill():
            return _grade_odds(drill, response)
    raise ValueError(f"not a drill: {drill!r}")


def _grade_smallest(drill: SmallestRaiseDrill, response: object) -> DrillGrade:
    if isinstance(response, str):
        response = Bid.parse(response)
    if isinstance(response, int) and not isinstance(response, bool):
        response = Bid(response, drill.face)
    if not isinstance(response, Bid):
        raise ValueError(f"answer with a bid like 4xP or a quantity, not {response!r}")
    verdict = check_bid(drill.answer, drill.previous)
    return DrillGrade(drill.kind, response, drill.answer, response == drill.answer,
                      reason=verdict.reason)


def _grade_legality(drill: LegalityDrill, response: object) -> DrillGrade:
    if not isinstance(response, bool):
        raise ValueError(f"answer yes (True) or no (False), not {response!r}")
    return DrillGrade(drill.kind, response, drill.answer, response == drill.answer,
                      reason=drill.reason)


def _grade_odds(drill: OddsDrill, response: object) -> DrillGrade:
    if isinstance(response, bool) or not isinstance(response, int | float):
        raise ValueError(f"answer with a probability from 0 to 1, not {response!r}")
    estimate = float(response)
    if not 0.0 <= estimate <= 1.0:
        raise ValueError(f"a probability is from 0 to 1, not {estimate}")
    error = abs(estimate - drill.answer)
    return DrillGrade(drill.kind, estimate, drill.answer, error <= ODDS_TOLERANCE, error=error)


__all__ = [
    "DRILL_KINDS",
    "ESTIMATE_STEP",
    "LEGALITY_TOPICS",
    "ODDS_TOLERANCE",
    "Drill",
    "DrillGrade",
    "EstimateGrade",
    "LegalityDrill",
    "OddsDrill",
    "SmallestRaiseDrill",
    "estimate_grade",
    "generate_drill",
    "grade_drill",
]
