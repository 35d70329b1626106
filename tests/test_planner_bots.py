"""The planner and the adaptive reader: legal in every situation, replayed from the seed,
loaded by name, and learning what they claim from the showdowns."""

from __future__ import annotations

import random

import pytest

from coach.engine.showdown import Showdown
from coach.engine.situation import Action, ActionKind, Situation
from coach.play.arena import play_game
from coach.play.bots import BUILTIN_BOTS, load_bot
from coach.play.league import LeagueSpec
from coach.play.names import BOT_NAMES, DEFAULT_OPPONENTS
from coach.play.opponents import OPPONENTS, AdaptiveBot, PlannerBot, ReaderBot
from coach.play.opponents.adaptive import SeatRecord
from coach.play.opponents.planner import PlanSettings
from perudo_math import Bid, Hand, Rules, legal_raises
from tests.test_opponents import RULE_VARIANTS, play_with_showdowns, random_situation

NEW_BOTS = {"planner": PlannerBot, "adaptive": AdaptiveBot}

SPOTS = [random_situation(random.Random(f"planner-spot:{index}")) for index in range(150)]


def round_situations(rng: random.Random) -> list[Situation]:
    """One round as a seat sees it bid by bid: the same hand, a legal run of raises."""
    rules = rng.choice(RULE_VARIANTS)
    players = rng.randint(2, 6)
    dice = tuple(rng.randint(1, rules.starting_dice) for _ in range(players))
    palifico = rng.random() < 0.2
    me = rng.randrange(players)
    hand = Hand(rng.randint(1, 6) for _ in range(dice[me]))
    bids: list[tuple[int, Bid]] = []
    seat = rng.randrange(players)
    previous = None
    views = []
    for _ in range(rng.randint(1, 8)):
        if seat == me:
            views.append(Situation(rules, dice, me, hand, tuple(bids), palifico))
        options = legal_raises(previous, sum(dice), palifico=palifico, rules=rules,
                               bidder_dice=dice[seat])
        if not options:
            break
        previous = rng.choice(options[:8])
        bids.append((seat, previous))
        seat = (seat + 1) % players
    return views


@pytest.mark.parametrize("name", sorted(NEW_BOTS))
def test_every_move_is_legal_in_any_situation(name):
    bot = NEW_BOTS[name](random.Random(0))  # one bot for every spot: its memory too
    for spot in SPOTS:
        action = bot(spot)
        assert isinstance(action, Action)
        assert spot.is_legal(action), (name, spot.to_json(), str(action))


@pytest.mark.parametrize("name", sorted(NEW_BOTS))
def test_every_move_is_legal_along_rounds(name):
    rng = random.Random(f"{name}:rounds")
    for game in range(40):
        bot = NEW_BOTS[name](random.Random(game))
        for spot in round_situations(rng):
            assert spot.is_legal(bot(spot)), (name, spot.to_json())


@pytest.mark.parametrize("name", sorted(NEW_BOTS))
def test_the_same_seed_replays_the_same_moves(name):
    seated = [NEW_BOTS[name], ReaderBot, ReaderBot, ReaderBot]
    first = play_with_showdowns(seated, Rules(), 21)
    assert first == play_with_showdowns(seated, Rules(), 21)
    assert len(first[1]) > 20


def test_the_planners_deals_come_from_the_seed():
    opening = Situation(Rules(), (5, 5, 5, 5, 5), 0, Hand([2, 3, 4, 5, 6]))
    spot = Situation(Rules(), (5, 5, 5, 5, 5), 0, Hand([2, 3, 4, 5, 6]),
                     ((3, Bid(5, 4)), (4, Bid(6, 4))))
    for situation in (opening, spot):
        moves = {str(PlannerBot(random.Random(seed), PlanSettings(samples=8))(situation))
                 for seed in range(12)}
        assert len(moves) > 1  # few deals: the seed shows
        again = [str(PlannerBot(random.Random(3), PlanSettings(samples=8))(situation))
                 for _ in range(3)]
        assert len(set(again)) == 1


@pytest.mark.parametrize("players", [2, 3, 6])
def test_whole_games_end_with_one_winner(players):
    seated = [PlannerBot, AdaptiveBot, *[OPPONENTS["mix"]] * (players - 2)]
    winner, moves = play_with_showdowns(seated, Rules(raise_rule="any-face"), players)
    assert 0 <= winner < players and moves


