"""Practice scenarios: reproducible by seed, true to their theme and level, graded by
regret against the coach's own answer, and the ``scenario`` CLI."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from itertools import islice

import pytest

import coach.play.bots as bots
import practice.scenarios as scenarios_module
from coach import CALZA, DUDO, Action, Situation, advise
from coach.engine.beliefs import PURE_ODDS
from coach.engine.decide import CoachSettings
from coach.play.arena import play_game
from perudo_math import PACO, Bid, GameState, Hand, Rules, legal_raises
from practice.cli import main
from practice.levels import LEVELS
from practice.scenarios import (
    BOT_MIX,
    CORRECT_REGRET,
    THEMES,
    Scenario,
    candidate_spots,
    generate,
    grade,
    level_for_gap,
    parse_action,
    picked,
)
from practice.table import TableRegular

THEME_LEVELS = [(theme, level) for theme in THEMES for level in LEVELS]


@pytest.fixture(scope="module")
def scenarios() -> dict[tuple[str, int], Scenario]:
    """One scenario of every theme and level (seed 11), generated once for the module."""
    return {(theme, level): generate(11, theme, level) for theme, level in THEME_LEVELS}


def recount(hidden, bid: Bid, palifico: bool) -> int:
    """The true count of ``bid``, die by die."""
    def matches(face: int) -> bool:
        if palifico or bid.face == PACO:
            return face == bid.face
        return face in (bid.face, PACO)
    return sum(matches(face) for hand in hidden for face in hand)


# --- reproducible ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 7, 123])
def test_the_same_seed_gives_the_same_scenario(seed):
    first = generate(seed)
    assert generate(seed) == first
    assert generate(seed, first.theme, first.level) == first


def test_different_seeds_give_different_spots():
    spots = {(s.hidden, s.bids) for s in (generate(seed, "dudo-or-raise", 2)
                                          for seed in range(6))}
    assert len(spots) == 6


def test_a_fresh_process_generates_the_same_scenario():
    """Another process, with another hash seed: the same spot to the last digit. The BLAS
    settings pass through (``OPENBLAS_CORETYPE`` picks other kernels, whose sums differ in
    the last bits: the same machine, not the same arithmetic)."""
    expected = generate(7, "palifico", 2).to_dict()
    blas = {name: value for name, value in os.environ.items()
            if name.startswith(("OPENBLAS_", "OMP_", "MKL_", "NPY_"))}
    out = subprocess.run(
        [sys.executable, "-m", "practice", "scenario", "--seed", "7", "--theme", "palifico",
         "--level", "2", "--reveal"], capture_output=True, text=True, check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": "", **blas})
    assert json.loads(out.stdout) == json.loads(json.dumps(expected))


# --- the deal: the practice table, never the coach ----------------------------------------


def test_the_deal_never_asks_the_coach(monkeypatch):
    def no_coach(*args, **kwargs):
        raise AssertionError("the deal asked the coach")

    monkeypatch.setattr(bots, "advise", no_coach)
    monkeypatch.setattr(scenarios_module, "advise", no_coach)
    for seed, theme in [(0, "palifico"), (1, "endgame"), (2, "reading-bids"), (3, "calza")]:
        assert len(list(islice(candidate_spots(seed, theme, 2), 30))) == 30


def test_the_deal_of_a_seed_is_pinned():
    """Every shared link replays this deal: a change here changes every scenario."""
    spot = next(candidate_spots(1, "dudo-or-raise", 1))
    situation = spot.situation
    assert (situation.dice, situation.me, situation.palifico) == ((5, 3, 4, 5, 4, 4), 3, False)
    assert [(seat, str(bid)) for seat, bid in situation.bids] == [
        (5, "1x6"), (0, "2x6"), (1, "3x6"), (2, "4x6")]
    assert spot.hidden == ((1, 2, 3, 5, 6), (1, 1, 5), (1, 2, 5, 6), (2, 4, 5, 5, 6),
                           (1, 5, 5, 6), (2, 2, 6, 6))


def test_generate_grades_the_first_fitting_spot_of_the_deal():
    scenario = generate(1, "dudo-or-raise", 1)
    dealt = [(spot.situation.bids, spot.hidden)
             for spot in islice(candidate_spots(1, "dudo-or-raise", 1), 2000)]
    assert (scenario.bids, scenario.hidden) in dealt


def test_a_tuned_coach_grades_the_same_deal(monkeypatch):
    """Tuning the coach may pick another spot of the deal, never another deal."""
    tuned = CoachSettings(challenge_below=0.3, pressure=0.05)
    monkeypatch.setattr(scenarios_module, "_COACH", tuned)
    scenario = generate(1, "dudo-or-raise", 2)  # today another spot than the coach's pick
    assert scenario.options == advise(scenario.situation(), tuned).options
    dealt = [(spot.situation.bids, spot.hidden)
             for spot in islice(candidate_spots(1, "dudo-or-raise", 2), 2000)]
    assert (scenario.bids, scenario.hidden) in dealt


class Steady(random.Random):
    """A regular's rng that never bluffs nor jumps (``random()`` is always 0.99)."""

    def random(self) -> float:
        return 0.99


