"""The game state machine: rounds, palifico, calza, salsa, undo and game codes."""

from __future__ import annotations

import base64
import itertools
import json
import random
import re
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_math import (
    Bid,
    Hand,
    IllegalMove,
    MoveRefusal,
    PalificoRule,
    RefusedMove,
    Rules,
    RulesChanged,
    check_bid,
    legal_raises,
)
from perudo_math.game import (
    DAMAGED_CODE,
    BidMade,
    CalzaCalled,
    DamagedGameCode,
    DudoCalled,
    GameState,
    Player,
    RoundResult,
    roll_for_first_opener,
)
from perudo_math.rules import SETTINGS
from tests.strategies import rules

ANN, BOB, CID, DEE = 0, 1, 2, 3
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def new(players: int = 3, first_opener: int = 0, **settings: object) -> GameState:
    return GameState.new(NAMES[:players], Rules(**settings), first_opener)


def play(state: GameState, script: str) -> GameState:
    """Moves by the player to act: ``2x3`` bids, ``d2`` dudo and ``c2`` calza on a count of 2.

    ``d2@1`` and ``c2@1`` name the calling seat.
    """
    for move in script.split():
        if move[0] in "dc":
            count, _, seat = move[1:].partition("@")
            call = state.dudo if move[0] == "d" else state.calza
            state = call(int(count), int(seat) if seat else None)
        else:
            state = state.bid(Bid.parse(move))
    return state


def exactly(message: str) -> str:
    """A pattern for pytest.raises that matches ``message`` and nothing more."""
    return f"^{re.escape(message)}$"


def dice(state: GameState) -> list[int]:
    return [player.dice for player in state.players]


def steps(state: GameState, script: str) -> list[GameState]:
    """Every state along the script, the first included."""
    states = [state]
    for move in script.split():
        states.append(play(states[-1], move))
    return states


# Setting up a game.


def test_new_game_gives_everyone_the_starting_dice():
    state = GameState.new(["Ann", "  Bob  ", "Cid"], Rules(starting_dice=4), first_opener=2)
    assert state.players == (Player("Ann", 4), Player("Bob", 4), Player("Cid", 4))
    assert state.players[1].name == "Bob"
    assert (state.opener, state.turn, state.round_number, state.table_dice) == (2, 2, 1, 12)
    assert state.active_seats == (0, 1, 2)
    assert not state.palifico and state.bids == () and state.last_bid is None
    assert state.winner is None and not state.is_over
    assert state.history == () and state.results == () and state.had_palifico == frozenset()


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ann"], "a game needs 2 to 10 players, not 1"),
        ([*NAMES, "Kim"], "a game needs 2 to 10 players, not 11"),
        (["Ann", "  "], "a player's name cannot be empty"),
        (["Ann", "x" * 41], "at most 40 characters"),
        (["Ann", "ann"], "two players are called 'ann'"),
        (["Ann", 7], "a player's name must be text"),
        ("AnnBob", "as a list"),
    ],
)
def test_bad_player_lists_are_refused(names, message):
    with pytest.raises(ValueError, match=message):
        GameState.new(names)


def test_names_of_forty_characters_are_fine_and_the_first_opener_must_be_a_seat():
    assert GameState.new(["x" * 40, "y"]).players[0].name == "x" * 40
    with pytest.raises(ValueError, match="there is no seat 3: seats run from 0 to 2"):
        new(first_opener=3)
    with pytest.raises(ValueError, match="whole number of dice"):
        Player("Ann", -1)


# Whole games.


def test_scripted_game_to_the_end():
    state = new(starting_dice=2)
    rounds = [
        # script, dice after, next opener, next round palifico
        ("2x3 3x3 d2", [2, 1, 2], BOB, True),  # Bob loses his second die
        ("1xP 2xP d2", [1, 1, 2], ANN, True),  # palifico: Bob opens on pacos, Ann is wrong
        ("2x5 3x5 c3", [1, 1, 2], CID, False),  # Cid is right at the cap: gains nothing, opens
        ("2x4 d1", [1, 1, 1], CID, True),
        ("1x6 2x6 d0", [0, 1, 1], BOB, False),  # Ann is out; Bob, after her, opens
    ]
    for number, (script, expected_dice, opener, palifico) in enumerate(rounds, start=1):
        assert state.round_number == number
        state = play(state, script)
        assert dice(state) == expected_dice, number
        assert (state.opener, state.turn, state.palifico) == (opener, opener, palifico), number
    assert state.results[1] == RoundResult(
        kind="dudo", bid=Bid(2, 1), bidder=CID, caller=ANN, count=2, palifico=True, loser=ANN,
        gainer=None, calza_right=None, eliminated=None, next_opener=ANN, next_palifico=True,
    )
    assert state.results[2].calza_right is True and state.results[2].gainer is None
    assert state.results[4].eliminated == ANN
    state = play(state, "1x3 2x3")
    assert state.turn == BOB  # Ann's empty seat is skipped
    state = play(state, "d1")
    assert dice(state) == [0, 1, 0]
    assert (state.winner, state.is_over, state.opener, state.turn) == (BOB, True, None, None)
    assert state.round_number == 6 and not state.palifico
    last = state.results[-1]
    assert (last.loser, last.eliminated, last.next_opener, last.next_palifico) == (
        CID, CID, None, False)
    for move in (lambda s: s.bid(Bid(1, 2)), lambda s: s.dudo(0), lambda s: s.calza(0)):
        with pytest.raises(ValueError, match=exactly("the game is over: Bob won")):
            move(state)


