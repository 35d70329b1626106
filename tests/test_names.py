"""perudo_math.names (issue 31, point 5): a player's name is printable text on one line.
Control, format and bidi characters are dropped at every entry (GameState.new, and so the
set-up, game links and the stores, which all go through it); a name with nothing visible is
refused; names differing only by invisible characters, case or width are one name."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo_math import (
    MAX_NAME_LENGTH,
    DamagedGameCode,
    GameState,
    InvalidName,
    NameRefusal,
    Player,
    clean_name,
    name_key,
    name_refusal,
    table_refusals,
)
from perudo_math.game import CODE_PREFIX, _pack

RLO, LRI, PDI, ZWSP = "\u202e", "\u2066", "\u2069", "\u200b"


def crafted_code(names: list[str], moves: str = "") -> str:
    """A game code as anyone may write one: these names, unchecked (lone surrogates too)."""
    payload = json.dumps([{}, names, 0, moves], ensure_ascii=True)
    return CODE_PREFIX + _pack(payload.encode("ascii"))


@pytest.mark.parametrize(("given_name", "kept"), [
    ("Ann", "Ann"),
    ("  Ann   Bob ", "Ann Bob"),
    ("Ann\nBob", "Ann Bob"),  # a newline ended the players' table
    ("Ann\r\n| x | y |", "Ann | x | y |"),
    ("Ann\u2028Bob\u2029", "Ann Bob"),  # line and paragraph separators
    ("Ann\tBob\x0b\x0c\x1c\x85", "Ann Bob"),
    (f"Eve{RLO}", "Eve"),  # reversed the rest of each line
    (f"{LRI}Eve{PDI}\u202a\u202b\u202c\u202d\u2067\u2068\u200e\u200f\u061c", "Eve"),
    (f"Ann{ZWSP}", "Ann"),
    ("A\u200cn\u200dn\u2060\ufeff\u00ad", "Ann"),  # joiners, word joiner, BOM, soft hyphen
    ("Ann\x00\x07\x1b[31m\x7f\x9b", "Ann[31m"),  # C0 and C1 controls, DEL
    ("Ann\U000e0041\U000e007f", "Ann"),  # tag characters
    ("\u3164Ann\u115f\u1160\uffa0\u2800\u034f", "Ann"),  # drawn as nothing
    ("e\u0301lodie", "\u00e9lodie"),  # composed: one é
    ("\u00c9lodie", "\u00c9lodie"),
    ("\u05d3\u05e0\u05d9", "\u05d3\u05e0\u05d9"),  # a right-to-left name is kept as it is
    ("\u2764\ufe0f Ann", "\u2764\ufe0f Ann"),  # an emoji's variation selector is kept
    ("\U0001f98a", "\U0001f98a"),
])
def test_a_name_is_kept_as_printable_text(given_name: str, kept: str) -> None:
    assert clean_name(given_name) == kept
    assert Player(given_name, 5).name == kept


def test_lone_surrogates_are_dropped() -> None:
    # Compared as ascii(): a failing comparison of surrogates could not even be reported.
    assert ascii(clean_name("\ud800Ann\udfff")) == ascii(Player("\udfffAnn", 5).name) == "'Ann'"
    game = GameState.from_code(crafted_code(["\ud800Ann", "Bob"]))
    assert ascii(game.name(0)) == "'Ann'"


@pytest.mark.parametrize(("given_name", "refusal"), [
    ("", NameRefusal.EMPTY),
    ("   ", NameRefusal.EMPTY),
    ("\n\t", NameRefusal.EMPTY),
    (ZWSP, NameRefusal.INVISIBLE),
    (ZWSP * 40, NameRefusal.INVISIBLE),
    (RLO, NameRefusal.INVISIBLE),
    ("\u3164", NameRefusal.INVISIBLE),  # the Hangul filler of "invisible name" tricks
    ("\u2800\u2800", NameRefusal.INVISIBLE),
    ("\ufe0f", NameRefusal.INVISIBLE),
    ("\x00\x01", NameRefusal.INVISIBLE),
    ("x" * (MAX_NAME_LENGTH + 1), NameRefusal.TOO_LONG),
])
def test_a_name_with_nothing_visible_or_too_long_is_refused(given_name: str,
                                                            refusal: NameRefusal) -> None:
    refused = name_refusal(given_name, seat=2)
    assert refused is not None and (refused.refusal, refused.seat) == (refusal, 2)
    with pytest.raises(InvalidName) as raised:
        Player(given_name, 5)
    assert raised.value.refused.refusal is refusal


def test_the_length_is_counted_on_the_name_kept() -> None:
    assert Player("x" * MAX_NAME_LENGTH + ZWSP * 10 + "  ", 5).name == "x" * MAX_NAME_LENGTH


@pytest.mark.parametrize("other", ["Ann\u200b", "\u200bAnn", "ANN", "ann\ufe0f", "A\u200dnn",
                                   "\uff21\uff4e\uff4e", "Ann\n", f"{RLO}Ann", "Ann\u00ad"])
def test_names_differing_only_by_invisible_characters_case_or_width_are_one_name(
        other: str) -> None:
    assert name_key(other) == name_key("Ann")
    refusals = table_refusals(["Ann", "Bob", other])
    assert [(r.refusal, r.seat, r.same_as) for r in refusals] == [(NameRefusal.SAME, 2, 0)]
    with pytest.raises(InvalidName, match="names must differ") as raised:
        GameState.new(["Ann", "Bob", other])
    assert raised.value.refused.refusal is NameRefusal.SAME


def test_names_that_look_different_are_different() -> None:
    assert table_refusals(["Ann", "Anne", "Ann B", "\u00c5nn", "\u05d3\u05e0\u05d9"]) == []


def test_every_refusal_of_a_table_is_listed_in_seat_order() -> None:
    refusals = table_refusals(["Ann", ZWSP, "", "ann", "x" * 41, "Bob"])
    assert [(r.refusal, r.seat) for r in refusals] == [
        (NameRefusal.INVISIBLE, 1), (NameRefusal.EMPTY, 2), (NameRefusal.SAME, 3),
        (NameRefusal.TOO_LONG, 4)]


def test_a_game_link_with_crafted_names_opens_with_the_names_cleaned() -> None:
    code = crafted_code([f"Eve{RLO}", "Bob\n| x | y |", "Cid\u200b"], "2x3 9x3")
    game = GameState.from_code(code)
    assert [player.name for player in game.players] == ["Eve", "Bob | x | y |", "Cid"]
    assert [bid.pretty() for _, bid in game.bids] == ["2 × 3", "9 × 3"]
    assert GameState.from_code(game.to_code()) == game


@pytest.mark.parametrize("names", [["Ann", "Ann\u200b"], ["Ann", ZWSP * 40], ["Ann", "\u202e"]])
def test_a_game_link_with_invisible_or_twin_names_is_refused(names: list[str]) -> None:
    with pytest.raises(DamagedGameCode):
        GameState.from_code(crafted_code(names))


DROPPED = {"Cc", "Cf", "Cs", "Zl", "Zp"}


@given(st.text(st.characters(codec=None), max_size=60))
def test_any_text_cleans_to_printable_text_on_one_line(text: str) -> None:
    name = clean_name(text)
    assert clean_name(name) == name
    assert not any(unicodedata.category(char) in DROPPED for char in name)
    assert all(char == " " or not char.isspace() for char in name)
    assert name == name.strip() and "  " not in name
    assert name_key(name) == name_key(text)
