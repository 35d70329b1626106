"""The public API checks its arguments (issue 15): a wrong type raises a TypeError (our
WrongTypeError, never one from deep inside), a wrong value a ValueError, and the message names
the argument. Hypothesis feeds every entry point arbitrary objects."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coach import BidReading, CoachSettings, Situation, TableBeliefs, advise, candidate_raises
from perudo_math import (
    Bid,
    BidMade,
    CalzaCalled,
    DudoCalled,
    GameState,
    Hand,
    IllegalMove,
    MistypedMove,
    MoveRefusal,
    Rules,
    WrongTypeError,
    check_bid,
    count_distribution,
    count_survival,
    exceeds_table,
    is_legal,
    legal_quantities,
    legal_raises,
    most_useful_bids,
    odds,
    odds_table,
    settle_round,
    smallest_raises,
    useful_range,
)

NEW = GameState.new(["Ann", "Bob", "Cid"])
OPENED = NEW.bid("3x4")
SPOT = Situation(Rules(), (3, 3, 3), 0, Hand([1, 2, 5]), ((1, Bid(2, 5)), (2, Bid(3, 5))))


@dataclass(frozen=True)
class Entry:
    """A public entry point: how to call it with valid arguments, and the words that name
    each argument in its messages."""

    name: str
    call: Callable[..., object]
    arguments: dict[str, object]
    words: dict[str, str] = field(default_factory=dict)

    def named(self, argument: str) -> str:
        return self.words.get(argument, rf"\b{argument}\b")


CONTEXT = {"palifico": False, "rules": Rules(), "bidder_dice": 3}
CONTEXT_WORDS = {"previous": r"\bprevious\b", "bidder_dice": r"\bbidder"}
TABLE = r"\btable\b|\bdice\b"
GAME_WORDS = {"seat": r"\bseat", "count": r"\bcount\b", "bid": r"\bbid\b"}

ENTRIES = [
    Entry("odds", odds, {"bid": "5x4", "hand": Hand([1, 4]), "dice": 20,
                                    "palifico": False},
          {"hand": r"\bhand\b", "dice": TABLE}),
    Entry("odds_table", odds_table, {"hand": [1, 4], "dice": 20, "palifico": False},
          {"hand": r"\bhand\b", "dice": TABLE}),
    Entry("count_distribution", count_distribution,
          {"unknown_dice": 10, "face": 4, "palifico": False},
          {"unknown_dice": r"\bunknown_dice\b|\bdice\b", "face": r"\bface\b|\bdie shows\b"}),
    Entry("count_survival", count_survival,
          {"unknown_dice": 10, "face": 4, "palifico": False},
          {"unknown_dice": r"\bunknown_dice\b|\bdice\b", "face": r"\bface\b|\bdie shows\b"}),
    Entry("check_bid", check_bid, {"bid": Bid(5, 4), "previous": "4x4", **CONTEXT},
          CONTEXT_WORDS),
    Entry("is_legal", is_legal, {"bid": "5x4", "previous": Bid(4, 4), **CONTEXT},
          CONTEXT_WORDS),
    Entry("smallest_raises", smallest_raises, {"previous": "4x4", **CONTEXT},
          CONTEXT_WORDS),
    Entry("legal_quantities", legal_quantities,
          {"previous": "4x4", "table_dice": 12, **CONTEXT},
          {**CONTEXT_WORDS, "table_dice": TABLE}),
    Entry("legal_raises", legal_raises,
          {"previous": "4x4", "table_dice": 12, **CONTEXT},
          {**CONTEXT_WORDS, "table_dice": TABLE}),
    Entry("exceeds_table", exceeds_table, {"bid": "5x4", "table_dice": 12},
          {"table_dice": TABLE}),
    Entry("useful_range", useful_range, {"bids": [Bid(3, 4), "13x4"], "table_dice": 12},
          {"table_dice": TABLE}),
    Entry("most_useful_bids", most_useful_bids, {"table_dice": 12}, {"table_dice": TABLE}),
    Entry("settle_round", settle_round,
          {"bid": Bid(3, 4), "bidder": 0, "caller": 1, "kind": "dudo", "count": 2,
           "dice": (3, 3, 3), "rules": Rules()},
          {"kind": r"\bkind\b|\bdudo or calza\b", "dice": r"\bdice\b|\bseats\b"}),
    Entry("Bid", Bid, {"quantity": 3, "face": 4}),
    Entry("Bid.parse", Bid.parse, {"text": "3x4"}, {"text": r"\bbid\b"}),
    Entry("Hand", Hand, {"faces": [1, 2, 5]}, {"faces": r"\bfaces\b|\bhand\b|\bdie"}),
    Entry("Hand.parse", Hand.parse, {"text": "1 2 5"},
          {"text": r"\bhand\b|\bdie shows\b"}),
    Entry("Rules", Rules,
          {"starting_dice": 5, "raise_rule": "same-face", "palifico": "on-drop", "salsa": False,
           "calza": True, "calza_out_of_turn": False, "calza_heads_up": False,
           "palifico_one_die_may_change_face": False},
          {"starting_dice": r"\bstarting.dice\b"}),
    Entry("GameState.new", GameState.new,
          {"names": ["Ann", "Bob"], "rules": Rules(), "first_opener": 0},
          {"names": r"\bnames?\b|\bplayers?\b", "first_opener": r"\bfirst_opener\b|\bseat\b"}),
    Entry("GameState.bid", NEW.bid, {"bid": "2x3", "seat": 0}, GAME_WORDS),
    Entry("GameState.dudo", OPENED.dudo, {"count": 3, "seat": 1}, GAME_WORDS),
    Entry("GameState.calza", OPENED.calza, {"count": 3, "seat": 1}, GAME_WORDS),
    Entry("GameState.apply", OPENED.apply, {"event": DudoCalled(1, 3)}),
    Entry("GameState.replay", NEW.replay,
          {"events": [BidMade(None, Bid(2, 3)), CalzaCalled(None, 2)]}),
    Entry("Situation", Situation,
          {"rules": Rules(), "dice": (3, 3, 3), "me": 0, "hand": Hand([1, 2, 5]),
           "bids": ((1, Bid(2, 5)), (2, Bid(3, 5))), "palifico": False},
          {"dice": r"\bdice\b|\bplayers\b|\btable\b|\bhand\b", "me": r"\bme\b|\bseat\b|\bplayer",
           "hand": r"\bhand\b", "bids": r"\bbids?\b|\bseat\b"}),
    Entry("advise", advise, {"situation": SPOT, "settings": CoachSettings()}),
    Entry("candidate_raises", candidate_raises, {"situation": SPOT, "depth": 4}),
    Entry("CoachSettings", CoachSettings,
          {"reading": BidReading(), "challenge_below": 0.5, "raise_depth": 4, "pressure": 0.02,
           "rollouts": 256, "rollout_top": 6, "rollout_from": 3, "rollout_call_margin": 0.2}),
    Entry("BidReading", BidReading, {"strength": 0.8}),
    Entry("BidReading.from_bluff_level", BidReading.from_bluff_level,
          {"bluff": 0.2}),
    Entry("TableBeliefs", TableBeliefs, {"situation": SPOT, "reading": BidReading()}),
]

# --- arbitrary objects ------------------------------------------------------------------

TRICKY_TEXT = ["5x4", "3xP", "3x1", "-5*\n6", "٥x4", "５x4", "²x4", "9" * 5000 + "x4", "1 2 5",
               "12256", "P,2,2", "١ ٢", "dudo", "calza", "same-face", "on-drop", "", " ",
               "x" * 1000, "None", "nan"]
TRICKY = [None, True, False, 0, 1, 2, 3, 6, 7, -1, 100, 101, 2**63, 10**40, 10**4000, -(10**4000),
          0.5, 1.0, 3.0, math.nan, math.inf, -math.inf, -0.0, b"5x4", bytearray(b"\x01"),
          [], [1, 2, 5], [1] * 101, [[1, 2]], ["1", "2"], [1, 2.0], (3, 4), {"a": 1}, {1, 2},
          range(10**12), Bid(3, 4), Bid(10**40, 6), Bid(1, 1), Hand(), Hand([1] * 100),
          Rules(), Rules(starting_dice=10), NEW, BidMade(0, Bid(2, 3)), DudoCalled(None, 2),
          SPOT, CoachSettings(), BidReading(), object(), type, print, *TRICKY_TEXT]

SCALARS = st.one_of(
    st.sampled_from(TRICKY),
    st.none(), st.booleans(), st.integers(), st.integers(-(10**60), 10**60),
    st.floats(), st.text(max_size=12),
    st.text(alphabet="0123456789٣٥²５xX×*pP -\n,", max_size=10),
    st.binary(max_size=6), st.complex_numbers(), st.fractions(), st.decimals(),
)
ANYTHING = st.one_of(
    st.recursive(SCALARS, lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=3), inner, max_size=3)), max_leaves=8),
    st.builds(lambda items: (item for item in items), st.lists(SCALARS, max_size=4)),
    st.from_type(object).filter(lambda value: not isinstance(value, type(os.environ))),
)

CHECKS = settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])


def assert_refused_cleanly(error: BaseException, pattern: str | None) -> None:
    """Only TypeError or ValueError; a TypeError is ours, a message names the argument."""
    assert isinstance(error, TypeError | ValueError), f"{type(error).__name__}: {error}"
    if isinstance(error, TypeError):
        assert isinstance(error, WrongTypeError), f"a TypeError from inside: {error}"
    if pattern is None or (isinstance(error, IllegalMove) and not error.refusal.wrong_type):
        return  # a legal-looking move the game refuses: its refusal names the rule instead
    assert re.search(pattern, str(error)), f"{pattern!r} not in {str(error)!r}"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_valid_arguments_are_accepted(entry: Entry):
    entry.call(**entry.arguments)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
@CHECKS
@given(data=st.data())
def test_one_bad_argument_is_refused_by_name(entry: Entry, data: st.DataObject):
    argument = data.draw(st.sampled_from(sorted(entry.arguments)), label="argument")
    value = data.draw(ANYTHING, label="value")
    try:
        entry.call(**{**entry.arguments, argument: value})
    except Exception as error:  # which exceptions escape is the test
        assert_refused_cleanly(error, entry.named(argument))


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
@CHECKS
@given(data=st.data())
def test_every_argument_arbitrary_raises_only_type_or_value_errors(entry: Entry,
                                                                   data: st.DataObject):
    arguments = {name: data.draw(ANYTHING, label=name) for name in entry.arguments}
    try:
        entry.call(**arguments)
    except Exception as error:  # which exceptions escape is the test
        assert_refused_cleanly(error, None)


# --- the issue's examples and the decisions, spelled out ------------------------------


def test_the_issue_examples_are_refused_with_their_argument_named():
    with pytest.raises(ValueError, match=r"^check_bid: bid: cannot read bid '-5\*\\n6'"):
        check_bid("-5*\n6", "3x1")
    with pytest.raises(TypeError, match=r"^GameState.new: names must be a list of names, "
                                        r"not None$"):
        GameState.new(None)
    with pytest.raises(TypeError, match=r"^check_bid: bid must be a Bid or text like 5x4 or 3xP, "
                                        r"not int 3$"):
        check_bid(3)
    with pytest.raises(TypeError, match=r"^odds: dice must be a whole number of dice, "
                                        r"not float 20.0$"):
        odds("5x4", [1, 4], 20.0)
    with pytest.raises(TypeError, match=r"^odds: hand must be a Hand, text like 1 2 5 or a list "
                                        r"of faces, not int 5$"):
        odds("5x4", 5, 20)


def test_wrong_types_are_type_errors_that_value_error_handlers_still_catch():
    with pytest.raises(WrongTypeError) as caught:
        legal_raises(None, "12")
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, ValueError)
    assert str(caught.value) == ("legal_raises: table_dice must be a whole number of dice, "
                                 "not str '12'")


@pytest.mark.parametrize("call", [
    lambda: odds("5x4", [1], True), lambda: odds("5x4", [1], 20, palifico=1),
    lambda: Bid(True, 4), lambda: Bid(3, False), lambda: Hand([True]),
    lambda: count_distribution(False, 4), lambda: legal_raises(None, True),
    lambda: check_bid("5x4", bidder_dice=True), lambda: CoachSettings(raise_depth=True),
    lambda: CoachSettings(challenge_below=True), lambda: Rules(starting_dice=True),
    lambda: settle_round("3x4", bidder=False, caller=1, kind="dudo", count=2, dice=(3, 3),
                         rules=Rules()),
    lambda: GameState.new(["Ann", "Bob"], first_opener=True),
], ids=range(13))
def test_bool_is_never_a_whole_number(call: Callable[[], object]):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_probabilities_and_strengths_are_finite(value: float):
    for make in (lambda: BidReading(value), lambda: BidReading.from_bluff_level(value),
                 lambda: CoachSettings(challenge_below=value),
                 lambda: CoachSettings(challenge_crowd=value),
                 lambda: CoachSettings(pressure=value)):
        with pytest.raises(ValueError, match="must be a number from 0 to"):
            make()


def test_a_bid_argument_may_be_its_text_but_records_hold_bids():
    assert check_bid("5x4", "4x4") == check_bid(Bid(5, 4), Bid(4, 4))
    assert is_legal("2xP", "4x4") and not is_legal("1xP", "4x4")
    assert legal_raises("4x4", 12) == legal_raises(Bid(4, 4), 12)
    assert exceeds_table("13x4", 12)
    assert settle_round("3x4", bidder=0, caller=1, kind="dudo", count=2, dice=(3, 3),
                        rules=Rules()).bid == Bid(3, 4)
    assert NEW.bid_refusal("2xP") == NEW.bid_refusal(Bid(2, 1))
    with pytest.raises(TypeError, match=r"^GameState.apply: event.bid must be a Bid, "
                                        r"not str '2x3'$"):
        NEW.apply(BidMade(None, "2x3"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^Situation: a bid in bids must be a Bid, not str"):
        Situation(Rules(), (3, 3), 0, Hand([1, 2, 5]), ((1, "2x5"),))  # type: ignore[arg-type]


def test_a_hand_argument_may_be_its_text_or_a_list():
    assert odds("5x4", "1 4", 20).at_least == odds("5x4", Hand([1, 4]), 20).at_least
    assert (odds_table("14", 20) == odds_table([4, 1], 20)).all()
    with pytest.raises(ValueError, match=r"^odds: hand: a die shows 1 \(paco\) to 6, not 7$"):
        odds("5x4", [7], 20)


def test_a_situation_keeps_lists_as_tuples():
    listed = Situation(Rules(), [3, 3, 3], 0, Hand([1, 2, 5]), [[1, Bid(2, 5)], (2, Bid(3, 5))])
    assert listed == SPOT and hash(listed) == hash(SPOT)
    assert listed.dice == (3, 3, 3) and listed.bids == SPOT.bids


def test_a_move_of_the_wrong_type_is_an_illegal_move_and_a_type_error():
    for move in (lambda: OPENED.dudo("3"), lambda: OPENED.calza(None, 1),
                 lambda: OPENED.dudo(3, "Bob"), lambda: NEW.bid("2x3", 0.0)):
        with pytest.raises(MistypedMove) as caught:
            move()
        assert isinstance(caught.value, TypeError) and isinstance(caught.value, IllegalMove)
        assert caught.value.refusal.code in (MoveRefusal.BAD_COUNT, MoveRefusal.NO_SUCH_SEAT)
    with pytest.raises(IllegalMove) as caught:
        OPENED.dudo(-1)
    assert not isinstance(caught.value, TypeError)


def test_replay_names_the_event_it_cannot_read():
    with pytest.raises(TypeError, match=r"^GameState.replay: events\[1\] must be a BidMade, "
                                        r"DudoCalled, CalzaCalled or RulesChanged, "
                                        r"not str 'd3@1'$"):
        NEW.replay([BidMade(None, Bid(2, 3)), "d3@1"])
    with pytest.raises(TypeError, match=r"^GameState.replay: events must be an iterable"):
        NEW.replay(3)


def test_work_is_bounded_whatever_the_size_asked():
    with pytest.raises(ValueError, match="the table holds at most 100 dice"):
        legal_raises(None, 10**9)
    with pytest.raises(ValueError, match="a hand holds at most 100 dice"):
        Hand(iter(lambda: 1, None))  # never ends
    with pytest.raises(ValueError, match="a game needs 2 to 10 players, not 11 or more"):
        GameState.new(f"P{number}" for number in range(10**9))
    with pytest.raises(ValueError, match=r"a game needs 2 to 10 players, not 1$"):
        GameState.new(name for name in ["Ann"])
    with pytest.raises(ValueError, match="the table holds at most 100 dice"):
        Situation(Rules(), (1, 100), 0, Hand([1]))


def test_huge_numbers_are_shown_short():
    """Beyond 4,300 digits str() itself raises: the message must not."""
    with pytest.raises(ValueError, match=r"^bid quantity must be at least 1, not a negative "
                                         r"whole number of 5001 digits$"):
        Bid(-(10**5000), 4)
    with pytest.raises(ValueError, match=r"^the table holds at most 100 dice, not a whole "
                                         r"number of 5001 digits$"):
        odds("5x4", [1], 10**5000)
    with pytest.raises(IllegalMove, match=r"^count a whole number of 5001 digits is more than"):
        OPENED.dudo(10**5000)
    with pytest.raises(IllegalMove, match=r"not a negative whole number of 5001 digits$"):
        OPENED.calza(-(10**5000))
    with pytest.raises(ValueError, match=r"^there is no seat a whole number of 5001 digits"):
        GameState.new(["Ann", "Bob"], first_opener=10**5000)


def test_every_bid_can_be_written_and_read_back():
    largest = Bid(10**1000 - 1, 4)
    assert Bid.parse(str(largest)) == largest
    with pytest.raises(ValueError, match=r"^bid quantity must have at most 1000 digits"):
        Bid(10**1000, 4)
