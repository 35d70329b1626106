"""Advice stays cheap and well-defined at the edges of what the app and the CLIs accept."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from coach import DUDO, Situation, advise
from perudo_math import Bid, Hand, Rules


@given(quantity=st.integers(21, 10**40), face=st.integers(1, 6))
def test_a_bid_above_the_table_of_any_size_is_weighed_as_certainly_false(quantity, face):
    spot = Situation(rules=Rules(), dice=(5, 5, 5, 5), me=0, hand=Hand((1, 2, 3, 4, 5)),
                     bids=((3, Bid(quantity, face)),))
    advice = advise(spot)
    assert advice.option(DUDO).lose == 0.0
    assert advice.action == DUDO


@given(quantity=st.integers(21, 10**40))
def test_a_huge_bid_earlier_in_the_round_is_read_without_error(quantity):
    spot = Situation(rules=Rules(), dice=(5, 5, 5, 5), me=0, hand=Hand((1, 2, 3, 4, 5)),
                     bids=((1, Bid(quantity, 4)), (3, Bid(3, 4))))
    advice = advise(spot)
    assert 0.0 <= advice.best.lose <= 1.0