class Reckless(random.Random):
    """A regular's rng that always bluffs and jumps (``random()`` is always 0)."""

    def random(self) -> float:
        return 0.0


def test_the_regular_calls_by_its_own_dice():
    regular = TableRegular(Steady(1))
    doubted = Situation(Rules(), (5, 5), 0, Hand((2, 3, 4, 5, 6)), ((1, Bid(8, 6)),), False)
    assert regular(doubted) == DUDO
    exact = Situation(Rules(), (5, 1, 1), 0, Hand((6, 6, 6, 6, 6)), ((2, Bid(5, 6)),), False)
    assert regular(exact) == CALZA  # exactly 5 sixes unless the 2 unknown dice show one


def test_the_regular_opens_on_its_best_face_and_sometimes_bluffs():
    opening = Situation(Rules(), (5, 5), 0, Hand((3, 3, 3, 4, 5)), (), False)
    # 4 × 3: true unless none of the 5 unknown dice counts (87 %); 5 × 3 only 54 %.
    assert TableRegular(Steady(1))(opening) == Action("raise", Bid(4, 3))
    bluff = TableRegular(Reckless(1))(opening)
    assert bluff.kind == "raise" and bluff.bid.face != 3


@pytest.mark.parametrize("rules", [Rules(), Rules(raise_rule="any-face", calza_heads_up=True),
                                   Rules(palifico_one_die_may_change_face=True),
                                   Rules(starting_dice=2)])
def test_the_practice_table_plays_whole_games_by_the_rules(rules):
    rng = random.Random(f"table/{rules}")
    for players in (2, 3, 6):
        play_game([TableRegular] * players, rules, rng)  # an illegal move raises BotFailure
        play_game([BOT_MIX[index % len(BOT_MIX)] for index in range(players)], rules, rng)


# --- what a scenario holds ---------------------------------------------------------------


@pytest.mark.parametrize(("theme", "level"), THEME_LEVELS)
def test_the_graded_best_is_legal_and_advise_best(scenarios, theme, level):
    scenario = scenarios[theme, level]
    situation = scenario.situation()
    assert situation.is_legal(scenario.best)
    assert advise(situation).best.action == scenario.best
    assert scenario.options == advise(situation).options
    result = grade(scenario, scenario.best)
    assert result.regret == 0.0 and result.is_best and result.correct


@pytest.mark.parametrize(("theme", "level"), THEME_LEVELS)
def test_hidden_dice_match_the_hand_and_the_counts(scenarios, theme, level):
    scenario = scenarios[theme, level]
    assert scenario.hand == scenario.hidden[scenario.seat]
    assert [len(hand) for hand in scenario.hidden] == list(scenario.seat_dice)
    assert scenario.dice == sum(len(hand) for hand in scenario.hidden)
    assert scenario.players == sum(1 for hand in scenario.hidden if hand)
    assert all(1 <= face <= 6 for hand in scenario.hidden for face in hand)
    assert scenario.history and len(scenario.history) == len(scenario.bidders)
    assert scenario.last_bidder != scenario.seat
    assert all(scenario.seat_dice[seat] > 0 for seat in scenario.bidders)


