"""No valid game costs more than a normal one by much (issue 31, point 1).

The coach reads the first ``TABLE_READ_BIDS`` bids of a round's useful range
(``perudo_math.useful_range``), each bid once however the round is followed, in
memory that does not grow with the round: these tests count the work and the bytes
(tracemalloc), never the clock. The speed is measured beside a
normal spot in ``tests/benchmarks/test_bench_long_round.py``.
"""

from __future__ import annotations

import json
import random
import sys
import tracemalloc
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coach import DUDO, BidReading, Situation, TableBeliefs, advise, count_shift
from coach.engine import beliefs, decide, rollout
from coach.engine.beliefs import (
    TABLE_READ_BIDS,
    PublicReading,
    RoundReading,
    _convolve_rows,
    clear_caches,
    hand_posterior,
    public_posteriors,
    round_reading,
)
from coach.engine.hands import choice_table, hand_space, numpy_row_sums, uniform_survival
from coach.engine.rollout import raise_outcomes
from coach.review import decision_rounds, review, tracked_decision, tracked_decisions
from perudo_math import (
    MAX_MOVES,
    Bid,
    BidMade,
    CalzaCalled,
    DudoCalled,
    GameState,
    Hand,
    Rules,
)
from tests.long_round import ANY_FACE, NAMES, finished_long_round, hands_of, long_round
from tests.strategies import read_rounds

HAND = Hand([1, 2, 2, 3, 4, 4, 5, 5, 6, 6])
USEFUL = 500
"""The issue round's useful range: every quantity up to the table's 100 dice, five faces."""


def spot_after(bids: int, rules: Rules = ANY_FACE) -> Situation:
    """The issue's round after ``bids`` bids, the next seat (holding :data:`HAND`) to act."""
    game = long_round(bids, rules)
    me = game.turn
    assert me is not None
    return Situation(game.rules, tuple(player.dice for player in game.players), me, HAND,
                     game.bids, game.palifico)


def B(text: str) -> Bid:
    return Bid.parse(text)


# --- the useful range, as the coach reads it -----------------------------------------------


def test_bids_from_the_first_above_the_table_on_are_not_read():
    dice, hand = (5, 5, 5, 5), Hand([1, 2, 3, 4, 5])
    useful = ((1, B("3x4")), (2, B("5x4")))
    decided = (*useful, (3, B("21x4")), (1, B("11xP")))  # 11 × P: legal, within the table
    full = TableBeliefs(Situation(Rules(), dice, 2, hand, decided))
    cut = TableBeliefs(Situation(Rules(), dice, 2, hand, useful))
    assert full.reads_seat(1) and not full.reads_seat(3)  # seat 3 only bid above the table
    for face in (1, 4, 6):
        for seat in (1, 3):
            assert np.array_equal(full.seat_counts(seat, face), cut.seat_counts(seat, face))


def test_public_posteriors_read_the_useful_range_only():
    dice = (5, 5, 5)
    reading = PublicReading.of(BidReading(), 3)
    useful = ((0, B("2x3")), (1, B("3x3")))
    decided = (*useful, (2, B("16x3")), (0, B("8xP")))
    for kept, cut in zip(public_posteriors(dice, decided, False, Rules(), reading),
                         public_posteriors(dice, useful, False, Rules(), reading), strict=True):
        assert (kept is None and cut is None) or np.array_equal(kept, cut)


# --- memory: flat in the round's length ----------------------------------------------------


def advice_peak(spot: Situation) -> int:
    """The most bytes held at once while the coach advises on ``spot`` from cold caches."""
    clear_caches()
    tracemalloc.start()
    try:
        advise(spot)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


NORMAL_PEAK: list[int] = []
MORE_THAN_NORMAL = 2_000_000
"""How many more bytes a spot of any length may hold than a normal one: the posteriors of
eighty seats of ten dice. Main's reading, which held every prefix of a round, held about
0.3 MB more a bid (870 MB at 2,999 bids); holding each state read, 24 kB a bid, fails too
once the bids read are not bounded (checked by breaking the reading both ways)."""


def normal_peak() -> int:
    if not NORMAL_PEAK:
        advice_peak(spot_after(9))  # the first advice builds what every later one reuses
        NORMAL_PEAK.append(advice_peak(spot_after(9)))  # one bid a player: a normal spot
    return NORMAL_PEAK[0]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bids=st.one_of(st.integers(USEFUL - 20, USEFUL + 20), st.integers(10, MAX_MOVES - 1)))
