"""The command lines stay in control of their bots (issue 31, point 6), whatever ``--jobs``:
``--max-seconds`` stops a bot that hangs or spins, a bot's prints go to stderr and leave
stdout to the result, and a bot that ends its process is named (exit status 1).

The commands run as a user runs them, in a process of their own. The deadline is held by
counting, not by timing: the match says ``"stopped": "time-limit"`` with fewer games than
asked for, and the command ends before the test's own generous timeout, which would raise.
``subprocess.run`` also waits for every process holding the command's stdout and stderr, so
a worker left running would hit that timeout too.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import pytest

from coach import ArenaSpec, BotFailure, play_match
from coach.cli import main
from coach.play import StopReason
from coach.play import arena as arena_module
from coach.play.arena import WorkerLost, Workers
from coach.play.league import LeagueSpec, run_league

HOSTILE = "tests.hostile_bots"
TIMEOUT = 120
"""The test's own limit on a command given --max-seconds 2: reached only if it is not held."""
MANY = "100000"
JOBS = ["1", "2"]


def coach(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "coach", *argv], capture_output=True,
                          text=True, timeout=TIMEOUT)


def arena(bot: str, *more: str) -> subprocess.CompletedProcess[str]:
    return coach("arena", "--hero", f"{HOSTILE}:{bot}", "--opponents", "n3", "--players", "3",
                 *more)


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


# --- a bot that never answers -------------------------------------------------------------


@pytest.mark.parametrize("jobs", JOBS)
@pytest.mark.parametrize("bot", ["Sleeper", "Spinner"])
def test_max_seconds_stops_a_bot_that_hangs_or_spins(bot, jobs):
    done = arena(bot, "--games", MANY, "--max-seconds", "2", "--jobs", jobs)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["stopped"] == "time-limit"
    assert 1 <= payload["games"] < payload["games_requested"]  # the games before it turned
    hero, others = payload["results"]
    assert hero["wins"] + others["wins"] == payload["games"]
    said = [line for line in lines(done.stderr) if "python -m coach arena: " in line]
    assert said and all(re.fullmatch(
        rf"python -m coach arena: bot '{HOSTILE}:{bot}' at seat \d was still playing \S+ s "
        r"past the time limit: its game was dropped and its worker stopped", line)
        for line in said), done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("bot", "jobs"), [("Spinner", "1"), ("Sleeper", "2")])
def test_max_seconds_stops_a_league_whose_bot_hangs_or_spins(bot, jobs):
    done = coach("league", "--hero", "n3", "--opponents", "random", f"{HOSTILE}:{bot}",
                 "--sizes", "3", "--no-extra", "--games", "20", "--max-seconds", "6",
                 "--jobs", jobs)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["stopped"] == "time-limit"
    first, cut = payload["matches"]
    assert (first["opponent"], first["games"], first["stopped"]) == ("random", 20, None)
    assert cut["stopped"] == "time-limit" and cut["games"] < 20
    assert f"python -m coach league: bot '{HOSTILE}:{bot}' at seat " in done.stderr
    assert "Traceback" not in done.stderr


# --- a bot that prints --------------------------------------------------------------------


@pytest.mark.parametrize("output", ["--json", "--text"])
@pytest.mark.parametrize("jobs", JOBS)
def test_a_bot_s_prints_go_to_stderr_and_stdout_holds_the_result_alone(jobs, output, capsys):
    talking = arena("talker", "--games", "12", "--seed", "3", "--jobs", jobs, output)
    code = main(["arena", "--hero", "tests.example_bots:cautious", "--opponents", "n3",
                 "--players", "3", "--games", "12", "--seed", "3", output])
    quiet = capsys.readouterr().out
    assert talking.returncode == code == 0, talking.stderr
    # the talker plays as cautious does: the same result, word for word, but for its name
    # (and the width of the text's columns, which its name sets)
    assert " ".join(talking.stdout.replace(f"{HOSTILE}:talker", "NAME").split()) == \
        " ".join(quiet.replace("tests.example_bots:cautious", "NAME").split())
    assert talking.stdout.endswith("\n") and "talker" not in talking.stdout.replace(
        f"{HOSTILE}:talker", "")
    if output == "--json":
        assert json.loads(talking.stdout)["games"] == 12
    assert "hostile_bots: loaded" in talking.stderr  # printed as the module was imported
    assert "talker thinks about" in talking.stderr and "straight to fd 1" in talking.stderr


