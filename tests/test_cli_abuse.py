"""The command lines under abuse (issue 16): every argument bounded and its range in --help,
matches stopped by a time limit or Ctrl+C with their partial result, workers that end with
the parent, failing bots named in one line, the solver's work counted before it starts."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading

import psutil
import pytest

import coach.cli
import coach.solver.cli
import perudo_math.cli
import practice.cli
from coach.solver.games import LinearBidGame, PerudoRound, build_tree
from perudo_math import Rules

COACH = coach.cli.main
CORES = os.cpu_count() or 1
FAST_ARENA = ["arena", "--games", "1000000", "--hero", "random", "--opponents", "random",
              "--players", "2", "--starting-dice", "1"]
"""A match of a million one-die games between random bots: it never ends in a test."""
PLAYED = re.compile(rb"\] [1-9]\d*/\d+ games, ")
"""The progress bar, once a game has been played."""
HANG_S = 60
"""How long a wait may last before the test calls it hung: it stops a hung test, and a slow
machine still passes."""


def run(main, argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --- every argument has a range, and --help says it --------------------------------------


def parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every parser of every command line, subcommands included."""
    found = []
    for root in (coach.cli.build_parser(), coach.solver.cli.build_parser(),
                 practice.cli.build_parser(), perudo_math.cli.build_parser()):
        found.append((root.prog, root))
        for action in root._actions:
            if isinstance(action, argparse._SubParsersAction):
                found.extend(action.choices.items())
    return found


def numeric_options() -> list[tuple[str, argparse.Action]]:
    """Every option read as a number (its type turns "1", "2" or "5" into numbers)."""
    options = []
    for name, parser in parsers():
        for action in parser._actions:
            if action.type is None or action.choices is not None:
                continue
            values = []
            for text in ("1", "2", "5"):
                with contextlib.suppress(argparse.ArgumentTypeError, ValueError):
                    values.append(action.type(text))
            if values and all(isinstance(value, int | float) and not isinstance(value, bool)
                              for value in values):
                options.append((f"{name} {action.option_strings[0]}", action))
    return options


NUMERIC = numeric_options()


def test_the_numeric_options_are_found():
    names = {name.split(" ")[-1] for name, _ in NUMERIC}
    assert {"--games", "--jobs", "--max-seconds", "--seed", "--iterations", "--target",
            "--dice", "--players", "--starting-dice", "--bidder-dice", "--bluff"} <= names


@pytest.mark.parametrize(("name", "action"), NUMERIC, ids=[name for name, _ in NUMERIC])
def test_every_number_has_both_ends_and_help_states_them(name, action):
    for beyond in ("9" * 25, "-" + "9" * 25, "1e308", "-1e308"):
        with pytest.raises(argparse.ArgumentTypeError):
            action.type(beyond)
    assert action.help and re.search(r"\d( \([^)]*\))? to \D{0,20}\d", action.help), action.help