@pytest.mark.parametrize("name", sorted(NEW_BOTS))
def test_each_is_a_league_bot_by_name(name):
    assert OPPONENTS[name] is NEW_BOTS[name]
    assert load_bot(name) is BUILTIN_BOTS[name] is NEW_BOTS[name]
    assert name in BOT_NAMES and name in DEFAULT_OPPONENTS
    assert name in LeagueSpec().bots()
    assert 0 <= play_game([load_bot(name), load_bot("reader")], Rules(),
                          random.Random(1), [name, "reader"]) < 2


def test_a_sure_dudo_is_called():
    """A bid above the table loses for sure: both call it."""
    spot = Situation(Rules(), (3, 3), 0, Hand([2, 3, 4]), ((1, Bid(7, 5)),))
    for factory in NEW_BOTS.values():
        assert factory(random.Random(0))(spot).kind == ActionKind.DUDO


# --- What the adaptive reader learns -----------------------------------------------------


def bluffing_rounds(bot: ReaderBot, rounds: int = 8) -> None:
    """Seat 1 bids sixes it never holds, and is called."""
    bot(Situation(Rules(), (5, 5, 5), 0, Hand([2, 3, 4, 5, 5])))  # it learns its seat
    for _ in range(rounds):
        bids = ((1, Bid(4, 6)), (2, Bid(3, 2)), (0, Bid(4, 2)), (1, Bid(5, 6)))
        hands = (Hand([2, 3, 4, 5, 5]), Hand([2, 2, 3, 3, 4]), Hand([2, 3, 4, 4, 5]))
        count = sum(hand.count(6) for hand in hands)
        bot.observe(Showdown(bids, False, 2, "dudo", count, hands))


def test_a_seat_whose_bids_fail_is_read_as_less_likely_true():
    bot = AdaptiveBot(random.Random(0))
    assert bot.shift(1) == 0.0
    bluffing_rounds(bot)
    record = bot.records[1]
    assert record.bids == 16 and record.held == 0 and record.bluff_share == 1.0
    assert bot.shift(1) < -0.5
    assert 0 not in bot.records  # its own bids are not learned


def test_the_adaptive_planner_calls_a_bluffer_the_planner_believes():
    adaptive, planner = AdaptiveBot(random.Random(0)), PlannerBot(random.Random(0))
    for bot in (adaptive, planner):
        bluffing_rounds(bot, rounds=12)  # both learn from the same showdowns, deal alike
    found = None
    for quantity in range(2, 8):
        spot = Situation(Rules(), (5, 5, 5), 2, Hand([2, 3, 4, 5, 5]),
                         ((1, Bid(quantity, 6)),))
        if adaptive(spot).kind == ActionKind.DUDO and planner(spot).kind != ActionKind.DUDO:
            found = quantity
            break
    assert found is not None


def calling_rounds(bot: AdaptiveBot, rounds: int = 10) -> None:
    """Seat 2 calls dudo on a bid its own dice make sure."""
    bot(Situation(Rules(), (5, 5, 5), 0, Hand([2, 3, 4, 5, 5])))  # it learns its seat
    for _ in range(rounds):
        bids = ((1, Bid(2, 3)),)
        hands = (Hand([2, 3, 4, 5, 5]), Hand([2, 2, 3, 3, 4]), Hand([1, 3, 3, 4, 5]))
        count = sum(hand.count(3) for hand in hands)
        bot.observe(Showdown(bids, False, 2, "dudo", count, hands))


def test_the_showdowns_record_each_call_and_the_rollouts_use_the_fitted_margin():
    bot = AdaptiveBot(random.Random(0))
    calling_rounds(bot)
    record = bot.records[2]
    assert record.faced == 10 and record.called == 10
    assert bot.records[1].bids == 10 and bot.records[1].held == 10
    margins = bot.call_margins(Situation(Rules(), (5, 5, 5), 0, Hand([2, 3, 4, 5, 5])))
    assert margins == {1: bot.margin(1), 2: bot.margin(2)}


def test_a_seat_that_calls_readily_is_given_a_lower_margin():
    record = SeatRecord()
    for _ in range(20):
        record.learn_call(doubt=0.4, best=0.6, called=True)
    bot = AdaptiveBot(random.Random(0))
    bot.records[1] = record
    assert bot.margin(1) < bot.settings.call_margin - 0.2


def test_a_seat_that_never_calls_is_given_a_higher_margin():
    record = SeatRecord()
    for _ in range(20):
        record.learn_call(doubt=0.8, best=0.3, called=False)
    bot = AdaptiveBot(random.Random(0))
    bot.records[1] = record
    assert bot.margin(1) > bot.settings.call_margin + 0.2
