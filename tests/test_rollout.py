"""The rest of the round, sampled (``coach.engine.rollout``): every draw replayed alone, one
bid at a time, with ``perudo_math``'s legality and odds; the same spot, the same numbers."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coach import (
    PURE_ODDS,
    Action,
    BidReading,
    CoachSettings,
    Situation,
    TableBeliefs,
    advise,
    weigh_raise,
)
from coach.engine.decide import ROLLOUT_PRIOR
from coach.engine.hands import hand_space, uniform_survival
from coach.engine.rollout import (
    drawn_rows,
    play_out,
    raise_outcomes,
    sample_matches,
    spot_seed,
)
from coach.engine.steady import steady
from perudo_math import Bid, Hand, Rules, count_survival, legal_raises, smallest_raises

RULES = Rules()


def situation(hand: list[int], dice: list[int], bids: list[tuple[int, Bid]] = (),
              palifico: bool = False, me: int = 0) -> Situation:
    return Situation(RULES, tuple(dice), me, Hand(hand), tuple(bids), palifico)


def next_with_dice(spot: Situation, seat: int) -> int:
    while True:
        seat = (seat + 1) % len(spot.dice)
        if spot.dice[seat]:
            return seat


def replay(spot: Situation, bid: Bid, matches: np.ndarray, draw: int,
           thresholds: dict[int, float], cut_off: float,
           margin: float | dict[int, float] | None = None,
           first: list[bool] | None = None) -> float:
    """One draw of the round after my raise to ``bid``, bid by bid, three times round: a
    seat calls below its threshold, or, given a ``margin``, when it sees the bid false more
    likely by that margin than its best raise true, or the bid cannot be true. ``first``
    gets whether the player after me called at once."""
    table, palifico = spot.table_dice, spot.palifico
    current, bidder, actor = bid, spot.me, spot.me
    for turn in range(3 * len(spot.active_seats)):
        actor = next_with_dice(spot, actor)
        unknown = table - spot.dice[actor]
        own = matches[actor, draw]

        def chance(b: Bid, own=own, unknown=unknown) -> float:
            needed = b.quantity - int(own[b.face - 1])
            if needed <= 0:
                return 1.0
            tail = count_survival(unknown, b.face, palifico)
            return steady(float(tail[needed])) if needed < len(tail) else 0.0  # as play_out reads

        raises = [b for b in smallest_raises(current, palifico=palifico, rules=spot.rules,
                                             bidder_dice=spot.dice[actor]).values()
                  if b.quantity <= table]
        best = max(raises, key=lambda b: (chance(b), b.face)) if raises else None
        if margin is None:
            calls = chance(current) < thresholds[actor]
        else:
            own_margin = margin[actor] if isinstance(margin, dict) else margin
            calls = ((best is not None and 1.0 - chance(current) - own_margin > chance(best))
                     or chance(current) <= 0.0)
        if turn == 0 and first is not None:
            first.append(bool(calls or best is None))
        if calls or best is None:
            shown = sum(int(matches[seat, draw, current.face - 1])
                        for seat in spot.active_seats)
            loser = actor if shown >= current.quantity else bidder
            return 1.0 if loser == spot.me else 0.0
        current = best
        bidder = actor
    return cut_off


@st.composite
def raised_spots(draw: st.DrawFn) -> tuple[Situation, Bid, dict[int, float]]:
    """Any table of the rules' settings (up to ten dice a seat), me in any seat, a raise of
    mine on the table and a threshold per seat."""
    rules = Rules(starting_dice=draw(st.integers(1, 10)),
                  raise_rule=draw(st.sampled_from(["same-face", "any-face"])),
                  palifico_one_die_may_change_face=draw(st.booleans()))
    seats = draw(st.integers(2, 6))
    dice = [draw(st.integers(0, rules.starting_dice)) for _ in range(seats)]
    me = draw(st.integers(0, seats - 1))
    dice[me] = max(dice[me], 1)
    other = draw(st.sampled_from([seat for seat in range(seats) if seat != me]))
    dice[other] = max(dice[other], 1)
    hand = [draw(st.integers(1, 6)) for _ in range(dice[me])]
    spot = Situation(rules, tuple(dice), me, Hand(hand), (), draw(st.booleans()))
    raise_to = draw(st.sampled_from(legal_raises(None, spot.table_dice, palifico=spot.palifico,
                                                 rules=rules, bidder_dice=dice[me])))
    thresholds = {seat: draw(st.sampled_from([0.0, 0.3, 0.5, 0.7, 1.0]))
                  for seat in range(seats)}
    return spot, raise_to, thresholds


@settings(max_examples=80, deadline=None)
@given(raised_spots(), st.integers(0, 2**32 - 1),
       st.sampled_from([None, None, -1.0, -0.3, 0.0, 0.2, 0.6, 1.0, "per seat"]))
def test_every_draw_plays_out_as_a_bid_by_bid_replay(case, seed, margin):
    """The same draws replayed one at a time, with perudo_math's legality and odds and a
    seat order walked here, give the same outcome draw for draw, callers calling by their
    threshold, by a margin, or by each seat's own margin."""
    spot, bid, thresholds = case
    if margin == "per seat":
        margin = {seat: round(value - 0.4, 2) for seat, value in thresholds.items()}
    matches = sample_matches(spot, lambda seat: None, 12, np.random.default_rng(seed))
    bids = [bid, Bid(spot.table_dice + 1, bid.face)]  # the second above the table
    called = np.full((len(bids), 12), -1.0)
    lost = play_out(spot, bids, matches, thresholds.__getitem__, cut_off=0.25,
                    call_margin=margin.__getitem__ if isinstance(margin, dict) else margin,
                    called_at_once=called)
    for raised, row, called_row in zip(bids, lost, called, strict=True):
        first: list[bool] = []
        assert row.tolist() == [replay(spot, raised, matches, draw, thresholds, 0.25, margin,
                                       first) for draw in range(12)]
        assert called_row.tolist() == [float(at_once) for at_once in first]


