"""A game against the league's bots (``coach.play.bot_game``): reproducible from its seed and
the learner's moves, resumable from them, and played by the rules at every step."""

from __future__ import annotations

import random

import pytest

from coach import advise
from coach.engine.situation import DUDO, Action
from coach.play.bot_game import (
    ME,
    STYLES,
    BotGame,
    BotGameError,
    BotTable,
)
from coach.play.bots import BUILTIN_BOTS
from perudo_math import Bid, Rules


def played_out(game: BotGame, player=None) -> BotTable:
    """``game`` played to its end, the learner's moves chosen by ``player`` (the coach)."""
    table = BotTable(game)
    while not table.finished:
        assert table.my_turn
        table.play(player(table.situation) if player else advise(table.situation).action)
    return table


def test_the_same_seed_and_moves_replay_the_same_game_bot_for_bot():
    game = BotGame(7, ("reader", "liar", "tight"))
    first = played_out(game)
    assert first.state.is_over and first.state.winner is not None
    again = BotTable(first.game)  # only the seed, the styles and my moves
    assert again.steps == first.steps
    assert again.rounds == first.rounds
    assert again.state == first.state
    assert [d.situation for d in again.decisions] == [d.situation for d in first.decisions]


def test_a_game_resumed_from_its_moves_goes_on_as_if_never_stopped():
    game = BotGame(21, ("odds", "mix"))
    whole = played_out(game)
    half = len(whole.game.moves) // 2
    resumed = BotTable(BotGame(21, ("odds", "mix"), moves=whole.game.moves[:half]))
    for move in whole.game.moves[half:]:
        resumed.play(move)
    assert resumed.steps == whole.steps and resumed.state == whole.state


def test_each_seat_rolls_its_own_dice_whatever_came_before():
    """Two learners play the same seed differently: from round 2 on, every seat that holds
    as many dice in both games holds the same dice, whoever lost the die before."""
    a = played_out(BotGame(2, ("odds", "odds")), BUILTIN_BOTS["probability"](random.Random(1)))
    b = played_out(BotGame(2, ("odds", "odds")), BUILTIN_BOTS["n3"](random.Random(1)))
    assert a.rounds[0].hands == b.rounds[0].hands
    counts = [tuple(len(hand) for hand in played.hands) for played in a.rounds[1:4]]
    assert counts != [tuple(len(hand) for hand in played.hands) for played in b.rounds[1:4]]
    compared = 0
    for round_a, round_b in zip(a.rounds[1:4], b.rounds[1:4], strict=False):
        for hand_a, hand_b in zip(round_a.hands, round_b.hands, strict=True):
            if len(hand_a) == len(hand_b) and len(hand_a):
                assert hand_a == hand_b
                compared += 1
    assert compared >= 4


def test_a_table_of_more_than_thirty_dice_is_refused_and_the_set_up_says_how_many():
    assert BotGame.most_opponents(Rules()) == 5
    assert BotGame.most_opponents(Rules(starting_dice=10)) == 2
    assert BotGame.most_opponents(Rules(starting_dice=7)) == 3
    BotGame(1, ("reader",) * 2, Rules(starting_dice=10))
    with pytest.raises(BotGameError, match="at most 30 dice, not 4 players of 10"):
        BotGame(1, ("reader",) * 3, Rules(starting_dice=10))


def test_a_game_that_reaches_the_longest_a_game_may_be_stops_undecided(monkeypatch):
    import coach.play.bot_game as module

    monkeypatch.setattr(module, "MAX_ROUNDS", 2)
    table = played_out(BotGame(8, ("odds", "odds")))
    assert table.stopped and table.finished and not table.my_turn
    assert not table.state.is_over and len(table.rounds) == 2
    with pytest.raises(BotGameError, match="not your turn"):
        table.play(DUDO)


def test_other_seeds_deal_other_games():
    def first_hands(seed: int) -> tuple:
        table = BotTable(BotGame(seed, ("odds", "odds")))
        return table.rounds[0].hands if table.rounds else table.hands

    assert len({first_hands(seed) for seed in range(6)}) == 6


