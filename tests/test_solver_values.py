"""Heads-up game values: the states a round leads to, the value recursion, game payoffs in the
solver, the shipped tables' game values, and the coach bots that play them."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import pytest

from coach.engine.situation import Action, Situation
from coach.play.bots import BUILTIN_BOTS, CoachBot, load_bot
from coach.solver.cfr import exploitability, solve_cfr, solve_lp
from coach.solver.cli import main
from coach.solver.games import PerudoRound, build_tree
from coach.solver.tables import INDEX_FILE, CoachTablesBot, MixedAdvice, phrase_mixed_advice
from coach.solver.values import (
    After,
    GameValues,
    LossModel,
    RoundStart,
    SolvedRound,
    after_call,
    after_loss,
    heads_up_value,
    shipped_values,
)
from perudo_math import Bid, Hand, Rules, WrongTypeError

DEFAULT = Rules()
SHIPPED_INDEX = json.loads(INDEX_FILE.read_text(encoding="utf-8"))
TABLES = SHIPPED_INDEX["tables"]


def start_of(key: str) -> RoundStart:
    meta = TABLES[key]
    return RoundStart(meta["dice"][0], meta["dice"][1], meta["palifico"])


# The state a round leads to, as perudo_math plays it.


def test_the_loser_opens_and_a_drop_to_one_die_opens_a_palifico_round():
    two_each = RoundStart(2, 2, False)
    assert after_loss(DEFAULT, two_each, 0) == After((1, 2), 0, True, None)
    assert after_loss(DEFAULT, two_each, 1) == After((2, 1), 1, True, None)
    three_each = RoundStart(3, 3, False)
    assert after_loss(DEFAULT, three_each, 0) == After((2, 3), 0, False, None)


def test_the_last_die_lost_ends_the_game():
    assert after_loss(DEFAULT, RoundStart(1, 2, True), 0) == After((0, 2), None, False, 1)
    assert after_loss(DEFAULT, RoundStart(2, 1, False), 1).winner == 0


def test_a_right_calza_heads_up_wins_a_die_back_and_its_caller_opens():
    rules = Rules(calza_heads_up=True)
    after = after_call(rules, (1, 1), False, Bid(1, 5), caller=1, kind="calza", count=1)
    assert after == After((1, 2), 1, False, None)
    wrong = after_call(rules, (2, 2), False, Bid(2, 5), caller=1, kind="calza", count=1)
    assert wrong == After((2, 1), 1, True, None)


def test_after_chance_reads_the_state_from_each_side():
    values = GameValues({RoundStart(1, 2, True): SolvedRound(0.25, 0.5)})
    after = After((2, 1), 1, True, None)
    assert after.chance(1, values) == pytest.approx(0.25)
    assert after.chance(0, values) == pytest.approx(0.75)
    assert After((0, 3), None, False, 1).chance(1, values) == 1.0


# The value recursion.


def test_with_no_solved_round_each_round_is_a_coin_flip():
    """By hand, every round lost with probability 1/2: V(1, 1) = 1/2; V(2, 1) = 1/2 + 1/2 ·
    V(1, 1) = 3/4 (the opener loses and reopens at 1v1, or wins the game); V(1, 2) = 1/2 ·
    (1 − V(1, 1)) = 1/4; V(2, 2) = 1/2 · V(1, 2) + 1/2 · (1 − V(1, 2)) = 1/2."""
    values = GameValues()
    assert values(1, 1, True, False) == pytest.approx(0.5)
    assert values(2, 1, True, False) == pytest.approx(0.75)
    assert values(1, 2, True, False) == pytest.approx(0.25)
    assert values(2, 2, True, False) == pytest.approx(0.5)
    assert values(1, 2, False, False) == pytest.approx(0.25)  # they open 2v1: 1 − 3/4


def test_solved_rounds_are_taken_as_given_and_the_rest_recurses_onto_them():
    solved = {RoundStart(1, 1, True): SolvedRound(0.8, 0.2),
              RoundStart(2, 2, False): SolvedRound(0.6, 0.4)}
    values = GameValues(solved)
    assert values(1, 1, True, True) == 0.8
    assert values(2, 2, False, False) == pytest.approx(0.4)
    assert values.model_states == set()
    lose = values.model.opener_loses(RoundStart(2, 1, False))
    assert values(2, 1, True, False) == pytest.approx(lose * 0.8 + (1 - lose))
    assert RoundStart(2, 1, False) in values.model_states


def test_the_loss_model_fits_two_rounds_exactly_and_one_flat():
    def logit(q: float) -> float:
        return math.log(q / (1 - q))

    model = LossModel.fit({RoundStart(1, 1, True): SolvedRound(0.8, 0.2),
                           RoundStart(1, 2, True): SolvedRound(0.6, 0.3),
                           RoundStart(2, 2, False): SolvedRound(0.5, 0.45)})
    assert model.opener_loses(RoundStart(1, 1, True)) == pytest.approx(0.2)
    assert model.opener_loses(RoundStart(1, 2, True)) == pytest.approx(0.3)
    beta = (logit(0.3) - logit(0.2)) / math.log(2)
    expected = 1 / (1 + math.exp(-(logit(0.2) + beta * math.log(4))))
    assert model.opener_loses(RoundStart(1, 4, True)) == pytest.approx(expected)
    assert model.opener_loses(RoundStart(5, 3, False)) == pytest.approx(0.45)
    assert LossModel().opener_loses(RoundStart(4, 1, False)) == 0.5


def test_the_values_check_their_arguments():
    assert heads_up_value(0, 3, True, False) == 0.0
    assert heads_up_value(2, 0, False, False) == 1.0
    with pytest.raises(ValueError, match="at least one player"):
        heads_up_value(0, 0, True, False)
    with pytest.raises(ValueError, match="my_dice"):
        heads_up_value(-1, 2, True, False)
    with pytest.raises(ValueError, match="their_dice"):
        heads_up_value(1, 11, True, False)
    with pytest.raises(WrongTypeError, match="i_open"):
        heads_up_value(1, 1, 1, False)  # type: ignore[arg-type]
    with pytest.raises(WrongTypeError, match="my_dice"):
        heads_up_value(True, 1, True, False)  # type: ignore[arg-type]


# The shipped game values.

DICE = range(1, 6)


@pytest.mark.parametrize("palifico", [False, True])
def test_shipped_values_are_symmetric(palifico):
    for mine in DICE:
        for theirs in DICE:
            total = heads_up_value(mine, theirs, True, palifico) + heads_up_value(
                theirs, mine, False, palifico)
            assert total == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("i_open", [False, True])
def test_shipped_values_grow_with_my_dice_and_shrink_with_theirs(i_open):
    for mine in DICE:
        for theirs in DICE:
            value = heads_up_value(mine, theirs, i_open, False)
            assert 0.0 < value < 1.0
            if mine < 5:
                assert heads_up_value(mine + 1, theirs, i_open, False) > value
            if theirs < 5:
                assert heads_up_value(mine, theirs + 1, i_open, False) < value
    for more in range(1, 5):  # a palifico round is opened by a player holding one die
        if i_open:
            assert heads_up_value(1, more + 1, True, True) < heads_up_value(1, more, True, True)
        else:
            assert heads_up_value(more + 1, 1, False, True) > heads_up_value(more, 1, False, True)


def test_one_die_each_is_worth_the_solved_round():
    """1v1: every call ends the game, so the value is the round's: 5/6 for the opener of a
    palifico round (see test_solver's hand derivation), 17/36 in a normal round (−1/18)."""
    assert heads_up_value(1, 1, True, True) == pytest.approx(
        (1 + TABLES["1v1-palifico"]["value"]) / 2, abs=1e-6)
    assert heads_up_value(1, 1, True, True) == pytest.approx(5 / 6, abs=1e-4)
    assert heads_up_value(1, 1, True, False) == pytest.approx(
        (1 + TABLES["1v1-normal"]["value"]) / 2, abs=1e-6)
    assert heads_up_value(1, 1, True, False) == pytest.approx(17 / 36, abs=1e-4)


def test_the_shipped_index_records_game_value_payoffs():
    assert SHIPPED_INDEX["payoff"] == "game"
    for key, meta in TABLES.items():
        assert meta["payoff"] == "game"
        assert meta["game_value"] == pytest.approx((1 + meta["value"]) / 2, abs=1e-6)
        assert meta["model_states"] == [], f"{key} reaches states no table covers"
        start = start_of(key)
        assert shipped_values()(start.opener_dice, start.responder_dice, True,
                                start.palifico) == meta["game_value"]


@pytest.mark.parametrize("key", sorted(TABLES))
def test_each_table_value_is_its_two_outcomes_weighed(key):
    """With no heads-up calza a round ends with a die lost by one side: its game value is
    P(opener loses) · V(after that) + P(responder loses) · V(after that)."""
    meta, start = TABLES[key], start_of(key)
    values = shipped_values()
    lose = meta["opener_loses"]
    weighed = (lose * after_loss(DEFAULT, start, 0).chance(0, values)
               + (1 - lose) * after_loss(DEFAULT, start, 1).chance(0, values))
    assert meta["game_value"] == pytest.approx(weighed, abs=2e-5)


# Game payoffs in the solver.

PALIFICO_1V1 = {RoundStart(1, 1, True): SolvedRound(5 / 6, 1 / 6)}


def test_game_payoff_values_a_round_by_the_state_it_leads_to():
    """1v2 palifico: the opener losing loses the game; winning drops the responder to one die,
    who opens a 1v1 palifico round, which its opener wins 5/6 of the time. The die-for-die
    value is 7/18, so the opener wins the round 25/36 of the time and the game 25/36 · 1/6
    = 25/216 of the time: a game payoff of 2 · 25/216 − 1 = −83/108."""
    dice = solve_lp(build_tree(PerudoRound((1, 2), True)))
    assert dice.value == pytest.approx(7 / 18, abs=1e-9)
    game = solve_lp(build_tree(PerudoRound((1, 2), True, payoff="game",
                                           values=GameValues(PALIFICO_1V1))))
    assert game.value == pytest.approx(float(Fraction(-83, 108)), abs=1e-9)


def test_without_heads_up_calza_the_strategies_do_not_change():
    """Two outcomes, so the game payoff is a positive scale and shift of the dice payoff:
    CFR+ takes the same steps and an equilibrium of one is an equilibrium of the other."""
    values = GameValues(PALIFICO_1V1)
    dice_tree = build_tree(PerudoRound((2, 1), True))
    game_tree = build_tree(PerudoRound((2, 1), True, payoff="game", values=values))
    dice = solve_cfr(dice_tree, iterations=40)
    game = solve_cfr(game_tree, iterations=40)
    for left, right in zip(dice.profile, game.profile, strict=True):
        assert left == pytest.approx(right, abs=1e-9)
    exact = solve_lp(dice_tree)
    assert abs(exploitability(game_tree, exact.profile)) < 1e-9


def test_with_heads_up_calza_a_won_die_is_worth_the_state_it_leads_to():
    """1v1 with calza heads-up: a right calza wins a die back and its caller opens a normal
    round 2v1, worth 0.9 to its opener here; a won dudo wins the game. Die for die both are
    worth +1; by game value the calza is worth 2 · 0.9 − 1 = 0.8, and the equilibria differ."""
    rules = Rules(calza_heads_up=True)
    values = GameValues({**PALIFICO_1V1, RoundStart(2, 1, False): SolvedRound(0.9, 0.4)})
    game = PerudoRound((1, 1), False, rules, "game", values)
    dice = PerudoRound((1, 1), False, rules)
    right_calza = (Bid(1, 5), "calza", 1, 1)  # the responder calls calza, one five in all
    assert dice.opener_payoff(*right_calza) == -1.0
    assert game.opener_payoff(*right_calza) == pytest.approx(-0.8)
    won_dudo = (Bid(1, 5), "dudo", 1, 0)
    assert dice.opener_payoff(*won_dudo) == game.opener_payoff(*won_dudo) == -1.0
    dice_tree, game_tree = build_tree(dice), build_tree(game)
    assert exploitability(game_tree, solve_lp(dice_tree).profile) > 0.01
    assert exploitability(dice_tree, solve_lp(game_tree).profile) > 0.01


def test_a_payoff_is_dice_or_game():
    with pytest.raises(ValueError, match="dice, game"):
        PerudoRound((1, 1), payoff="chips")  # type: ignore[arg-type]


# Advice from game-value tables.


def test_game_value_advice_is_phrased_as_a_chance_of_winning_the_game():
    advice = MixedAdvice(((Action.raise_to("1x5"), 1.0),), 0.2, "2v2-normal", opening=True,
                         payoff="game")
    assert advice.win_chance == pytest.approx(0.6)
    assert phrase_mixed_advice(advice) == ("Open 1 × 5 with probability 1.00. Played this "
                                           "way, you win the game 60% of the time from here.")
    data = advice.to_dict()
    assert data["payoff"] == "game" and data["win_chance"] == 0.6
    assert MixedAdvice(((Action.raise_to("1x5"), 1.0),), 0.2, "x", True).win_chance is None


# The bots.


def test_the_default_coach_plays_the_tables_and_coach_no_tables_does_not():
    assert set(BUILTIN_BOTS) >= {"coach", "coach-tables", "coach-no-tables", "coach-pure-odds"}
    coach = load_bot("coach")(random.Random(1))
    assert isinstance(coach, CoachTablesBot)
    assert isinstance(coach.fallback, CoachBot)
    assert isinstance(load_bot("coach-tables")(random.Random(1)), CoachTablesBot)
    assert type(load_bot("coach-no-tables")(random.Random(1))) is CoachBot


def test_the_coach_counts_what_it_plays_from_the_tables():
    coach = load_bot("coach")(random.Random(3))
    heads_up = Situation(DEFAULT, (1, 1), 0, Hand([4]), (), palifico=True)
    coach(heads_up)
    three = Situation(DEFAULT, (2, 1, 1), 0, Hand([2, 5]))
    coach(three)
    above = Situation(DEFAULT, (3, 3), 0, Hand([2, 5, 5]))
    coach(above)
    assert (coach.decisions, coach.heads_up, coach.from_tables) == (3, 2, 1)


def test_the_default_coach_plays_the_tables_up_to_three_dice_and_coach_tables_everywhere():
    two_each = Situation(DEFAULT, (2, 2), 0, Hand([3, 5]))
    two_and_one = Situation(DEFAULT, (2, 1), 0, Hand([3, 5]))
    for name, expected in (("coach", 1), ("coach-tables", 2)):
        coach = load_bot(name)(random.Random(3))
        coach(two_each)
        coach(two_and_one)
        assert coach.from_tables == expected, name


def test_the_coach_passes_showdowns_on_to_its_fallback():
    heard = []

    class Listener:
        def __call__(self, situation):
            raise AssertionError("not asked")

        def observe(self, showdown):
            heard.append(showdown)

    bot = CoachTablesBot(random.Random(1), fallback=Listener())
    bot.observe("showdown")  # type: ignore[arg-type]
    assert heard == ["showdown"]
    CoachTablesBot(random.Random(1)).observe("showdown")  # type: ignore[arg-type]


# The CLI.


def test_the_cli_solves_with_game_payoffs_on_request(capsys):
    assert main(["--dice", "1", "2", "--game", "palifico", "--method", "lp"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == pytest.approx(7 / 18, abs=1e-9)
    assert main(["--dice", "1", "2", "--game", "palifico", "--method", "lp",
                 "--payoff", "game"]) == 0
    value = json.loads(capsys.readouterr().out)["value"]
    assert value == pytest.approx(TABLES["1v2-palifico"]["value"], abs=1e-4)


def test_the_cli_refuses_game_payoffs_for_snyd(capsys):
    assert main(["--dice", "1", "1", "--game", "snyd-normal", "--payoff", "game"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "perudo, palifico" in error