def test_eliminated_opener_passes_to_the_next_seat_clockwise_wrapping_round():
    state = play(new(first_opener=CID, starting_dice=1), "1x2 d0")
    assert dice(state) == [1, 1, 0] and state.results[0].eliminated == CID
    assert state.opener == ANN


def test_eliminated_seats_are_skipped_in_turn_order():
    state = play(new(4, starting_dice=1), "1x2 d0")  # Ann is out, Bob after her opens
    assert dice(state) == [0, 1, 1, 1] and state.opener == BOB
    state = play(state, "1x3 2x3 3x3")
    assert state.turn == BOB  # after Dee comes Ann's empty seat, then Bob
    state = play(state, "d3")  # 3 threes: Bob was wrong and is out; Cid opens
    assert dice(state) == [0, 0, 1, 1] and state.opener == CID
    with pytest.raises(ValueError, match=exactly("Ann is out of the game")):
        state.bid(Bid(1, 4), ANN)
    state = play(state, "1x4 d2")
    assert state.winner == CID


# Palifico.


@pytest.mark.parametrize(
    ("rule", "palifico_after_each_round"),
    [
        (PalificoRule.ON_DROP, [False, True, False, True]),
        (PalificoRule.ONCE_PER_PLAYER, [False, True, False, False]),
        (PalificoRule.WHILE_ONE_DIE, [False, True, False, True]),
    ],
)
def test_palifico_after_a_drop_a_regain_and_a_second_drop(rule, palifico_after_each_round):
    state = new(starting_dice=3, palifico=rule)
    seen = []
    for script in ("2x3 d5", "2x4 d0", "2x5 3x5 4x5 c4", "5x2 d1"):
        state = play(state, script)
        seen.append(state.palifico)
        assert state.opener == BOB
    assert seen == palifico_after_each_round
    assert [result.palifico for result in state.results] == [False, *seen[:-1]]
    assert dice(state) == [3, 1, 3]
    assert state.results[2].gainer == BOB  # the calza brought Bob back from 1 to 2 dice
    assert state.had_palifico == {BOB}


def test_palifico_face_stays_frozen_with_the_reason():
    state = play(new(starting_dice=3), "2x3 d5 2x4 d0 2x5 3x5")
    assert state.palifico and state.turn == ANN
    with pytest.raises(ValueError) as refused:
        state.bid(Bid(3, 6))
    assert str(refused.value) == check_bid(Bid(3, 6), Bid(3, 5), palifico=True).reason
    assert "in a palifico round bids stay on 5s" in str(refused.value)
    assert play(state, "4x5").last_bid == Bid(4, 5)


def test_palifico_heads_up_and_pacos_may_open_it():
    state = new(2, starting_dice=2)
    with pytest.raises(ValueError, match="a normal round cannot be opened on pacos"):
        state.bid(Bid(1, 1))
    state = play(state, "1x3 d0")
    assert dice(state) == [1, 2] and state.palifico and state.opener == ANN
    state = play(state, "1xP")
    with pytest.raises(ValueError, match="in a palifico round bids stay on pacos"):
        state.bid(Bid(2, 3))
    state = play(state, "2xP d0")  # Bob drops to one die: palifico again, heads-up
    assert dice(state) == [1, 1] and state.palifico and state.opener == BOB
    assert state.results[-1].next_palifico is True


def test_palifico_heads_up_after_a_drop_with_two_players_left():
    state = play(new(2, starting_dice=3), "1x3 d0 1x3 d0")
    assert dice(state) == [1, 3] and state.palifico and state.opener == ANN


