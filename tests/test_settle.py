"""Settling a call: brute force over every small table, the old rules as a twin, and whole
random games checked round by round against the twin."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_math import Bid, Rules, Settlement, settle_round
from tests.test_game import RULES, random_game


def twin(bid: Bid, bidder: int, caller: int, kind: str, count: int, dice: tuple[int, ...],
         starting: int) -> tuple[int | None, int | None, bool | None]:
    """RULES.md's words, as the game settled rounds before :func:`settle_round`:
    (loser, gainer, calza_right)."""
    if kind == "dudo":
        bid_is_true = count >= bid.quantity
        return (caller if bid_is_true else bidder), None, None
    if count != bid.quantity:
        return caller, None, False
    return None, (caller if dice[caller] < starting else None), True


def small_tables():
    """Every table of 2 or 3 seats holding up to the starting dice (1 to 3), with a bidder and
    a caller who both hold dice."""
    for starting, seats in itertools.product((1, 2, 3), (2, 3)):
        for dice in itertools.product(range(starting + 1), repeat=seats):
            for bidder, caller in itertools.permutations(range(seats), 2):
                if dice[bidder] and dice[caller]:
                    yield Rules(starting_dice=starting), dice, bidder, caller


def test_every_call_on_every_small_table_by_brute_force():
    checked = 0
    for rules, dice, bidder, caller in small_tables():
        table = sum(dice)
        for kind, quantity, face, count in itertools.product(
                ("dudo", "calza"), range(1, table + 2), (1, 4), range(table + 2)):
            bid = Bid(quantity, face)
            settled = settle_round(bid, bidder=bidder, caller=caller, kind=kind, count=count,
                                   dice=dice, rules=rules)
            loser, gainer, right = twin(bid, bidder, caller, kind, count, dice,
                                        rules.starting_dice)
            assert (settled.loser, settled.gainer, settled.calza_right) == (loser, gainer, right)
            assert (settled.kind, settled.bid, settled.bidder, settled.caller, settled.count) == (
                kind, bid, bidder, caller, count)
            change = [after - before for before, after in zip(dice, settled.dice, strict=True)]
            expected = [0] * len(dice)
            if loser is not None:
                expected[loser] -= 1
            if gainer is not None:
                expected[gainer] += 1
            assert change == expected
            assert max(settled.dice) <= rules.starting_dice
            assert settled.eliminated == (loser if loser is not None and dice[loser] == 1
                                          else None)
            checked += 1
    assert checked > 10_000


def test_a_right_calza_wins_a_die_back_only_below_the_starting_dice():
    rules = Rules(starting_dice=3)
    below = settle_round(Bid(2, 4), bidder=0, caller=1, kind="calza", count=2, dice=(3, 2),
                         rules=rules)
    at_cap = settle_round(Bid(2, 4), bidder=0, caller=1, kind="calza", count=2, dice=(3, 3),
                          rules=rules)
    assert below == Settlement("calza", Bid(2, 4), 0, 1, 2, None, 1, True, (3, 3))
    assert at_cap == Settlement("calza", Bid(2, 4), 0, 1, 2, None, None, True, (3, 3))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"kind": "salsa"}, "dudo or calza"),
        ({"count": -1}, "0 or more"),
        ({"count": True}, "0 or more"),
        ({"caller": 0}, "own bid"),
        ({"caller": 5}, "caller must be a seat from 0 to 2"),
        ({"bidder": None}, "bidder must be a seat"),
        ({"dice": (3, 3, 0), "caller": 2}, "caller at seat 2 holds no dice"),
        ({"dice": (3,)}, "at least two seats"),
        ({"dice": (3, -1, 2)}, "whole number of dice"),
        ({"bid": 34}, "bid must be a Bid or text like 5x4"),
        ({"bid": "3x9"}, "cannot read bid '3x9'"),
    ],
)
def test_bad_input_is_refused(arguments, message):
    call = {"bid": Bid(3, 4), "bidder": 0, "caller": 1, "kind": "dudo", "count": 2,
            "dice": (3, 3, 3), "rules": Rules()} | arguments
    bid = call.pop("bid")
    with pytest.raises(ValueError, match=message):
        settle_round(bid, **call)


@settings(max_examples=60, deadline=None)
@given(rules=RULES, players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_whole_random_games_settle_as_the_old_rules_did(rules, players, seed):
    states = random_game(rules, players, seed)
    for before, after in itertools.pairwise(states):
        if len(after.results) == len(before.results):
            continue
        result = after.results[-1]
        dice = tuple(player.dice for player in before.players)
        loser, gainer, right = twin(result.bid, result.bidder, result.caller, result.kind,
                                    result.count, dice, rules.starting_dice)
        assert (result.loser, result.gainer, result.calza_right) == (loser, gainer, right)
        expected = list(dice)
        if loser is not None:
            expected[loser] -= 1
        if gainer is not None:
            expected[gainer] += 1
        assert [player.dice for player in after.players] == expected

