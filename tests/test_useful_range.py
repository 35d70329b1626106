"""A round's useful range (issue 31, docs/RULES.md): its bids before the first one above the
dice on the table, and the rules' own bound on how long it can be."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_math import (
    FACES,
    MAX_TABLE_DICE,
    MAX_USEFUL_BIDS,
    Bid,
    Rules,
    check_bid,
    legal_raises,
    most_useful_bids,
    useful_range,
)
from perudo_math.limits import MAX_MOVES
from tests.long_round import long_round
from tests.strategies import rules as any_rules


def B(text: str) -> Bid:
    return Bid.parse(text)


def test_the_range_ends_before_the_first_bid_above_the_table():
    assert useful_range([], 12) == 0
    assert useful_range([B("3x4"), B("12x4")], 12) == 2  # the whole table: possible
    assert useful_range([B("3x4"), B("13x4"), B("7xP")], 12) == 1
    assert useful_range(["3x4", "5x4", "13x4"], 12) == 2  # bids may be given as text


def test_a_bid_pulled_back_within_the_table_stays_out_of_the_range():
    # 101 × 5 at 100 dice, then 51 × P: legal, within the table, but the round was decided.
    assert check_bid(B("51xP"), B("101x5"))
    assert useful_range([B("99x6"), B("101x5"), B("51xP")], 100) == 1


def test_the_issue_round_is_useful_for_its_first_500_bids():
    game = long_round()
    bids = [bid for _, bid in game.bids]
    assert len(bids) == MAX_MOVES - 1 and bids[-1] == B("600x5")
    assert useful_range(bids, game.table_dice) == 500
    assert bids[499] == B("100x6") and bids[500] == B("101x2")
    assert 500 <= most_useful_bids(game.table_dice) == MAX_USEFUL_BIDS


def test_a_range_is_refused_for_a_bad_table_or_bids_past_a_game():
    with pytest.raises(ValueError, match="table"):
        useful_range([B("3x4")], MAX_TABLE_DICE + 1)
    with pytest.raises(ValueError, match="bids"):
        useful_range([B("3x4")] * (MAX_MOVES + 1), 12)
    with pytest.raises(TypeError, match=r"bids\[1\]"):
        useful_range([B("3x4"), 5], 12)


@cache
def longest_chain(table: int, palifico: bool, rules: Rules, bidder_dice: int) -> int:
    """The most bids within ``table`` dice a round of legal raises can hold: the longest
    path through every bid up to the table, each step a legal raise (an opening first)."""
    bids = sorted(Bid(quantity, face) for quantity in range(1, table + 1) for face in FACES)
    longest = {bid: 1 for bid in bids}  # the longest run of raises from each bid on
    for _ in bids:  # relax until stable: a run is at most every bid long
        changed = False
        for bid in bids:
            best = 1 + max((longest[after] for after in bids
                            if check_bid(after, bid, palifico=palifico, rules=rules,
                                         bidder_dice=bidder_dice)), default=0)
            if best > longest[bid]:
                longest[bid], changed = best, True
        if not changed:
            break
    return max(longest[bid] for bid in bids
               if check_bid(bid, None, palifico=palifico, rules=rules, bidder_dice=bidder_dice))


@pytest.mark.parametrize("table", [1, 2, 3, 5])
@pytest.mark.parametrize("palifico", [False, True])
@pytest.mark.parametrize("rules", [Rules(), Rules(raise_rule="any-face"),
                                   Rules(palifico_one_die_may_change_face=True)],
                         ids=["same-face", "any-face", "one-die-changes-face"])
def test_no_round_of_legal_raises_stays_within_the_table_longer_than_the_bound(
        table: int, palifico: bool, rules: Rules):
    for bidder_dice in (1, 2):
        assert longest_chain(table, palifico, rules, bidder_dice) <= most_useful_bids(table)


@pytest.mark.parametrize("table", [1, 2, 3, 5])
def test_the_bound_is_reached_under_any_face(table: int):
    assert longest_chain(table, False, Rules(raise_rule="any-face"), 5) == 6 * table


@settings(max_examples=60, deadline=None)
@given(rules=any_rules(), table=st.integers(1, 40), data=st.data())
def test_a_random_round_of_legal_raises_leaves_the_table_within_the_bound(rules, table, data):
    palifico = data.draw(st.booleans(), label="palifico")
    bidder_dice = data.draw(st.integers(1, 5), label="bidder dice")
    previous: Bid | None = None
    bids: list[Bid] = []
    while True:
        raises = legal_raises(previous, table, palifico=palifico, rules=rules,
                              bidder_dice=bidder_dice)
        if not raises:
            break
        previous = raises[data.draw(st.integers(0, min(2, len(raises) - 1)), label="pick")]
        bids.append(previous)
    assert len(bids) <= most_useful_bids(table)
    above = [*bids, Bid(table + 1, 6)]
    assert useful_range(above, table) == len(bids)