@pytest.mark.parametrize(("theme", "level"), THEME_LEVELS)
def test_the_true_count_is_the_hidden_dice_count(scenarios, theme, level):
    scenario = scenarios[theme, level]
    assert scenario.true_count == recount(scenario.hidden, scenario.last_bid,
                                          scenario.palifico)


@pytest.mark.parametrize(("theme", "level"), THEME_LEVELS)
def test_the_level_is_the_gap_to_the_best_other_kind_of_move(scenarios, theme, level):
    scenario = scenarios[theme, level]
    best = scenario.options[0]
    others = [option.net_loss - best.net_loss for option in scenario.options
              if option.action.kind != best.action.kind]
    assert scenario.gap == pytest.approx(max(0.0, min(others)))
    assert level_for_gap(scenario.gap) == scenario.level == level


def kinds_in_order(scenario: Scenario) -> list[str]:
    kinds: list[str] = []
    for option in scenario.options:
        if option.action.kind not in kinds:
            kinds.append(option.action.kind)
    return kinds


@pytest.mark.parametrize("level", LEVELS)
def test_dudo_or_raise_spots_weigh_dudo_against_a_raise(scenarios, level):
    scenario = scenarios["dudo-or-raise", level]
    assert not scenario.palifico
    assert set(kinds_in_order(scenario)[:2]) == {"dudo", "raise"}


@pytest.mark.parametrize("level", LEVELS)
def test_calza_spots_make_calza_the_answer_or_the_runner_up(scenarios, level):
    scenario = scenarios["calza", level]
    assert scenario.situation().may_calza()
    assert "calza" in kinds_in_order(scenario)[:2]
    if scenario.best.kind != "calza":
        assert scenario.gap < 0.3


@pytest.mark.parametrize("level", LEVELS)
def test_palifico_spots_are_palifico_rounds(scenarios, level):
    scenario = scenarios["palifico", level]
    assert scenario.palifico
    faces = {Bid.parse(text).face for text in scenario.history}
    assert len(faces) == 1  # the face stays frozen


@pytest.mark.parametrize("level", LEVELS)
def test_paco_conversion_spots_cross_between_pacos_and_faces(scenarios, level):
    scenario = scenarios["paco-conversion", level]
    bids = [Bid.parse(text) for text in scenario.history]
    crossed = len(bids) >= 2 and bids[-1].is_paco != bids[-2].is_paco
    best = scenario.best
    assert not scenario.palifico
    assert crossed or (best.kind == "raise" and best.bid.is_paco != bids[-1].is_paco)


@pytest.mark.parametrize("level", LEVELS)
def test_reading_bids_spots_punish_the_pure_odds_answer(scenarios, level):
    scenario = scenarios["reading-bids", level]
    situation = scenario.situation()
    pure = advise(situation, CoachSettings(reading=PURE_ODDS)).best.action
    assert pure == scenario.pure_odds_best != scenario.best
    assert grade(scenario, pure).regret > CORRECT_REGRET


@pytest.mark.parametrize("level", LEVELS)
def test_endgame_spots_have_few_players_and_dice(scenarios, level):
    scenario = scenarios["endgame", level]
    assert 2 <= scenario.players <= 3
    assert scenario.dice <= 6


# --- grading ----------------------------------------------------------------------------


@pytest.mark.parametrize(("theme", "level"), THEME_LEVELS[::4])
def test_regret_is_the_extra_chance_of_losing_a_die(scenarios, theme, level):
    scenario = scenarios[theme, level]
    best = scenario.options[0]
    for option in scenario.options:
        result = grade(scenario, option.action)
        extra = option.lose - option.gain - (best.lose - best.gain)
        assert result.regret == pytest.approx(max(0.0, extra))
        assert result.correct == (option.action == best.action or result.regret
                                  <= CORRECT_REGRET)


