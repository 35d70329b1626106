"""Bots and the arena: legal moves, reproducible games, external bots, the CLI."""

from __future__ import annotations

import contextlib
import io
import json
import pickle
import random
import re
import subprocess
import sys
import time
from types import SimpleNamespace

import psutil
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coach import (
    BUILTIN_BOTS,
    DUDO,
    ArenaSpec,
    BotFailure,
    Situation,
    load_bot,
    play_game,
    play_match,
    run_arena,
    wilson_interval,
)
from coach.cli import main
from coach.engine.showdown import Showdown
from coach.play import StopReason, iter_decisions
from coach.play import arena as arena_module
from coach.play.arena import (
    CHUNK_SECONDS,
    IN_FLIGHT_PER_JOB,
    MAX_CHUNK,
    ProgressBar,
    _ChunkSizes,
    seats_for_game,
)
from perudo_math import Bid, GameState, Hand, Rules, legal_raises


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
                           "--bid", "4x5", "--players", "3", "--history", "3x5,4x5")
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
    assert completed.stderr == ""  # no progress bar when stderr is not a terminal


def test_the_readme_bot_plays_a_match(tmp_path, monkeypatch):
    readme = (__import__("pathlib").Path(__file__).parent.parent / "README.md").read_text()
    code = readme.split("```python\n# mybots.py\n", 1)[1].split("```", 1)[0]
    (tmp_path / "mybots.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    rows = run_arena(ArenaSpec("mybots:careful", "probability", 4, 8, 1))
    assert rows[0].wins + rows[1].wins == 8


# --- showdowns ----------------------------------------------------------------------------


class Recorder:
    """Plays like ``n3`` and writes down every move it is asked for and every showdown."""

    def __init__(self, log: list) -> None:
        self.log = log
        self.play = load_bot("n3")(random.Random(0))

    def __call__(self, situation: Situation):
        self.log.append(("move", self, situation))
        return self.play(situation)

    def observe(self, showdown: Showdown) -> None:
        self.log.append(("showdown", self, showdown))


def play_out(players, rules: Rules | None = None, seed: int = 3) -> GameState:
    state = GameState.new([f"seat {seat}" for seat in range(len(players))],
                          rules or Rules(), first_opener=0)
    decisions = iter_decisions(players, state, random.Random(seed))
    while True:
        try:
            next(decisions)
        except StopIteration as finished:
            return finished.value


@pytest.mark.parametrize("rules", [Rules(), Rules(starting_dice=2, calza_heads_up=True)])
def test_every_bot_sees_each_round_s_showdown_as_the_round_ends(rules):
    log: list = []
    players = [Recorder(log) for _ in range(4)]
    final = play_out(players, rules)
    for player in players:
        seen = [entry[2] for entry in log if entry[0] == "showdown" and entry[1] is player]
        assert [(s.kind, s.called_bid, s.caller, s.count, s.palifico) for s in seen] == [
            (r.kind, r.bid, r.caller, r.count, r.palifico) for r in final.results]
    for position, (what, _, showdown) in enumerate(log):
        if what != "showdown":
            continue
        call = next(entry[2] for entry in reversed(log[:position]) if entry[0] == "move")
        assert call.bids == showdown.bids and call.me == showdown.caller
        assert len(showdown.hands) == 4 and showdown.hands[showdown.caller] == call.hand
        assert tuple(len(hand) for hand in showdown.hands) == call.dice
        assert showdown.count == sum(hand.count(showdown.called_bid.face,
                                                palifico=showdown.palifico)
                                     for hand in showdown.hands)
    # the showdowns of a round all come before the next round's first move
    kinds = [what for what, _, _ in log]
    assert "showdown" in kinds and kinds[-4:] == ["showdown"] * 4


def test_one_bot_object_in_several_seats_sees_each_showdown_once():
    log: list = []
    shared = Recorder(log)
    final = play_out([shared, shared, Recorder(log)])
    assert sum(1 for what, who, _ in log if what == "showdown" and who is shared) == \
        len(final.results)


def test_bots_without_observe_play_as_before():
    bots = [load_bot(name) for name in ("n3", "probability", "random")]
    assert play_game(bots, Rules(), random.Random(8)) in (0, 1, 2)


# --- bots that fail -----------------------------------------------------------------------

FAILING = [
    ("builtins:len", 0, "raised TypeError: object of type 'Situation' has no len()"),
    ("tests.example_bots:raiser", 0, "raised RuntimeError: no idea what to do"),
    ("tests.example_bots:wrong_type", 0, "returned 'dudo' (str), not an Action"),
    ("tests.example_bots:cheater", 0, "made an illegal move, 1xP: "),
    ("tests.example_bots:BadLoser", None, "raised ValueError in observe: showdowns upset me"),
]


@pytest.mark.parametrize(("bot", "seat", "what"), FAILING, ids=[bot for bot, _, _ in FAILING])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_bot_stops_the_match_named_with_its_seat(bot, seat, what, jobs):
    spec = ArenaSpec(bot, "n3", players=3, games=6, seed=1)
    with pytest.raises(BotFailure) as failed:
        play_match(spec, jobs=jobs)
    failure = failed.value
    assert failure.bot == bot and failure.what.startswith(what)
    assert str(failure).startswith(f"bot {bot!r} at seat {failure.seat} {what}")
    if seat is not None and jobs == 1:
        assert failure.seat == seat  # game 0 seats the hero first
    if bot.endswith("cheater") and jobs == 1:
        assert failure.what.endswith("a normal round cannot be opened on pacos: open on a face "
                                     "from 2 to 6")
    assert "\n" not in str(failure)


def test_a_failing_opponent_is_named_not_the_hero():
    with pytest.raises(BotFailure) as failed:
        play_match(ArenaSpec("n3", "tests.example_bots:raiser", players=3, games=2))
    assert failed.value.bot == "tests.example_bots:raiser" and failed.value.seat != 0


def test_a_factory_that_fails_is_named_when_the_bot_is_built():
    def broken(rng: random.Random):
        raise OSError("no table here")

    with pytest.raises(BotFailure, match=r"at seat 1 raised OSError when built: no table") \
            as failed:
        play_game([load_bot("n3"), broken], Rules(), random.Random(0), ["n3", "broken"])
    assert failed.value.bot == "broken"


def test_a_failure_crosses_processes_whole():
    failure = BotFailure("mod:bot", 3, "raised KeyError: 'x'")
    again = pickle.loads(pickle.dumps(failure))
    assert (again.bot, again.seat, again.what, str(again)) == (
        failure.bot, failure.seat, failure.what, str(failure))
    assert isinstance(again, ValueError)


def test_a_long_error_is_cut_to_one_short_line():
    def chatty(situation: Situation):
        raise RuntimeError("line\n" * 500)

    with pytest.raises(BotFailure) as failed:
        play_game([chatty, load_bot("n3")], Rules(), random.Random(0))
    assert "\n" not in str(failed.value) and len(str(failed.value)) < 300


@pytest.mark.parametrize(("spec", "words"), [
    ("..:bot", "cannot import bot module '..': TypeError"),
    (":bot", "cannot import bot module '': ValueError: Empty module name"),
    ("x" * 5000 + ":bot", "(5000 characters)"),
])
def test_bot_names_that_break_importing_are_refused_in_words(spec, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        load_bot(spec)


# --- streaming, deadlines, interruptions ---------------------------------------------------

FAST = {"players": 2, "rules": Rules(starting_dice=1)}
"""Random bots with one die each: a game takes well under a millisecond."""


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_same_seed_gives_the_same_tally_across_chunk_sizes(jobs):
    spec = ArenaSpec("random", "n3", games=600, seed=5, **FAST)
    expected = sum(play_game([load_bot(name) for name in seats_for_game(spec, index)[1]],
                             spec.rules, random.Random(f"5:{index}"))
                   == seats_for_game(spec, index)[0] for index in range(600))
    result = play_match(spec, jobs=jobs)
    assert (result.played, result.hero_wins, result.stopped) == (600, expected, None)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_deadline_stops_the_match_with_the_games_played(jobs, monkeypatch):
    """Counted, not timed: once the deadline passes the parent hands out no more games, so
    the games sent and not played are at most the chunks in flight when it passed."""
    sent: list[int] = []
    send = arena_module._Worker.send

    def counted_send(self, chunk):
        sent.append(chunk.stop - chunk.start)
        return send(self, chunk)

    monkeypatch.setattr(arena_module._Worker, "send", counted_send)
    spec = ArenaSpec("random", "random", games=10**6, **FAST)
    result = play_match(spec, jobs=jobs, deadline=time.monotonic() + 1.5)
    assert result.stopped is StopReason.TIME_LIMIT
    assert 0 < result.played <= sum(sent) < spec.games
    assert sum(sent) - result.played <= IN_FLIGHT_PER_JOB * jobs * MAX_CHUNK
    hero, others = result.results
    assert hero.games == others.games == result.played
    assert hero.wins + others.wins == result.played
    payload = result.to_dict()
    assert payload["games"] == result.played and payload["games_requested"] == 10**6
    assert payload["stopped"] == "time-limit"


def test_past_its_deadline_a_worker_starts_no_other_game(monkeypatch):
    """On a clock the test holds, each game one tick: a chunk of 50 games whose deadline is 7
    ticks away plays 7, the game in play when the deadline passes included."""
    ticks = [0.0]
    monkeypatch.setattr(arena_module, "time", SimpleNamespace(monotonic=lambda: ticks[0],
                                                              perf_counter=lambda: ticks[0]))
    hero_won = arena_module._hero_won

    def a_tick_a_game(spec, factories, index):
        ticks[0] += 1
        return hero_won(spec, factories, index)

    monkeypatch.setattr(arena_module, "_hero_won", a_tick_a_game)
    chunk = arena_module._Chunk(ArenaSpec("random", "random", games=50, **FAST), 0, 50, 7.0)
    played, wins, seconds = arena_module._play_chunk(chunk, [0, arena_module.NOBODY])
    assert (played, seconds) == (7, 7.0) and 0 <= wins <= played


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_deadline_already_past_plays_nothing(jobs):
    result = play_match(ArenaSpec("random", "random", games=50, **FAST), jobs=jobs,
                        deadline=time.monotonic() - 1)
    assert (result.played, result.stopped) == (0, StopReason.TIME_LIMIT)
    assert result.results[0].ci95 == (0.0, 1.0)


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_the_games_played_and_ends_the_workers(jobs):
    seen: list[int] = []

    def interrupt_later(done: int, total: int) -> None:
        seen.append(done)
        if done >= 200:
            raise KeyboardInterrupt

    def children() -> set[int]:
        alive = set()
        for child in psutil.Process().children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                if child.status() != psutil.STATUS_ZOMBIE:
                    alive.add(child.pid)
        return alive

    before = children()  # another test's server may be running
    result = play_match(ArenaSpec("random", "random", games=10**6, **FAST), jobs=jobs,
                        progress=interrupt_later)
    assert result.stopped is StopReason.INTERRUPTED and result.played == seen[-1] >= 200
    assert children() - before == set()


def test_run_arena_still_raises_keyboard_interrupt():
    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_arena(ArenaSpec("random", "random", games=10, **FAST), progress=interrupt)


def test_chunks_start_at_one_game_then_aim_at_a_fraction_of_a_second():
    sizes = _ChunkSizes(jobs=2)
    assert sizes.next(10**6) == 1
    sizes.record(10, 0.01)  # a millisecond a game
    assert sizes.next(10**6) == int(CHUNK_SECONDS / 0.001)
    sizes.record(10**6, 1e-9)  # instant games: capped
    assert sizes.next(10**9) == MAX_CHUNK
    assert sizes.next(40) == 10  # the last games are shared out
    assert sizes.next(1) == 1


def test_the_progress_bar_ends_its_line_when_stopped_early():
    stream = io.StringIO()
    bar = ProgressBar(stream)
    bar(5, 10, "match 1/2: coach vs n3")
    bar.finish()
    text = stream.getvalue()
    assert "5/10 games" in text and "match 1/2: coach vs n3" in text and text.endswith("\n")
    bar.finish()
    assert stream.getvalue() == text


def test_a_call_with_no_bid_is_the_game_s_refusal_in_words():
    def hasty(situation: Situation):
        return DUDO

    with pytest.raises(BotFailure) as failed:
        play_game([lambda rng: hasty, load_bot("n3")], Rules(), random.Random(0),
                  ["hasty", "n3"])
    assert str(failed.value) == ("bot 'hasty' at seat 0 made an illegal move, dudo: no bid to "
                                 "challenge yet")
