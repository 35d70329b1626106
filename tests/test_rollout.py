"""The rest of the round, sampled (``coach.engine.rollout``): every draw replayed alone, one
bid at a time, with ``perudo_math``'s legality and odds; the same spot, the same numbers."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coach import PURE_ODDS, BidReading, CoachSettings, Situation, TableBeliefs, advise
from coach.engine.decide import ROLLOUT_PRIOR
from coach.engine.hands import hand_space
from coach.engine.rollout import (
    play_out,
    raise_losses,
    sample_matches,
    spot_seed,
    turns_after_me,
)
from perudo_math import Bid, Hand, Rules, count_survival, legal_raises, smallest_raises
from tests.strategies import seated_table

RULES = Rules()


def situation(hand, dice, bids=(), palifico=False, me=0) -> Situation:
    return Situation(RULES, tuple(dice), me, Hand(hand), tuple(bids), palifico)


def replay(spot: Situation, bid: Bid, matches: np.ndarray, draw: int,
           thresholds: dict[int, float], cut_off: float) -> float:
    """One draw of the round after my raise to ``bid``, bid by bid."""
    table, palifico = spot.table_dice, spot.palifico
    current, bidder = bid, spot.me
    for actor in turns_after_me(spot):
        unknown = table - spot.dice[actor]
        own = matches[actor, draw]

        def chance(b: Bid, own=own, unknown=unknown) -> float:
            needed = b.quantity - int(own[b.face - 1])
            if needed <= 0:
                return 1.0
            tail = count_survival(unknown, b.face, palifico)
            return float(tail[needed]) if needed < len(tail) else 0.0

        raises = [b for b in smallest_raises(current, palifico=palifico, rules=spot.rules,
                                             bidder_dice=spot.dice[actor]).values()
                  if b.quantity <= table]
        if chance(current) < thresholds[actor] or not raises:
            shown = sum(int(matches[seat, draw, current.face - 1])
                        for seat in spot.active_seats)
            loser = actor if shown >= current.quantity else bidder
            return 1.0 if loser == spot.me else 0.0
        current = max(raises, key=lambda b: (chance(b), b.face))
        bidder = actor
    return cut_off


@st.composite
def raised_spots(draw):
    dice, hand, palifico = draw(seated_table())
    if len(dice) > 2 and draw(st.booleans()):
        dice[draw(st.integers(1, len(dice) - 1))] = 0  # a seat already out
    spot = situation(hand, dice, palifico=palifico)
    raise_to = draw(st.sampled_from(legal_raises(None, spot.table_dice, palifico=palifico)))
    thresholds = {seat: draw(st.sampled_from([0.0, 0.3, 0.5, 0.7, 1.0]))
                  for seat in range(len(dice))}
    return spot, raise_to, thresholds


@settings(max_examples=60, deadline=None)
@given(raised_spots(), st.integers(0, 2**32 - 1))
def test_every_draw_plays_out_as_a_bid_by_bid_replay(case, seed):
    spot, bid, thresholds = case
    matches = sample_matches(spot, lambda seat: None, 12, np.random.default_rng(seed))
    bids = [bid, Bid(spot.table_dice + 1, bid.face)]  # the second above the table
    lost = play_out(spot, bids, matches, thresholds.__getitem__, cut_off=0.25)
    for raised, row in zip(bids, lost, strict=True):
        assert row.tolist() == [replay(spot, raised, matches, draw, thresholds, 0.25)
                                for draw in range(12)]


def test_a_seat_read_as_one_hand_is_drawn_with_that_hand():
    spot = situation([2, 2, 3], [3, 2, 4])
    space = hand_space(2)
    weights = np.zeros(len(space.prior))
    weights[space.row((1, 5))] = 1.0
    matches = sample_matches(spot, lambda seat: weights if seat == 1 else None, 50,
                             np.random.default_rng(0))
    assert (matches[1] == [1, 1, 1, 1, 2, 1]).all()  # a paco counts toward every face
    assert (matches[0] == [0, 2, 1, 0, 0, 0]).all()  # mine: 2 2 3 with no paco
    assert not (matches[2] == matches[2][0]).all()  # a seat not read: uniform dice


def test_a_raise_above_the_table_always_loses_and_a_sure_call_never_does():
    spot = situation([1, 1, 4], [3, 3, 3])
    losses = raise_losses(spot, [Bid(10, 4), Bid(3, 4)], lambda seat: None,
                          lambda seat: 0.5, samples=200)
    assert losses[0] == 1.0
    # 3 x 4 is true in my own hand: whoever calls it loses, so it can only come back to me
    assert 0.0 < losses[1] < 0.5


def test_the_same_spot_gets_the_same_advice():
    spot = situation([2, 2, 3, 5, 1], [5, 5, 5, 5, 5],
                     [(1, Bid(3, 4)), (2, Bid(4, 4)), (3, Bid(5, 4)), (4, Bid(6, 4))])
    coach = CoachSettings()
    assert coach.rollouts > 0
    first, again = advise(spot, coach), advise(spot, coach)
    assert first == again
    assert spot_seed(spot) == spot_seed(Situation.from_json(spot.to_json()))
    raises = [option for option in first.options if option.action.kind == "raise"]
    assert 0 < len(raises) <= coach.rollout_top


def test_rolled_out_raises_read_the_bidders_hands():
    """A bidder read as holding fours makes a raise on fours likelier to survive the round."""
    bids = [(1, Bid(2, 4)), (2, Bid(3, 4))]
    spot = situation([4, 4, 6], [3, 3, 3], bids)
    read = TableBeliefs(spot, BidReading())
    plain = TableBeliefs(spot, PURE_ODDS)
    assert read.hand_weights(1) is not None and plain.hand_weights(1) is None
    threshold = lambda seat: 0.5  # noqa: E731
    by_reading = raise_losses(spot, [Bid(5, 4)], read.hand_weights, threshold, 400)
    uniform = raise_losses(spot, [Bid(5, 4)], plain.hand_weights, threshold, 400)
    assert by_reading[0] < uniform[0]


def test_a_rolled_out_raise_weighs_its_draws_and_its_one_step_risk():
    spot = situation([2, 2, 3, 5, 1], [5, 5, 5, 5, 5],
                     [(1, Bid(3, 4)), (2, Bid(4, 4)), (3, Bid(5, 4)), (4, Bid(6, 4))])
    coach = CoachSettings()
    one_step = advise(spot, replace(coach, rollouts=0))
    rolled = advise(spot, coach)
    raises = [option for option in rolled.options if option.action.kind == "raise"]
    kept = sorted((o for o in one_step.options if o.action.kind == "raise"),
                  key=lambda o: (o.net_loss, -o.p_true))[:coach.rollout_top]
    assert {o.action for o in raises} == {o.action for o in kept}
    beliefs = TableBeliefs(spot, coach.reading)
    draws = raise_losses(spot, [o.action.bid for o in raises], beliefs.hand_weights,
                         lambda seat: coach.threshold_of(seat, 5), coach.rollouts)
    for option, drawn in zip(raises, draws, strict=True):
        step = one_step.option(option.action)
        assert option.lose == pytest.approx(
            (drawn * coach.rollouts + step.lose * ROLLOUT_PRIOR) / (coach.rollouts + ROLLOUT_PRIOR))
    calls = [o for o in rolled.options if o.action.kind != "raise"]
    assert calls == [o for o in one_step.options if o.action.kind != "raise"]


def test_heads_up_keeps_the_one_step_risks():
    spot = situation([2, 2, 3], [3, 3], [(1, Bid(2, 4))])
    assert advise(spot) == advise(spot, CoachSettings(rollouts=0))