@pytest.mark.parametrize("styles", [("odds",), ("reader", "liar"), tuple(STYLES)])
def test_every_move_is_the_games_own_and_every_round_shows_every_cup(styles):
    table = played_out(BotGame(3, styles))
    assert len(table.steps) == len(table.state.history)
    for step, event in zip(table.steps, table.state.history, strict=True):
        assert step.seat == event.seat
        kind = {"BidMade": "raise", "DudoCalled": "dudo", "CalzaCalled": "calza"}
        assert step.action.kind == kind[type(event).__name__]
        assert step.action.bid == getattr(event, "bid", None)
    assert len(table.rounds) == len(table.state.results)
    for played in table.rounds:
        assert tuple(len(hand) for hand in played.hands) == _dice_before(table, played.number)
        counted = sum(hand.count(played.result.bid.face, palifico=played.result.palifico)
                      for hand in played.hands)
        assert counted == played.result.count


def _dice_before(table: BotTable, number: int) -> tuple[int, ...]:
    state = table.state.restart()
    for event in table.state.history:
        if state.round_number == number:
            break
        state = state.apply(event)
    return tuple(player.dice for player in state.players)


def test_the_learner_out_of_the_game_watches_the_bots_finish_it():
    """A learner who calls dudo on everything loses their dice; the bots play on."""
    game = BotGame(9, ("odds", "odds"))
    table = BotTable(game)
    while table.my_turn:
        situation = table.situation
        move = DUDO if situation.may_dudo() else Action.raise_to(
            Bid(situation.table_dice, 6))
        table.play(move)
    assert table.state.is_over
    assert table.state.players[ME].dice == 0 and table.state.winner != ME


def test_the_rules_of_the_game_are_the_ones_played():
    rules = Rules(starting_dice=2, calza=False)
    table = played_out(BotGame(4, ("odds", "tight"), rules))
    assert table.state.rules == rules
    assert all(step.action.kind != "calza" for step in table.steps)


def test_moves_round_trip_as_text():
    moves = (Action.raise_to("3x4"), DUDO, Action.parse("calza"), Action.raise_to("5xP"))
    game = BotGame(1, ("odds",), moves=moves)
    assert game.moves_text() == "3x4.dudo.calza.5xP"
    assert BotGame.read_moves(game.moves_text()) == moves
    assert BotGame.read_moves("") == ()


@pytest.mark.parametrize(("make", "words"), [
    (lambda: BotGame(-1, ("odds",)), "a seed is a whole number"),
    (lambda: BotGame(2**63, ("odds",)), "a seed is a whole number"),
    (lambda: BotGame(True, ("odds",)), "a seed is a whole number"),
    (lambda: BotGame(1, ()), "1 to 5 opponents, not 0"),
    (lambda: BotGame(1, ("odds",) * 6), "1 to 5 opponents, not 6"),
    (lambda: BotGame(1, ("shark",)), "unknown style 'shark'"),
    (lambda: BotGame.read_moves("3x4..dudo"), "move 2 is not a move"),
    (lambda: BotGame.read_moves("3x7"), "move 1 is not a move"),
    (lambda: BotGame.read_moves("dudo." * 4000), "longer than any game"),
    (lambda: BotTable(BotGame(3, ("odds",), moves=(DUDO, DUDO))), "is not legal"),
])
def test_a_game_that_cannot_be_is_refused_with_a_precise_message(make, words):
    with pytest.raises(BotGameError, match=words):
        make()


def test_a_move_after_the_end_of_the_game_is_refused_with_its_number():
    whole = played_out(BotGame(2, ("odds",)))
    extra = (*whole.game.moves, DUDO)
    with pytest.raises(BotGameError) as refused:
        BotTable(BotGame(2, ("odds",), moves=extra))
    assert refused.value.move_number == len(extra)
    assert "not your turn" in str(refused.value)


def test_my_decisions_keep_the_dice_of_their_own_round():
    table = played_out(BotGame(657572, ("odds", "odds")))
    for decision in table.decisions:
        situation = decision.situation
        assert tuple(len(hand) for hand in decision.hands) == situation.dice
        assert decision.hands[ME] == situation.hand


def test_a_move_made_on_an_earlier_turn_is_dropped():
    table = BotTable(BotGame(12, ("odds", "odds")))
    first = advise(table.situation).action
    assert table.play_at(first, 0)
    moves = len(table.game.moves)
    assert not table.play_at(DUDO, 0)  # a second tap on the first turn's screen
    assert len(table.game.moves) == moves == 1
    assert table.play_at(advise(table.situation).action, 1)
