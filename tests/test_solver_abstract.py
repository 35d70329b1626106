"""The imperfect-recall abstraction: tree counts, abstract states, CFR+ on the abstract
graph against the exact tree solver, and exploitability measured in the full game."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from coach.solver.abstract import (
    AbstractGame,
    Recall,
    abstract_arrays,
    abstract_layout,
    abstract_profile,
    abstract_values,
    build_abstract,
    count_abstract,
    full_game_profile,
    restricted_exploitability,
    solve_abstract,
    tree_keys,
)
from coach.solver.cfr import (
    Profile,
    best_response_value,
    expected_value,
    exploitability,
    normalise_stages,
    solve_cfr,
)
from coach.solver.games import (
    NO_BID,
    BidGame,
    LinearBidGame,
    PerudoRound,
    build_tree,
    count_tree,
)
from coach.solver.tables import quantise


@pytest.mark.parametrize(("dice", "palifico"), [((1, 1), False), ((1, 2), False),
                                                ((2, 2), True), ((3, 2), True)])
def test_count_tree_matches_the_built_tree(dice, palifico):
    game = PerudoRound(dice, palifico)
    assert count_tree(game) == build_tree(game).size


def test_count_tree_sizes_beyond_what_fits():
    assert count_tree(PerudoRound((2, 3))) == 12_369_809
    assert count_tree(PerudoRound((3, 3))) == 107_213_025
    assert count_tree(PerudoRound((3, 3), palifico=True)) == 757


def test_recall_keeps_the_last_bids_and_whose_turn():
    recall = Recall(2)
    assert recall.key(()) == ((), 0, 0)
    assert recall.key((3,)) == ((3,), 1, 0)
    assert recall.key((3, 5, 7, 9)) == ((7, 9), 0, 0)
    assert recall.after(((7, 9), 0, 0), 11) == ((9, 11), 1, 0)
    capped = Recall(1, depth_cap=2)
    assert capped.key((1, 2, 3, 4, 5)) == ((5,), 1, 2)
    assert capped.key((1,)) == ((1,), 1, 1)
    with pytest.raises(ValueError, match="bids must be 1 or more, not 0"):
        Recall(0)
    with pytest.raises(ValueError, match=r"depth cap is 0 \(none\) or more, not -1"):
        Recall(2, depth_cap=-1)


@pytest.mark.parametrize("recall", [Recall(1), Recall(3), Recall(2, depth_cap=3)])
def test_recall_after_follows_the_history(recall):
    rng = random.Random(7)
    for _ in range(50):
        history = sorted(rng.sample(range(30), rng.randint(0, 8)))
        key = recall.key(())
        for bid in history:
            key = recall.after(key, bid)
        assert key == recall.key(history)


def test_abstract_states_merge_histories():
    game = PerudoRound((1, 1))
    tree = build_tree(game)
    internal = sum(level.internal.size for level in tree.levels)
    assert build_abstract(game, Recall(12)).size == internal  # perfect recall: the tree
    coarse = build_abstract(game, Recall(1))
    pairs = {(int(tree.bid[node]), int(tree.depth[node]) % 2)
             for node in np.flatnonzero(tree.child_count > 0)}
    assert coarse.size == len(pairs) < 1 + 2 * len(game.bids)  # (last bid, mover) reached
    for stage in coarse.stages:  # every action leads to a later stage, of the other mover
        owners = coarse.stage_of[stage.children]
        assert (owners > coarse.stage_of[stage.start]).all()
        assert all(coarse.keys[child][1] == 1 - stage.mover for child in stage.children)


@pytest.mark.parametrize(("dice", "iterations"), [((1, 1), 60), ((1, 2), 3)])
def test_perfect_recall_abstraction_is_the_exact_solver(dice, iterations):
    # Few iterations at 1v2: regret matching+ turns rounding noise at a zero regret into
    # different (equally good) strategies after a while.
    game = PerudoRound(dice, payoff="game")
    tree = build_tree(game)
    exact = solve_cfr(tree, iterations=iterations)
    abstract = build_abstract(game, Recall(game.total_dice * 6))
    solved = solve_abstract(abstract, iterations=iterations)
    profile = full_game_profile(tree, abstract, solved.profile)
    for mine, theirs in zip(profile, exact.profile, strict=True):
        np.testing.assert_allclose(mine, theirs, atol=1e-9)
    assert solved.value == pytest.approx(exact.value, abs=1e-12)
    assert solved.abstract_exploitability == pytest.approx(exact.exploitability, abs=1e-12)


@pytest.fixture(scope="module")
def coarse_1v1() -> tuple[BidGame, AbstractGame, Profile]:
    game = PerudoRound((1, 1), payoff="game")
    abstract = build_abstract(game, Recall(1))
    return game, abstract, solve_abstract(abstract, iterations=40).profile


def test_abstract_value_is_the_full_game_value(coarse_1v1):
    game, abstract, profile = coarse_1v1
    tree = build_tree(game)
    full = full_game_profile(tree, abstract, profile)
    assert abstract.expected_value(profile) == pytest.approx(expected_value(tree, full),
                                                             abs=1e-12)


def test_best_responses_bound_the_exact_exploitability(coarse_1v1):
    game, abstract, profile = coarse_1v1
    exact = exploitability(build_tree(game), full_game_profile(build_tree(game), abstract,
                                                               profile))
    within = abstract.exploitability(profile)
    finer = restricted_exploitability(game, abstract, profile, Recall(3))
    perfect = restricted_exploitability(game, abstract, profile, Recall(12))
    assert within <= finer + 1e-12 <= exact + 2e-12
    assert within < exact / 10  # the coarse recall hides most of what the game exploits
    assert perfect == pytest.approx(exact, abs=1e-12)


def _brute_force_exploitability(game: BidGame, abstract: AbstractGame,
                                profile: Profile) -> float:
    """NashConv / 2 by plain recursion over bid histories, each player's hand explicit."""
    hands = game.hand_sets
    flat = {}
    for stage, strategy in zip(abstract.stages, profile, strict=True):
        for rank in range(stage.stop - stage.start):
            first = int(stage.child_segments[rank])
            flat[abstract.keys[stage.start + rank]] = strategy[
                first:first + int(stage.child_counts[rank])]

    def payoff(player: int, history: tuple[int, ...], code: int, h0: int, h1: int) -> float:
        bid = game.bids[history[-1]]
        count = (game.matches(hands[0].hands[h0], bid) + game.matches(hands[1].hands[h1], bid))
        caller = len(history) % 2
        opener = game.opener_payoff(bid, "dudo" if code == -1 else "calza", caller, count)
        return opener if player == 0 else -opener

    def best(player: int, history: tuple[int, ...], reach: np.ndarray) -> np.ndarray:
        """Per hand of ``player``: the best value against the other's reach ``reach``."""
        mover = len(history) % 2
        last = history[-1] if history else NO_BID
        strategy = flat[abstract.recall.key(history)]
        options = []
        for slot, code in enumerate(game.actions(last, mover)):
            step = reach if mover == player else reach * strategy[slot]
            if code >= 0:
                options.append(best(player, (*history, code), step))
            else:
                options.append(np.array([
                    sum(step[o] * payoff(player, history, code, *((h, o) if player == 0
                                                                   else (o, h)))
                        for o in range(len(hands[1 - player])))
                    for h in range(len(hands[player]))]))
        stacked = np.array(options)
        return stacked.max(axis=0) if mover == player else stacked.sum(axis=0)

    gains = [float(hands[p].weights @ best(p, (), hands[1 - p].weights.copy()))
             for p in (0, 1)]
    return sum(gains) / 2