@pytest.mark.parametrize("palifico", [False, True])
def test_draws_count_my_dice_as_my_hand_and_the_others_as_fair_dice(palifico):
    hand = Hand([1, 1, 3, 4, 6])
    spot = Situation(RULES, (5, 4, 3), 0, hand, (), palifico)
    matches = sample_matches(spot, lambda seat: None, 6000, np.random.default_rng(1))
    for face in range(1, 7):
        assert (matches[0, :, face - 1] == hand.count(face, palifico=palifico)).all()
        share = 1 / 6 if face == 1 or palifico else 1 / 3
        for seat, dice in ((1, 4), (2, 3)):
            assert matches[seat, :, face - 1].mean() == pytest.approx(dice * share, abs=0.05)


def test_a_seat_read_as_one_hand_is_drawn_with_that_hand():
    spot = situation([2, 2, 3], [3, 2, 4])
    space = hand_space(2)
    weights = np.zeros(len(space.prior))
    weights[space.row((1, 5))] = 1.0
    matches = sample_matches(spot, lambda seat: weights if seat == 1 else None, 50,
                             np.random.default_rng(0))
    assert (matches[1] == [1, 1, 1, 1, 2, 1]).all()  # a paco counts toward every face
    assert (matches[0] == [0, 2, 1, 0, 0, 0]).all()  # mine: 2 2 3 with no paco
    assert not (matches[2] == matches[2][0]).all()  # a seat not read: uniform dice


@settings(max_examples=60, deadline=None)
@given(dice=st.integers(1, 10), seed=st.integers(0, 2**32 - 1), power=st.integers(0, 30),
       samples=st.integers(1, 300), frozen=st.booleans())
def test_hands_are_drawn_as_numpys_choice_draws_them(dice, seed, power, samples, frozen):
    """The same rows, and the generator left in the same state, as ``rng.choice`` with the
    chances scaled to sum to 1; again from the sums kept for read-only weights."""
    weights = np.random.default_rng(seed).random(len(hand_space(dice).prior)) ** power
    weights.setflags(write=not frozen)
    for _ in range(2):
        ours, numpys = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
        rows = drawn_rows(weights, samples, ours)
        assert rows.tolist() == numpys.choice(len(weights), size=samples,
                                              p=weights / weights.sum()).tolist()
        assert ours.random() == numpys.random()


def test_weights_that_are_not_chances_are_refused_as_numpy_refuses_them():
    with pytest.raises(ValueError, match="NaN"):
        drawn_rows(np.array([1.0, np.nan, 2.0]), 5, np.random.default_rng(0))


def test_a_raise_above_the_table_always_loses_and_one_true_in_my_hand_rarely_does():
    spot = situation([1, 1, 4], [3, 3, 3])
    losses = raise_outcomes(spot, [Bid(10, 4), Bid(3, 4)], lambda seat: None,
                            lambda seat: 0.5, samples=200).lose
    assert losses[0] == 1.0
    # 3 x 4 is true in my own hand: whoever calls it loses, so it can only come back to me
    assert 0.0 < losses[1] < 0.5


def test_the_same_spot_gets_the_same_advice():
    spot = situation([2, 2, 3, 5, 1], [5, 5, 5, 5, 5],
                     [(1, Bid(3, 4)), (2, Bid(4, 4)), (3, Bid(5, 4)), (4, Bid(6, 4))])
    coach = CoachSettings()
    assert coach.rollouts > 0
    first, again = advise(spot, coach), advise(spot, coach)
    assert first == again
    assert spot_seed(spot) == spot_seed(Situation.from_json(spot.to_json()))
    raises = [option for option in first.options if option.action.kind == "raise"]
    assert 0 < len(raises) <= coach.rollout_top


