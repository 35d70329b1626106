"""The factorised bid reading against its twin: every multiset of a player's dice, tilted;
and what reading the bids changes in a face's expected count, seat by seat."""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import exp, factorial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coach import PURE_ODDS, BidReading, Situation, TableBeliefs, count_shift
from coach.engine.beliefs import (
    PublicReading,
    die_posterior,
    prefix_readings,
    public_posteriors,
    seat_distribution,
)
from perudo_math import Bid, Hand, Rules, odds
from tests.brute_force import die_matches
from tests.strategies import read_rounds


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


# --- what reading the bids changed: the expected count, seat by seat ---------------------


def mean(distribution: np.ndarray) -> float:
    return float(np.dot(np.arange(len(distribution)), distribution))


@given(spot_and_face=read_rounds())
def test_the_seats_shifts_add_up_to_the_tables(spot_and_face):
    spot, face = spot_and_face
    shift = count_shift(spot, face)
    assert [seat.seat for seat in shift.seats] == list(range(1, len(spot.dice)))
    assert shift.shift == pytest.approx(sum(seat.shift for seat in shift.seats), abs=1e-9)
    # the totals are the table's expected counts, from the dice alone and as read
    plain = odds(Bid(1, face), spot.hand, spot.table_dice, spot.palifico)
    assert shift.before == pytest.approx(plain.expected, abs=1e-9)
    assert shift.after == pytest.approx(mean(TableBeliefs(spot).distribution(face)), abs=1e-9)
    bidders = {seat for seat, _ in spot.bids}
    for seat in shift.seats:
        bids = tuple(bid for bidder, bid in spot.bids if bidder == seat.seat)
        assert tuple(step.bid for step in seat.steps) == bids
        # each bid is credited with what it moved: together, the seat's shift
        assert sum(step.moved for step in seat.steps) == pytest.approx(seat.shift, abs=1e-9)
        if seat.steps:
            assert seat.steps[-1].after == pytest.approx(seat.after, abs=1e-12)
        if seat.seat not in bidders:
            assert seat.after == seat.before and seat.shift == 0 and not seat.steps
            assert seat.last is None and seat.strongest is None
    assert {seat.seat for seat in shift.movers()} == bidders - {0}


def test_a_raise_on_the_face_adds_to_the_bidders_count_and_names_the_bid():
    spot = Situation(Rules(), (5, 5, 5), 2, Hand([2, 3, 4, 6, 6]),
                     ((0, Bid(3, 3)), (1, Bid(5, 5)), (0, Bid(6, 5))))
    shift = count_shift(spot, 5)
    ann, bob = shift.seats
    assert (ann.seat, bob.seat, shift.own) == (0, 1, 0)
    assert ann.before == bob.before == pytest.approx(5 / 3)  # pacos count toward fives
    assert bob.after > bob.before and bob.last == bob.strongest
    assert bob.last.position == 1 and bob.last.bid == Bid(5, 5)
    # Ann's threes say she holds fewer fives; her raise on fives, more
    threes, fives = ann.steps
    assert threes.moved < 0 < fives.moved and ann.strongest == fives
    assert (threes.position, fives.position) == (0, 2)
    assert shift.movers()[0].shift >= shift.movers()[1].shift


def test_in_a_palifico_round_pacos_do_not_count():
    spot = Situation(Rules(), (1, 4), 0, Hand([1]), ((1, Bid(2, 5)),), True)
    shift = count_shift(spot, 5)
    assert shift.own == 0
    assert shift.seats[0].before == pytest.approx(4 / 6)
    assert shift.seats[0].after > shift.seats[0].before


def test_my_own_bids_and_unread_seats_move_nothing():
    spot = Situation(Rules(), (5, 5), 0, Hand([5, 5, 2, 3, 4]),
                     ((0, Bid(3, 5)), (1, Bid(4, 5))))
    assert [seat.seat for seat in count_shift(spot, 5).seats] == [1]
    unread = count_shift(spot, 5, BidReading(bluffs=((1, 1.0),)))  # seat 1 always bluffs
    assert unread.shift == 0 and not unread.movers()
    assert count_shift(spot, 5, PURE_ODDS).shift == 0


@pytest.mark.parametrize("face", [0, 7, 2.5, "5"])
def test_a_face_off_the_die_is_refused(face):
    spot = Situation(Rules(), (1, 1), 0, Hand([3]), ((1, Bid(1, 3)),))
    with pytest.raises(ValueError):
        count_shift(spot, face)


@given(read_rounds(), st.booleans())
def test_each_prefix_is_read_as_the_round_up_to_it_would_be(spot_and_face, above):
    """``prefix_readings`` reads a showdown's bids once; each of its readings is the one
    ``public_posteriors`` gives the bids up to it, also past a bid above the table."""
    spot, _ = spot_and_face
    bids = spot.bids
    if above:  # a bid above the table: it and every bid after it tell nothing
        bids = (*bids, (1, Bid(spot.table_dice + 1, 2)), (0, Bid(spot.table_dice + 2, 3)))
    reading = PublicReading.of(BidReading(), len(spot.dice))
    readings = prefix_readings(spot.dice, bids, spot.palifico, spot.rules, reading)
    assert len(readings) == len(bids) + 1
    for upto, found in enumerate(readings):
        expected = public_posteriors(spot.dice, bids[:upto], spot.palifico, spot.rules, reading)
        assert len(found.hands) == len(expected)
        for mine, theirs in zip(found.hands, expected, strict=True):
            assert (mine is None) == (theirs is None)
            if mine is not None:
                np.testing.assert_allclose(mine, theirs, rtol=0, atol=1e-15)