def test_exact_exploitability_matches_a_brute_force_twin():
    game = LinearBidGame((1, 1))
    abstract = build_abstract(game, Recall(2))
    profile = solve_abstract(abstract, iterations=15).profile
    tree = build_tree(game)
    exact = exploitability(tree, full_game_profile(tree, abstract, profile))
    assert exact > 1e-3
    assert _brute_force_exploitability(game, abstract, profile) == pytest.approx(exact,
                                                                                 abs=1e-12)


def test_measure_script_prints_a_row_per_state_and_recall(capsys):
    from scripts.measure_abstraction import main as measure

    assert measure(["--states", "1v1", "--recall", "1", "2", "--iterations", "20",
                    "--bound-recall", "2", "12"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(row["state"], row["recall"]) for row in rows] == [("1v1-normal", "K1"),
                                                               ("1v1-normal", "K2")]
    first = rows[0]
    assert first["at_least_K2"] <= first["exploitability"] + 1e-9
    assert first["at_least_K12"] == pytest.approx(first["exploitability"], rel=1e-2)
    assert first["table_bytes"] == 2 * 6 * first["actions"]  # one die each: 6 hands
    assert "exact_value" in first


def test_abstract_tables_round_trip(coarse_1v1):
    game, abstract, profile = coarse_1v1
    steps = quantise(abstract, profile)
    arrays = abstract_arrays(abstract, steps)
    assert arrays["prob0"].dtype == np.uint16
    stored = abstract_profile(abstract, arrays)
    for mine, steps_here in zip(stored, normalise_stages(abstract, steps), strict=True):
        np.testing.assert_allclose(mine, steps_here, atol=1e-12)
    # Rare actions dropped, unreached states left uniform: the value barely moves.
    assert abstract.expected_value(stored) == pytest.approx(abstract.expected_value(profile),
                                                            abs=1e-3)
    with pytest.raises(ValueError):
        abstract_profile(build_abstract(game, Recall(2)), arrays)


@pytest.fixture(scope="module")
def built_1v3(tmp_path_factory):
    """As the script builds them (30 iterations): 1v3 and 1v1 remembering the last bid, 1v3's
    palifico round exactly; and 1v2 remembering two, measured without its tree."""
    from scripts.build_abstract_tables import main as build

    out = tmp_path_factory.mktemp("abstract")
    assert build(["--states", "1v3", "1v1", "--recall", "1", "--iterations", "30",
                  "--out", str(out)]) == 0
    assert build(["--states", "1v2", "--recall", "2", "--iterations", "30", "--full-limit",
                  "0", "--out", str(out / "k2")]) == 0
    # One folder, as shipped.
    (out / "k2" / "abstract" / "1v2-normal.npz").rename(out / "abstract" / "1v2-normal.npz")
    index = json.loads((out / "abstract_tables.json").read_text(encoding="utf-8"))
    index["tables"].update(json.loads((out / "k2" / "abstract_tables.json").read_text(
        encoding="utf-8"))["tables"])
    (out / "abstract_tables.json").write_text(json.dumps(index), encoding="utf-8")
    return out


def _stored(out, key):
    with np.load(out / "abstract" / f"{key}.npz") as stored:
        return {name: stored[name] for name in stored.files}


def test_build_abstract_tables_writes_measured_tables(built_1v3):
    index = json.loads((built_1v3 / "abstract_tables.json").read_text(encoding="utf-8"))
    # 1v1's palifico round has an exact table shipped, 1v3's has not: it is built, exactly.
    assert sorted(index["tables"]) == ["1v1-normal", "1v2-normal", "1v3-normal",
                                       "1v3-palifico"]
    normal, palifico = index["tables"]["1v3-normal"], index["tables"]["1v3-palifico"]
    assert normal["recall"] == "K1" and not normal["exact"]
    assert palifico["exact"] and palifico["exploitability"] < 1e-2
    assert normal["exploitability"] > palifico["exploitability"]
    assert 0 < normal["opener_loses"] < 1
    abstract = build_abstract(PerudoRound((1, 3), payoff="game"), Recall(1))
    assert abstract.expected_value(abstract_profile(abstract, _stored(built_1v3, "1v3-normal"))
                                   ) == pytest.approx(normal["value"], abs=1e-6)


@pytest.fixture
def shipped_1v3(built_1v3, monkeypatch):
    """The tables of :func:`built_1v3` in place of the shipped abstract ones."""
    from coach.solver import tables

    monkeypatch.setattr(tables, "ABSTRACT_TABLES_DIR", built_1v3 / "abstract")
    monkeypatch.setattr(tables, "ABSTRACT_INDEX_FILE", built_1v3 / "abstract_tables.json")
    tables._abstract_index.cache_clear()
    tables.load_table.cache_clear()
    yield tables
    tables._abstract_index.cache_clear()
    tables.load_table.cache_clear()


def _random_history(game: PerudoRound, rng: random.Random) -> list[int]:
    history, last = [], NO_BID
    for index in range(rng.randrange(0, 7)):
        raises = game.raises(last, index % 2)
        if not raises:
            break
        last = rng.choice(raises)
        history.append(last)
    return history


ROUNDS = {"1v3-normal": ((1, 3), False, Recall(1)), "1v2-normal": ((1, 2), False, Recall(2)),
          "1v3-palifico": ((1, 3), True, Recall(24))}


@pytest.mark.parametrize("key", ROUNDS)
def test_an_abstract_table_plays_its_state_whatever_came_before(built_1v3, shipped_1v3, key):
    dice, palifico, recall = ROUNDS[key]
    game = PerudoRound(dice, palifico, payoff="game")
    abstract = build_abstract(game, recall)
    stored = _stored(built_1v3, key)
    profile = abstract_profile(abstract, stored)
    values = abstract_values(abstract, profile)
    index = json.loads((built_1v3 / "abstract_tables.json").read_text(encoding="utf-8"))
    table = shipped_1v3.AbstractTable(key, index["tables"][key], stored)
    assert table.recall == recall
    if key != "1v2-normal":  # 1v2 has an exact table shipped, which comes first
        assert isinstance(shipped_1v3.load_table(key), shipped_1v3.AbstractTable)
    movers = [state[1] for state in abstract.keys]
    counts = [len(codes) for codes in abstract_layout(game, recall).codes]
    rng = random.Random(7)
    played = 0
    for _ in range(300):
        history = _random_history(game, rng)
        mover = len(history) % 2
        hand = rng.randrange(len(game.hand_sets[mover]))
        mixed = table.advice([game.bids[code] for code in history],
                             game.hand_sets[mover].hands[hand])
        node = abstract.index[recall.key(history)]
        number = int(abstract.stage_of[node])
        stage = abstract.stages[number]
        local = node - stage.start
        rows = stage.child_segments[local] + np.arange(stage.child_counts[local])
        codes = game.actions(history[-1] if history else NO_BID, mover)
        assert len(codes) == rows.size
        # The mover's rows come state after state in node order.
        first = sum(count for other, count in zip(movers[:node], counts, strict=False)
                    if other == mover)
        raw = stored[f"prob{mover}"][first:first + rows.size, hand]
        assert (mixed is None) == (raw.sum() == 0)
        if mixed is None:
            continue
        played += 1
        chances = dict(mixed.choices)
        for code, expected in zip(codes, profile[number][rows, hand], strict=True):
            assert chances.get(table._action(code), 0.0) == pytest.approx(expected, abs=1e-12)
        value = values[f"value{mover}"][movers[:node].count(mover), hand]
        assert mixed.value == pytest.approx(float(value), abs=1e-9) or (
            mixed.value is None and np.isnan(value))
    assert played > 100
    # The hand must have the table's dice, and the bids must be legal raises in turn.
    assert table.advice([], (2, 3)) is None
    assert table.advice([game.bids[5], game.bids[2]], (4,)) is None


def test_the_exact_table_comes_first_and_a_broken_one_is_refused(built_1v3, shipped_1v3):
    assert shipped_1v3.load_table("1v1-normal").__class__.__name__ == "StrategyTable"
    index = json.loads((built_1v3 / "abstract_tables.json").read_text(encoding="utf-8"))
    meta = index["tables"]["1v3-normal"]
    arrays = _stored(built_1v3, "1v3-normal")
    with pytest.raises(ValueError, match="1v3-normal: the table's figures lack recall_bids"):
        shipped_1v3.AbstractTable(
            "1v3-normal", {name: value for name, value in meta.items() if name != "recall_bids"},
            arrays)
    with pytest.raises(ValueError, match=r"1v3-normal: value1 is shaped \(\d+, 56\), not"):
        shipped_1v3.AbstractTable("1v3-normal", meta, {**arrays, "value1": arrays["value1"][1:]})
    with pytest.raises(ValueError, match="1v3-normal: the table was built for another"):
        shipped_1v3.AbstractTable("1v3-normal", {**meta, "recall_bids": 2}, arrays)


def test_the_build_measures_exactly_without_the_tree(built_1v3):
    index = json.loads((built_1v3 / "abstract_tables.json").read_text(encoding="utf-8"))
    k2 = index["tables"]["1v2-normal"]  # --full-limit 0: no tree, the treeless measure
    game = PerudoRound((1, 2), payoff="game")
    abstract = build_abstract(game, Recall(2))
    tree = build_tree(game)
    profile = abstract_profile(abstract, _stored(built_1v3, "1v2-normal"))
    assert k2["exploitability"] == float(
        f"{exploitability(tree, full_game_profile(tree, abstract, profile)):.3g}")
    assert k2["depth_cap"] == 0 and "at_least_K4" not in k2


@pytest.mark.parametrize(("dice", "palifico"), [((1, 2), False), ((2, 1), True)])
def test_an_abstract_tables_values_are_the_trees_under_perfect_recall(dice, palifico):
    from coach.solver.cfr import infoset_values

    game = PerudoRound(dice, palifico, payoff="game")
    abstract = build_abstract(game, Recall(len(game.bids)))
    profile = solve_abstract(abstract, iterations=30, target=None, check_every=30).profile
    values = abstract_values(abstract, profile)
    tree = build_tree(game)
    full = full_game_profile(tree, abstract, profile)
    keys = tree_keys(tree, abstract.recall)
    for player in (0, 1):
        rows = {node: row for row, node in enumerate(
            node for node, state in enumerate(abstract.keys) if state[1] == player)}
        exact = infoset_values(tree, full, player)
        compared = 0
        for depth, level in enumerate(tree.levels[:-1]):
            if level.mover != player:
                continue
            for node, at in zip(level.start + level.internal, level.internal, strict=True):
                mine = values[f"value{player}"][rows[abstract.index[keys[node]]]].astype(float)
                theirs = exact[depth][at]
                assert np.array_equal(np.isnan(mine), np.isnan(theirs))
                assert np.allclose(mine, theirs, atol=5e-4, equal_nan=True)
                compared += 1
        assert compared > 10


@pytest.mark.parametrize(("dice", "palifico"), [((1, 1), False), ((1, 2), False),
                                                ((2, 2), False), ((3, 2), True),
                                                ((2, 3), False)])
@pytest.mark.parametrize("recall", [Recall(1), Recall(2), Recall(3), Recall(2, depth_cap=4),
                                    Recall(1, depth_cap=5), Recall(3, depth_cap=2)],
                         ids=lambda recall: recall.name)
def test_count_abstract_is_the_built_size(dice, palifico, recall):
    game = PerudoRound(dice, palifico)
    assert count_abstract(game, recall) == build_abstract(game, recall).size


def test_count_abstract_sizes_beyond_what_fits():
    assert count_abstract(PerudoRound((5, 5)), Recall(2)) == 1768
    assert count_abstract(PerudoRound((5, 5)), Recall(12)) == 8_407_917_730


@pytest.mark.parametrize(("options", "words"), [
    ({"iterations": 0}, "iterations must be 1 or more, not 0"),
    ({"iterations": 5, "check_every": 0}, "check_every must be 1 or more, not 0"),
    ({"iterations": 5, "time_limit": 0.0}, "time_limit must be above 0 seconds, not 0.0"),
])
def test_solve_abstract_refuses_counts_that_stop_nothing(coarse_1v1, options, words):
    with pytest.raises(ValueError, match=words):
        solve_abstract(coarse_1v1[1], **options)


# --- the two command lines under abuse: one line, exit 2, before any work -------------------

MEASURE_ABUSE = [
    (["--recall", "-3"], "argument --recall: expected a whole number from 1 to 12, not '-3'"),
    (["--recall", "13"], "from 1 to 12, not '13'"),
    (["--recall", "1", "1"], "--recall: 1 is given twice"),
    (["--iterations", "0"], "argument --iterations: expected a whole number from 1 to 1000000"),
    (["--iterations", "9" * 40], "argument --iterations: expected a whole number"),
    (["--time-limit", "0"], "argument --time-limit: expected a number from 0.01 to 86400"),
    (["--time-limit", "inf"], "expected a finite number, not 'inf'"),
    (["--check-every", "0"], "argument --check-every: expected a whole number from 1 to 10000"),
    (["--full-limit", "-1"], "argument --full-limit: expected a whole number from 0 to 1000000"),
    (["--bound-recall", "99"], "argument --bound-recall: expected a whole number from 1 to 12"),
    (["--depth-cap", "-1"], "argument --depth-cap: expected a whole number from 0 to 60"),
    (["--states", "abc"], "expected a state like 2v3 (the opener's dice v the responder's), "
                          "not 'abc'"),
    (["--states", "0v1"], "0v1: each side holds 1 to 5 dice (the starting dice)"),
    (["--states", "6v6"], "6v6: each side holds 1 to 5 dice"),
    (["--states", "9v9"], "9v9: each side holds 1 to 5 dice"),
    (["--states", "2v2", "1v1", "2v2"], "--states: 2v2 is given twice"),
    (["--states", "5v5", "--recall", "3"], "5v5-normal K3: 18,047 abstract states × 252 × 252 "
                                           "hands take 9.2 GB of arrays, at most 2 GB fit: "
                                           "lower --recall or the dice"),
    (["--states", "1v1", "3v3", "--recall", "2", "--bound-recall", "5"],
     "3v3-normal K5: 83,790 abstract states × 56 × 56 hands take 2.1 GB of arrays, at most "
     "2 GB fit: lower --bound-recall"),
    (["--nonsense"], "unrecognized arguments: --nonsense"),
]
BUILD_ABUSE = [
    (["--recall", "-3"], "argument --recall: expected a whole number from 1 to 12, not '-3'"),
    (["--iterations", "0"], "argument --iterations: expected a whole number from 1 to 1000000"),
    (["--time-limit", "-5"], "argument --time-limit: expected a number from 0.01 to 86400"),
    (["--full-limit", "1e9"], "argument --full-limit: expected a whole number from 0 to"),
    (["--bound-recall", "0"], "argument --bound-recall: expected a whole number from 1 to 12"),
    (["--states", "abc"], "expected a state like 2v3"),
    (["--states", "0v1"], "0v1: each side holds 1 to 5 dice"),
    (["--states", "6v6"], "6v6: each side holds 1 to 5 dice"),
    (["--states", "9v9"], "9v9: each side holds 1 to 5 dice"),
    (["--states", "1v1", "1v1"], "--states: 1v1 is given twice"),
    (["--max-mb", "0"], "argument --max-mb: expected a whole number from 1 to 2000, not '0'"),
    (["--max-mb", "2001"], "argument --max-mb: expected a whole number from 1 to 2000"),
    (["--out", __file__], "is a file, not a folder"),
]


HEAVY = ("build_abstract", "solve_abstract", "build_tree", "full_game_profile",
         "restricted_exploitability", "exploitability", "abstract_arrays", "quantise")
"""What takes time or memory in the scripts: a refusal must come before any of it."""


def _abused(module, argv, capsys, monkeypatch) -> tuple[int, str, str]:
    def built(*_args, **_kwargs):
        raise AssertionError("built a game before refusing")

    for name in HEAVY:
        if hasattr(module, name):
            monkeypatch.setattr(module, name, built)
    code = module.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("argv", "words"), MEASURE_ABUSE, ids=lambda value: str(value)[:40])
