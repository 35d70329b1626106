"""Arbitrary game codes: each is read as a game or refused as damaged, nothing else, whether
it is random text, a valid code altered, or a well-packed payload of any shape."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from perudo_math import GameState
from perudo_math.game import CODE_PREFIX, DamagedGameCode, _pack

pytestmark = pytest.mark.fuzz

VALID = GameState.new(["Ann", "Bob", "Cid"]).bid("3x4").bid("4x4").dudo(3).bid("2x6").to_code()


def read(code: object) -> GameState | None:
    try:
        return GameState.from_code(code)
    except DamagedGameCode:
        return None


def reads_back(game: GameState) -> bool:
    """Whether ``game``'s own code reads as the same game."""
    return GameState.from_code(game.to_code()) == game


@given(st.text(max_size=300))
def test_random_text(text):
    """Text without the code's prefix is refused; text that reads as a game is one whose own
    code reads back as it."""
    game = read(text)
    assert game is None or (text.strip().startswith(CODE_PREFIX) and reads_back(game))
    assert read(CODE_PREFIX + text) is None or text == VALID[len(CODE_PREFIX):]


@given(st.text(max_size=40))
def test_a_code_without_its_prefix_is_refused(text):
    assume(not text.strip().startswith(CODE_PREFIX))
    assert read(text) is None
    assert read(text + VALID[len(CODE_PREFIX):]) is None  # a real game's payload, unprefixed


@given(position=st.integers(0, len(VALID) - 1), char=st.characters(), cut=st.integers(0, 40))
def test_a_valid_code_altered(position, char, cut):
    changed = VALID[:position] + char + VALID[position + 1:]
    assert read(changed) is None or changed == VALID
    assert read(VALID[:len(VALID) - cut]) is None or cut == 0
    assert read(VALID + char) is None or char.isspace()


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5),
                                                                      children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300)
@given(payload=st.one_of(
    JSONISH,
    st.tuples(JSONISH, JSONISH, JSONISH, JSONISH).map(list),
    st.tuples(st.dictionaries(st.sampled_from(["calza", "salsa", "starting_dice", "raise_rule"]),
                              JSONISH, max_size=2),
              st.lists(st.text(max_size=5), max_size=11), st.integers(-3, 12),
              st.lists(st.sampled_from(["1x2", "3x4", "9x6", "d2@1", "c0@0", "d99@9", "2xP",
                                        "x", "d1@", "٣x4"]), max_size=30).map(" ".join)).map(list),
))
def test_a_well_packed_payload_of_any_shape(payload):
    code = CODE_PREFIX + _pack(json.dumps(payload).encode())
    game = read(code)
    assert game is None or reads_back(game)


def test_not_text_at_all():
    for thing in (None, 3, b"g1.", ["g1."], {"code": VALID}):
        assert read(thing) is None
