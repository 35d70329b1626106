"""Legality of openings and raises: docs/RULES.md's worked facts and table, checked exhaustively."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo_math import Bid, Refusal, Rules, check_bid, legal_raises, smallest_raises

ANY_FACE = Rules(raise_rule="any-face")
CHANGE_FACE = Rules(palifico_one_die_may_change_face=True)


def B(text: str) -> Bid:
    return Bid.parse(text)


def test_smallest_paco_bid_after_seven_and_eight_fours():
    assert smallest_raises(B("7x4"))[1] == B("4xP")
    assert smallest_raises(B("8x4"))[1] == B("4xP")


def test_smallest_ordinary_bid_after_three_pacos_is_seven():
    smallest = smallest_raises(B("3xP"))
    assert [smallest[face] for face in range(2, 7)] == [Bid(7, face) for face in range(2, 7)]
    assert smallest[1] == B("4xP")
    verdict = check_bid(B("6x4"), B("3xP"))
    assert not verdict and verdict.refusal is Refusal.ORDINARY_TOO_FEW
    assert verdict.minimum == B("7x4")
    assert "after 3 × P you need at least 7 of a face" in verdict.reason


def test_raises_after_five_threes_same_face():
    legal = ["6x3", "5x4", "5x5", "5x6", "3xP"]
    illegal = ["6x4", "9x2", "5x3", "5x2", "2xP"]
    assert all(check_bid(B(b), B("5x3")) for b in legal)
    assert not any(check_bid(B(b), B("5x3")) for b in illegal)


def test_raises_after_five_threes_any_face():
    for bid in ["6x2", "6x4", "6x3", "5x4"]:
        assert check_bid(B(bid), B("5x3"), rules=ANY_FACE), bid
    assert not check_bid(B("5x2"), B("5x3"), rules=ANY_FACE)


def test_opening_on_pacos_only_in_palifico():
    verdict = check_bid(B("2xP"))
    assert not verdict and verdict.refusal is Refusal.OPEN_ON_PACOS
    assert check_bid(B("2xP"), palifico=True)
    assert check_bid(B("1x2"))


def test_palifico_face_is_frozen():
    assert check_bid(B("3x5"), B("2x5"), palifico=True)
    assert check_bid(B("4x5"), B("2x5"), palifico=True)
    for bid in ["3x6", "2x6", "2x5", "1xP", "2xP"]:
        verdict = check_bid(B(bid), B("2x5"), palifico=True)
        assert not verdict, bid
        assert verdict.minimum == B("3x5")
    assert "bids stay on 5s" in check_bid(B("3x6"), B("2x5"), palifico=True).reason


def test_palifico_one_die_may_change_face_in_the_plain_order():
    assert check_bid(B("2x6"), B("2x5"), palifico=True, rules=CHANGE_FACE, bidder_dice=1)
    assert check_bid(B("3xP"), B("2x5"), palifico=True, rules=CHANGE_FACE, bidder_dice=1)
    assert not check_bid(B("2x4"), B("2x5"), palifico=True, rules=CHANGE_FACE, bidder_dice=1)
    assert not check_bid(B("2xP"), B("2x5"), palifico=True, rules=CHANGE_FACE, bidder_dice=1)
    assert not check_bid(B("2x6"), B("2x5"), palifico=True, rules=CHANGE_FACE, bidder_dice=2)
    assert not check_bid(B("2x6"), B("2x5"), palifico=True, bidder_dice=1)


def test_a_bid_above_the_table_is_legal():
    assert check_bid(B("40x4"), B("5x4"))


def reference_is_legal(bid: Bid, previous: Bid | None, palifico: bool, rules: Rules,
                       bidder_dice: int | None) -> bool:
    """docs/RULES.md's tables, written out case by case."""
    q, f, q2, f2 = (None, None, bid.quantity, bid.face) if previous is None else (
        previous.quantity, previous.face, bid.quantity, bid.face)
    if previous is None:
        return palifico or f2 != 1
    if palifico:
        if rules.palifico_one_die_may_change_face and bidder_dice == 1:
            return q2 > q or (q2 == q and f2 > f)
        return f2 == f and q2 > q
    if f != 1 and f2 == f:
        return q2 > q
    if f != 1 and f2 != 1 and f2 > f:
        return q2 == q if rules.raise_rule == "same-face" else q2 >= q
    if f != 1 and f2 != 1 and f2 < f:
        return rules.raise_rule == "any-face" and q2 > q
    if f != 1 and f2 == 1:
        return q2 >= -(-q // 2)
    if f == 1 and f2 == 1:
        return q2 > q
    return q2 >= 2 * q + 1


ALL_BIDS = [Bid(q, f) for q in range(1, 16) for f in range(1, 7)]
CONTEXTS = [
    (palifico, rules, bidder_dice)
    for palifico in (False, True)
    for rules in (Rules(), ANY_FACE, CHANGE_FACE)
    for bidder_dice in (1, 2)
]


@pytest.mark.parametrize(("palifico", "rules", "bidder_dice"), CONTEXTS)
def test_every_pair_of_bids_agrees_with_the_rules_table(palifico, rules, bidder_dice):
    for previous in [None, *ALL_BIDS]:
        smallest = smallest_raises(previous, palifico=palifico, rules=rules,
                                   bidder_dice=bidder_dice)
        for bid in ALL_BIDS:
            verdict = check_bid(bid, previous, palifico=palifico, rules=rules,
                                bidder_dice=bidder_dice)
            expected = reference_is_legal(bid, previous, palifico, rules, bidder_dice)
            assert verdict.legal == expected, (previous, bid)
            assert verdict.reason
            if not verdict.legal and verdict.minimum is not None:
                assert check_bid(verdict.minimum, previous, palifico=palifico, rules=rules,
                                 bidder_dice=bidder_dice)
        for face in range(1, 7):
            legal_quantities = [b.quantity for b in ALL_BIDS if b.face == face and
                                reference_is_legal(b, previous, palifico, rules, bidder_dice)]
            if legal_quantities:
                assert smallest[face] == Bid(min(legal_quantities), face)
            else:  # no legal bid on this face, or only above the 15 enumerated here
                assert face not in smallest or smallest[face].quantity > 15
        raises = legal_raises(previous, 15, palifico=palifico, rules=rules,
                              bidder_dice=bidder_dice)
        assert raises == sorted(b for b in ALL_BIDS if
                                reference_is_legal(b, previous, palifico, rules, bidder_dice))


@pytest.mark.parametrize(
    ("bid", "previous", "palifico", "words"),
    [("6x4", "5x3", False, "a higher face keeps the quantity: bid 5 × 4"),
     ("9x2", "5x3", False, "a lower face is not allowed"),
     ("5x3", "5x3", False, "you need at least 6 × 3"),
     ("3xP", "7x4", False, "at least 4 pacos (half of 7, rounded up)"),
     ("3xP", "3xP", False, "at least 4 × P"),
     ("2xP", None, False, "cannot be opened on pacos")],
)
def test_reasons_are_words_a_player_understands(bid, previous, palifico, words):
    previous_bid = None if previous is None else B(previous)
    assert words in check_bid(B(bid), previous_bid, palifico=palifico).reason


def test_legal_verdict_reads_as_legal():
    assert check_bid(B("6x3"), B("5x3")).reason == "6 × 3 is a legal raise over 5 × 3"


def test_bad_context_raises_value_error():
    with pytest.raises(ValueError, match="at least one die"):
        check_bid(B("2x3"), B("1x3"), bidder_dice=0)
    with pytest.raises(ValueError, match="at least one die"):
        legal_raises(B("1x3"), 0)


@st.composite
def raise_chains(draw):
    palifico = draw(st.booleans())
    rules = draw(st.sampled_from([Rules(), ANY_FACE, CHANGE_FACE]))
    table = draw(st.integers(1, 30))
    bidder_dice = draw(st.sampled_from([1, 2, 5]))
    openings = legal_raises(None, table, palifico=palifico, rules=rules)
    chain = [draw(st.sampled_from(openings))]
    while True:
        options = legal_raises(chain[-1], table, palifico=palifico, rules=rules,
                               bidder_dice=bidder_dice)
        if not options or draw(st.integers(0, 9)) == 0:
            return chain
        chain.append(draw(st.sampled_from(options)))


@given(raise_chains())
def test_no_chain_of_legal_raises_repeats_a_bid(chain: list[Bid]):
    assert len(set(chain)) == len(chain)


# --- the fix a refusal offers exists (issue 11: "2 of a higher face" after 2 × 6) ----------


def test_after_sixes_a_lower_face_is_refused_without_a_higher_face_to_offer():
    verdict = check_bid(B("2x4"), B("2x6"))
    assert verdict.refusal is Refusal.FACE_MUST_RISE and verdict.offers_no_higher_face
    assert verdict.reason == ("after 2 × 6 a lower face is not allowed, and 6 is the highest "
                              "face: bid more 6s, or go to pacos")
    assert not check_bid(B("2x4"), B("2x5")).offers_no_higher_face
    assert "or 2 of a higher face" in check_bid(B("2x4"), B("2x5")).reason


@pytest.mark.parametrize(("palifico", "rules", "bidder_dice"), CONTEXTS)
def test_every_fix_a_reason_offers_is_there_to_take(palifico, rules, bidder_dice):
    """A higher face only when one is legal, pacos only when pacos are legal, and a face
    written as players say it (never "the face stays P" or "3 of pacos")."""
    for previous in ALL_BIDS[:48]:
        smallest = smallest_raises(previous, palifico=palifico, rules=rules,
                                   bidder_dice=bidder_dice)
        for bid in ALL_BIDS[:60]:
            verdict = check_bid(bid, previous, palifico=palifico, rules=rules,
                                bidder_dice=bidder_dice)
            if verdict.legal:
                continue
            reason = verdict.reason
            if "of a higher face" in reason:
                assert any(face > previous.face for face in smallest if face != 1), reason
            if "go to pacos" in reason:
                assert 1 in smallest, reason
            assert verdict.offers_no_higher_face == ("of a higher face" not in reason
                                                     and "a lower face" in reason), reason
            assert "stays P" not in reason and " of pacos" not in reason, reason