def test_advice_holds_no_more_memory_on_a_long_round_than_on_a_normal_one(bids):
    peak = advice_peak(spot_after(bids))
    assert peak <= normal_peak() + MORE_THAN_NORMAL, (
        f"{bids} bids: {peak / 1e6:.2f} MB, a normal spot {normal_peak() / 1e6:.2f} MB")


def test_the_readings_kept_are_few_whatever_was_read():
    reading = PublicReading.of(BidReading(), 10)
    spot = spot_after(120)
    for length in range(1, 120):
        round_reading(spot.dice, spot.bids[:length], False, spot.rules, reading)
    assert len(beliefs._PUBLIC_CACHE) <= beliefs._PUBLIC_CACHE_SIZE


# --- work: each bid read once ----------------------------------------------------------------


class Tally:
    """Counts the bids read (each bid read is one :meth:`RoundReading.made`)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.bids = 0
        made = RoundReading.made

        def counted(reading: RoundReading, *args, **kwargs) -> RoundReading:
            self.bids += 1
            return made(reading, *args, **kwargs)

        monkeypatch.setattr(RoundReading, "made", counted)


def test_a_review_of_a_long_round_reads_each_read_bid_once(monkeypatch):
    clear_caches()
    game = finished_long_round(USEFUL + 100)
    decisions = tracked_decisions(game, 9, {1: HAND})
    tally = Tally(monkeypatch)
    reviewed = review(decisions)
    assert len(reviewed.moves) == len(decisions) == 60
    assert tally.bids == TABLE_READ_BIDS


def test_advice_at_every_turn_of_a_long_round_reads_each_read_bid_once(monkeypatch):
    clear_caches()
    game = long_round(USEFUL)
    tally = Tally(monkeypatch)
    reading = PublicReading.of(BidReading(), 10)
    dice = tuple(player.dice for player in game.players)
    for turn in range(0, USEFUL + 1, 7):
        round_reading(dice, game.bids[:turn], False, game.rules, reading)
    assert tally.bids == TABLE_READ_BIDS


def test_the_count_shift_of_a_long_round_reads_it_once_more(monkeypatch):
    clear_caches()
    spot = spot_after(USEFUL + 300)
    tally = Tally(monkeypatch)
    shift = count_shift(spot, 5)
    assert tally.bids <= 2 * TABLE_READ_BIDS  # the reading, and the one pass for the steps
    others = sum(1 for seat, _ in spot.bids[:TABLE_READ_BIDS] if seat != spot.me)
    assert sum(len(seat.steps) for seat in shift.seats) == others


def test_bids_past_the_first_read_ones_tell_nothing():
    """Every bid of the useful range past the first ``TABLE_READ_BIDS``: the beliefs are
    those of the first ones, to the last bit."""
    clear_caches()
    spot = spot_after(USEFUL - 1)
    first = TableBeliefs(replace(spot, bids=spot.bids[:TABLE_READ_BIDS]))
    whole = TableBeliefs(spot)
    for face in range(1, 7):
        assert np.array_equal(whole.distribution(face), first.distribution(face))
        for seat in range(9):
            assert np.array_equal(whole.seat_counts(seat, face), first.seat_counts(seat, face))


# --- the same numbers, bid by bid ------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(read_rounds())
def test_each_bids_step_is_the_reading_of_the_round_up_to_it(drawn):
    spot, face = drawn
    shift = count_shift(spot, face)
    for seat in shift.seats:
        for step in seat.steps:
            upto = TableBeliefs(replace(spot, bids=spot.bids[:step.position + 1]), BidReading())
            counts = upto.seat_counts(seat.seat, face)
            assert step.after == pytest.approx(float(np.dot(np.arange(len(counts)), counts)),
                                               abs=1e-12)


def convolved_one_term_after_another(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The convolution of each row as the reading first added its terms, one shift at a
    time: the exact sums the coach's numbers rest on."""
    if a.shape[1] < b.shape[1]:
        a, b = b, a
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1))
    for shift in range(b.shape[1]):
        out[:, shift:shift + a.shape[1]] += a * b[:, shift, None]
    return out


