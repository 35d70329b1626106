"""A game's length is bounded, and game codes are read in linear time whatever they hold.

The crafted code of the bounded-work issue: two players and a short cycle repeated (a die
lost, then won back by a right calza) packs thousands of moves into a small link.
"""

from __future__ import annotations

import json

import pytest

from perudo_math import MAX_MOVES, MAX_ROUNDS, GameState, IllegalMove, MoveRefusal, Rules
from perudo_math.game import CODE_PREFIX, MAX_CODE_LENGTH, DamagedGameCode, RulesChanged, _pack


def bids(count: int) -> str:
    return " ".join(f"{quantity}x2" for quantity in range(1, count + 1))


CYCLE = f"{bids(9)} d9@1 {bids(8)} c8@1 {bids(9)} d9@0 {bids(8)} c8@0"
"""Four rounds, 38 moves: B loses a die and wins it back by a calza, then A does the same."""
CYCLE_ROUNDS = 4
CYCLE_MOVES = 38


def code_of(moves: str, rules: dict | None = None, names=("Ann", "Bob")) -> str:
    payload = [{"calza_heads_up": True} if rules is None else rules, list(names), 0, moves]
    return CODE_PREFIX + _pack(json.dumps(payload, separators=(",", ":")).encode())


def crafted(cycles: int) -> str:
    return code_of(" ".join([CYCLE] * cycles))


@pytest.mark.parametrize("cycles", [1, 10, 40, MAX_ROUNDS // CYCLE_ROUNDS])
def test_the_crafted_cycle_replays_up_to_the_longest_game(cycles):
    game = GameState.from_code(crafted(cycles))
    assert len(game.history) == cycles * CYCLE_MOVES
    assert len(game.results) == cycles * CYCLE_ROUNDS
    assert [player.dice for player in game.players] == [5, 5]
    assert GameState.from_code(game.to_code()) == game


@pytest.mark.parametrize("cycles", [MAX_ROUNDS // CYCLE_ROUNDS + 1, 1_000, 20_000])
def test_longer_codes_are_refused_before_any_move_is_replayed(cycles):
    with pytest.raises(DamagedGameCode) as refused:
        GameState.from_code(crafted(cycles))
    assert refused.value.move_number is None  # refused as a whole, not at a replayed move


def test_a_code_longer_than_any_game_is_refused_unread():
    with pytest.raises(DamagedGameCode):
        GameState.from_code(CODE_PREFIX + "A" * (MAX_CODE_LENGTH + 1))


def test_a_game_refuses_the_move_after_its_last_round():
    game = GameState.from_code(crafted(MAX_ROUNDS // CYCLE_ROUNDS))
    assert len(game.results) == MAX_ROUNDS
    with pytest.raises(IllegalMove) as refused:
        game.bid("1x2")
    assert refused.value.refusal.code is MoveRefusal.GAME_TOO_LONG
    assert "start a new game" in str(refused.value)


def test_a_game_refuses_the_move_after_its_last_move():
    game = GameState.new(["Ann", "Bob"], Rules()).replay(
        GameState.from_code(code_of(bids(MAX_MOVES))).history)
    assert len(game.history) == MAX_MOVES
    with pytest.raises(IllegalMove) as refused:
        game.dudo(3)
    assert refused.value.refusal.code is MoveRefusal.GAME_TOO_LONG
    with pytest.raises(DamagedGameCode) as damaged:
        GameState.from_code(code_of(bids(MAX_MOVES + 1)))
    assert damaged.value.move_number is None


def test_a_rule_change_counts_as_a_move_and_the_game_refuses_one_past_its_last():
    moves = GameState.from_code(code_of(bids(MAX_MOVES))).history
    for change_first in (False, True):
        events = [RulesChanged("salsa", True), *moves] if change_first else [
            *moves, RulesChanged("salsa", True)]
        with pytest.raises(IllegalMove) as refused:
            GameState.new(["Ann", "Bob"], Rules()).replay(events)
        assert refused.value.refusal.code is MoveRefusal.GAME_TOO_LONG
        assert refused.value.index == MAX_MOVES
    full = GameState.new(["Ann", "Bob"], Rules()).replay(moves)
    assert full.rule_change_refusal(RulesChanged("salsa", True)).code is (
        MoveRefusal.GAME_TOO_LONG)


def test_replay_names_the_first_illegal_move_and_its_index():
    events = GameState.from_code(crafted(1)).history
    broken = (*events[:5], events[3])  # a bid lower than the one on the table
    with pytest.raises(IllegalMove) as refused:
        GameState.new(["Ann", "Bob"], Rules(calza_heads_up=True)).replay(broken)
    assert refused.value.index == 5
    with pytest.raises(DamagedGameCode) as damaged:
        GameState.from_code(code_of(f"{bids(5)} 4x2"))
    assert damaged.value.move_number == 6 and damaged.value.move == "4x2"


def test_undo_replays_to_the_same_state_as_playing_forward():
    game = GameState.from_code(crafted(3))
    states = [GameState.new(["Ann", "Bob"], game.rules)]
    for event in game.history:
        states.append(states[-1].apply(event))
    for index in range(len(states) - 1, len(states) - 12, -1):
        assert states[index].undo() == states[index - 1]