def test_while_one_die_every_round_opened_by_a_one_die_player():
    state = new(starting_dice=2, palifico=PalificoRule.WHILE_ONE_DIE)
    assert not state.palifico
    openers = []
    for script in ("1x2 d0", "1x3 d1", "1x4 d2", "1x5 2x5 d0"):
        state = play(state, script)
        openers.append((state.opener, state.palifico))
    assert openers == [(ANN, True), (BOB, True), (CID, True), (BOB, True)]
    assert dice(state) == [0, 1, 1] and state.had_palifico == {ANN, BOB, CID}
    on_drop = play(new(starting_dice=2), "1x2 d0 1x3 d1 1x4 d2 1x5 2x5 d0")
    assert not on_drop.palifico  # Ann's elimination is no drop to one die
    state = play(state, "1x6 d1")
    assert state.is_over and not state.palifico


def test_while_one_die_with_one_starting_die_makes_the_first_round_palifico():
    state = new(starting_dice=1, palifico=PalificoRule.WHILE_ONE_DIE, first_opener=BOB)
    assert state.palifico and state.had_palifico == {BOB}
    assert play(state, "1xP").last_bid == Bid(1, 1)
    assert not new(starting_dice=1).palifico


def test_in_palifico_only_a_one_die_player_may_change_face_under_that_setting():
    state = play(new(starting_dice=2, palifico_one_die_may_change_face=True), "1x3 d0 1x3")
    assert state.palifico and dice(state) == [1, 2, 2]
    with pytest.raises(ValueError, match="in a palifico round bids stay on 3s"):
        state.bid(Bid(2, 4))  # Bob holds two dice
    state = play(state, "2x3 3x3")
    assert play(state, "3x4").last_bid == Bid(3, 4)  # Ann holds one die
    with pytest.raises(ValueError, match="the bid must be higher than 3 × 3"):
        state.bid(Bid(3, 2))


def test_bid_refusal_explains_without_raising():
    state = new()
    assert state.bid_refusal(Bid(2, 3)) is None
    paco = state.bid_refusal(Bid(2, 1))
    assert paco == RefusedMove(MoveRefusal.OPEN_ON_PACOS, "bid", ANN, ANN,
                               verdict=check_bid(Bid(2, 1)), names=tuple(NAMES[:3]))
    assert paco.reason == check_bid(Bid(2, 1)).reason
    turn = state.bid_refusal(Bid(2, 3), BOB)
    assert (turn.code, turn.seat, turn.turn) == (MoveRefusal.NOT_YOUR_TURN, BOB, ANN)
    assert turn.reason == "it is Ann's turn, not Bob's"
    seat = state.bid_refusal(Bid(2, 3), 9)
    assert (seat.code, seat.seat) == (MoveRefusal.NO_SUCH_SEAT, 9)
    assert seat.reason == "there is no seat 9: seats run from 0 to 2"
    assert state == new()


# Calza.


def test_calza_right_at_the_cap_gains_nothing_and_the_caller_opens():
    state = play(new(), "3x4 c3")
    result = state.results[0]
    assert dice(state) == [5, 5, 5] and state.opener == BOB and not state.palifico
    assert (result.kind, result.calza_right, result.gainer, result.loser) == (
        "calza", True, None, None)


def test_calza_right_below_the_cap_regains_a_die():
    state = play(new(), "3x4 d5 3x4 4x4 5x4")
    assert dice(state) == [5, 4, 5] and state.turn == BOB
    state = play(state, "c5")
    assert dice(state) == [5, 5, 5] and state.opener == BOB
    assert state.results[-1].gainer == BOB and state.results[-1].calza_right


@pytest.mark.parametrize("count", [2, 4])
def test_calza_wrong_loses_a_die_and_never_touches_the_bidder(count):
    state = play(new(), f"3x4 c{count}")
    assert dice(state) == [5, 4, 5] and state.opener == BOB
    assert state.results[0].calza_right is False and state.results[0].loser == BOB