@settings(max_examples=200, deadline=None)
@given(length=st.integers(1, 101), steps=st.integers(1, 11), seed=st.integers(0, 2**32 - 1),
       power=st.integers(1, 40))
def test_counts_are_convolved_to_the_same_last_bit(length, steps, seed, power):
    rng = np.random.default_rng(seed)
    a, b = rng.random((6, length)) ** power, rng.random((6, steps))
    assert np.array_equal(_convolve_rows(a, b), convolved_one_term_after_another(a, b))


def test_a_seats_posterior_extends_the_one_of_its_bids_but_the_last():
    bids = (B("2x4"), B("3x4"), B("5x6"), B("7x6"))
    args = (5, 20, False, 0.3, 1.5, 0.2)
    clear_caches()
    whole = hand_posterior(5, bids, *args[1:])
    clear_caches()
    for length in range(1, len(bids) + 1):
        step = hand_posterior(5, bids[:length], *args[1:])
    assert np.array_equal(step, whole)


# --- a round decided: no play-outs for a raise above the table -----------------------------


def test_raises_above_the_table_lose_for_sure_without_being_played_out(monkeypatch):
    spot = spot_after(MAX_MOVES - 1)
    raises = [option.action.bid for option in advise(spot).options
              if option.action.bid is not None]
    assert raises and all(bid.quantity > spot.table_dice for bid in raises)
    beliefs_ = TableBeliefs(spot)
    played = raise_outcomes(spot, raises, beliefs_.hand_weights,
                            lambda seat: decide.CoachSettings().threshold_of(seat, 10), 256,
                            beliefs_.view_of, decide.CoachSettings().rollout_call_margin).lose
    assert list(played) == [1.0] * len(raises)  # what playing them out would say

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("a raise above the table was played out")

    monkeypatch.setattr(decide, "raise_outcomes", refuse)
    advice = advise(spot)
    assert advice.action == DUDO and advice.reason.code == "bid-above-table"
    assert all(option.lose == 1.0 and option.challenge == 1.0
               for option in advice.options if option.action.bid)


def test_a_long_round_is_reviewed_to_its_end():
    game = finished_long_round(USEFUL + 30)
    reviewed = review(tracked_decisions(game, 9, {1: HAND}))
    last = reviewed.moves[-1]
    assert last.best == DUDO and last.best_option.lose == 0.0
    assert last.played.kind == "raise" and last.played_option.lose == 1.0


def test_a_readings_numbers_do_not_depend_on_what_was_kept():
    game = long_round(TABLE_READ_BIDS + 60)
    dice = tuple(player.dice for player in game.players)
    reading = PublicReading.of(BidReading(), 10)
    clear_caches()
    whole = round_reading(dice, game.bids, False, game.rules, reading)
    clear_caches()
    for turn in range(0, len(game.bids) + 1, 9):
        round_reading(dice, game.bids[:turn], False, game.rules, reading)
    followed = round_reading(dice, game.bids, False, game.rules, reading)
    assert followed is not whole
    for one, other in zip(whole.hands, followed.hands, strict=True):
        assert np.array_equal(one, other)


def test_spots_past_the_table_share_their_beliefs_and_get_the_numbers_of_their_own():
    """The spots of a round past its useful range read the same bids: the second is advised
    from the first's beliefs (weighed once, not again for each of hundreds of spots), and
    its numbers are those it gets alone from cold caches, to the last bit."""
    game = long_round(USEFUL + 40)
    spots = [game.situation(game.turn, HAND)]
    for _ in range(10):  # ten more bids past the table, back to the same seat
        game = game.apply(BidMade(None, game.smallest_raises()[2]))
    spots.append(game.situation(game.turn, HAND))
    made = []
    original = TableBeliefs.__init__

    def counted(self, *args, **kwargs):
        made.append(self)
        original(self, *args, **kwargs)

    clear_caches()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TableBeliefs, "__init__", counted)
        followed = [advise(spot) for spot in spots]
    assert len(made) == 1 and made[0].reads_as(spots[1])
    clear_caches()
    alone = advise(spots[1])
    assert followed[1] == alone and followed[1].options != followed[0].options