def test_measure_refuses_bad_input_in_one_line(capsys, monkeypatch, argv, words):
    from scripts import measure_abstraction

    code, out, err = _abused(measure_abstraction, argv, capsys, monkeypatch)
    assert (code, out) == (2, "")
    assert err.startswith("python -m scripts.measure_abstraction: error: "), err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err


@pytest.mark.parametrize(("argv", "words"), BUILD_ABUSE, ids=lambda value: str(value)[:40])
def test_build_refuses_bad_input_in_one_line(capsys, monkeypatch, tmp_path, argv, words):
    from scripts import build_abstract_tables

    code, out, err = _abused(build_abstract_tables, [*argv, "--out", str(tmp_path / "t")]
                             if "--out" not in argv else argv, capsys, monkeypatch)
    assert (code, out) == (2, "")
    assert err.startswith("python -m scripts.build_abstract_tables: error: "), err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
    assert not (tmp_path / "t").exists()  # refused before anything is written


def test_every_tree_measured_exactly_fits_the_solver_bound():
    from coach.solver.cli import MAX_TREE_CELLS
    from scripts.measure_abstraction import MAX_DICE, MAX_FULL_NODES

    for first in range(1, MAX_DICE + 1):
        for second in range(1, MAX_DICE + 1):
            for palifico in (False, True):
                nodes = count_tree(PerudoRound((first, second), palifico))
                hands = math.comb(first + 5, 5) + math.comb(second + 5, 5)
                assert nodes > MAX_FULL_NODES or nodes * hands <= MAX_TREE_CELLS