# --- a bot that ends its process ----------------------------------------------------------


@pytest.mark.parametrize("jobs", JOBS)
@pytest.mark.parametrize("command", ["arena", "league"])
def test_a_bot_that_ends_its_process_is_named_with_exit_status_1(command, jobs):
    if command == "arena":
        done = arena("quitter", "--games", "20", "--jobs", jobs)
    else:
        done = coach("league", "--hero", "n3", "--opponents", "random", f"{HOSTILE}:quitter",
                     "--sizes", "2", "--no-extra", "--games", "20", "--jobs", jobs)
    assert (done.returncode, done.stdout) == (1, "")
    assert re.fullmatch(rf"python -m coach {command}: error: bot '{HOSTILE}:quitter' at seat "
                        r"\d ended its worker process \(exit status 0\)",
                        lines(done.stderr)[-1]), done.stderr
    assert "Traceback" not in done.stderr


# --- the same, from Python ----------------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_play_match_names_the_bot_that_ended_its_worker(jobs):
    with pytest.raises(WorkerLost) as lost:
        play_match(ArenaSpec("n3", f"{HOSTILE}:quitter", players=3, games=6), jobs=jobs)
    failure = lost.value
    assert failure.bot == f"{HOSTILE}:quitter" and failure.seat in range(3)
    assert str(failure) == (f"bot '{HOSTILE}:quitter' at seat {failure.seat} ended its worker "
                            "process (exit status 0)")


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(("bot", "what"), [("sulker", "raised KeyboardInterrupt"),
                                           ("stormer", "raised Tantrum: no more")])
def test_a_bot_raising_past_except_exception_is_a_named_failure(bot, what, jobs):
    with pytest.raises(BotFailure) as failed:
        play_match(ArenaSpec(f"{HOSTILE}:{bot}", "n3", players=3, games=6), jobs=jobs)
    assert failed.value.bot == f"{HOSTILE}:{bot}" and failed.value.what == what


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_deadline_holds_against_a_sleeper_and_says_who(jobs, monkeypatch):
    monkeypatch.setattr(arena_module, "DEADLINE_GRACE", 0.2)
    result = play_match(ArenaSpec(f"{HOSTILE}:Sleeper", "n3", players=3, games=10**5),
                        jobs=jobs, deadline=time.monotonic() + 2)
    assert result.stopped is StopReason.TIME_LIMIT and 1 <= result.played < 10**5
    assert result.stuck and all(what.startswith(f"bot '{HOSTILE}:Sleeper' at seat ")
                                for what in result.stuck)


def test_a_league_keeps_its_workers_from_match_to_match():
    with Workers(1) as workers:
        play_match(ArenaSpec("n3", "random", players=2, games=3), workers=workers)
        first = workers.team(3)[0].process.pid
        play_match(ArenaSpec("random", "n3", players=3, games=3), workers=workers)
        assert workers.team(3)[0].process.pid == first
    assert workers.team(0) == []
    result = run_league(LeagueSpec("n3", ("random",), (2, 3), (), games=3))
    assert [row.games for row in result.rows] == [3, 3]


def test_a_bot_module_that_exits_as_it_loads_is_refused_in_words(capsys):
    code = main(["arena", "--hero", "tests.hostile_import:bot", "--games", "2"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == ("python -m coach arena: error: cannot import bot module "
                   "'tests.hostile_import': SystemExit: 0\n")


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_the_workers_answer_however_processes_start(method):
    """Python 3.14 starts processes with a fork server on Linux; macOS and Windows spawn."""
    code = ("import multiprocessing, sys\n"
            "from coach.cli import main\n"
            "if __name__ == '__main__':\n"
            f"    multiprocessing.set_start_method({method!r})\n"
            "    sys.exit(main(sys.argv[1:]))\n")
    argv = ["--players", "3", "--games", "4", "--jobs", "2"]
    played = subprocess.run([sys.executable, "-c", code, "arena", "--hero", "n3", *argv],
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert played.returncode == 0 and json.loads(played.stdout)["games"] == 4, played.stderr
    lost = subprocess.run([sys.executable, "-c", code, "arena", "--hero",
                           f"{HOSTILE}:quitter", *argv], capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert lost.returncode == 1 and f"bot '{HOSTILE}:quitter' at seat " in lost.stderr
