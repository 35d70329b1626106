"""Drills: every answer checked against perudo_math, graders, coverage and seeds."""

from __future__ import annotations

import json
import random

import pytest

from perudo_math import PACO, Bid, Refusal, check_bid, odds, smallest_raises
from practice.drills import (
    DRILL_KINDS,
    ESTIMATE_STEP,
    LEGALITY_TOPICS,
    ODDS_TOLERANCE,
    EstimateGrade,
    LegalityDrill,
    OddsDrill,
    SmallestRaiseDrill,
    estimate_grade,
    generate_drill,
    grade_drill,
    smallest_raise_drill,
)

SEEDS = range(150)


def drills(kind: str) -> list:
    return [generate_drill(seed, kind) for seed in SEEDS]


def test_the_same_seed_gives_the_same_drill():
    for seed in range(20):
        drill = generate_drill(seed)
        assert generate_drill(seed) == drill
        assert generate_drill(seed, drill.kind, drill.level) == drill
        json.dumps(drill.to_dict())


def test_bad_kind_or_level_is_refused():
    with pytest.raises(ValueError, match="unknown drill"):
        generate_drill(1, "bluff")
    with pytest.raises(ValueError, match="level"):
        generate_drill(1, "odds", 0)


# --- smallest raise to or from pacos -----------------------------------------------------


def test_smallest_raise_answers_are_perudo_maths():
    for drill in drills("smallest-raise"):
        assert isinstance(drill, SmallestRaiseDrill)
        assert drill.previous.is_paco != (drill.face == PACO)
        assert drill.answer == smallest_raises(drill.previous)[drill.face]
        assert check_bid(drill.answer, drill.previous).legal
        if drill.answer.quantity > 1:
            below = Bid(drill.answer.quantity - 1, drill.face)
            assert not check_bid(below, drill.previous).legal


@pytest.mark.parametrize(("previous", "face", "expected"),
                         [("7x4", PACO, "4xP"), ("8x4", PACO, "4xP"), ("3xP", 5, "7x5")])
def test_the_worked_facts_of_the_rules(previous, face, expected):
    drill = SmallestRaiseDrill(0, 1, Bid.parse(previous), face,
                               smallest_raises(Bid.parse(previous))[face])
    assert drill.answer == Bid.parse(expected)
    assert grade_drill(drill, expected).correct
    assert grade_drill(drill, Bid.parse(expected).quantity).correct
    assert not grade_drill(drill, Bid.parse(expected).quantity + 1).correct


def test_levels_go_to_pacos_then_from_pacos():
    rng = random.Random(5)
    assert all(smallest_raise_drill(rng, 0, 1).face == PACO for _ in range(20))
    assert all(smallest_raise_drill(rng, 0, 2).previous.is_paco for _ in range(20))


def test_smallest_raise_needs_a_bid():
    drill = generate_drill(0, "smallest-raise")
    with pytest.raises(ValueError):
        grade_drill(drill, True)


# --- is this raise legal? ----------------------------------------------------------------


def test_legality_answers_are_perudo_maths():
    for drill in drills("legal-raise"):
        assert isinstance(drill, LegalityDrill)
        verdict = check_bid(drill.bid, drill.previous, palifico=drill.palifico,
                            rules=drill.rules)
        assert drill.answer == verdict.legal
        assert drill.reason == verdict.reason
        result = grade_drill(drill, verdict.legal)
        assert result.correct and result.reason == verdict.reason
        assert not grade_drill(drill, not verdict.legal).correct


def test_legality_drills_cover_every_topic_both_ways():
    seen = {(drill.topic, drill.answer) for seed in range(300)
            for drill in [generate_drill(seed, "legal-raise", 3)]}
    assert seen == {(topic, answer) for topic in LEGALITY_TOPICS for answer in (True, False)}


def test_legality_topics_are_what_they_say():
    refusals = set()
    for seed in range(300):
        drill = generate_drill(seed, "legal-raise", 3)
        refusals.add(drill.verdict.refusal)
        if drill.topic == "palifico-frozen":
            assert drill.palifico
        elif drill.topic == "paco-conversion":
            assert not drill.palifico and drill.bid.is_paco != drill.previous.is_paco
        else:
            assert not drill.palifico and not drill.bid.is_paco and not drill.previous.is_paco
    assert {Refusal.PALIFICO_FACE_FROZEN, Refusal.PACOS_TOO_FEW, Refusal.ORDINARY_TOO_FEW,
            Refusal.QUANTITY_MUST_STAY} <= refusals


def test_legality_wants_yes_or_no():
    drill = generate_drill(0, "legal-raise")
    with pytest.raises(ValueError):
        grade_drill(drill, "yes")


# --- estimate the odds -------------------------------------------------------------------


def test_odds_answers_are_perudo_maths():
    for drill in drills("odds"):
        assert isinstance(drill, OddsDrill)
        assert drill.answer == odds(drill.bid, drill.hand, drill.dice, drill.palifico).at_least
        assert len(drill.hand) + len(drill.hidden) == drill.dice
        assert 1 <= drill.bid.quantity <= drill.dice
        every_die = drill.hand + drill.hidden
        if drill.palifico or drill.bid.is_paco:
            count = every_die.count(drill.bid.face)
        else:
            count = every_die.count(drill.bid.face) + every_die.count(PACO)
        assert drill.count == count
        assert drill.outcome == (count >= drill.bid.quantity)


def test_odds_are_graded_by_absolute_error():
    drill = generate_drill(3, "odds")
    exact = grade_drill(drill, drill.answer)
    assert exact.correct and exact.error == 0.0
    off = min(1.0, drill.answer + 0.25) if drill.answer < 0.5 else drill.answer - 0.25
    wrong = grade_drill(drill, off)
    assert wrong.error == pytest.approx(abs(off - drill.answer))
    assert wrong.correct == (wrong.error <= ODDS_TOLERANCE)
    with pytest.raises(ValueError):
        grade_drill(drill, 1.5)
    with pytest.raises(ValueError):
        grade_drill(drill, True)


@pytest.mark.parametrize(("error", "expected"), [
    (0.0, EstimateGrade.SPOT_ON),
    (0.02, EstimateGrade.SPOT_ON),
    (ESTIMATE_STEP / 2, EstimateGrade.SPOT_ON),  # a tie: both steps are the nearest
    (0.03, EstimateGrade.CLOSE),
    (ODDS_TOLERANCE, EstimateGrade.CLOSE),
    (0.11, EstimateGrade.FAR),
])
def test_an_estimate_on_the_nearest_step_is_spot_on(error, expected):
    assert estimate_grade(error) is expected


def test_an_odds_drill_answered_on_the_nearest_step_is_spot_on_not_just_close():
    drill = generate_drill(3, "odds")
    nearest = round(drill.answer / ESTIMATE_STEP) * ESTIMATE_STEP
    assert grade_drill(drill, drill.answer).estimate is EstimateGrade.SPOT_ON
    assert grade_drill(drill, nearest).estimate is EstimateGrade.SPOT_ON
    assert grade_drill(drill, nearest).correct
    further = nearest + ESTIMATE_STEP if nearest < 0.5 else nearest - ESTIMATE_STEP
    assert grade_drill(drill, further).estimate is EstimateGrade.CLOSE
    assert grade_drill(generate_drill(1, "legal-raise"), True).estimate is None


def test_every_kind_turns_up_from_bare_seeds():
    assert {generate_drill(seed).kind for seed in range(30)} == set(DRILL_KINDS)
