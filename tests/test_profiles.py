"""What showdowns teach the coach of each opponent, in the arena and in a tracked game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coach.engine.decide import CoachSettings
from coach.engine.profiles import (
    MARGINS,
    THRESHOLDS,
    OpponentProfiles,
    SeatRecord,
    _margin_of,
)
from coach.engine.showdown import Showdown
from coach.engine.situation import Situation
from coach.play.arena import play_game
from coach.play.bots import CoachBot, ProbabilityBot
from perudo_math import Bid, GameState, Hand, Rules, odds, smallest_raises

B = Bid.parse


def showdown(bids, count, hands=None, caller=2, kind="dudo", palifico=False) -> Showdown:
    return Showdown(tuple(bids), palifico, caller, kind, count, hands)


def test_with_no_evidence_every_seat_gets_the_population_prior():
    profiles = OpponentProfiles(bluff_prior=0.2, threshold_prior=0.45)
    assert profiles.bluff(3) == 0.2
    assert profiles.threshold(3) == 0.45
    assert profiles.held(3) == (0, 0)


def test_counts_alone_judge_only_the_bids_on_the_counted_face():
    profiles = OpponentProfiles()
    profiles.observe(showdown([(0, B("2x5")), (1, B("3x4")), (0, B("4x5"))], count=3),
                     me=None)
    assert profiles.held(0) == (1, 2)  # 2x5 held, 4x5 did not
    assert profiles.held(1) == (0, 0)  # fours were not counted


def test_bids_that_keep_failing_are_read_as_bluffs():
    honest, liar = OpponentProfiles(), OpponentProfiles()
    for _ in range(12):
        honest.observe(showdown([(0, B("2x5")), (1, B("3x5"))], count=4), me=None)
        liar.observe(showdown([(0, B("2x5")), (1, B("6x5"))], count=1), me=None)
    assert honest.bluff(1) < honest.bluff_prior < liar.bluff(1)
    assert liar.held(1) == (0, 12)


def test_whole_hands_teach_the_bluff_share_by_the_likelihood():
    profiles = OpponentProfiles()
    lying = (Hand([2, 2, 3, 3, 4]), Hand([6, 6, 2, 2, 3]), Hand([5, 5, 5, 1, 2]))
    truthful = (Hand([5, 5, 5, 1, 2]), Hand([5, 5, 1, 1, 3]), Hand([2, 2, 3, 3, 4]))
    for _ in range(10):
        profiles.observe(showdown([(0, B("3x5")), (1, B("5x5"))], count=6, hands=lying),
                         me=2)
    bluffer = profiles.bluff(0)
    profiles = OpponentProfiles()
    for _ in range(10):
        profiles.observe(showdown([(0, B("3x5")), (1, B("5x5"))], count=9, hands=truthful),
                         me=2)
    assert profiles.bluff(0) < bluffer


def test_calls_teach_a_seat_its_own_threshold():
    profiles = OpponentProfiles(threshold_prior=0.45, weight=2)
    hands = (Hand([2, 3]), Hand([4, 6]), Hand([5, 2]))
    for _ in range(20):  # seat 2 calls 2x5 with a five in hand, true 80 % from its dice
        profiles.observe(showdown([(0, B("1x5")), (1, B("2x5"))], count=2, hands=hands,
                                  caller=2), me=None)
    assert profiles.threshold(2) > 0.75


def test_raising_the_tables_face_without_holding_it_shows_a_bidder_who_reads_the_table():
    profiles = OpponentProfiles()
    hands = (Hand([1, 2, 3]), Hand([6, 6, 6]), Hand([3, 3, 2]))
    profiles.observe(showdown([(1, B("3x6")), (2, B("4x6"))], count=4, hands=hands), me=0)
    assert profiles.table_reading(1) == profiles.reading.table_reading  # an opening tells none
    assert profiles.table_reading(2) > profiles.reading.table_reading + 0.1
    for _ in range(6):
        profiles.observe(showdown([(1, B("3x6")), (2, B("4x6"))], count=4, hands=hands), me=0)
    assert profiles.table_reading(2) > 0.95


def test_the_coach_bot_reads_each_seat_as_far_as_it_reads_the_table():
    bot = CoachBot(random.Random(1))
    hands = (Hand([1, 2, 3]), Hand([6, 6, 6]), Hand([3, 3, 2]))
    bot.me = 0
    bot.observe(showdown([(1, B("3x6")), (2, B("4x6"))], count=4, hands=hands))
    reading = bot._settings_for(3).reading
    assert dict(reading.table_readings)[2] == bot.profiles.table_reading(2) > 0.6


def test_the_coach_bot_learns_from_the_arena_showdowns():
    bot = CoachBot(random.Random(1))
    play_game([lambda rng: bot, ProbabilityBot, ProbabilityBot], Rules(), random.Random(4))
    assert bot.profiles.seats
    assert bot.me not in bot.profiles.seats
    assert all(0.0 <= bot.profiles.bluff(seat) <= 1.0 for seat in bot.profiles.seats)


EXPECTED = {
    "en": ["Ann's bids held 3 times out of 4.", "Bob's bids held 2 times out of 2.",
           "Cleo's bids held 1 time out of 2."],
    "fr": ["Ann\u00a0: 3 annonces sur 4 se sont vérifiées.",
           "Bob\u00a0: 2 annonces sur 2 se sont vérifiées.",
           "Cleo\u00a0: 1 annonce sur 2 s'est vérifiée."],
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_tracker_words_how_each_players_bids_held(lang, monkeypatch):
    import views.i18n
    from views import tracker_view

    monkeypatch.setattr(views.i18n, "current_language", lambda: lang)
    game = GameState.new(["Ann", "Bob", "Cleo"], Rules())
    # Each round: the opener bids 2x5, the next 3x5, the third calls dudo; the loser opens.
    for count in (3, 1, 5, 4):
        game = game.bid(B("2x5")).bid(B("3x5")).dudo(count)
    shown = [line.replace("\u2068", "").replace("\u2069", "")  # the isolates around names
             for line in tracker_view.held_lines(game)]
    assert shown == EXPECTED[lang]
    bluffs = dict(tracker_view.bluffs_of(game))
    assert set(bluffs) == {0, 1, 2}
    assert bluffs[1] < bluffs[2]  # Bob's bids always held, Cleo's half the time


def test_callers_are_taken_to_call_more_readily_at_a_bigger_table():
    coach = CoachSettings(challenge_below=0.4, challenge_crowd=0.7)
    assert [round(coach.challenge_for(players), 3) for players in (2, 3, 4, 5, 6, 10)] == [
        0.4, 0.5, 0.6, 0.7, 0.7, 0.7]
    assert coach.threshold_of(1, 5) == 0.7  # nothing learned of seat 1: the table's own
    learned = CoachSettings(thresholds=((1, 0.3),))
    assert learned.threshold_of(1, 5) == learned.threshold_of(1, 2) == 0.3


def test_the_coach_bot_shrinks_what_it_learns_toward_the_tables_threshold():
    bot = CoachBot(random.Random(1), CoachSettings(challenge_below=0.4, challenge_crowd=0.7))
    five = Situation(Rules(), (5, 5, 5, 5, 5), 0, Hand([2, 3, 4, 4, 6]))
    bot(five)
    assert bot._learned.thresholds == ()  # nothing seen yet: the table's threshold, 0.7
    assert bot._learned.threshold_of(2, 5) == 0.7
    hands = (Hand([2, 3]), Hand([4, 6]), Hand([5, 2]), Hand([1, 1]), Hand([3, 3]))
    bot.observe(showdown([(0, B("1x5")), (1, B("2x5"))], count=2, hands=hands, caller=2))
    bot(five)
    at_five = dict(bot._learned.thresholds)[2]
    heads_up = Situation(Rules(), (0, 3, 2, 0, 0), 1, Hand([2, 3, 5]))
    bot(heads_up)
    alone = dict(bot._learned.thresholds)[2]
    # One call seen, weighed against ten decisions' worth of the table's prior: 0.7 or 0.4.
    weight = bot.profiles.weight
    assert at_five - alone == pytest.approx(round(weight / (weight + 1) * 0.3, 4), abs=2e-4)


def test_calls_teach_a_seat_its_own_call_margin():
    profiles = OpponentProfiles(margin_weight=2)
    hands = (Hand([2, 3]), Hand([4, 6]), Hand([5, 2]))
    # Seat 2 calls 2 × 5 holding a five. From its dice, 2 × 5 needs one five or paco among
    # four dice, true 1 − (2/3)^4; its likeliest raise, 1 × P, one paco among four, true
    # 1 − (5/6)^4: it called a bid it saw true more likely than its raise.
    first = showdown([(0, B("1x5")), (1, B("2x5"))], count=2, hands=hands, caller=2)
    gap = OpponentProfiles._gap(first, 2, B("2x5"), Rules())
    assert gap == pytest.approx(1 - (1 - (2 / 3) ** 4) - (1 - (5 / 6) ** 4))
    assert profiles.call_margin(2, 0.2) == 0.2  # nothing seen: the prior
    for _ in range(20):
        profiles.observe(first, me=None)
    assert profiles.call_margin(2, 0.2) < gap  # calls that readily: a margin below its gap
    # Seat 1 raised 1 × 5 to 2 × 5 every time: its margin is above what it saw there.
    raised = OpponentProfiles._gap(first, 1, B("1x5"), Rules())
    assert raised < profiles.call_margin(1, 0.2) < profiles.call_margin(1, 0.6)


def test_the_coach_bot_hands_each_seat_its_margin_to_the_rollouts():
    bot = CoachBot(random.Random(1))
    play_game([lambda rng: bot] + [ProbabilityBot] * 4, Rules(), random.Random(4))
    learned = bot._settings_for(5)
    assert {seat for seat, _ in learned.call_margins} == set(bot.profiles.seats)
    for seat, margin in learned.call_margins:
        assert learned.margin_of(seat) == margin
    assert learned.margin_of(99) == learned.rollout_call_margin
    quiet = CoachBot(random.Random(1), CoachSettings(learn_margins=False))
    play_game([lambda rng: quiet] + [ProbabilityBot] * 4, Rules(), random.Random(4))
    assert quiet._settings_for(5).call_margins == ()


def test_a_call_is_judged_through_the_bids_the_caller_had_read():
    # Seat 0 opened 2 × 5 and seat 1 raised to 3 × 5; seat 2 called. The rollouts' callers
    # see the dice they cannot see through the bids before the one they face, so the margin
    # they are fitted to is measured the same way: after an opening on fives, 3 × 5 looks
    # likelier to seat 2 than its own dice alone say, and its call took a wider margin.
    hands = (Hand([5, 5, 3]), Hand([2, 4, 6]), Hand([3, 4, 6]))
    called = showdown([(0, B("2x5")), (1, B("3x5"))], count=2, hands=hands, caller=2)
    profiles = OpponentProfiles()
    profiles.observe(called, me=None)
    (recorded, was_call), = profiles.seats[2].gaps
    assert was_call
    from_dice_alone = OpponentProfiles._gap(called, 2, B("3x5"), Rules())
    assert recorded < from_dice_alone - 0.02
    # Seat 1 raised the opening, the first bid: nothing before it to read.
    (raised, was_call), = profiles.seats[1].gaps
    assert not was_call
    assert raised == pytest.approx(OpponentProfiles._gap(called, 1, B("2x5"), Rules()))


def test_a_seat_is_never_taken_to_call_less_readily_than_the_prior():
    # Seat 1 raised 3 × 5 to 4 × 5 holding no five nor paco, a bid it saw likely false, over
    # and over: it calls less readily than any margin below that gap. Playing such seats as
    # calling late cost the coach against the adaptive readers; the prior stays their margin.
    hands = (Hand([5, 5, 1]), Hand([2, 3, 4]), Hand([6, 6, 2]))
    raised = showdown([(0, B("3x5")), (1, B("4x5"))], count=3, hands=hands, caller=2)
    profiles = OpponentProfiles(margin_weight=2)
    for _ in range(20):
        profiles.observe(raised, me=None)
    (gap, was_call), *_ = profiles.seats[1].gaps
    assert not was_call and gap > 0.3
    assert profiles.call_margin(1, 0.2) == 0.2
    assert profiles.call_margin(1, -0.5) == -0.5
    assert _margin_of(profiles.seats[1].margin_misses) > 0.3  # what it would have been taken for


@pytest.mark.parametrize("palifico", [False, True])
def test_a_gap_reads_its_chances_as_the_exact_odds_do(palifico):
    # The gap reads P(true) off a survival table (the rollouts' layout); on fair dice every
    # chance must be perudo_math's exact one, pacos counted as jokers only in normal rounds.
    rng = random.Random(11 + palifico)
    rules = Rules()
    for _ in range(60):
        hands = tuple(Hand([rng.randint(1, 6) for _ in range(rng.randint(1, 5))])
                      for _ in range(3))
        table = sum(len(hand) for hand in hands)
        face = rng.randint(1, 6)
        bid = Bid(rng.randint(1, max(1, table // 2 + 1)), face)
        if not palifico and face == 1:
            bid = Bid(max(1, bid.quantity // 2), 1)
        spot = showdown([(0, bid)], count=0, hands=hands, palifico=palifico)
        steps = smallest_raises(bid, palifico=palifico, rules=rules, bidder_dice=len(hands[1]))
        raised = max((odds(step, hands[1], table, palifico).at_least
                      for step in steps.values() if step.quantity <= table), default=0.0)
        exact = 1.0 - odds(bid, hands[1], table, palifico).at_least - raised
        assert OpponentProfiles._gap(spot, 1, bid, rules) == pytest.approx(exact, abs=1e-12)


decisions = st.lists(st.tuples(st.floats(-1.0, 1.0), st.booleans()), max_size=40)


@given(decisions, decisions)
def test_the_misses_counted_as_decisions_come_are_those_of_every_decision_at_once(faced, gaps):
    """A seat's fits read misses counted one decision at a time: the same counts as
    checking every cut against every decision seen."""
    record = SeatRecord()
    for chance, called in faced:
        record.add_faced(chance, called)
    for gap, called in gaps:
        record.add_gap(gap, called)
    assert record.faced == faced and record.gaps == gaps
    for cut, misses in zip(THRESHOLDS, record.threshold_misses, strict=True):
        assert misses == sum((chance < cut) != called for chance, called in faced)
    errors = [sum((gap > cut) != called for gap, called in gaps) for cut in MARGINS]
    assert record.margin_misses.tolist() == errors
    if gaps:  # the middle of the margins that misread fewest
        fewest = [cut for cut, misses in zip(MARGINS, errors, strict=True)
                  if misses == min(errors)]
        profiles = OpponentProfiles(weight=0.0, margin_weight=0.0, seats={1: record})
        assert profiles.call_margin(1, 1.0) == pytest.approx(fewest[len(fewest) // 2])


def test_a_seats_margin_is_shrunk_by_its_own_weight_not_the_other_estimates():
    # Four calls at a gap of 0.2 and four raises at 0.05: the margins misreading none run
    # from 0.05 up to below 0.2, so the fit is their middle, 0.1.
    record = SeatRecord()
    for _ in range(4):
        record.add_gap(0.2, True)
        record.add_gap(0.05, False)
    assert _margin_of(record.margin_misses) == pytest.approx(0.1)
    profiles = OpponentProfiles(weight=1000.0, margin_weight=2.0, seats={1: record})
    assert profiles.call_margin(1, 0.3) == pytest.approx((0.3 * 2 + 0.1 * 8) / (2 + 8))
    assert profiles.call_margin(1, 0.0) == 0.0  # never above the prior
