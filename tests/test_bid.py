"""Bids, hands and rule settings as values."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo_math import Bid, Hand, PalificoRule, RaiseRule, Rules


@pytest.mark.parametrize(
    ("text", "bid"),
    [("5x4", Bid(5, 4)), ("3xP", Bid(3, 1)), ("3x1", Bid(3, 1)), ("3×P", Bid(3, 1)),
     (" 12 x 6 ", Bid(12, 6)), ("2xp", Bid(2, 1)), ("4*2", Bid(4, 2))],
)
def test_parse(text: str, bid: Bid):
    assert Bid.parse(text) == bid


@given(quantity=st.integers(1, 200), face=st.integers(1, 6))
def test_str_parses_back(quantity: int, face: int):
    bid = Bid(quantity, face)
    assert Bid.parse(str(bid)) == bid
    assert Bid.parse(bid.pretty()) == bid


def test_notation():
    assert str(Bid(3, 1)) == "3xP"
    assert Bid(5, 4).pretty() == "5 × 4"


@pytest.mark.parametrize("text", ["", "5", "x4", "0x4", "5x7", "5x0", "-1x4", "5xQ", "5x4x3"])
def test_parse_rejects(text: str):
    with pytest.raises(ValueError, match="bid"):
        Bid.parse(text)


@pytest.mark.parametrize(("quantity", "face"), [(0, 4), (-2, 4), (3, 0), (3, 7), (2.5, 3),
                                                (True, 3)])
def test_constructor_validates(quantity, face):
    with pytest.raises(ValueError, match="bid"):
        Bid(quantity, face)


def test_bids_are_immutable_and_hashable():
    bid = Bid(5, 4)
    with pytest.raises(AttributeError):
        bid.quantity = 6  # type: ignore[misc]
    assert len({Bid(5, 4), Bid.parse("5x4")}) == 1


def test_plain_order_is_quantity_then_face_with_pacos_lowest():
    assert Bid(3, 1) < Bid(3, 2) < Bid(3, 6) < Bid(4, 1)
    assert sorted([Bid(4, 2), Bid(3, 6), Bid(3, 1)]) == [Bid(3, 1), Bid(3, 6), Bid(4, 2)]


def test_hand_counts_pacos_as_jokers_only_in_normal_rounds():
    hand = Hand.parse("1 2 2 5 6")
    assert hand.faces == (1, 2, 2, 5, 6)
    assert hand.count(2) == 3
    assert hand.count(2, palifico=True) == 2
    assert hand.count(1) == 1
    assert Hand.parse("P2256") == hand
    with pytest.raises(ValueError, match="not 7"):
        Hand([7])
    with pytest.raises(ValueError, match="not 'x'"):
        Hand.parse("1 x")


def test_rules_defaults_follow_rules_md():
    rules = Rules()
    assert rules.starting_dice == 5
    assert rules.raise_rule is RaiseRule.SAME_FACE
    assert rules.palifico is PalificoRule.ON_DROP
    assert rules.calza and not rules.calza_out_of_turn and not rules.calza_heads_up
    assert not rules.salsa and not rules.palifico_one_die_may_change_face
    assert rules.changed() == {}


def test_rules_round_trip_through_plain_values():
    rules = Rules(starting_dice=3, raise_rule="any-face", palifico="while-one-die", salsa=True)
    assert rules.raise_rule is RaiseRule.ANY_FACE
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict(rules.changed()) == rules
    assert rules.changed() == {"starting_dice": 3, "raise_rule": "any-face",
                               "palifico": "while-one-die", "salsa": True}


@pytest.mark.parametrize(
    ("settings", "message"),
    [({"starting_dice": 0}, "from 1 to 10"), ({"starting_dice": 11}, "from 1 to 10"),
     ({"raise_rule": "up"}, "raise_rule must be one of same-face, any-face"),
     ({"palifico": "never"}, "palifico must be one of"), ({"salsa": "yes"}, "true or false"),
     ({"dice": 5}, "unknown rule setting 'dice'")],
)
def test_rules_validate(settings, message):
    with pytest.raises(ValueError, match=message):
        Rules.from_dict(settings)


def test_only_ascii_digits_are_a_quantity():
    for text in ("٣x4", "３x4", "²x4"):
        with pytest.raises(ValueError, match="cannot read bid"):
            Bid.parse(text)
