"""The choice reading: a bid read as one move among those the bidder had."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coach import BidReading, Situation, TableBeliefs
from coach.engine.hands import choice_likelihood, hand_space
from perudo_math import Bid, Hand, Rules, legal_quantities

RULES = Rules()


def opening_moves(dice: int, table: int, palifico: bool) -> list[Bid]:
    spans = legal_quantities(None, table, palifico=palifico, rules=RULES, bidder_dice=dice)
    return [Bid(quantity, face) for face, span in spans.items() for quantity in list(span)[:3]]


@given(dice=st.integers(1, 5), others=st.integers(1, 12), palifico=st.booleans(),
       sharpness=st.sampled_from([0.0, 3.0, 6.0, 20.0]), bluff=st.sampled_from([0.0, 0.2, 1.0]))
def test_an_opening_is_one_of_its_moves(dice, others, palifico, sharpness, bluff):
    """Over every opening move a player weighs, the chances of choosing each sum to 1 for
    every hand: the likelihood is a distribution over moves, not a score."""
    table = dice + others
    total = sum(choice_likelihood(dice, bid, None, table, palifico, RULES, sharpness, 2.5,
                                  bluff) for bid in opening_moves(dice, table, palifico))
    assert np.allclose(total, 1.0)


def test_holding_the_face_makes_the_bid_likelier():
    """3 × 5 after 2 × 5 is far likelier from a hand holding fives; with all three, a
    higher raise (or another face) competes, so the chance need not keep rising."""
    space = hand_space(3)
    likelihood = choice_likelihood(3, Bid(3, 5), Bid(2, 5), 10, False, RULES, 6.0, 2.5, 0.2)
    fives = space.matches(False)[:, 4]
    by_count = [likelihood[fives == k].mean() for k in range(4)]
    assert by_count[0] < by_count[1] < by_count[2]
    assert min(by_count[1:]) > 4 * by_count[0]


def test_a_bluff_share_of_one_reads_nothing():
    likelihood = choice_likelihood(4, Bid(4, 3), Bid(3, 3), 12, False, RULES, 6.0, 2.5, 1.0)
    assert np.ptp(likelihood) == pytest.approx(0.0)


@pytest.mark.parametrize("palifico", [False, True])
def test_reading_a_raise_moves_the_bidders_face_up(palifico):
    spot = Situation(RULES, (4, 4), 0, Hand((2, 4, 6, 3)), ((1, Bid(2, 5)),), palifico)
    read = TableBeliefs(spot, BidReading()).at_least(Bid(3, 5))
    plain = TableBeliefs(spot, BidReading(sharpness=0.0, strength=0.0, overbid=0.0,
                                          bluff=0.0)).at_least(Bid(3, 5))
    assert read > 2.5 * plain


def test_the_reading_is_refused_out_of_range():
    with pytest.raises(ValueError, match="sharpness"):
        BidReading(sharpness=-1.0)
    with pytest.raises(ValueError, match="held"):
        BidReading(held=11.0)
