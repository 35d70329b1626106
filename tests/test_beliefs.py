"""The factorised bid reading against its twin: every multiset of a player's dice, tilted."""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import exp, factorial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coach.engine.beliefs import die_posterior, seat_distribution
from perudo_math import Bid
from tests.brute_force import die_matches


def enumerated_seat_distribution(dice: int, bids: tuple[Bid, ...], face: int, palifico: bool,
                                 strength: float) -> np.ndarray:
    """The reading as first written: every multiset of ``dice`` dice with its multinomial
    prior, tilted by exp(strength × matching dice) for each face bid, then tallied for
    ``face``."""
    tally = np.zeros(dice + 1)
    for roll in combinations_with_replacement(range(1, 7), dice):
        prior = factorial(dice)
        for die in set(roll):
            prior //= factorial(roll.count(die))
        faces = {bid.face for bid in bids}  # a face bid again adds nothing
        tilt = sum(sum(die_matches(d, face, palifico) for d in roll) for face in faces)
        tally[sum(die_matches(d, face, palifico) for d in roll)] += prior * exp(strength * tilt)
    return tally / tally.sum()


bids_strategy = st.lists(
    st.builds(Bid, st.integers(1, 12), st.integers(1, 6)), min_size=0, max_size=4
).map(tuple)


@given(dice=st.integers(1, 7), bids=bids_strategy, face=st.integers(1, 6),
       palifico=st.booleans(), strength=st.sampled_from([0.0, 0.3, 0.8, 2.0, 5.0]))
def test_factorised_reading_equals_the_enumeration_of_every_hand(dice, bids, face, palifico,
                                                                  strength):
    fast = seat_distribution(dice, bids, face, palifico, strength)
    slow = enumerated_seat_distribution(dice, bids, face, palifico, strength)
    assert np.allclose(fast, slow, rtol=0, atol=1e-12)


def test_a_die_of_a_bidder_of_fives_more_likely_shows_five_or_paco():
    posterior = die_posterior((Bid(3, 5),), False, 0.8)
    assert posterior[4] == pytest.approx(posterior[0])
    assert posterior[4] > posterior[1]
    assert sum(posterior) == pytest.approx(1.0)


@pytest.mark.parametrize("dice", [0, 1, 49, 100])
def test_large_hands_are_read_in_linear_work(dice):
    bids = tuple(Bid(q, 4) for q in range(3, 23))  # a long round of fours, strength 5
    distribution = seat_distribution(dice, bids, 4, False, 5.0)
    assert len(distribution) == dice + 1
    assert distribution.sum() == pytest.approx(1.0)
    assert np.all(distribution >= 0)
