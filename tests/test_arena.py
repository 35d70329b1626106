"""Bots and the arena: legal moves, reproducible games, external bots, the CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coach import (
    BUILTIN_BOTS,
    ArenaSpec,
    BotFailure,
    Situation,
    load_bot,
    play_game,
    run_arena,
    wilson_interval,
)
from coach.cli import main
from perudo_math import Bid, Hand, Rules, legal_raises


@st.composite
def situations(draw):
    players = draw(st.integers(2, 6))
    dice = [draw(st.integers(0, 5)) for _ in range(players)]
    me = draw(st.integers(0, players - 1))
    dice[me] = max(1, dice[me])
    if sum(1 for n in dice if n) < 2:
        dice[(me + 1) % players] = 1
    palifico = draw(st.booleans())
    rules = draw(st.sampled_from([Rules(), Rules(raise_rule="any-face"),
                                  Rules(calza_heads_up=True)]))
    hand = Hand(draw(st.integers(1, 6)) for _ in range(dice[me]))
    active = [seat for seat, n in enumerate(dice) if n]
    bids: list[tuple[int, Bid]] = []
    previous = None
    for _ in range(draw(st.integers(0, 6))):
        options = legal_raises(previous, sum(dice), palifico=palifico, rules=rules)
        if not options:
            break
        previous = draw(st.sampled_from(options))
        bids.append((draw(st.sampled_from([s for s in active if s != me] or [me])), previous))
    return Situation(rules, tuple(dice), me, hand, tuple(bids), palifico)


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
@given(spot=situations(), seed=st.integers(0, 1000))
@settings(max_examples=80, deadline=None)
def test_every_builtin_bot_makes_legal_moves(name, spot, seed):
    bot = BUILTIN_BOTS[name](random.Random(seed))
    assert spot.is_legal(bot(spot))


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_whole_games_end_with_one_winner(players):
    bots = [load_bot(name) for name in ["coach", "probability", "n3", "random"]]
    seated = [bots[seat % len(bots)] for seat in range(players)]
    winner = play_game(seated, Rules(), random.Random(players))
    assert 0 <= winner < players


def test_games_under_other_rules():
    rules = Rules(starting_dice=2, raise_rule="any-face", palifico="while-one-die",
                  calza_heads_up=True)
    spec = ArenaSpec("coach", "n3", players=4, games=20, seed=3, rules=rules)
    assert sum(row.wins for row in run_arena(spec)) == 20


def test_the_same_seed_gives_the_same_results_whatever_the_jobs():
    spec = ArenaSpec("probability", "n3", players=5, games=24, seed=11)
    one = run_arena(spec)
    again = run_arena(spec)
    parallel = run_arena(spec, jobs=2)
    assert one == again == parallel
    assert one[0].wins + one[1].wins == 24


def test_the_seed_decides_the_dice():
    bots = [load_bot("probability")] * 3
    winners = {play_game(bots, Rules(), random.Random(seed)) for seed in range(12)}
    assert len(winners) > 1
    assert play_game(bots, Rules(), random.Random(5)) == play_game(bots, Rules(), random.Random(5))


def test_seats_rotate_so_the_hero_sits_everywhere():
    from coach.play.arena import seats_for_game

    spec = ArenaSpec("coach", "n3", players=5, games=10)
    assert [seats_for_game(spec, index)[0] for index in range(6)] == [0, 1, 2, 3, 4, 0]


def test_external_bots_load_by_module_and_attribute():
    spec = ArenaSpec("tests.example_bots:cautious", "tests.example_bots:Stubborn", 3, 12, 5)
    rows = run_arena(spec)
    assert rows[0].bot == "tests.example_bots:cautious"
    assert rows[0].wins + rows[1].wins == 12


def test_an_illegal_move_names_the_bot_and_its_seat():
    with pytest.raises(BotFailure, match="illegal move") as failed:
        run_arena(ArenaSpec("tests.example_bots:cheater", "n3", 3, 1, 0))
    assert (failed.value.bot, failed.value.seat) == ("tests.example_bots:cheater", 0)


@pytest.mark.parametrize(
    ("spec", "words"),
    [("nobody", "unknown bot 'nobody'"), ("no_such_module_xyz:bot", "cannot import"),
     ("tests.example_bots:missing", "has no attribute 'missing'"),
     ("tests.example_bots:not_a_bot", "is not callable")],
)
def test_bad_bot_names_are_clear(spec, words):
    with pytest.raises(ValueError, match=words):
        load_bot(spec)


def test_wilson_interval():
    low, high = wilson_interval(500, 1000)
    assert low == pytest.approx(0.469, abs=1e-3) and high == pytest.approx(0.531, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_advise_cli_matches_the_issue_example(capsys):
    code, out, _ = run_cli(capsys, "advise", "--hand", "1", "1", "5", "2", "3", "--dice", "8",
                           "--bid", "4x5", "--players", "3", "--history", "3x4,4x5")
    payload = json.loads(out)
    assert code == 0
    assert payload["action"] == "raise" and payload["bid"] == "2xP"
    assert {"action", "bid", "lose", "gain"} <= set(payload["options"][0])
    assert payload["reason"]["code"] == "raise-safer"
    actions = {option["action"] for option in payload["options"]}
    assert actions == {"raise", "dudo", "calza"}


def test_advise_cli_pure_odds_dudo_equals_the_engine(capsys):
    _, out, _ = run_cli(capsys, "advise", "--hand", "2", "3", "--dice", "9", "--bid", "5x4",
                        "--players", "3", "--pure-odds")
    dudo = next(o for o in json.loads(out)["options"] if o["action"] == "dudo")
    from perudo_math import odds

    assert dudo["lose"] == odds("5x4", [2, 3], 9).at_least


def test_arena_cli_as_a_user_runs_it():
    completed = subprocess.run(
        [sys.executable, "-m", "coach", "arena", "--players", "5", "--games", "10", "--seed",
         "7", "--hero", "coach", "--opponents", "probability", "--jobs", "2"],
        capture_output=True, text=True, check=True,
    )
    payload = json.loads(completed.stdout)
    assert payload["games"] == 10 and payload["players"] == 5
    hero, others = payload["results"]
    assert hero["bot"] == "coach" and others["bot"] == "probability"
    assert hero["wins"] + others["wins"] == 10
    assert hero["ci95"][0] <= hero["win_rate"] <= hero["ci95"][1]
    assert "10/10 games" in completed.stderr


def test_the_readme_bot_plays_a_match(tmp_path, monkeypatch):
    readme = (__import__("pathlib").Path(__file__).parent.parent / "README.md").read_text()
    code = readme.split("```python\n# mybots.py\n", 1)[1].split("```", 1)[0]
    (tmp_path / "mybots.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    rows = run_arena(ArenaSpec("mybots:careful", "probability", 4, 8, 1))
    assert rows[0].wins + rows[1].wins == 8