def test_calza_refusals():
    state = play(new(), "3x4")
    assert state.calza_allowed() and state.calza_refusal(BOB) is None
    out_of_turn = state.calza_refusal(CID)
    assert (out_of_turn.code, out_of_turn.move, out_of_turn.seat, out_of_turn.turn) == (
        MoveRefusal.CALZA_OUT_OF_TURN_OFF, "calza", CID, BOB)
    assert out_of_turn.reason == "it is Bob's turn, not Cid's (calza out of turn is switched off)"
    own = state.calza_refusal(ANN)
    assert (own.code, own.seat) == (MoveRefusal.OWN_BID, ANN)
    assert own.reason == "Ann made the last bid and cannot call calza on it"
    assert new().calza_refusal().code is MoveRefusal.NO_BID_YET
    assert new().calza_refusal().reason == "no bid to call calza on yet"
    off = play(new(calza=False), "3x4").calza_refusal()
    assert (off.code, off.reason) == (MoveRefusal.CALZA_OFF, "calza is switched off in these rules")
    with pytest.raises(IllegalMove, match="it is Bob's turn, not Cid's") as refused:
        state.calza(3, CID)
    assert refused.value.refusal == out_of_turn
    loose = play(new(calza_out_of_turn=True), "3x4")
    assert loose.calza_allowed(CID) and not loose.calza_allowed(ANN)
    assert play(loose, "c3@2").opener == CID
    heads_up = play(new(2), "3x4")
    assert heads_up.calza_refusal().code is MoveRefusal.CALZA_HEADS_UP
    assert heads_up.calza_refusal().reason == "calza is not allowed when only two players are left"
    assert not heads_up.calza_allowed()
    assert play(new(2, calza_heads_up=True), "3x4 c3").results[0].calza_right


# Dudo and salsa.


def test_dudo_by_someone_other_than_the_next_player_needs_salsa():
    state = play(new(), "3x4")
    refused = state.dudo_refusal(CID)
    assert (refused.code, refused.move, refused.seat, refused.turn) == (
        MoveRefusal.SALSA_OFF, "dudo", CID, BOB)
    assert refused.reason == "it is Bob's turn, not Cid's (salsa is switched off)"
    with pytest.raises(IllegalMove, match="it is Bob's turn, not Cid's"):
        state.dudo(2, CID)
    salsa = play(new(salsa=True), "3x4")
    assert salsa.dudo_refusal(CID) is None
    assert salsa.dudo_refusal(ANN).code is MoveRefusal.OWN_BID
    assert salsa.dudo_refusal(ANN).reason == "Ann made the last bid and cannot challenge it"
    state = salsa.dudo(2, CID)
    assert dice(state) == [4, 5, 5] and state.results[0].caller == CID
    state = salsa.dudo(3, CID)
    assert dice(state) == [5, 5, 4] and state.opener == CID


def test_moves_are_refused_with_precise_messages():
    state = new()
    with pytest.raises(IllegalMove, match=exactly("no bid to challenge yet")):
        state.dudo(0)
    with pytest.raises(IllegalMove, match=exactly("it is Ann's turn, not Bob's")):
        state.bid(Bid(2, 3), BOB)
    with pytest.raises(IllegalMove, match=exactly("there is no seat 5: seats run from 0 to 2")):
        state.bid(Bid(2, 3), 5)
    with pytest.raises(IllegalMove, match="that is not a seat number: seats run from 0 to 2"):
        state.dudo(0, "Bob")
    with pytest.raises(ValueError, match="5x4 or 3xP"):
        state.bid(23)
    state = play(state, "5x4")
    with pytest.raises(IllegalMove, match="a lower face is not allowed") as refused:
        state.bid("5x3")
    assert refused.value.refusal.code is MoveRefusal.FACE_MUST_RISE
    with pytest.raises(IllegalMove, match=exactly("count 16 is more than the 15 dice on the "
                                                  "table")):
        state.dudo(16)
    with pytest.raises(IllegalMove, match="0 or more, not -1"):
        state.calza(-1)
    with pytest.raises(IllegalMove, match=exactly("the count must be a whole number of dice, "
                                                  "0 or more")):
        state.dudo(True)
    assert dice(state.dudo(15)) == [5, 4, 5]
    with pytest.raises(ValueError, match="nothing to undo"):
        new().undo()


# Undo.


def test_undo_returns_the_exact_previous_state_at_every_step():
    states = steps(new(starting_dice=2, calza_heads_up=True),
                   "2x3 3x3 d2 1xP 2xP d2 2x5 3x5 c3 2x4 d1 1x6 2x6 d0 1x3 c1 1x3 2x3 d1")
    assert states[-1].is_over
    for before, after in itertools.pairwise(states):
        assert after.undo() == before
        assert after.undo().to_code() == before.to_code()
    assert len({state.history for state in states}) == len(states)


def test_history_records_every_move_with_its_seat():
    state = play(new(salsa=True), "3x4 d2@2")
    assert state.history == (BidMade(ANN, Bid(3, 4)), DudoCalled(CID, 2))
    assert play(new(), "3x4 c3").history[-1] == CalzaCalled(BOB, 3)
    with pytest.raises(ValueError, match="salsa is switched off"):
        GameState.new(NAMES[:3]).replay(state.history)
    assert new(salsa=True).replay(state.history) == state


# Game codes.