@pytest.mark.parametrize(("argv", "words"), [
    (["arena", "--max-seconds", "0"], "from 1 to 86400, not '0'"),
    (["arena", "--max-seconds", "86401"], "from 1 to 86400"),
    (["arena", "--max-seconds", "1.5"], "expected a whole number from 1 to 86400"),
    (["arena", "--jobs", str(CORES + 1)], f"from 1 to {CORES}, not '{CORES + 1}'"),
    (["arena", "--jobs", "100"], f"from 1 to {CORES}"),
    (["arena", "--games", "1000001"], "from 1 to 1000000"),
    (["arena", "--seed", "-1"], "from 0 to"),
    (["advise", "--hand", "2", "--dice", "101", "--players", "2"], "from 1 to 100"),
    (["league", "--sizes", "1"], "from 2 to 10"),
    (["league", "--games", "0"], "from 1 to 1000000"),
    (["league", "--opponents", *(["n3"] * 21)], "--opponents: at most 20 bots, not 21"),
    (["league", "--extra", "n3", "n3", "11"], "--extra n3 n3 PLAYERS: expected a whole number "
                                              "from 2 to 10, not '11'"),
    (["league", "--extra", "n3", "n3", "3", "--no-extra"], "not allowed with argument"),
    (["league", "--opponents", "nobody", "--no-extra"], "unknown bot 'nobody'"),
    (["league", "--out", "/no/such/folder/league.json"], "--out: no folder '/no/such/folder'"),
    (["solve", "--dice", "2", "2", "--game", "perudo", "--target", "1e-300"],
     "expected a number from 1e-06 to 1, not '1e-300'"),
    (["solve", "--dice", "2", "2", "--game", "perudo", "--target", "2"], "from 1e-06 to 1"),
    (["solve", "--dice", "2", "2", "--game", "perudo", "--iterations", "1000"],
     "--iterations: at most 681 for this game (349,281 tree nodes × 42 hands)"),
    (["solve", "--dice", "2", "2", "--game", "perudo", "--raise-rule", "any-face"],
     "33,538,033 tree nodes"),
    (["solve", "--dice", "4", "0", "--game", "perudo"], "from 1 to 3, not '4'"),
])
def test_out_of_range_is_refused_in_one_line(capsys, argv, words):
    code, out, err = run(COACH, argv, capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err


@pytest.mark.parametrize(("main", "argv", "words"), [
    (practice.cli.main, ["scenario", "--seed", "-1"], "from 0 to 9223372036854775807"),
    (perudo_math.cli.main, ["check", "--bid", "2x3", "--bidder-dice", "11"], "from 1 to 10"),
    (perudo_math.cli.main, ["odds", "--dice", "101", "--bid", "2x3"], "from 1 to 100"),
])
def test_other_command_lines_refuse_out_of_range_too(capsys, main, argv, words):
    code, out, err = run(main, argv, capsys)
    assert (code, out) == (2, "") and words in err and err.count("\n") == 1


@pytest.mark.parametrize(("argv", "words"), [
    (["arena", "--help"], ["1 to 86,400", "1 to 1,000,000", f"1 to this machine's {CORES}",
                           "2 to 10"]),
    (["league", "--help"], ["1 to 86,400", "games per match, 1 to 1,000,000", "1 to 20 bots",
                            "2 to 10 players"]),
    (["solve", "--help"], ["1e-06 to 1", "1 to 3 each", "1 to 1,000,000"]),
    (["advise", "--help"], ["1 to 100", "2 to 10", "0 to 1"]),
])
def test_help_states_the_ranges(capsys, argv, words):
    code, out, _ = run(COACH, argv, capsys)
    text = " ".join(out.split())
    assert code == 0 and all(word in text for word in words), text


# --- the solver's work is counted before it starts -----------------------------------------


@pytest.mark.parametrize("game", [
    PerudoRound((1, 1)), PerudoRound((2, 1), rules=Rules(calza_heads_up=True)),
    PerudoRound((1, 2), palifico=True, rules=Rules(palifico_one_die_may_change_face=True)),
    PerudoRound((1, 1), rules=Rules(raise_rule="any-face")),
    LinearBidGame((1, 1)), LinearBidGame((1, 2), jokers=True),
], ids=repr)
def test_the_tree_is_counted_as_it_would_be_built(game):
    assert coach.solver.cli.tree_nodes(game) == build_tree(game).size


def test_the_search_for_a_target_stops_at_the_work_bound(capsys, monkeypatch):
    monkeypatch.setattr(coach.solver.cli, "MAX_WORK", 10**6)
    code, out, _ = run(COACH, ["solve", "--dice", "1", "1", "--game", "perudo", "--target",
                               "1e-6"], capsys)
    payload = json.loads(out)
    cells = 1137 * 12  # nodes × (6 + 6) hands
    assert code == 0 and payload["iterations"] <= 10**6 // cells
    assert payload["target_reached"] is False and payload["exploitability"] > 1e-6


def test_a_target_within_reach_says_so(capsys):
    code, out, _ = run(COACH, ["solve", "--dice", "1", "1", "--game", "palifico",
                               "--target", "1e-3"], capsys)
    payload = json.loads(out)
    assert code == 0 and payload["target_reached"] is True
    assert payload["exploitability"] <= 1e-3


# --- advice at the largest table answers fast ---------------------------------------------


def test_advice_with_a_hundred_dice_heads_up_answers():
    """Issue 16 saw this run for 240 s and 1.4 GB; issue 15 bounded the work (counted in
    tests/test_bounded_advice.py). The timeout only stops a hung command."""
    done = subprocess.run([sys.executable, "-m", "coach", "advise", "--hand", "1", "--dice",
                           "100", "--players", "2", "--bid", "5x4"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["action"] in ("raise", "dudo")


# --- failing bots, named -------------------------------------------------------------------

FAILING = [
    ("builtins:len", "raised TypeError: object of type 'Situation' has no len()"),
    ("tests.example_bots:raiser", "raised RuntimeError: no idea what to do"),
    ("tests.example_bots:wrong_type", "returned 'dudo' (str), not an Action"),
    ("tests.example_bots:cheater", "made an illegal move, 1xP: "),
    ("tests.example_bots:BadLoser", "raised ValueError in observe: showdowns upset me"),
]


@pytest.mark.parametrize(("bot", "what"), FAILING, ids=[bot for bot, _ in FAILING])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_bot_ends_the_arena_in_one_line(capsys, bot, what, jobs):
    code, out, err = run(COACH, ["arena", "--hero", bot, "--opponents", "n3", "--players", "3",
                                 "--games", "6", "--jobs", jobs, "--quiet"], capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert re.match(rf"python -m coach arena: error: bot {re.escape(repr(bot))} at seat \d "
                    rf"{re.escape(what)}", err), err


def test_the_issue_s_bot_in_a_real_process_with_workers():
    done = subprocess.run([sys.executable, "-m", "coach", "arena", "--hero", "builtins:len",
                           "--jobs", "2", "--games", "4", "--players", "2"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    last = done.stderr.strip().splitlines()[-1]  # after the progress bar
    assert re.fullmatch(r"python -m coach arena: error: bot 'builtins:len' at seat \d raised "
                        r"TypeError: object of type 'Situation' has no len\(\)", last)
    assert "Traceback" not in done.stderr


def test_a_failing_bot_ends_the_league_in_one_line(capsys):
    code, out, err = run(COACH, ["league", "--hero", "n3", "--opponents", "random",
                                 "tests.example_bots:raiser", "--sizes", "2", "--no-extra",
                                 "--games", "2", "--quiet"], capsys)
    assert (code, out) == (2, "")
    assert "bot 'tests.example_bots:raiser' at seat 1 raised RuntimeError" in err


# --- time limits and Ctrl+C ---------------------------------------------------------------


def _ctrl_c_as_from_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Running:
    """``python -m coach …`` started in the background, its stderr a terminal (where the
    progress bar is drawn) read as it comes."""

    def __init__(self, argv: list[str]) -> None:
        master, terminal = os.openpty()
        # As from a terminal, whatever started the tests: a shell's background job ignores
        # Ctrl+C, and an ignored signal stays ignored in every process started below it.
        try:
            self.process = subprocess.Popen([sys.executable, "-m", "coach", *argv],
                                            stdout=subprocess.PIPE, stderr=terminal,
                                            preexec_fn=_ctrl_c_as_from_a_terminal)
        finally:
            os.close(terminal)
        self.err = b""
        self.playing = threading.Event()  # a game played: every worker has started
        self.reader = threading.Thread(target=self._read, args=(master,), daemon=True)
        self.reader.start()

    def _read(self, master: int) -> None:
        try:
            while chunk := os.read(master, 4096):
                self.err += chunk
                if PLAYED.search(self.err):  # the progress bar: games are being played
                    self.playing.set()
        except OSError:  # the process and its workers closed the terminal
            pass
        finally:
            os.close(master)

    def workers(self) -> list[psutil.Process]:
        return psutil.Process(self.process.pid).children(recursive=True)

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        self.process.wait(timeout=timeout)  # stdout holds one JSON line: it never fills up
        assert self.process.stdout is not None
        out = self.process.stdout.read()
        self.reader.join(timeout=5)
        return self.process.returncode, out.decode(), self.err.decode().replace("\r\n", "\n")


def gone(processes: list[psutil.Process], timeout: float) -> bool:
    _, alive = psutil.wait_procs(processes, timeout=timeout)
    return all(process.status() == psutil.STATUS_ZOMBIE for process in alive)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_prints_the_partial_result_and_leaves_no_worker(jobs):
    match = Running([*FAST_ARENA, "--jobs", jobs])
    try:
        assert match.playing.wait(HANG_S), match.err
        # The workers start before the first chunk of games is sent, so once a game has been
        # played they are all there: counted, with no wait.
        workers = match.workers()
        assert len(workers) == int(jobs)  # one job plays in a worker too (issue 31)
        match.process.send_signal(signal.SIGINT)
        code, out, err = match.finish()  # its timeout only stops a hung command
    finally:
        match.process.kill()
    payload = json.loads(out)
    assert code == 130
    assert payload["stopped"] == "interrupted" and 0 < payload["games"] < 10**6
    hero, others = payload["results"]
    assert hero["wins"] + others["wins"] == payload["games"]
    assert hero["ci95"][0] <= hero["win_rate"] <= hero["ci95"][1]
    assert err.rstrip().endswith(f"python -m coach arena: interrupted after "
                                 f"{payload['games']:,} games: the result printed is partial")
    assert "Traceback" not in err
    assert gone(workers, timeout=HANG_S)


def test_workers_end_when_the_parent_is_killed_outright():
    match = Running([*FAST_ARENA, "--jobs", "2"])
    try:
        assert match.playing.wait(HANG_S)
        workers = match.workers()
        assert len(workers) == 2
        match.process.kill()
        match.process.wait(timeout=HANG_S)
    finally:
        match.process.kill()
    assert gone(workers, timeout=HANG_S)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_max_seconds_stops_the_match_with_its_partial_result(jobs):
    match = Running([*FAST_ARENA, "--jobs", jobs, "--max-seconds", "1"])
    try:
        code, out, err = match.finish(timeout=60)  # a match that ignored its limit would hang
    finally:
        match.process.kill()
    payload = json.loads(out)
    assert code == 0
    assert payload["stopped"] == "time-limit" and 0 < payload["games"] < 10**6
    assert payload["games_requested"] == 10**6
    assert "Traceback" not in err and err.endswith("\n")


def test_a_whole_match_says_it_was_not_stopped(capsys):
    code, out, _ = run(COACH, ["arena", "--hero", "random", "--opponents", "n3", "--players",
                               "2", "--games", "5", "--quiet", "--max-seconds", "600"], capsys)
    payload = json.loads(out)
    assert code == 0 and payload["stopped"] is None
    assert payload["games"] == payload["games_requested"] == 5


def test_a_reader_that_stops_early_gets_no_traceback():
    """``python -m coach ... | head``: the pipe closes before the JSON is written."""
    import subprocess
    import sys

    writer = subprocess.Popen(
        [sys.executable, "-c", "import sys; from perudo_math.arguments import print_result; "
                               "sys.exit(print_result(['x' * 100] * 5000))"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert writer.stdout is not None
    writer.stdout.read(10)
    writer.stdout.close()
    _, errors = writer.communicate(timeout=60)
    assert errors == b""
    assert writer.returncode == 1
