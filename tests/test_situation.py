"""One table state (issue 30, point 1): the game gives each player's view, a table known by its
dice and players gives seat 0's through one constructor, the game and the view read the round's
bids through one definition, and a view is a value the app's caches key on."""

from __future__ import annotations

import re

import pytest

import coach
from perudo_math import MAX_MOVES, Bid, GameState, Hand, RoundBids, Rules, Situation
from perudo_math.situation import even_split, spoken_in_turn
from tests.long_round import long_round

HAND = Hand([1, 2, 2, 3, 4, 4, 5, 5, 6, 6])


def test_the_coach_names_the_one_situation() -> None:
    assert coach.Situation is Situation
    assert coach.engine.situation.Situation is Situation


@pytest.mark.parametrize("name", ["last_bid", "last_bidder"])
def test_the_game_and_the_view_share_one_reading_of_the_bids(name: str) -> None:
    assert name not in vars(GameState) and name not in vars(Situation)
    assert getattr(GameState, name) is getattr(Situation, name) is vars(RoundBids)[name]


def test_the_game_gives_each_players_view() -> None:
    game = GameState.new(["Ana", "Bo", "Cy"], Rules(calza_heads_up=True)).bid("2x3").bid("3x3")
    game = game.change_rule("salsa", True)
    view = game.situation(2, [6, 1, 2, 2, 5])
    assert view == Situation(game.rules, (5, 5, 5), 2, Hand([1, 2, 2, 5, 6]),
                             ((0, Bid(2, 3)), (1, Bid(3, 3))))
    assert view.rules.salsa and view.rules.calza_heads_up  # the rules in force now
    assert view.bids is game.bids  # shared, not copied: a round may hold thousands
    assert (view.last_bid, view.last_bidder) == (game.last_bid, game.last_bidder)
    assert game.situation(2, "1 2 2 5 6") == view == game.situation(2, view.hand)


def test_a_view_after_a_seat_is_out() -> None:
    game = GameState.new(["Ana", "Bo", "Cy"], Rules(starting_dice=1))
    game = game.bid("1x3").dudo(0)  # Ana bid 1 × 3, Bo called, nobody held one: Ana is out
    assert game.players[0].dice == 0 and game.turn == 1
    view = game.situation(1, [4])
    assert view.dice == (0, 1, 1) and view.next_seat() == 2 and view.next_seat(2) == 1
    assert view.bids == () and view.last_bid is None and view.last_bidder is None
    with pytest.raises(ValueError, match=r"^an eliminated player has no turn$"):
        game.situation(0, [])


@pytest.mark.parametrize(("seat", "hand", "message"), [
    (0, [1, 2], "your hand has 2 dice but your seat holds 5"),
    (3, [1], "seat 3 is not at a table of 2"),
    (0, "x", "GameState.situation: hand: a die shows 1 (paco) to 6, not 'x'"),
])
def test_a_view_the_game_cannot_give_is_refused_in_words(seat, hand, message) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        GameState.new(["Ana", "Bo"]).situation(seat, hand)


def test_the_odds_pages_inputs_give_seat_zeros_view() -> None:
    view = Situation.at_table(Rules(), Hand([1, 2]), 8, 3, [Bid(2, 3), Bid(3, 3)], True)
    assert view == Situation(Rules(), (2, 3, 3), 0, Hand([1, 2]),
                             ((1, Bid(2, 3)), (2, Bid(3, 3))), palifico=True)
    assert view.next_seat(view.last_bidder) == view.me  # the last bid: the seat before mine
    assert Situation.at_table(Rules(), Hand([4]), 4, 4) == Situation(Rules(), (1, 1, 1, 1), 0,
                                                                     Hand([4]))


@pytest.mark.parametrize(("hand", "table", "players", "split"), [
    (5, 20, 4, (5, 5, 5, 5)), (2, 8, 3, (2, 3, 3)), (1, 9, 4, (1, 3, 3, 2)),
    (3, 4, 2, (3, 1)),
])
def test_the_even_split(hand: int, table: int, players: int, split: tuple[int, ...]) -> None:
    assert even_split(hand, table, players) == split


@pytest.mark.parametrize(("args", "message"), [
    ((2, 3, 3), "2 other players need at least 2 dice between them, but the table has only 1 "
                "besides yours"),
    ((1, 5, 1), "a table seats 2 to 10 players, not 1"),
    ((1, 5, True), "even_split: players must be a whole number, not True"),
])
def test_a_split_that_cannot_be_is_refused(args, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        even_split(*args)


def test_bids_spoken_in_turn_end_with_the_seat_before_mine() -> None:
    bids = [Bid(1, 2), Bid(2, 2), Bid(3, 2)]
    assert spoken_in_turn(bids, 3) == ((0, bids[0]), (1, bids[1]), (2, bids[2]))
    assert spoken_in_turn(bids[:1], 4) == ((3, bids[0]),)


def test_a_view_is_a_value_equal_views_hash_alike() -> None:
    game = GameState.new(["Ana", "Bo", "Cy"]).bid("2x3")
    view = game.situation(1, [1, 2, 3, 4, 5])
    again = Situation.from_json(view.to_json())
    assert again is not view and again == view and hash(again) == hash(view)
    assert len({view, again, game.situation(1, [1, 2, 3, 4, 6])}) == 2


def test_hashing_a_view_does_not_read_every_bid(monkeypatch) -> None:
    """The app's caches hash a view at every lookup: a round of 2,999 bids costs what one
    does. Counted, not timed: the bids hashed while hashing the view."""
    view = long_round(MAX_MOVES - 1).situation(9, HAND)
    hashed = []
    bid_hash = Bid.__hash__
    monkeypatch.setattr(Bid, "__hash__", lambda bid: hashed.append(bid) or bid_hash(bid))
    hash(view)
    assert len(view.bids) == MAX_MOVES - 1 and len(hashed) <= 1


def test_the_apps_caches_key_on_the_view_however_it_was_built() -> None:
    """The odds page's inputs and a tracked game at the same table are one cache key."""
    from views.engine_cache import Table, cached_advice, cached_smallest_raises

    hand = Hand([1, 2, 2, 5, 6])
    tracked = GameState.new(["Ana", "Bo", "Cy"], first_opener=2).bid("2x3").situation(0, hand)
    typed = Situation.at_table(Rules(), hand, 15, 3, [Bid(2, 3)])
    read = Situation.from_json(tracked.to_json())
    assert len({id(tracked), id(typed), id(read)}) == 3
    advice = cached_advice(Table(tracked), True)
    assert cached_advice(Table(typed), True) is advice is cached_advice(Table(read), True)
    raises = cached_smallest_raises(Bid(2, 3), False, Rules(), 5)
    assert cached_smallest_raises(Bid(2, 3), False, Rules.from_dict({}), 5) is raises