def test_help_states_every_range(capsys):
    from scripts.build_abstract_tables import main as build
    from scripts.measure_abstraction import main as measure

    for main in (measure, build):
        assert main(["--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert all(words in text for words in ("1 to 5 dice", "1 to 12", "1 to 1,000,000",
                                               "0.01 to 86,400", "0 to 1,000,000")), text


@pytest.mark.parametrize(("dice", "palifico", "recall", "batch"), [
    ((1, 1), False, Recall(1), None),
    ((1, 2), False, Recall(2), 50),  # a few nodes a batch: the chunking is walked
    ((2, 1), False, Recall(1, depth_cap=3), 7),
    ((2, 2), True, Recall(1), 100),
    ((2, 2), False, Recall(2), 1000),
    ((1, 3), False, Recall(3), 5000),
], ids=str)
def test_the_treeless_best_response_is_the_trees(dice, palifico, recall, batch):
    from coach.solver.full_response import FullGameResponse

    game = PerudoRound(dice, palifico, payoff="game")
    abstract = build_abstract(game, recall)
    profile = solve_abstract(abstract, iterations=25, target=None, check_every=25).profile
    tree = build_tree(game)
    full = full_game_profile(tree, abstract, profile)
    response = FullGameResponse(abstract, batch)
    for player in (0, 1):
        assert response.value(player, profile) == pytest.approx(
            best_response_value(tree, player, full), abs=1e-12)
    assert response.exploitability(profile) == pytest.approx(exploitability(tree, full),
                                                             abs=1e-12)


