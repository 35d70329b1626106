"""Issue 10's bugs, each pinned: certainly false bids are challenged, palifico ranks pacos
as an ordinary face, and the reason never calls a move safer than one shown safer."""

from __future__ import annotations

import json
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from coach import CoachSettings, Situation, advise
from coach.engine.decide import strength
from coach.engine.situation import DUDO, Action
from perudo_math import Bid, Hand, Rules
from tests.strategies import seated_table

B = Bid.parse


DEFAULT_RULES = Rules()


def spot(hand, dice, bids=(), palifico=False, me=0, rules=DEFAULT_RULES) -> Situation:
    return Situation(rules, tuple(dice), me, Hand(hand), tuple(bids), palifico)


def run_advise(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "coach", "advise", *args],
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_a_bid_above_the_table_is_a_dudo_from_the_command_line():
    advice = run_advise("--hand", "1", "1", "--dice", "3", "--bid", "4x5", "--players", "2")
    assert advice["action"] == "dudo"


def test_a_bid_the_other_dice_cannot_make_is_a_dudo_even_on_pure_odds():
    advice = run_advise("--hand", "4", "4", "4", "4", "4", "--dice", "7", "--bid", "5x3",
                        "--players", "3", "--pure-odds")
    assert advice["action"] == "dudo"
    assert advice["options"][0]["p_true"] == 0.0


@st.composite
def certainly_false(draw):
    dice, hand, palifico = draw(seated_table())
    players = len(dice)
    face = draw(st.integers(1, 6))
    mine = Hand(hand).count(face, palifico=palifico)
    others = sum(dice) - dice[0]
    quantity = mine + others + draw(st.integers(1, 3))
    return spot(hand, dice, [(players - 1, Bid(quantity, face))], palifico)


@given(certainly_false(), st.sampled_from([CoachSettings(),
                                           CoachSettings(carry_on=0.0, challenge_below=0.5)]))
@settings(max_examples=80, deadline=None)
def test_a_certainly_false_bid_is_always_challenged(situation, coach):
    advice = advise(situation, coach)
    assert advice.action == DUDO
    assert advice.best.lose == 0.0


def test_a_raise_the_next_player_would_call_is_not_certain_the_round_goes_on():
    # My five fours make 2x4 certainly true; the next player, with one die, would
    # rather raise; the round goes on, and some risk remains for me.
    advice = advise(spot([4, 4, 4, 4, 4], [5, 1, 1], [(2, B("2x3"))]))
    three_fours = advice.option(Action.raise_to("2x4"))
    assert three_fours is not None and three_fours.p_true == 1.0
    assert three_fours.lose > 0.0
    assert all(option.lose > 0.0 for option in advice.options if option.action.kind == "raise")


def test_a_raise_that_cannot_be_true_keeps_its_one_step_risk_when_no_draw_calls_it():
    # Two dice besides my five fours: 3 × 3 cannot be true. Callers of wide margin raise
    # past it in every draw; one step's caller still calls it, so it is not advised as safe.
    situation = spot([4, 4, 4, 4, 4], [5, 1, 1], [(2, B("2x3"))])
    advice = advise(situation, CoachSettings(rollout_call_margin=0.3))
    impossible = advice.option(Action.raise_to("3x3"))
    assert impossible is not None and impossible.p_true == 0.0
    assert impossible.lose > 0.5 and impossible.challenge > 0.5
    assert advice.action != Action.raise_to("3x3")


def test_palifico_ranks_pacos_as_an_ordinary_face():
    assert strength(B("3xP"), palifico=False) > strength(B("5x6"), palifico=False)
    assert strength(B("3xP"), palifico=True) < strength(B("4x2"), palifico=True)
    assert strength(B("3xP"), palifico=True) == 3.1


@st.composite
def any_spot(draw):
    dice, hand, palifico = draw(seated_table())
    players = len(dice)
    bids = []
    if draw(st.booleans()):
        face = draw(st.integers(1, 6) if palifico else st.integers(2, 6))
        quantity = draw(st.integers(1, sum(dice)))
        bids.append((players - 1, Bid(quantity, face)))
    return spot(hand, dice, bids, palifico)


SAFER_CLAIMS = {"raise-safer": ("dudo",), "calza-likely": ("dudo", "calza", "raise")}


@given(any_spot())
@settings(max_examples=200, deadline=None)
def test_the_reason_never_calls_the_move_safer_than_one_shown_safer(situation):
    advice = advise(situation)
    best = advice.best
    claims = SAFER_CLAIMS.get(advice.reason.code, ())
    for option in advice.options:
        if option.action.kind in claims and option is not best:
            assert best.lose <= option.lose + 1e-12, (advice.reason.code, option)
    if advice.reason.code == "raise-pressure":
        safer = advice.reason.numbers["safer_lose"]
        assert safer < best.lose
