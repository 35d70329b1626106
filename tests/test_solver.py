"""The heads-up solver: published values, exact exploitability, LP = CFR+, tables, bot, CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from coach.engine.situation import CALZA, DUDO, Action, Situation
from coach.play.arena import play_game
from coach.play.bots import CoachBot
from coach.solver.cfr import (
    best_response_value,
    counterfactual_values,
    expected_value,
    exploitability,
    infoset_values,
    solve_cfr,
    solve_lp,
    uniform_profile,
)
from coach.solver.cli import main
from coach.solver.games import (
    CALZA_CODE,
    DUDO_CODE,
    NO_BID,
    HandSet,
    LinearBidGame,
    PerudoRound,
    build_tree,
)
from coach.solver.tables import (
    INDEX_FILE,
    TABLES_FILE,
    CoachTablesBot,
    MixedAdvice,
    available_tables,
    heads_up_strategy,
    load_table,
    phrase_mixed_advice,
)
from perudo_math import Bid, Hand, Rules, legal_raises

SNYD_NORMAL_1V1 = -Fraction(1, 9)
SNYD_JOKER_1V1 = -Fraction(7, 327)


@pytest.fixture(scope="module")
def snyd_normal_tree():
    return build_tree(LinearBidGame((1, 1)))


@pytest.fixture(scope="module")
def perudo_1v1():
    tree = build_tree(PerudoRound((1, 1)))
    return tree, solve_lp(tree)


# Published values (thomasahle/snyd, first bidder's value, win +1, loss -1).


def test_snyd_normal_one_die_each_is_minus_one_ninth_by_lp(snyd_normal_tree):
    solution = solve_lp(snyd_normal_tree)
    assert solution.value == pytest.approx(float(SNYD_NORMAL_1V1), abs=1e-9)
    assert abs(solution.exploitability) < 1e-7


def test_snyd_joker_one_die_each_is_minus_seven_over_327_by_lp():
    solution = solve_lp(build_tree(LinearBidGame((1, 1), jokers=True)))
    assert solution.value == pytest.approx(float(SNYD_JOKER_1V1), abs=1e-9)
    assert abs(solution.exploitability) < 1e-7


def test_snyd_normal_by_cfr_is_within_1e4(snyd_normal_tree):
    solution = solve_cfr(snyd_normal_tree, target=4e-5)
    assert solution.exploitability <= 4e-5
    assert solution.value == pytest.approx(float(SNYD_NORMAL_1V1), abs=1e-4)


def test_snyd_games_follow_one_linear_order():
    joker = LinearBidGame((1, 1), jokers=True)
    assert [str(bid) for bid in joker.bids[:6]] == ["1x2", "1x3", "1x4", "1x5", "1x6", "2x2"]
    assert joker.raises(joker.bid_index[Bid(1, 6)], 1) == tuple(range(5, 10))
    normal = LinearBidGame((1, 1))
    assert normal.matches((1,), Bid(1, 1)) == 1 and normal.matches((1,), Bid(1, 5)) == 0
    assert joker.matches((1,), Bid(1, 5)) == 1


# Exploitability is exact and separates good from bad play.


def test_solved_profile_is_unexploitable_and_uniform_play_is_not(perudo_1v1):
    tree, solution = perudo_1v1
    assert abs(solution.exploitability) < 1e-7
    assert exploitability(tree, uniform_profile(tree)) > 0.3


def test_best_response_matches_a_plain_recursive_enumeration():
    game = PerudoRound((1, 2), palifico=True)
    tree = build_tree(game)
    profile = solve_cfr(tree, iterations=3).profile  # some mixed, non-equilibrium profile
    for player in (0, 1):
        expected = _enumerated_best_response(game, tree, profile, player)
        assert best_response_value(tree, player, profile) == pytest.approx(expected, abs=1e-12)


def test_palifico_one_die_each_is_worth_two_thirds_to_the_opener():
    """By hand: the opener bids 1 of the face he holds, which is true; the cap of two dice
    leaves the responder 2 of that face (true only when he holds it too: then the opener,
    with no raise left, must call dudo and lose) or dudo (loses). So 5/6 - 1/6 = 2/3."""
    tree = build_tree(PerudoRound((1, 1), palifico=True))
    solution = solve_lp(tree)
    assert solution.value == pytest.approx(2 / 3, abs=1e-9)
    values = infoset_values(tree, solution.profile, 0)[0][0]
    assert values == pytest.approx(np.full(6, 2 / 3), abs=1e-9)


# Consistency: LP and CFR+ agree, values are antisymmetric.


@pytest.mark.parametrize(("game", "target"), [
    (PerudoRound((1, 1)), 1e-4),
    (PerudoRound((1, 2), palifico=True), 1e-4),
    (PerudoRound((1, 1), rules=Rules(calza_heads_up=True)), 1e-3),  # slower to converge
], ids=["1v1-normal", "1v2-palifico", "1v1-calza"])
def test_lp_and_cfr_agree(game, target):
    tree = build_tree(game)
    exact = solve_lp(tree)
    approximate = solve_cfr(tree, target=target, max_iterations=3000)
    assert abs(exact.exploitability) < 1e-7
    assert approximate.value == pytest.approx(exact.value, abs=2 * approximate.exploitability)


def test_values_are_antisymmetric_and_consistent(perudo_1v1):
    tree, solution = perudo_1v1
    value = solution.value
    responder = counterfactual_values(tree, 1, solution.profile)[0][0]
    assert float(tree.weights[1] @ responder) == pytest.approx(-value, abs=1e-12)
    assert best_response_value(tree, 0, solution.profile) == pytest.approx(value, abs=1e-7)
    assert best_response_value(tree, 1, solution.profile) == pytest.approx(-value, abs=1e-7)
    per_hand = infoset_values(tree, solution.profile, 0)[0][0]
    assert float(tree.weights[0] @ per_hand) == pytest.approx(value, abs=1e-12)
    assert expected_value(tree, solution.profile) == pytest.approx(value, abs=1e-12)


def test_tree_caps_bids_at_the_table_and_follows_our_raise_rules():
    game = PerudoRound((1, 1))
    tree = build_tree(game)
    assert max(bid.quantity for bid in game.bids) == 2
    openings = [game.bids[code] for code in game.actions(NO_BID, 0)]
    assert openings == legal_raises(None, 2)
    after_two_pacos = game.actions(game.bid_index[Bid(2, 1)], 1)
    assert after_two_pacos == (DUDO_CODE,)
    assert CALZA_CODE not in game.actions(0, 1)
    calza_game = PerudoRound((1, 1), rules=Rules(calza_heads_up=True))
    assert calza_game.actions(0, 1)[-1] == CALZA_CODE
    assert tree.child(0, game.bid_index[Bid(1, 1)]) is None
    assert HandSet.of(2).weights.sum() == pytest.approx(1.0)


# Shipped tables.


def test_every_table_is_shipped_small_and_nearly_unexploitable():
    tables = available_tables()
    for dice in ("1v1", "1v2", "2v1"):
        for kind in ("normal", "palifico"):
            assert f"{dice}-{kind}" in tables
    for meta in tables.values():
        assert meta["shipped_exploitability"] < 2e-4
    assert TABLES_FILE.stat().st_size + INDEX_FILE.stat().st_size < 1_000_000


def test_every_heads_up_state_up_to_five_dice_a_side_has_a_table_within_50_mb():
    from coach.solver.tables import (
        ABSTRACT_INDEX_FILE,
        ABSTRACT_TABLES_DIR,
        AbstractTable,
        abstract_tables,
    )

    exact, abstract = available_tables(), abstract_tables()
    for first in range(1, 6):
        for second in range(1, 6):
            assert f"{first}v{second}-normal" in {**exact, **abstract}
        assert f"1v{first}-palifico" in {**exact, **abstract}  # who drops to one die opens
    files = (TABLES_FILE, INDEX_FILE, ABSTRACT_INDEX_FILE, *ABSTRACT_TABLES_DIR.glob("*"))
    assert sum(path.stat().st_size for path in files) < 50 * 10**6
    assert max(path.stat().st_size for path in files) < 2 * 10**6  # none too big for git
    assert sorted(path.stem for path in ABSTRACT_TABLES_DIR.glob("*")) == sorted(abstract)
    for key, meta in abstract.items():
        assert isinstance(load_table(key), AbstractTable) or key in exact
        # Measured exactly up to 6 dice on the table; above, a lower bound from longer memories.
        if sum(meta["dice"]) <= 6:
            assert meta["exploitability"] < 0.06, key
        else:
            assert any(name.startswith("at_least_K") for name in meta), key


@pytest.mark.parametrize("key", ["1v1-normal", "1v1-palifico", "1v2-normal", "2v1-normal",
                                 "1v2-palifico", "3v3-normal", "2v5-normal", "5v5-normal",
                                 "1v4-palifico"])
def test_table_probabilities_sum_to_one_over_legal_actions(key):
    table = load_table(key)
    assert table is not None
    rng = random.Random(key)
    dice, palifico = tuple(table.meta["dice"]), table.meta["palifico"]
    for _ in range(60):
        hands = [Hand(rng.randint(1, 6) for _ in range(n)) for n in dice]
        bids: list[tuple[int, Bid]] = []
        while True:
            mover = len(bids) % 2
            spot = Situation(Rules(), dice, mover, hands[mover], tuple(bids), palifico)
            mixed = heads_up_strategy(spot)
            assert mixed is not None
            assert sum(p for _, p in mixed.choices) == pytest.approx(1.0)
            assert all(p > 0 and spot.is_legal(action) for action, p in mixed.choices)
            assert mixed.value is None or -1.0 <= mixed.value <= 1.0
            action = mixed.sample(rng)
            if action.kind != "raise":
                break
            bids.append((mover, action.bid))


def test_table_plays_the_hand_derived_palifico_strategy():
    spot = Situation(Rules(), (1, 1), 0, Hand([4]), (), palifico=True)
    mixed = heads_up_strategy(spot)
    assert mixed is not None and mixed.opening
    assert mixed.probability(Action.raise_to("1x4")) > 0.99
    assert mixed.value == pytest.approx(2 / 3, abs=1e-3)
    reply = heads_up_strategy(Situation(Rules(), (1, 1), 1, Hand([4]), ((0, Bid(1, 4)),),
                                        palifico=True))
    assert reply is not None and reply.probability(Action.raise_to("2x4")) > 0.99
    assert reply.value == pytest.approx(1.0, abs=1e-3)


def test_lookup_declines_when_no_table_fits():
    hand = Hand([3])
    assert heads_up_strategy(Situation(Rules(), (1, 1, 1), 0, hand)) is None
    assert heads_up_strategy(Situation(Rules(raise_rule="any-face"), (1, 1), 0, hand)) is None
    assert heads_up_strategy(Situation(Rules(calza_heads_up=True), (1, 1), 0, hand)) is None
    six = Situation(Rules(starting_dice=6), (6, 1), 0, Hand([3, 3, 3, 4, 4, 4]))
    assert heads_up_strategy(six) is None  # no table holds 6 dice a side
    above_table = ((0, Bid(3, 5)),)
    assert heads_up_strategy(Situation(Rules(), (1, 1), 1, hand, above_table)) is None
    not_alternating = ((0, Bid(1, 5)), (0, Bid(2, 5)))
    assert heads_up_strategy(Situation(Rules(), (1, 1), 1, hand, not_alternating)) is None
    # Eliminated seats do not count, other settings that do not shape the round do not matter.
    spot = Situation(Rules(starting_dice=2, salsa=True), (0, 1, 0, 2), 1, hand)
    assert heads_up_strategy(spot) is not None


def test_mixed_advice_is_phrased_with_probabilities_and_value():
    advice = MixedAdvice(((Action.raise_to("1x5"), 0.7), (DUDO, 0.3)), -0.1111, "1v1-normal",
                         opening=False)
    text = phrase_mixed_advice(advice)
    assert text == ("Raise to 1 × 5 with probability 0.70 or dudo with probability 0.30. "
                    "Played this way, this round is worth -0.11 dice to you on average.")
    data = advice.to_dict()
    assert data["choices"][0] == {"action": "raise", "bid": "1x5", "probability": 0.7}
    assert data["value"] == -0.1111 and data["table"] == "1v1-normal"
    opening = MixedAdvice(((Action.raise_to("1x5"), 1.0),), None, "1v1-normal", opening=True)
    assert phrase_mixed_advice(opening) == "Open 1 × 5 with probability 1.00."
    assert advice.probability(CALZA) == 0.0


def test_tables_bot_plays_legal_moves_and_whole_games():
    rng = random.Random(7)
    winners = {play_game([CoachTablesBot, CoachBot], Rules(starting_dice=2), rng)
               for _ in range(6)}
    assert winners <= {0, 1}
    bot = CoachTablesBot(random.Random(1))
    three_players = Situation(Rules(), (2, 1, 1), 0, Hand([2, 5]))
    assert three_players.is_legal(bot(three_players))
    heads_up = Situation(Rules(), (1, 2), 1, Hand([6, 6]), ((0, Bid(1, 6)),))
    assert heads_up.is_legal(bot(heads_up))


# The CLI.


def test_cli_prints_one_json_line(capsys):
    assert main(["--dice", "1", "1", "--game", "snyd-joker", "--method", "lp"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    payload = json.loads(lines[0])
    assert set(payload) == {"value", "exploitability", "seconds", "iterations", "target_reached"}
    assert payload["value"] == pytest.approx(float(SNYD_JOKER_1V1), abs=1e-9)


def test_cli_runs_cfr_for_a_number_of_iterations(capsys):
    assert main(["--dice", "1", "1", "--game", "palifico", "--iterations", "50"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["value"] == pytest.approx(2 / 3, abs=1e-3)
    assert 0 <= payload["exploitability"] < 1e-3


def test_cli_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "coach.solver.cli", "--dice", "1", "1",
                           "--game", "palifico", "--method", "lp"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert json.loads(done.stdout)["value"] == pytest.approx(2 / 3, abs=1e-9)


# A plain recursive best response, independent of the level-by-level arrays.


def _enumerated_best_response(game, tree, profile, player: int) -> float:
    """``player``'s best-response value by recursion over bid histories, one hand at a time.

    At the best responder's nodes the value is the larger child value for the hand held;
    the other player's moves are weighted by their probability for each of their hands.
    """
    own_hands, other_hands = game.hand_sets[player], game.hand_sets[1 - player]
    behaviour = _behaviour_lookup(tree, profile)

    def payoff(node: int, own: tuple, other: tuple) -> float:
        hands = (own, other) if player == 0 else (other, own)
        bid = game.bids[int(tree.bid[node])]
        total = game.matches(hands[0], bid) + game.matches(hands[1], bid)
        caller = (int(tree.depth[node]) - 1) % 2
        if int(tree.action[node]) == DUDO_CODE:
            caller_view = -1.0 if total >= bid.quantity else 1.0
        else:
            caller_view = game.calza_gain(caller) if total == bid.quantity else -1.0
        return caller_view if caller == player else -caller_view

    def value(node: int, own: tuple, weights: dict) -> float:
        if tree.child_count[node] == 0:
            return sum(w * payoff(node, own, other) for other, w in weights.items())
        first, count = int(tree.first_child[node]), int(tree.child_count[node])
        children = range(first, first + count)
        if int(tree.depth[node]) % 2 == player:
            return max(value(child, own, weights) for child in children)
        return sum(value(child, own, {other: w * behaviour(child, other_hands.index(other))
                                      for other, w in weights.items()})
                   for child in children)

    prior = dict(zip(other_hands.hands, other_hands.weights.tolist(), strict=True))
    return sum(w * value(0, own, prior)
               for own, w in zip(own_hands.hands, own_hands.weights.tolist(), strict=True))


def _behaviour_lookup(tree, profile):
    """``probability(child, hand)``: the mover's probability of the edge into ``child``."""
    def probability(child: int, hand: int) -> float:
        depth = int(tree.depth[child]) - 1
        return float(profile[depth][child - tree.levels[depth + 1].start, hand])
    return probability