def test_spots_that_read_other_bids_or_hold_other_dice_do_not_share_beliefs():
    game = long_round(TABLE_READ_BIDS - 5)
    spot = game.situation(game.turn, HAND)
    beliefs = TableBeliefs(spot)
    assert beliefs.reads_as(spot)
    one_more = game.apply(BidMade(None, game.smallest_raises()[2]))
    later = one_more.apply(BidMade(None, one_more.smallest_raises()[2]))
    assert not beliefs.reads_as(later.situation(later.turn, HAND))  # new bids read
    other_hand = Hand([6] * 10)
    assert not beliefs.reads_as(replace(spot, hand=other_hand))
    assert not beliefs.reads_as(replace(spot, palifico=True))


def test_a_games_view_is_the_one_the_constructor_checks():
    """:meth:`GameState.situation` does not read the game's bids again (each was checked as
    it was made), and gives the view the constructor gives; the rest is still checked."""
    game = long_round(200)
    view = game.situation(game.turn, HAND)
    assert view == Situation(game.rules, tuple(player.dice for player in game.players),
                             game.turn, HAND, game.bids, game.palifico)
    with pytest.raises(ValueError, match="your hand has 3 dice"):
        game.situation(game.turn, Hand([1, 2, 3]))


# --- the app's caches: a long round held once, however many hands are tapped ---------------


def test_the_apps_caches_hold_a_long_round_once_whatever_the_hands_tapped():
    from views import charts
    from views.engine_cache import Table, cached_advice, cached_read_odds

    game = long_round(MAX_MOVES - 1)
    last = game.bids[-1][1]
    hands = [sorted((first, second, 1, 2, 3, 4, 5, 6, 6, 6))
             for first in range(1, 7) for second in range(1, 7)]

    def tap(hand: list[int]) -> None:
        table = Table(game.situation(9, hand))
        cached_advice(table, True)
        cached_read_odds(table, True, last)
        charts.cached_raise_html(table, True, None, "en")

    tap(hands[0])
    tracemalloc.start()
    try:
        for hand in hands[1:6]:
            tap(hand)
        after_few = tracemalloc.get_traced_memory()[0]
        for hand in hands[6:]:
            tap(hand)
        after_many = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # Thirty hands more hold what their answers take, not thirty copies of 2,999 bids.
    assert after_many - after_few < 30 * 20_000


def test_sessions_advising_at_once_share_the_readings_safely():
    """A server's sessions advise at once on the same long round, each at its own turn: the
    readings they share are looked up and extended safely, the numbers those of one alone."""
    from concurrent.futures import ThreadPoolExecutor

    game = long_round(TABLE_READ_BIDS + 40)
    dice = tuple(player.dice for player in game.players)
    turns = list(range(0, len(game.bids) + 1, 5))

    def advice_at(turn: int) -> list[tuple[str, float]]:
        me = (game.bids[turn - 1][0] + 1) % len(dice) if turn else 0
        spot = Situation(game.rules, dice, me, HAND, game.bids[:turn])
        return [(str(option.action), option.lose) for option in advise(spot).options]

    clear_caches()
    alone = [advice_at(turn) for turn in turns]
    clear_caches()
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as they can
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            together = list(pool.map(advice_at, turns))
    finally:
        sys.setswitchinterval(switching)
    assert together == alone


# --- what a long round's spots share: written, replayed and tabled once ----------------------


@settings(max_examples=60, deadline=None)
@given(drawn=read_rounds(), cut=st.integers(0, 5), reuse=st.booleans())
def test_a_spots_json_is_the_one_its_dict_gives(drawn, cut, reuse):
    """The text a spot's play-outs are seeded from, its bids written once for spots that
    share them, is ``json.dumps`` of its dict (so every seed stays what it was)."""
    spot, _ = drawn
    shorter = replace(spot, bids=spot.bids[:max(0, len(spot.bids) - cut)])
    for one in ((shorter, spot, shorter) if reuse else (spot, shorter)):
        assert one.to_json() == json.dumps(one.to_dict(), separators=(",", ":"))


def test_a_practice_link_builds_only_the_decision_it_names(monkeypatch):
    game = finished_long_round(USEFUL + 30)
    every = tracked_decisions(game, 9, {1: HAND})
    built = []
    original = Situation._check  # every view built, by its constructor or the game's

    def counted(situation: Situation, bids_checked: bool) -> None:
        built.append(situation)
        original(situation, bids_checked)

    monkeypatch.setattr(Situation, "_check", counted)
    for index in (0, 17, len(every) - 1):
        built.clear()
        assert tracked_decision(game, 9, {1: HAND}, index) == every[index]
        assert len(built) == 1
    with pytest.raises(IndexError):
        tracked_decision(game, 9, {1: HAND}, len(every))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_decisions_are_placed_in_their_rounds_in_one_pass(seed, players):
    game = played_game(seed, players)
    me = seed % players
    hands = hands_of(game, me)
    rounds = {number for number in hands if seed >> number & 1}
    places = [(number, rank) for number in sorted(rounds) for rank in range(
        len(tracked_decisions(game, me, {number: hands[number]})))]
    assert decision_rounds(game, me, rounds) == places