def test_the_treeless_best_response_refuses_what_it_cannot_number():
    from coach.solver.full_response import FullGameResponse

    game = PerudoRound((1, 1), payoff="game")
    with pytest.raises(ValueError, match="a batch holds 1 node or more, not 0"):
        FullGameResponse(build_abstract(game, Recall(1)), 0)
    palifico = PerudoRound((2, 2), palifico=True)  # perfect recall: 24 bids remembered
    with pytest.raises(ValueError, match="K24: too long a recall to number its states"):
        FullGameResponse(build_abstract(palifico, Recall(len(palifico.bids))))


def test_a_heads_up_spot_past_the_exact_tables_reads_the_abstract_one(shipped_1v3):
    from coach import Situation, heads_up_strategy
    from perudo_math import Bid, Hand, Rules

    opened = Situation(Rules(), (1, 3), 1, Hand([2, 2, 5]), ((0, Bid(1, 5)),), False)
    mixed = heads_up_strategy(opened)
    assert mixed is not None and mixed.table == "1v3-normal"
    assert sum(chance for _, chance in mixed.choices) == pytest.approx(1.0)
    assert all(opened.is_legal(action) for action, _ in mixed.choices)
    # Other rules (any face may follow) are not the table's: no table, the coach's own advice.
    other = Situation(Rules(raise_rule="any-face"), (1, 3), 1, Hand([2, 2, 5]),
                      ((0, Bid(1, 5)),), False)
    assert heads_up_strategy(other) is None


def test_the_build_covers_every_state_past_the_exact_tables_bottom_up():
    from scripts.build_abstract_tables import default_states, recall_for, rounds_of

    states = default_states()
    assert len(states) == 21 and states[0] == (1, 3) and states[-1] == (5, 5)
    assert not {(1, 1), (1, 2), (2, 1), (2, 2)} & set(states)
    assert [sum(dice) for dice in states] == sorted(sum(dice) for dice in states)
    # A palifico round is opened by who just dropped to one die.
    assert rounds_of((1, 4)) == [False, True] and rounds_of((4, 1)) == [False]
    assert rounds_of((1, 2)) == [False]  # its palifico round has an exact table
    megabytes = 60 * 10**6
    assert recall_for(PerudoRound((3, 4)), 2, megabytes) == Recall(2)
    assert recall_for(PerudoRound((4, 4)), 2, megabytes) == Recall(1)
    assert recall_for(PerudoRound((5, 5)), 3, 10**9) == Recall(2)
    assert recall_for(PerudoRound((1, 3), palifico=True), 1, 1) == Recall(24)