def test_a_raise_the_coach_did_not_list_is_graded_too():
    scenario = generate(3, "paco-conversion", 1)
    listed = {option.action for option in scenario.options}
    far = [bid for bid in legal_raises(scenario.last_bid, scenario.dice,
                                       palifico=scenario.palifico)
           if Action("raise", bid) not in listed]
    result = grade(scenario, Action("raise", far[-1]))
    assert 0.0 <= result.lose <= 1.0
    assert result.regret >= 0.0 and not result.is_best


def test_a_raise_above_the_table_is_a_sure_loss():
    scenario = generate(3, "dudo-or-raise", 1)
    above = Bid(scenario.dice + 1, scenario.last_bid.face)
    result = grade(scenario, Action("raise", above))
    assert result.lose == 1.0
    assert result.reveal.loser == scenario.seat


def test_an_illegal_action_is_refused():
    scenario = generate(3, "dudo-or-raise", 1)
    with pytest.raises(ValueError, match="not a legal move"):
        grade(scenario, Action("raise", scenario.last_bid))


def test_the_reveal_tells_the_count_and_who_loses():
    scenario = generate(5, "dudo-or-raise", 2)
    me, bid, count = scenario.seat, scenario.last_bid, scenario.true_count
    dudo = grade(scenario, DUDO).reveal
    assert dudo.count == count and dudo.bid == bid
    assert dudo.loser == dudo.dudo_loser == (me if count >= bid.quantity
                                             else scenario.last_bidder)
    raised = next(option.action for option in scenario.options if option.action.kind == "raise")
    reveal = grade(scenario, raised).reveal
    assert reveal.raise_count == recount(scenario.hidden, raised.bid, scenario.palifico)
    responder = scenario.situation().next_seat()
    assert reveal.loser == (responder if reveal.raise_count >= raised.bid.quantity else me)


def test_a_grade_carries_the_best_moves_figures_and_what_the_cups_said(scenarios):
    """Every answer of every theme and level: the grade holds the coach's best move's
    figures, and its outcome is the reveal's (a raise as if the next player called dudo)."""
    from coach.review import Outcome
    for scenario in scenarios.values():
        me, best = scenario.seat, scenario.options[0]
        answers = [option.action for option in scenario.options[:4]] + [DUDO]
        for action in answers:
            graded = grade(scenario, action)
            assert (graded.best_lose, graded.best_gain) == (best.lose, best.gain)
            reveal = graded.reveal
            right = {"dudo": reveal.dudo_loser != me, "calza": reveal.calza_right,
                     "raise": reveal.loser != me}[action.kind]
            assert graded.outcome is (Outcome.RIGHT if right else Outcome.WRONG)
            assert graded.against_the_grade is (right is not graded.correct)
            assert graded.to_dict()["outcome"] == graded.outcome.value


def test_a_tracked_spot_tells_the_outcome_only_on_the_face_the_round_ended_on():
    from coach.review import Outcome
    from practice.scenarios import from_tracked
    situation = tracked_situation()  # facing 1 × 4; seven fours at the table
    same = from_tracked(situation, (Bid(1, 4), 7), "t~x")
    assert grade(same, "dudo").outcome is Outcome.WRONG
    assert grade(same, "calza").outcome is Outcome.WRONG
    assert grade(same, "7x4").outcome is Outcome.RIGHT
    assert grade(same, "8x4").outcome is Outcome.WRONG
    assert grade(same, "1x5").outcome is None
    fewer = from_tracked(situation, (Bid(1, 4), 0), "t~x")
    assert grade(fewer, "dudo").outcome is Outcome.RIGHT
    assert grade(from_tracked(situation, (Bid(1, 5), 0), "t~x"), "dudo").outcome is None


def test_actions_are_read_from_text():
    assert parse_action("dudo") == DUDO
    assert parse_action(" Calza ").kind == "calza"
    assert parse_action("5x4") == Action("raise", Bid(5, 4))
    with pytest.raises(ValueError):
        parse_action("bluff")


def test_other_rules_are_followed():
    rules = Rules(raise_rule="any-face", calza_heads_up=True)
    scenario = generate(4, "endgame", 2, rules=rules)
    assert scenario.rules == rules
    assert scenario.situation().is_legal(scenario.best)
    assert advise(scenario.situation()).best.action == scenario.best
    with pytest.raises(ValueError, match="calza switched on"):
        generate(4, "calza", rules=Rules(calza=False))


