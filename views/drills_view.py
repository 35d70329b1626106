"""The drills page in words: each drill's question, its answer choices and its explanation.

``app_pages/drills.py`` lays these out; the drills and their grades are ``practice.drills``.
"""

from __future__ import annotations

import random

from perudo_math import Bid
from practice.drills import LegalityDrill, OddsDrill, SmallestRaiseDrill
from views.dice import glyphs
from views.i18n import t, tn
from views.text import unbroken

SMALLEST_CHOICES = 6
"""How many quantities a smallest-raise drill offers to tap."""


def smallest_choices(drill: SmallestRaiseDrill) -> list[Bid]:
    """Six bids on the drill's face around the answer, the answer at a place the seed picks."""
    answer = drill.answer.quantity
    offset = random.Random(f"perudo-coach/choices/{drill.seed}").randrange(SMALLEST_CHOICES)
    low = max(1, answer - offset)
    return [Bid(quantity, drill.face) for quantity in range(low, low + SMALLEST_CHOICES)]


def heading_bid(bid: Bid) -> str:
    """A bid in a heading: ``6 × 4`` stays on one line on a phone."""
    return unbroken(bid.pretty())


def drill_question(drill: SmallestRaiseDrill | LegalityDrill | OddsDrill) -> str:
    """The drill's question in words, for a heading."""
    match drill:
        case SmallestRaiseDrill():
            return t("drills.smallest.question", previous=heading_bid(drill.previous),
                     faces=t(f"face.plural.{drill.face}"))
        case LegalityDrill():
            key = "drills.legal.question.palifico" if drill.palifico else "drills.legal.question"
            return t(key, previous=heading_bid(drill.previous), bid=heading_bid(drill.bid))
    return t("drills.odds.question", bid=heading_bid(drill.bid))


def smallest_explanation(drill: SmallestRaiseDrill) -> str:
    """Why the answer is the smallest bid: half rounded up, or twice plus one."""
    key = "drills.smallest.why.pacos" if drill.face == 1 else "drills.smallest.why.face"
    return t(key, previous=drill.previous.pretty(), quantity=drill.previous.quantity,
             answer=drill.answer.pretty())


def odds_drill_table(drill: OddsDrill) -> str:
    """What the learner sees of an odds drill: the hand, the table, the round."""
    return t("drills.odds.table", dice=glyphs(drill.hand),
             table=tn("practice.dice_on_table", drill.dice),
             round=t("practice.round.palifico" if drill.palifico else "practice.round.normal"))


def odds_drill_outcome(drill: OddsDrill) -> str:
    """What the cups showed: the count, and whether the bid was true."""
    key = "drills.odds.outcome.true" if drill.outcome else "drills.odds.outcome.false"
    return t(key, count=tn("practice.count", drill.count))


__all__ = [
    "SMALLEST_CHOICES",
    "drill_question",
    "heading_bid",
    "odds_drill_outcome",
    "odds_drill_table",
    "smallest_choices",
    "smallest_explanation",
]