def forge(payload: object) -> str:
    """A code with a correct checksum around any payload, written to the documented format."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    deflated = compressor.compress(text.encode()) + compressor.flush()
    blob = deflated + zlib.crc32(deflated).to_bytes(4, "little")
    return "g1." + base64.urlsafe_b64encode(blob).decode().rstrip("=")


def test_code_round_trip_of_a_finished_game_and_its_format():
    state = play(new(starting_dice=2, salsa=True), "2x3 3x3 d2@0 1xP 2xP d2 2x4 d0")
    code = state.to_code()
    assert code.startswith("g1.") and "=" not in code
    assert GameState.from_code(code) == state
    assert GameState.from_code(f"  {code}\n") == state
    assert forge([{"starting_dice": 2, "salsa": True}, NAMES[:3], 0,
                  "2x3 3x3 d2@0 1xP 2xP d2@0 2x4 d0@1"]) == code


def test_a_code_with_a_good_checksum_but_an_illegal_move_is_refused():
    assert GameState.from_code(forge([{}, ["Ann", "Bob"], 1, "2x3 3x3"])) == play(
        GameState.new(["Ann", "Bob"], first_opener=1), "2x3 3x3")
    with pytest.raises(DamagedGameCode, match=r"move 2 \(2x2\) is illegal: after 2 × 3 a lower"):
        GameState.from_code(forge([{}, ["Ann", "Bob"], 0, "2x3 2x2"]))
    with pytest.raises(DamagedGameCode, match=r"move 2 \(d1@0\) is illegal: Ann made the last"):
        GameState.from_code(forge([{}, ["Ann", "Bob"], 0, "2x3 d1@0"]))
    with pytest.raises(DamagedGameCode, match=r"move 2 \(d11@1\) is illegal: count 11 is more"):
        GameState.from_code(forge([{}, ["Ann", "Bob"], 0, "2x3 d11@1"]))
    with pytest.raises(DamagedGameCode) as damaged:
        GameState.from_code(forge([{}, ["Ann", "Bob"], 0, "2x3 3x3 c3@0"]))
    assert (damaged.value.move_number, damaged.value.move) == (3, "c3@0")
    assert damaged.value.refusal.code is MoveRefusal.CALZA_HEADS_UP
    with pytest.raises(DamagedGameCode) as unreadable:
        GameState.from_code(forge([{}, ["Ann", "Bob"], 0, "2x3 zz"]))
    assert (unreadable.value.move_number, unreadable.value.refusal) == (2, None)
    with pytest.raises(DamagedGameCode) as garbage:
        GameState.from_code("g1.AAAA")
    assert (garbage.value.move_number, garbage.value.move, garbage.value.refusal) == (
        None, None, None)


@pytest.mark.parametrize(
    "payload",
    [
        [{}, ["Ann"], 0, ""],
        [{}, ["Ann", "Ann"], 0, ""],
        [{}, ["Ann", "Bob"], 2, ""],
        [{}, ["Ann", "Bob"], True, ""],
        [{}, ["Ann", "Bob"], 0, ["2x3"]],
        [{"bogus": 1}, ["Ann", "Bob"], 0, ""],
        [{"starting_dice": 0}, ["Ann", "Bob"], 0, ""],
        [[], ["Ann", "Bob"], 0, ""],
        [{}, "AnnBob", 0, ""],
        [{}, ["Ann", None], 0, ""],
        {"a": 1, "b": 2, "c": 3, "d": 4},
        [1, 2, 3],
        [],
        None,
        12,
        [[[[[[[[[[]]]]]]]]]],
    ],
)
def test_codes_with_a_good_checksum_but_a_bad_payload_are_refused(payload):
    with pytest.raises(DamagedGameCode, match=exactly(DAMAGED_CODE)):
        GameState.from_code(forge(payload))


@pytest.mark.parametrize(
    "code",
    ["", "g1.", "g1", "hello", "g1.AAAA", "g1.AAAAAAAAAA", "g1.!!!!!!!!", "g2.abc", "G1.abc",
     "g1." + "[" * 100_000, None, b"g1.abc", 17],
)
def test_garbage_codes_are_refused(code):
    with pytest.raises(DamagedGameCode, match=exactly(DAMAGED_CODE)):
        GameState.from_code(code)


def test_unfinished_streams_and_trailing_bytes_are_refused_even_with_a_good_checksum():
    text = json.dumps([{}, ["Ann", "Bob"], 0, "2x3"]).encode()
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    unfinished = compressor.compress(text) + compressor.flush(zlib.Z_SYNC_FLUSH)
    finished = unfinished + compressor.flush()
    for deflated in (unfinished, finished + b"\x00"):
        blob = deflated + zlib.crc32(deflated).to_bytes(4, "little")
        with pytest.raises(DamagedGameCode, match=exactly(DAMAGED_CODE)):
            GameState.from_code("g1." + base64.urlsafe_b64encode(blob).decode().rstrip("="))
    blob = finished + zlib.crc32(finished).to_bytes(4, "little")
    assert GameState.from_code("g1." + base64.urlsafe_b64encode(blob).decode().rstrip("="))


def test_codes_with_a_bad_deflate_stream_or_a_deep_nesting_are_refused():
    stored = b"\x00"  # raw deflate stream cut short
    blob = stored + zlib.crc32(stored).to_bytes(4, "little")
    with pytest.raises(DamagedGameCode, match=exactly(DAMAGED_CODE)):
        GameState.from_code("g1." + base64.urlsafe_b64encode(blob).decode().rstrip("="))
    nested = "[" * 200_000 + "]" * 200_000
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = compressor.compress(nested.encode()) + compressor.flush()
    blob = deflated + zlib.crc32(deflated).to_bytes(4, "little")
    with pytest.raises(DamagedGameCode, match=exactly(DAMAGED_CODE)):
        GameState.from_code("g1." + base64.urlsafe_b64encode(blob).decode().rstrip("="))


def test_every_single_character_change_is_detected():
    state = play(GameState.new(["Zoë", "Bob", "Cid"], Rules(salsa=True, starting_dice=2)),
                 "2x3 3x3 d2@0 1xP 2xP d2 2x4")
    code = state.to_code()
    alphabet = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=. é")
    changes = 0
    for position, original in enumerate(code):
        for replacement in sorted(alphabet - {original}):
            changed = code[:position] + replacement + code[position + 1:]
            with pytest.raises(ValueError):
                GameState.from_code(changed)
            changes += 1
    assert changes > 60 * len(code)


def test_codes_stay_short():
    names = ["Alexandra", "Bartholomew", "Catherine", "Dominique", "Evangeline", "Frederick"]
    state = GameState.new(names, Rules(calza_out_of_turn=True))
    state = play(state, "3x4 4x4 5x4 6x4 d9 4x2 5x2 6x2 7x2 4xP c5 3x5 4x5 5x5 6x5 7x5 4xP "
                        "9x6 10x6 11x6 d10 2x3 3x3")
    assert len([event for event in state.history if isinstance(event, BidMade)]) == 20
    code = state.to_code()
    assert len(code) < 300, len(code)
    assert GameState.from_code(code) == state


# Random games.

RULES = rules(5)


def random_game(rules: Rules, players: int, seed: int) -> list[GameState]:
    """Every state of a game played to its end by a random legal strategy with real dice."""
    rng = random.Random(seed)
    state = GameState.new(NAMES[:players], rules, roll_for_first_opener(rng, players))
    states, hands = [state], {}
    while not state.is_over:
        assert len(states) < 5_000, "the game does not end"
        if state.round_number not in hands:
            hands[state.round_number] = [Hand(rng.randint(1, 6) for _ in range(p.dice))
                                         for p in state.players]
        state = random_move(state, rng, hands[state.round_number])
        states.append(state)
    return states


def random_move(state: GameState, rng: random.Random, hands: list[Hand]) -> GameState:
    bid = state.last_bid
    raises = legal_raises(bid, state.table_dice, palifico=state.palifico, rules=state.rules,
                          bidder_dice=state.players[state.turn].dice)
    if bid is None or (raises and rng.random() < 0.6):
        return state.bid(rng.choice(raises[:6]))
    count = sum(hand.count(bid.face, palifico=state.palifico) for hand in hands)
    calza_callers = [seat for seat in state.active_seats if state.calza_allowed(seat)]
    if calza_callers and rng.random() < 0.3:
        return state.calza(count, rng.choice(calza_callers))
    dudo_callers = [seat for seat in state.active_seats if state.dudo_refusal(seat) is None]
    assert state.turn in dudo_callers
    return state.dudo(count, rng.choice(dudo_callers))


@settings(max_examples=60, deadline=None)
@given(rules=RULES, players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_random_games_end_with_one_winner_and_dice_only_come_back_by_calza(rules, players,
                                                                           seed):
    states = random_game(rules, players, seed)
    final = states[-1]
    assert [player.dice > 0 for player in final.players].count(True) == 1
    assert final.winner is not None and final.turn is None
    assert len(final.results) == final.round_number
    for before, after in itertools.pairwise(states):
        change = after.table_dice - before.table_dice
        if len(after.results) == len(before.results):
            assert change == 0
        else:
            result = after.results[-1]
            assert change == (result.gainer is not None) - (result.loser is not None)
            assert change <= 0 or result.kind == "calza"
            assert after.opener is None or after.players[after.opener].dice > 0
        assert all(0 <= p.dice <= rules.starting_dice for p in after.players)


@settings(max_examples=60, deadline=None)
@given(rules=RULES, players=st.integers(2, 6), seed=st.integers(0, 2**32),
       cut=st.floats(0, 1))
def test_codes_round_trip_random_games(rules, players, seed, cut):
    states = random_game(rules, players, seed)
    for state in (states[int(cut * (len(states) - 1))], states[-1]):
        assert GameState.from_code(state.to_code()) == state
    if len(states) > 1:
        assert states[-1].undo() == states[-2]


# Who opens the game.


class ScriptedDice:
    """Stands in for random.Random: each roll gives the next scripted value."""

    def __init__(self, values: list[int]) -> None:
        self.values = iter(values)

    def randint(self, low: int, high: int) -> int:
        value = next(self.values)
        assert low <= value <= high
        return value


def test_highest_sum_opens_and_ties_among_the_highest_reroll():
    assert roll_for_first_opener(ScriptedDice([1, 2, 6, 5, 3, 3]), 3) == 1
    rolls = [6, 6, 1, 1, 5, 6, 6, 6,  # Ann and Dee tie at 12
             2, 2, 3, 1]  # the reroll: Ann 4, Dee 4 again
    rolls += [1, 1, 2, 1]  # Dee wins
    assert roll_for_first_opener(ScriptedDice(rolls), 4) == DEE


def test_first_opener_is_fair():
    rng = random.Random(7)
    seats = [roll_for_first_opener(rng, 3) for _ in range(6000)]
    assert all(1850 < seats.count(seat) < 2150 for seat in range(3))
    with pytest.raises(ValueError):
        roll_for_first_opener(rng, 0)


# Rules changed during a game (issue 28).

OLD_CODE = ("g1.i65WKkrMLE6NLyrNSVWyUkrMq9RNS0xOVdJRKk7MKU5UsiopKk2t1YlWcszLAwo65ScBSefMFKVYHUMd"
            "JeMKUwWTCiOFFGMHAwWjCjMgDlCKBQCUR6Fa")
"""A code written before rule changes existed (Ann, Bob and Cid, any-face and salsa, Bob
opens: 3x5 4x2 d3@0 2x6 2xP): links shared then must still open."""


def test_a_code_written_before_rule_changes_still_opens():
    state = GameState.from_code(OLD_CODE)
    expected = play(new(first_opener=BOB, raise_rule="any-face", salsa=True),
                    "3x5 4x2 d3@0 2x6 2xP")
    assert state == expected and state.start_rules == state.rules
    assert state.to_code() == OLD_CODE


def test_a_rule_change_is_an_event_the_next_moves_are_judged_by():
    opened = play(new(), "3x5")
    assert opened.bid_refusal(Bid(4, 2)).code is MoveRefusal.FACE_MUST_RISE
    switched = opened.change_rule("raise_rule", "any-face")
    assert switched.history[-1] == RulesChanged("raise_rule", "any-face")
    assert switched.rules == Rules(raise_rule="any-face") and switched.start_rules == Rules()
    assert (switched.turn, switched.bids, switched.players) == (
        opened.turn, opened.bids, opened.players)  # nobody moved: still Bob's turn
    state = switched.bid("4x2")
    assert state.history[-1] == BidMade(BOB, Bid(4, 2))
    back = state.apply(RulesChanged("raise_rule", "same-face"))
    assert back.bid_refusal(Bid(5, 3)).code is MoveRefusal.QUANTITY_MUST_STAY
    assert state.bid_refusal(Bid(5, 3)) is None


def test_a_rule_change_round_trips_in_the_code_and_undo_takes_it_back():
    opened = play(new(), "3x5")
    state = opened.change_rule("raise_rule", "any-face").bid("4x2").change_rule("salsa", True)
    state = state.dudo(3, ANN)  # out of turn: salsa is on now
    code = state.to_code()
    assert GameState.from_code(code) == state
    assert forge([{}, NAMES[:3], 0, "3x5 raise=any-face 4x2 salsa=1 d3@0"]) == code
    assert state.undo().undo().undo().undo() == opened
    assert state.undo().undo().undo().rules == Rules(raise_rule="any-face")
    assert state.restart() == new() and state.restart().rules == Rules()
    assert state.results[-1].caller == ANN


def test_the_settings_a_game_may_not_change_and_the_changes_that_change_nothing():
    state = play(new(), "3x5")
    with pytest.raises(IllegalMove) as fixed:
        state.change_rule("starting_dice", 3)
    assert fixed.value.refusal.code is MoveRefusal.SETTING_FIXED
    assert fixed.value.refusal.setting == "starting_dice"
    assert isinstance(fixed.value, ValueError)
    with pytest.raises(IllegalMove) as same:
        state.change_rule("raise_rule", "same-face")
    assert same.value.refusal.code is MoveRefusal.RULE_UNCHANGED
    over = play(new(2, starting_dice=1), "1x3 d0")
    assert over.rule_change_refusal(RulesChanged("salsa", True)).code is MoveRefusal.GAME_OVER
    for setting, value in (("raise", "any-face"), ("raise_rule", "sideways"),
                           ("salsa", "yes"), ("starting_dice", 11)):
        with pytest.raises(ValueError):
            RulesChanged(setting, value)
    for moves in ("3x5 dice=3", "3x5 raise=any-face raise=any-face", "3x5 zz=1",
                  "3x5 raise=sideways", "3x5 salsa=2", "3x5 raise=same-face"):
        with pytest.raises(DamagedGameCode) as damaged:
            GameState.from_code(forge([{}, NAMES[:3], 0, moves]))
        assert damaged.value.move_number == len(moves.split())


def test_which_setting_alone_would_allow_a_refused_move():
    opened = play(new(), "3x5")
    any_face = (RulesChanged("raise_rule", "any-face"),)
    assert opened.changes_allowing(BidMade(None, Bid(4, 2))) == any_face
    assert opened.changes_allowing(BidMade(None, Bid(4, 6))) == any_face  # 3 × 6 only
    assert opened.changes_allowing(BidMade(None, Bid(4, 5))) == ()  # legal
    assert opened.changes_allowing(BidMade(CID, Bid(4, 2))) == ()  # not Cid's turn
    assert opened.changes_allowing(BidMade(None, Bid(3, 2))) == ()  # no setting allows it
    assert opened.changes_allowing(DudoCalled(CID, 2)) == (RulesChanged("salsa", True),)
    assert play(new(2), "3x5").changes_allowing(CalzaCalled(None, 3)) == (
        RulesChanged("calza_heads_up", True),)
    assert play(new(calza=False), "3x5").changes_allowing(CalzaCalled(None, 3)) == (
        RulesChanged("calza", True),)
    one_die = play(new(2, starting_dice=2), "1x3 d0 1x4 2x4")  # Ann is palifico on one die
    assert one_die.palifico and one_die.players[one_die.turn].dice == 1
    assert one_die.changes_allowing(BidMade(None, Bid(2, 6))) == (
        RulesChanged("palifico_one_die_may_change_face", True),)


def test_a_palifico_rule_changed_mid_game_counts_from_the_next_round():
    # Ann drops to one die, then Bob does; Ann, on one die, challenges and is out, and Bob,
    # on one die since last round, opens: palifico only while-one-die.
    before = play(new(3, starting_dice=2), "1x3 d0 1x3 2x3 d0@2 1x3 2x3")
    assert before.opener == BOB and before.players[BOB].dice == 1
    assert not play(before, "d2").palifico
    state = play(before.change_rule("palifico", "while-one-die"), "d2")
    assert state.players[ANN].dice == 0 and state.opener == BOB and state.palifico
    assert state.results[-1].next_palifico and state.undo().rules.palifico == "while-one-die"


def random_game_with_rule_changes(seed: int) -> list[GameState]:
    """A random game where, now and then, the table switches a setting it may change."""
    rng = random.Random(seed)
    states = [new(rng.randint(2, 4), starting_dice=rng.randint(1, 3))]
    changeable = [setting for setting in SETTINGS if setting.mid_game]
    while not states[-1].is_over:
        state = states[-1]
        if rng.random() < 0.2:
            setting = rng.choice(changeable)
            options = (False, True) if setting.kind.value == "switch" else setting.choices
            value = rng.choice([value for value in options
                                if value != state.rules.to_dict()[setting.name]])
            states.append(state.change_rule(setting.name, value))
        else:
            hands = [Hand([rng.randint(1, 6) for _ in range(p.dice)]) for p in state.players]
            states.append(random_move(state, rng, hands))
    return states


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_games_with_rule_changes_replay_round_trip_and_undo(seed):
    states = random_game_with_rule_changes(seed)
    final = states[-1]
    assert GameState.from_code(final.to_code()) == final
    assert final.restart().replay(final.history) == final
    for before, after in itertools.pairwise(states[-8:]):
        assert after.undo() == before
    for state in states:
        assert state.start_rules == states[0].rules