def played_game(seed: int, players: int) -> GameState:
    """A game of smallest raises, dudos and calzas drawn from ``seed`` to its end."""
    rng = random.Random(seed)
    game = GameState.new(NAMES[:players], Rules(starting_dice=3))
    while not game.is_over and len(game.history) < 400:
        raises = game.smallest_raises()
        if game.last_bid is not None and (rng.random() < 0.3 or not raises):
            call = CalzaCalled if game.calza_allowed() and rng.random() < 0.3 else DudoCalled
            game = game.apply(call(None, rng.randint(0, game.table_dice)))
        else:
            game = game.apply(BidMade(None, raises[rng.choice(sorted(raises))]))
    return game


def test_the_tables_of_raises_grow_with_the_table_as_built_for_each():
    def built_for(table: int, palifico: bool, rules: Rules, dice: int | None) -> np.ndarray:
        steps = np.zeros((6, table + 2, 6), dtype=np.int64)
        for face in range(1, 7):
            for quantity in range(1, table + 2):
                row = np.array(rollout._raises_after(quantity, face, palifico, rules, dice))
                steps[face - 1, quantity] = np.where(row <= table, row, 0)
        return steps

    for rules in (Rules(), ANY_FACE, Rules(palifico_one_die_may_change_face=True)):
        for palifico in (False, True):
            for dice in (None, 1, 4):
                rollout.forget_steps()
                for table in (7, 30, 12, 100, 2, 55):
                    assert np.array_equal(rollout.raise_steps(table, palifico, rules, dice),
                                          built_for(table, palifico, rules, dice))


# --- a normal round's numbers, worked out faster to the same last bit -----------------------


def test_rows_are_summed_as_numpy_sums_a_hands_row():
    rng = np.random.default_rng(31)
    for count in range(1, 301):
        table = np.exp(rng.normal(size=(257, count)) * rng.uniform(0.1, 30.0))
        assert np.array_equal(numpy_row_sums(np.ascontiguousarray(table.T)), table.sum(axis=1))


@settings(max_examples=150, deadline=None)
@given(dice=st.integers(1, 10), unknown=st.integers(1, 90), quantity=st.integers(1, 60),
       face=st.integers(1, 6), previous=st.one_of(st.none(), st.builds(
           Bid, st.integers(1, 60), st.integers(1, 6))), palifico=st.booleans(),
       reach=st.integers(0, 8), any_face=st.booleans())
def test_a_choice_is_weighed_hand_by_hand_to_the_last_bit(dice, unknown, quantity, face,
                                                        previous, palifico, reach, any_face):
    """:meth:`ChoiceTable.honest` is the move made's share of a hand-by-move table of
    weights, each hand's row summed by numpy (as the coach first worked it out)."""
    rules = Rules(raise_rule="any-face" if any_face else "same-face")
    table = choice_table(dice, Bid(quantity, face), previous, palifico, rules, 6.0, 2.5,
                         uniform_survival(unknown, palifico), reach)
    counted = hand_space(dice).matches(palifico)[:, table.faces]
    counted += np.arange(table.moves) * (dice + 1)
    weights = table.weights.ravel().take(counted)
    assert np.array_equal(table.honest(palifico), weights[:, table.chosen] / weights.sum(axis=1))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_a_decision_named_is_the_one_the_whole_game_gives(seed, players):
    game = played_game(seed, players)
    me = seed % players
    hands = hands_of(game, me)
    every = tracked_decisions(game, me, hands)
    for index, decision in enumerate(every):
        assert tracked_decision(game, me, hands, index) == decision
    with pytest.raises(IndexError):
        tracked_decision(game, me, hands, len(every))
    for moves in range(0, len(game.history) + 1, 7):
        assert game.before(moves) == game.restart().replay(game.history[:moves])
