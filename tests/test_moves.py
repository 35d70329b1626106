"""Moves refused as data: every code reachable with its data, and the game refuses exactly
what its refusal functions say, with the same value in the error it raises."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coach.engine.situation import Situation
from coach.solver.games import heads_up_calza_gain
from perudo_math import (
    Bid,
    BidMade,
    CalzaCalled,
    DudoCalled,
    Event,
    GameState,
    Hand,
    IllegalMove,
    MoveRefusal,
    Refusal,
    RefusedMove,
    Rules,
    RulesChanged,
    calza_refusal,
    check_bid,
    dudo_refusal,
    legal_raises,
)
from tests.strategies import rules

ANN, BOB, CID = 0, 1, 2
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


def new(players: int = 3, **settings: object) -> GameState:
    return GameState.new(NAMES[:players], Rules(**settings))


def refused(code: MoveRefusal, move: str, **data: object) -> RefusedMove:
    return RefusedMove(code, move, names=data.pop("names", NAMES[:3]), **data)


OVER = new(2, starting_dice=1).bid("1x3").dudo(0)  # Ann was wrong: Bob wins
OPENED = new().bid("3x4")  # Ann bid, Bob's turn
OUT = new(starting_dice=1).bid("1x3").dudo(0)  # Ann is out; Bob opens
PACOS = new().bid("4x4")

CASES: list[tuple[str, Callable[[], RefusedMove | None], RefusedMove, str]] = [
    ("game over", lambda: OVER.bid_refusal(Bid(1, 2), BOB),
     refused(MoveRefusal.GAME_OVER, "bid", winner=BOB, names=NAMES[:2]),
     "the game is over: Bob won"),
    ("no such seat", lambda: OPENED.dudo_refusal(7),
     refused(MoveRefusal.NO_SUCH_SEAT, "dudo", seat=7, turn=BOB),
     "there is no seat 7: seats run from 0 to 2"),
    ("not a seat number", lambda: OPENED.calza_refusal(True),
     refused(MoveRefusal.NO_SUCH_SEAT, "calza", turn=BOB),
     "that is not a seat number: seats run from 0 to 2"),
    ("player out", lambda: OUT.bid_refusal(Bid(1, 2), ANN),
     refused(MoveRefusal.PLAYER_OUT, "bid", seat=ANN, turn=BOB),
     "Ann is out of the game"),
    ("not your turn", lambda: OPENED.bid_refusal(Bid(4, 4), CID),
     refused(MoveRefusal.NOT_YOUR_TURN, "bid", seat=CID, turn=BOB),
     "it is Bob's turn, not Cid's"),
    ("no bid to challenge", lambda: new().dudo_refusal(),
     refused(MoveRefusal.NO_BID_YET, "dudo", seat=ANN, turn=ANN),
     "no bid to challenge yet"),
    ("no bid to call calza on", lambda: new().calza_refusal(),
     refused(MoveRefusal.NO_BID_YET, "calza", seat=ANN, turn=ANN),
     "no bid to call calza on yet"),
    ("own bid, dudo", lambda: OPENED.dudo_refusal(ANN),
     refused(MoveRefusal.OWN_BID, "dudo", seat=ANN, turn=BOB),
     "Ann made the last bid and cannot challenge it"),
    ("own bid, calza", lambda: OPENED.calza_refusal(ANN),
     refused(MoveRefusal.OWN_BID, "calza", seat=ANN, turn=BOB),
     "Ann made the last bid and cannot call calza on it"),
    ("salsa off", lambda: OPENED.dudo_refusal(CID),
     refused(MoveRefusal.SALSA_OFF, "dudo", seat=CID, turn=BOB),
     "it is Bob's turn, not Cid's (salsa is switched off)"),
    ("calza off", lambda: new(calza=False).bid("3x4").calza_refusal(),
     refused(MoveRefusal.CALZA_OFF, "calza", seat=BOB, turn=BOB),
     "calza is switched off in these rules"),
    ("calza out of turn off", lambda: OPENED.calza_refusal(CID),
     refused(MoveRefusal.CALZA_OUT_OF_TURN_OFF, "calza", seat=CID, turn=BOB),
     "it is Bob's turn, not Cid's (calza out of turn is switched off)"),
    ("calza heads-up", lambda: new(2).bid("3x4").calza_refusal(),
     refused(MoveRefusal.CALZA_HEADS_UP, "calza", seat=BOB, turn=BOB, names=NAMES[:2]),
     "calza is not allowed when only two players are left"),
    ("negative count", lambda: OPENED.count_refusal(-1),
     refused(MoveRefusal.BAD_COUNT, "dudo", count=-1),
     "the count must be a whole number of dice, 0 or more, not -1"),
    ("no count", lambda: OPENED.count_refusal(None, "calza"),
     refused(MoveRefusal.BAD_COUNT, "calza"),
     "the count must be a whole number of dice, 0 or more"),
    ("count above the table", lambda: OPENED.count_refusal(16),
     refused(MoveRefusal.COUNT_ABOVE_TABLE, "dudo", count=16, table_dice=15),
     "count 16 is more than the 15 dice on the table"),
    ("starting dice fixed", lambda: OPENED.rule_change_refusal(RulesChanged("starting_dice", 3)),
     refused(MoveRefusal.SETTING_FIXED, "rules", turn=BOB, setting="starting_dice"),
     "starting_dice cannot change during a game"),
    ("rule unchanged", lambda: OPENED.rule_change_refusal(RulesChanged("salsa", False)),
     refused(MoveRefusal.RULE_UNCHANGED, "rules", turn=BOB, setting="salsa"),
     "the table already plays salsa at that value"),
]

BID_CASES: list[tuple[GameState, str, Rules]] = [
    (new(), "2xP", Rules()),
    (OPENED, "3x4", Rules()),
    (OPENED, "4x3", Rules()),
    (OPENED, "4x5", Rules()),
    (PACOS, "1xP", Rules()),
    (OPENED.bid("2xP"), "4x4", Rules()),
]


@pytest.mark.parametrize(("case", "ask", "expected", "reason"), CASES,
                         ids=[case[0] for case in CASES])
def test_each_move_code_with_its_data_and_its_english(case, ask, expected, reason):
    value = ask()
    assert value == expected
    assert value.reason == reason
    error = IllegalMove(value)
    assert isinstance(error, ValueError) and str(error) == reason and error.refusal is value


@pytest.mark.parametrize(("state", "text", "rules"), BID_CASES)
def test_bid_codes_carry_the_legality_verdict(state, text, rules):
    bid = Bid.parse(text)
    value = state.bid_refusal(bid)
    verdict = check_bid(bid, state.last_bid, palifico=state.palifico, rules=rules,
                        bidder_dice=state.players[state.turn].dice)
    assert value == RefusedMove(MoveRefusal.of_bid(verdict.refusal), "bid", state.turn,
                                state.turn, verdict=verdict,
                                names=tuple(player.name for player in state.players))
    assert value.code == verdict.refusal and value.reason == verdict.reason


def test_the_palifico_bid_codes():
    frozen = new(starting_dice=3).bid("2x3").dudo(5).bid("2x4").dudo(0).bid("2x5").bid("3x5")
    assert frozen.palifico and frozen.players[frozen.turn].dice == 3
    value = frozen.bid_refusal(Bid(3, 6))
    assert value.code is MoveRefusal.PALIFICO_FACE_FROZEN and value.verdict.minimum == Bid(4, 5)
    free = new(starting_dice=2, palifico_one_die_may_change_face=True).bid("1x3").dudo(0)
    free = free.bid("1x3").bid("2x3").bid("3x3")
    assert free.palifico and free.players[free.turn].dice == 1
    value = free.bid_refusal(Bid(3, 2))
    assert value.code is MoveRefusal.NOT_HIGHER and value.verdict.previous == Bid(3, 3)


def test_every_code_is_covered_and_the_bid_codes_are_legalitys():
    bid_codes = {MoveRefusal.of_bid(refusal) for refusal in Refusal}
    assert {refusal.value for refusal in Refusal} == {code.value for code in bid_codes}
    covered = {case[2].code for case in CASES}
    covered |= {state.bid_refusal(Bid.parse(text)).code for state, text, _ in BID_CASES}
    covered |= {MoveRefusal.PALIFICO_FACE_FROZEN, MoveRefusal.NOT_HIGHER}  # the test above
    covered |= {MoveRefusal.GAME_TOO_LONG}  # tests/test_game_limits.py
    assert covered == set(MoveRefusal)
    assert set(MoveRefusal) - bid_codes == {case[2].code for case in CASES} | {
        MoveRefusal.GAME_TOO_LONG}


# --- the one decision of who may call --------------------------------------------------------


SWITCHES = ("salsa", "calza", "calza_out_of_turn", "calza_heads_up")


@pytest.mark.parametrize("flags", list(itertools.product([False, True], repeat=len(SWITCHES))))
def test_who_may_call_by_brute_force(flags):
    """Every caller, turn, last bidder and table size against the rules written as a table."""
    rules = Rules(**dict(zip(SWITCHES, flags, strict=True)))
    for caller, turn, last, left in itertools.product(range(3), range(3), (None, 0, 1, 2),
                                                      (2, 3)):
        out_of_turn = caller != turn
        dudo = dudo_refusal(rules, caller=caller, turn=turn, last_bidder=last)
        calza = calza_refusal(rules, caller=caller, turn=turn, last_bidder=last,
                              players_left=left)
        may_call = last is not None and caller != last
        assert (dudo is None) == (may_call and (not out_of_turn or rules.salsa))
        assert (calza is None) == (may_call and rules.calza
                                   and (not out_of_turn or rules.calza_out_of_turn)
                                   and (left > 2 or rules.calza_heads_up))
        if not rules.calza:
            assert calza is MoveRefusal.CALZA_OFF


def test_the_solver_asks_the_same_calza_question():
    for flags in itertools.product([False, True], repeat=len(SWITCHES)):
        rules = Rules(starting_dice=2, **dict(zip(SWITCHES, flags, strict=True)))
        allowed = calza_refusal(rules, caller=0, turn=0, last_bidder=1, players_left=2) is None
        assert (heads_up_calza_gain(rules, (1, 2), 0) is not None) == allowed
        if allowed:
            assert heads_up_calza_gain(rules, (1, 2), 0) == 1.0  # below the cap
            assert heads_up_calza_gain(rules, (1, 2), 1) == 0.0  # at the cap


# --- the game refuses exactly what it says it refuses ----------------------------------------

RULES = rules(3)


def random_state(rules: Rules, players: int, moves: int, rng: random.Random) -> GameState:
    """A game ``moves`` legal moves in (or over sooner), played by random legal moves."""
    state = GameState.new(NAMES[:players], rules, rng.randrange(players))
    for _ in range(moves):
        if state.is_over:
            break
        raises = legal_raises(state.last_bid, state.table_dice, palifico=state.palifico,
                              rules=rules, bidder_dice=state.players[state.turn].dice)
        if state.last_bid is None or (raises and rng.random() < 0.6):
            state = state.bid(rng.choice(raises[:6]))
        else:
            count = rng.randint(0, state.table_dice)
            state = state.calza(count) if state.calza_allowed() else state.dudo(count)
    return state


def random_event(state: GameState, rng: random.Random) -> Event:
    """Any move, legal or not: any seat (or none, or a bad one), any bid, any count."""
    seats = [*range(-1, len(state.players) + 1), None]
    seat = rng.choice(seats)
    kind = rng.choice(("bid", "dudo", "calza"))
    if kind == "bid":
        return BidMade(seat, Bid(rng.randint(1, state.table_dice + 2), rng.randint(1, 6)))
    count = rng.choice([-1, None, *range(state.table_dice + 2)])
    return (DudoCalled if kind == "dudo" else CalzaCalled)(seat, count)


@settings(max_examples=150, deadline=None)
@given(rules=RULES, players=st.integers(2, 5), moves=st.integers(0, 30),
       seed=st.integers(0, 2**32))
def test_the_game_refuses_exactly_when_its_refusal_says_so(rules, players, moves, seed):
    rng = random.Random(seed)
    state = random_state(rules, players, moves, rng)
    for _ in range(20):
        event = random_event(state, rng)
        refusal = state.refusal(event)
        if refusal is None:
            after = state.apply(event)
            seat = state.turn if event.seat is None else event.seat
            assert after.history[-1].seat == seat and len(after.history) == len(state.history) + 1
        else:
            with pytest.raises(IllegalMove) as error:
                state.apply(event)
            assert error.value.refusal == refusal
            assert str(error.value) == refusal.reason


@settings(max_examples=60, deadline=None)
@given(rules=RULES, players=st.integers(2, 5), moves=st.integers(1, 40),
       seed=st.integers(0, 2**32))
def test_the_coach_and_the_game_agree_on_who_may_call(rules, players, moves, seed):
    rng = random.Random(seed)
    state = random_state(rules, players, moves, rng)
    if state.is_over:
        return
    dice = tuple(player.dice for player in state.players)
    hand = Hand([2] * dice[state.turn])
    situation = Situation(rules, dice, state.turn, hand, state.bids, state.palifico)
    assert situation.may_dudo() == (state.dudo_refusal() is None)
    assert situation.may_calza() == state.calza_allowed()