@pytest.mark.parametrize("seed", [2, 19])
def test_a_seed_deals_the_theme_and_level_it_picks(seed):
    scenario = generate(seed)
    assert picked(seed) == (scenario.theme, scenario.level)
    assert generate(seed, *picked(seed)) == scenario
    assert picked(seed, "palifico") == ("palifico", generate(seed, "palifico").level)
    assert picked(seed, level=1)[1] == 1


def test_a_table_without_calza_is_dealt_no_calza_theme():
    seeds = range(60)
    assert any(picked(seed)[0] == "calza" for seed in seeds)  # seed 19 is one
    without = Rules(calza=False)
    assert all(picked(seed, rules=without)[0] != "calza" for seed in seeds)
    assert generate(19, rules=without).theme != "calza"


def test_bad_theme_or_level_is_refused():
    with pytest.raises(ValueError, match="unknown theme"):
        generate(1, "bluffing")
    with pytest.raises(ValueError, match="level"):
        generate(1, "calza", 4)


def test_the_json_has_what_the_page_needs():
    data = json.loads(json.dumps(generate(2).to_dict()))
    for key in ("hand", "dice", "players", "palifico", "history", "bidders", "hidden", "best",
                "true_count", "options", "theme", "level", "seed", "seat_dice"):
        assert key in data
    assert data["best"]["action"] in ("raise", "dudo", "calza")
    assert all("lose" in option for option in data["options"])
    assert Hand(data["hand"]).faces == tuple(data["hand"])


# --- the CLI ----------------------------------------------------------------------------


def test_cli_prints_the_scenario(capsys):
    assert main(["scenario", "--seed", "7", "--theme", "calza", "--level", "2", "--reveal"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == json.loads(json.dumps(generate(7, "calza", 2).to_dict()))
    best = data["best"]
    assert best["action"] in ("dudo", "calza") or Bid.parse(best["bid"])


def test_cli_grades_an_answer(capsys):
    assert main(["scenario", "--seed", "7", "--answer", "dudo"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["grade"]["action"] == {"action": "dudo"}
    assert data["grade"]["regret"] >= 0.0


# --- a spot from a real game kept in the tracker (issue 14) ----------------------------------


def tracked_situation() -> Situation:
    """Seat 0 of three, five fours in hand counting the pacos, facing seat 2's 1 × 4."""
    from coach.review import tracked_decisions
    state = GameState.new(["Ann", "Bob", "Cid"]).bid("1x2").bid("1x3").bid("1x4").dudo(7)
    situation, _ = tracked_decisions(state, 0, {1: Hand([1, 1, 4, 4, 4])})[1]
    return situation


def test_a_tracked_spot_knows_the_count_only_on_the_face_the_round_ended_on() -> None:
    from practice.scenarios import from_tracked, reveal
    situation = tracked_situation()
    same = from_tracked(situation, (Bid(1, 4), 7), "t~x")
    assert not same.cups and same.true_count == 7
    assert same.hidden == ((1, 1, 4, 4, 4), (), ())
    assert same.options == advise(situation, CoachSettings()).options
    other = from_tracked(situation, (Bid(1, 5), 0), "t~x")
    assert other.true_count is None
    graded = grade(other, "dudo")
    assert graded.reveal is None and graded.to_dict()["reveal"] is None
    with pytest.raises(ValueError, match="no cups"):
        reveal(other, Action("dudo"))
    assert json.loads(json.dumps(other.to_dict()))["showdown"] == {"bid": "1x5", "count": 0}


def test_a_tracked_spot_faces_a_bid_and_a_count_the_table_can_make() -> None:
    from practice.scenarios import from_tracked
    situation = tracked_situation()
    opening = Situation(situation.rules, situation.dice, 0, situation.hand, (), False)
    with pytest.raises(ValueError, match="faces a bid"):
        from_tracked(opening, (Bid(1, 4), 7), "t~x")
    with pytest.raises(ValueError, match="does not fit"):
        from_tracked(situation, (Bid(1, 4), 16), "t~x")