def test_rolled_out_raises_read_the_bidders_hands():
    """A bidder read as holding fours makes a raise on fours likelier to survive the round."""
    bids = [(1, Bid(2, 4)), (2, Bid(3, 4))]
    spot = situation([4, 4, 6], [3, 3, 3], bids)
    read = TableBeliefs(spot, BidReading())
    plain = TableBeliefs(spot, PURE_ODDS)
    assert read.hand_weights(1) is not None and plain.hand_weights(1) is None
    def threshold(seat: int) -> float:
        return 0.5

    by_reading = raise_outcomes(spot, [Bid(5, 4)], read.hand_weights, threshold, 400).lose
    uniform = raise_outcomes(spot, [Bid(5, 4)], plain.hand_weights, threshold, 400).lose
    assert by_reading[0] < uniform[0]


def test_seats_that_read_the_bids_see_the_faces_bid_and_let_them_pass():
    """A seat that reads the table sees more fours once fours were bid, and so lets a raise
    on fours pass more often than a seat that sees fair dice: on the same draws, the raise
    costs me a die less often."""
    bids = [(1, Bid(2, 4)), (2, Bid(3, 4))]
    spot = situation([4, 4, 6], [3, 3, 3], bids)
    read = TableBeliefs(spot, BidReading())
    fair = uniform_survival(6, False)
    assert np.allclose(TableBeliefs(spot, PURE_ODDS).view_of(1), fair)
    seen = read.view_of(1)
    assert seen.shape == fair.shape
    assert (seen[3, 1:-1] > fair[3, 1:-1]).all()  # fours: seat 2's bid read
    assert read.view_of(1) is seen  # once per seat

    def threshold(seat: int) -> float:
        return 0.5

    reading = raise_outcomes(spot, [Bid(4, 4)], read.hand_weights, threshold, 400,
                             read.view_of).lose
    fair_dice = raise_outcomes(spot, [Bid(4, 4)], read.hand_weights, threshold, 400).lose
    assert reading[0] < fair_dice[0]


def test_a_seats_view_is_asked_only_when_it_plays():
    """Draws that all end at the next player's call ask no one else's view of the dice
    (the costliest thing a seat brings to the play-outs); three times round asks each once."""
    spot = situation([2, 2, 3, 5, 1], [5, 5, 5, 5, 5],
                     [(1, Bid(3, 4)), (2, Bid(4, 4)), (3, Bid(5, 4)), (4, Bid(6, 4))])
    beliefs = TableBeliefs(spot, BidReading())
    asked: list[int] = []

    def view_of(seat: int) -> np.ndarray:
        asked.append(seat)
        return beliefs.view_of(seat)

    matches = sample_matches(spot, beliefs.hand_weights, 64, np.random.default_rng(3))
    play_out(spot, [Bid(spot.table_dice + 1, 4)], matches, lambda seat: 0.5, 0.2, view_of)
    assert asked == [1]
    asked.clear()
    play_out(spot, [Bid(7, 4)], matches, lambda seat: 0.0, 0.2, view_of)  # no one calls
    assert asked == [1, 2, 3, 4, 0]


@pytest.mark.parametrize("margin", [None, 0.0, 0.2])
def test_a_rolled_out_raise_weighs_its_draws_and_its_one_step_risk(margin):
    spot = situation([2, 2, 3, 5, 1], [5, 5, 5, 5, 5],
                     [(1, Bid(3, 4)), (2, Bid(4, 4)), (3, Bid(5, 4)), (4, Bid(6, 4))])
    coach = CoachSettings(rollout_call_margin=margin, rollout_top=4)  # a cut among them
    one_step = advise(spot, replace(coach, rollouts=0))
    rolled = advise(spot, coach)
    raises = [option for option in rolled.options if option.action.kind == "raise"]
    kept = sorted((o for o in one_step.options if o.action.kind == "raise"),
                  key=lambda o: (o.net_loss, -o.p_true))[:coach.rollout_top]
    assert {o.action for o in raises} == {o.action for o in kept}
    beliefs = TableBeliefs(spot, coach.reading)
    drawn = raise_outcomes(spot, [o.action.bid for o in raises], beliefs.hand_weights,
                           lambda seat: coach.threshold_of(seat, 5), coach.rollouts,
                           beliefs.view_of, margin)
    for option, lose, called in zip(raises, drawn.lose, drawn.called, strict=True):
        step = one_step.option(option.action)
        assert step.p_true > 0
        assert option.lose == pytest.approx(
            (lose * coach.rollouts + step.lose * ROLLOUT_PRIOR) / (coach.rollouts + ROLLOUT_PRIOR))
        assert option.challenge == pytest.approx(  # the next player's calls, the same draws
            (called * coach.rollouts + step.challenge * ROLLOUT_PRIOR)
            / (coach.rollouts + ROLLOUT_PRIOR))
    calls = [o for o in rolled.options if o.action.kind != "raise"]
    assert calls == [o for o in one_step.options if o.action.kind != "raise"]


def test_callers_by_a_margin_play_the_round_out_otherwise():
    """The margin is played: the same raise over the same draws ends otherwise when the
    callers weigh the bid against their own raise rather than against a threshold."""
    spot = situation([2, 2, 3, 5, 1], [5, 5, 5, 5, 5],
                     [(1, Bid(3, 4)), (2, Bid(4, 4)), (3, Bid(5, 4)), (4, Bid(6, 4))])
    beliefs = TableBeliefs(spot, CoachSettings().reading)
    raises = [Bid(7, 4), Bid(7, 5), Bid(4, 1)]
    by_threshold = raise_outcomes(spot, raises, beliefs.hand_weights, lambda seat: 0.7, 256,
                                  beliefs.view_of).lose
    by_margin = raise_outcomes(spot, raises, beliefs.hand_weights, lambda seat: 0.7, 256,
                               beliefs.view_of, 0.2).lose
    bolder = raise_outcomes(spot, raises, beliefs.hand_weights, lambda seat: 0.7, 256,
                            beliefs.view_of, 0.6).lose
    assert not np.allclose(by_threshold, by_margin)
    assert not np.allclose(by_margin, bolder)


def test_heads_up_keeps_the_one_step_risks():
    spot = situation([2, 2, 3], [3, 3], [(1, Bid(2, 4))])
    assert advise(spot) == advise(spot, CoachSettings(rollouts=0))


def test_a_player_whose_own_dice_make_the_bid_many_times_over_does_not_call_it():
    rules = Rules(starting_dice=10)
    spot = Situation(rules, (10, 10, 10), 0, Hand([2] * 10), (), False)
    space = hand_space(10)
    fours = np.zeros(len(space.prior))
    fours[space.row((4,) * 10)] = 1.0
    matches = sample_matches(spot, lambda seat: fours if seat == 1 else None, 20,
                             np.random.default_rng(3))
    thresholds = {0: 0.5, 1: 0.5, 2: 0.5}
    lost = play_out(spot, [Bid(2, 4)], matches, thresholds.__getitem__, cut_off=0.25)
    assert lost[0].tolist() == [replay(spot, Bid(2, 4), matches, draw, thresholds, 0.25)
                                for draw in range(20)]


def test_any_raise_is_weighed_as_advise_would_weigh_it():
    spot = situation([2, 2, 3, 5, 1], [5, 5, 5, 5, 5],
                     [(1, Bid(3, 4)), (2, Bid(4, 4)), (3, Bid(5, 4)), (4, Bid(6, 4))])
    advice = advise(spot)
    listed = [option for option in advice.options if option.action.kind == "raise"]
    for option in listed:
        assert weigh_raise(spot, option.action.bid) == option
    jump = weigh_raise(spot, Bid(12, 4))  # far past every raise advise weighed
    assert advice.option(jump.action) is None
    assert 0.0 < jump.lose <= 1.0 and jump.lose > min(option.lose for option in listed)
    heads_up = situation([2, 2, 3], [3, 3], [(1, Bid(2, 4))])
    assert weigh_raise(heads_up, Bid(3, 4)) == advise(heads_up).option(Action.raise_to("3x4"))
    with pytest.raises(ValueError, match="not a legal raise"):
        weigh_raise(spot, Bid(2, 4))
    with pytest.raises(ValueError):
        weigh_raise(spot, "7x9")


def test_practice_grades_a_raise_the_coach_did_not_play_out_with_its_played_out_risk():
    from practice import scenarios

    spot = situation([2, 2, 3, 5, 1], [5, 5, 5, 5, 5],
                     [(1, Bid(3, 4)), (2, Bid(4, 4)), (3, Bid(5, 4)), (4, Bid(6, 4))])
    option = scenarios._weigh_any(spot, Action.raise_to("12x4"))
    assert option == weigh_raise(spot, Bid(12, 4))
    assert option.challenge < 1.0  # not "taken as challenged"


def test_a_raise_that_cannot_be_true_is_left_to_the_draws():
    spot = situation([2, 2, 3], [3, 3, 3], [(1, Bid(2, 4))])
    above = weigh_raise(spot, Bid(10, 4))
    assert above.p_true == 0.0
    assert above.lose == 1.0  # the next player calls it in every draw
