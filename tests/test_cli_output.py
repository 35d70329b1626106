"""Issue 29, point 4: command lines a person can use. Text on a terminal and one JSON line into
a pipe (or as ``--json`` and ``--text`` say); ``advise`` refuses an illegal bid as ``check``
does; ``check``'s exit status; scenarios that keep their answer hidden; plain ``--help``
everywhere, at once; progress bars on terminals only."""

from __future__ import annotations

import argparse
import json
import re
import signal
import subprocess
import sys
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings

import coach.cli
import coach.solver.cli
import perudo_coach.cli
import perudo_math.cli
import practice.cli
from coach import CoachSettings, Situation, advise, cli_text
from perudo_math import arguments
from practice.cli import ANSWER
from serving import start, warm
from tests.terminal import ROOT, in_terminal
from tests.test_coach_reasons import language, reasoned_spots
from views import advice_view
from views.i18n import format_percent

PYTHON = sys.executable
CHECK = [PYTHON, "-m", "perudo_coach", "check", "--bid", "6x4", "--previous", "3xP"]
CHECK_TEXT = ("6 × 4 is not legal (ordinary-too-few): after 3 × P you need at least 7 of a face "
              "(twice the pacos plus one)\n")
CHECK_JSON = {"legal": False, "refusal": "ordinary-too-few",
              "reason": "after 3 × P you need at least 7 of a face (twice the pacos plus one)"}


def run(main, argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --- text on a terminal, JSON into a pipe -------------------------------------------------


def test_text_on_a_terminal_and_json_into_a_pipe():
    assert in_terminal(CHECK) == (1, CHECK_TEXT, "")
    piped = subprocess.run(CHECK, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert (piped.returncode, json.loads(piped.stdout), piped.stderr) == (1, CHECK_JSON, "")


def test_json_and_text_choose_whatever_the_output():
    code, shown, _ = in_terminal([*CHECK, "--json"])
    assert (code, json.loads(shown)) == (1, CHECK_JSON)
    piped = subprocess.run([*CHECK, "--text"], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
    assert (piped.returncode, piped.stdout) == (1, CHECK_TEXT)


def test_json_and_text_together_are_refused(capsys):
    code, out, err = run(perudo_math.cli.main, ["check", "--bid", "2x3", "--json", "--text"],
                         capsys)
    assert (code, out) == (2, "") and "not allowed with argument --json" in err


def data_commands() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every parser that runs a command printing a result, by its prog."""
    found = [("solve", coach.solver.cli.build_parser())]
    for root in (perudo_math.cli.build_parser(), coach.cli.build_parser(),
                 practice.cli.build_parser()):
        for action in root._actions:
            if isinstance(action, argparse._SubParsersAction):
                found += [(name, parser) for name, parser in action.choices.items()
                          if parser.get_default("run") is not None]
    return found


DATA_COMMANDS = data_commands()


def test_every_command_of_perudo_coach_that_prints_a_result_is_found():
    served = {name for name, command in perudo_coach.cli.COMMANDS.items()
              if command.module == "serving.start"}
    assert {name for name, _ in DATA_COMMANDS} == set(perudo_coach.cli.COMMANDS) - served


@pytest.mark.parametrize(("name", "parser"), DATA_COMMANDS, ids=[n for n, _ in DATA_COMMANDS])
def test_every_command_prints_json_or_text(name, parser):
    options = {option for action in parser._actions for option in action.option_strings}
    assert {"--json", "--text"} <= options
    assert callable(parser.get_default("text"))
    assert "one line of JSON when it goes to a pipe or a file" in " ".join(
        parser.format_help().split())


RESULTS = [
    (perudo_math.cli.main, ["odds", "--hand", "1", "2", "2", "5", "6", "--dice", "20", "--bid",
                            "5x4"], "5 × 4 is true 79.1% of the time"),
    (perudo_math.cli.main, ["check", "--bid", "7x4", "--previous", "3xP"],
     "7 × 4 is a legal raise over 3 × P"),
    (coach.cli.main, ["advise", "--hand", "2", "3", "--dice", "10", "--players", "3", "--bid",
                      "8x3"], "Call dudo on 8 × 3: you lose a die 0.3% of the time."),
    (coach.cli.main, ["review", "--seed", "865050", "--opponents", "reader", "odds", "liar",
                      "--moves", "7x4.3x6.dudo"], "3 moves: 1 good, 2 doubtful: +7.58 points"),
    (coach.cli.main, ["arena", "--players", "2", "--games", "3", "--hero", "random",
                      "--opponents", "n3"], "3 games at 2 players, seed 0."),
    (coach.cli.main, ["league", "--hero", "random", "--opponents", "n3", "--sizes", "2",
                      "--games", "2", "--no-extra"], "random's league: 2 games a match"),
    (coach.cli.main, ["solve", "--dice", "1", "1", "--game", "perudo", "--method", "lp"],
     "perudo, 1 die against 1: the opener's value is -0.0556"),
    (practice.cli.main, ["scenario", "--seed", "7", "--theme", "palifico"],
     "Scenario 7: palifico, level 3."),
]


@pytest.mark.parametrize(("main", "argv", "words"), RESULTS,
                         ids=[argv[0] for _, argv, _ in RESULTS])
def test_each_command_words_its_result_on_a_terminal(capsys, monkeypatch, main, argv, words):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = run(main, argv, capsys)
    assert (code, err) == (0, "")
    assert words in out and not out.startswith(("{", "[")), out
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    code, out, _ = run(main, argv, capsys)
    assert code == 0 and isinstance(json.loads(out), dict)


# --- the advice: a sentence, a reason, an aligned table --------------------------------------

SPOT = ["advise", "--hand", "1", "1", "5", "2", "3", "--dice", "8", "--bid", "4x5", "--players",
        "3", "--history", "3x5,4x5"]


def test_the_advice_table_shows_the_json_figures_best_first(capsys):
    _, out, _ = run(coach.cli.main, [*SPOT, "--json"], capsys)
    payload = json.loads(out)
    _, text, _ = run(coach.cli.main, [*SPOT, "--text"], capsys)
    lines = text.splitlines()
    assert lines[0] == "Raise to 2 × P: you lose a die 0.3% of the time."
    assert lines[1] == ("Raising to 2 × P (true 100%) risks less than challenging 4 × 5 "
                        "(true 94.5%).")
    heading = lines.index("move   lose a die  why")
    rows = lines[heading + 1:heading + 7]
    shown = [option for option in payload["options"] if option["action"] != "raise"]
    raises = [option for option in payload["options"] if option["action"] == "raise"]
    listed = [option for option in payload["options"] if option in shown or option in raises[:4]]
    for row, option in zip(rows, listed, strict=True):
        move = cli_text.move_name(cli_text.move_of(option))
        assert row.startswith(move.ljust(5) + "  ") and arguments.percent(option["lose"]) in row
    assert len({row.index("%") for row in rows}) == 1  # the risks are aligned on the right
    assert lines[-1] == f"({len(raises) - 4} more raises in --json)"


def engine_codes() -> set[str]:
    source = (ROOT / "coach" / "engine" / "decide.py").read_text(encoding="utf-8")
    return set(re.findall(r'Reason\("([a-z-]+)"', source))


def test_every_reason_code_of_the_engine_is_worded():
    assert set(cli_text._REASONS) == engine_codes() - {"fallback"}
    numbers = {"bid": "5x4", "lose": 0.3, "gain": 0.1, "p_true": 0.6, "p_exact": 0.2,
               "challenge": 0.5, "current_p_true": 0.7, "safer": "dudo", "safer_lose": 0.2,
               "safer_true": 0.9, "raise": "6x4", "raise_lose": 0.4, "expected": 4.25,
               "dice": 15}
    for code in cli_text._REASONS:
        sentence = cli_text.reason_text({"code": code, **numbers}, "4x4")
        assert "{" not in sentence and "5 × 4" in sentence, (code, sentence)
    assert cli_text.reason_text({"code": "new-code"}, None) == (
        "This move costs you a die least often.")


def test_a_reason_comparing_two_risks_printed_the_same_says_so():
    tied = {"code": "dudo-least-bad", "bid": "5x4", "lose": 0.61234, "p_true": 0.61234,
            "raise": "6x4", "raise_lose": 0.61236}
    assert "no raise is safer" in cli_text.reason_text(tied, "5x4")
    apart = {**tied, "raise_lose": 0.7}
    assert "every raise costs you a die more often: 70.0% for 6 × 4" in cli_text.reason_text(
        apart, "5x4")


@given(reasoned_spots())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_cli_words_a_reason_as_the_app_does_in_english(spot: tuple[Situation,
                                                                       CoachSettings]):
    """Where the app words the coach's own reason (not a rival raise of its options card),
    the command line's sentence is the app's English one."""
    situation, settings_ = spot
    advice = advise(situation, settings_)
    last = None if situation.last_bid is None else str(situation.last_bid)
    ours = cli_text.reason_text(json.loads(json.dumps(advice.reason.to_dict())), last)
    with language("en"):
        if advice.reason.code != "opening-expected" and advice_view.rival(advice) is not None:
            return
        assert ours == advice_view.reason_text(advice, situation)
        for option in advice.options:
            assert arguments.percent(option.lose) == format_percent(option.lose, "en")


# --- advise refuses an illegal bid as check does -----------------------------------------------

THREE = ["--hand", "2", "3", "--dice", "10", "--players", "3"]
ILLEGAL = [
    (["--hand", "2", "3", "--dice", "10", "--players", "2", "--bid", "4x2", "--history", "9x6"],
     ["--bid", "4x2", "--previous", "9x6"]),
    (["--situation", '{"dice":[2,4,4],"me":0,"hand":[2,3],"bids":[[1,"9x6"],[2,"4x2"]]}'],
     ["--bid", "4x2", "--previous", "9x6"]),
    ([*THREE, "--bid", "2xP"], ["--bid", "2xP"]),
    ([*THREE, "--history", "2xP,3x4", "--bid", "3x4"], ["--bid", "2xP"]),
    ([*THREE, "--palifico", "--history", "2x5", "--bid", "3x6"],
     ["--bid", "3x6", "--previous", "2x5", "--palifico"]),
    ([*THREE, "--history", "3x4,4x5"], ["--bid", "4x5", "--previous", "3x4"]),
    (["--hand", "2", "3", "--dice", "7", "--players", "3", "--seat-dice", "2", "4", "1",
      "--palifico", "--history", "2x5,2x6"],
     ["--bid", "2x6", "--previous", "2x5", "--palifico", "--bidder-dice", "1"]),
]


@pytest.mark.parametrize(("advise_argv", "check_argv"), ILLEGAL,
                         ids=[" ".join(argv) for _, argv in ILLEGAL])
def test_advise_refuses_an_illegal_bid_with_checks_code_and_words(capsys, advise_argv,
                                                                  check_argv):
    code, out, _ = run(perudo_math.cli.main, ["check", *check_argv, "--text"], capsys)
    assert code == 1
    code, json_out, _ = run(perudo_math.cli.main, ["check", *check_argv], capsys)
    refusal = json.loads(json_out)["refusal"]
    code, advice, err = run(coach.cli.main, ["advise", *advise_argv], capsys)
    assert (code, advice) == (2, "")
    assert err == f"python -m coach advise: error: {out}" and f"({refusal})" in err


@pytest.mark.parametrize(("advise_argv", "rule"), [
    ([*THREE, "--history", "3x4,4x5"], "--raise-rule=any-face"),
    (["--hand", "2", "3", "--dice", "7", "--players", "3", "--seat-dice", "2", "4", "1",
      "--palifico", "--history", "2x5,2x6"], "--one-die-may-change-face"),
], ids=["any-face", "one-die"])
def test_the_rules_in_play_decide_what_advise_refuses(capsys, advise_argv, rule):
    code, out, err = run(coach.cli.main, ["advise", *advise_argv, rule], capsys)
    assert (code, err) == (0, "") and json.loads(out)["action"]


def test_advise_refuses_in_a_real_process_as_the_issue_shows():
    argv = ["--hand", "2", "3", "--dice", "10", "--bid", "4x2", "--history", "9x6"]
    done = subprocess.run([PYTHON, "-m", "coach", "advise", *argv, "--players", "2"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("python -m coach advise: error: 4 × 2 is not legal (face-must-rise): "
                           "after 9 × 6 a lower face is not allowed, and 6 is the highest "
                           "face: bid more 6s, or go to pacos\n")


# --- check's exit status ---------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "status"), [
    (["--bid", "7x4", "--previous", "3xP"], 0),
    (["--bid", "2x5"], 0),
    (["--bid", "6x4", "--previous", "3xP"], 1),
    (["--bid", "2xP"], 1),
    (["--bid", "9x9"], 2),
    (["--bid", "2x3", "--bidder-dice", "0"], 2),
    (["--previous", "2x3"], 2),
])
def test_check_exits_0_legal_1_not_legal_2_unreadable(capsys, argv, status):
    for output in ("--json", "--text"):
        code, out, err = run(perudo_math.cli.main, ["check", *argv, output], capsys)
        assert code == status
        assert (out == "") is (status == 2) and (err == "") is (status != 2)


# --- scenarios keep their answer hidden ---------------------------------------------------------


def test_a_scenario_hides_its_answer_unless_revealed(capsys):
    _, out, _ = run(practice.cli.main, ["scenario", "--seed", "7"], capsys)
    hidden = json.loads(out)
    assert not set(ANSWER) & set(hidden)
    assert {"hand", "seat_dice", "history", "last_bid"} <= set(hidden)
    _, out, _ = run(practice.cli.main, ["scenario", "--seed", "7", "--reveal"], capsys)
    revealed = json.loads(out)
    assert set(ANSWER) <= set(revealed) and {k: revealed[k] for k in hidden} == hidden
    _, out, _ = run(practice.cli.main, ["scenario", "--seed", "7", "--answer", "dudo"], capsys)
    graded = json.loads(out)
    assert set(ANSWER) <= set(graded) and graded["grade"]["reveal"] is not None


def test_a_scenario_on_a_terminal_shows_no_answer_unless_revealed(capsys):
    argv = ["scenario", "--seed", "7", "--theme", "palifico", "--text"]
    _, out, _ = run(practice.cli.main, argv, capsys)
    assert "Your dice: 2." in out and "The cups" not in out and "The coach's move" not in out
    assert "--reveal" in out
    _, out, _ = run(practice.cli.main, [*argv, "--reveal"], capsys)
    assert "The cups: seat 2: 1 4 5; seat 3: 5; you: 2; seat 5: 4 6." in out
    assert "The coach's move: calza" in out
    _, out, _ = run(practice.cli.main, [*argv, "--answer", "dudo"], capsys)
    assert "Your answer, dudo, is not the best." in out
    assert out.rstrip().endswith("The cups lifted: you lose a die.")


# --- plain --help everywhere, at once -------------------------------------------------------

MARKUP = re.compile(r"`|:(?:class|func|mod|data|meth|attr):|\*\*")
"""reStructuredText or Markdown that a docstring would bring into a help text."""

HELPS = [(perudo_coach.cli.main, [name]) for name in perudo_coach.cli.COMMANDS] + [
    (perudo_coach.cli.main, []), (perudo_math.cli.main, []), (coach.cli.main, []),
    (practice.cli.main, []), (coach.solver.cli.main, []), (start.main, []),
    (lambda argv: warm.main(argv), [])]


@pytest.mark.parametrize(("main", "argv"), HELPS,
                         ids=[f"{main.__module__}:{' '.join(argv)}" for main, argv in HELPS])
def test_every_help_is_plain_text_at_once(capsys, main, argv):
    with patch.object(warm, "warm", side_effect=AssertionError("--help waited for a server")):
        try:
            code = main([*argv, "--help"])
        except SystemExit as stop:  # argparse's own --help, in the serving commands
            code = stop.code
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert out.startswith("usage: ") and not MARKUP.search(out), out


def test_warm_takes_one_address_and_refuses_anything_else_in_one_line():
    for argv in ([], ["not-a-url"], ["http://127.0.0.1:8501", "more"], ["--port", "1"]):
        done = subprocess.run([PYTHON, "-m", "serving.warm", *argv], capture_output=True,
                              text=True, cwd=ROOT, timeout=60)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.startswith("python -m serving.warm: error: ")
        assert done.stderr.count("\n") == 1, done.stderr
    assert warm.server_url("http://127.0.0.1:8501/") == "http://127.0.0.1:8501"


def test_warm_reads_its_address_from_the_command_line(monkeypatch):
    asked = []
    monkeypatch.setattr(warm, "warm", lambda url: asked.append(url) or True)
    assert warm.main(["http://[::1]:8502/"]) == 0
    assert asked == ["http://[::1]:8502"]


# --- progress bars on terminals only ---------------------------------------------------------

MATCH = [PYTHON, "-m", "perudo_coach", "arena", "--players", "2", "--games", "40", "--hero",
         "random", "--opponents", "random", "--starting-dice", "1", "--json"]


def test_the_progress_bar_is_drawn_on_a_terminal_only():
    code, shown, _ = in_terminal(MATCH)
    assert code == 0 and "\r[" in shown and "40/40 games, " in shown
    piped = subprocess.run(MATCH, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert piped.returncode == 0 and piped.stderr == ""
    code, shown, _ = in_terminal([*MATCH, "--quiet"])
    assert code == 0 and "\r" not in shown and json.loads(shown)["games"] == 40


def test_the_readme_says_both_output_modes():
    readme = " ".join((Path(ROOT) / "README.md").read_text(encoding="utf-8").split())
    assert "one line of JSON when its output goes to a pipe or a file" in readme
    assert "`--json` or `--text` chooses" in readme


def test_a_match_stopped_by_ctrl_c_words_its_partial_result():
    from tests.test_cli_abuse import FAST_ARENA, Running

    match = Running([*FAST_ARENA, "--text"])
    try:
        assert match.playing.wait(60), match.err
        match.process.send_signal(signal.SIGINT)
        code, out, err = match.finish()
    finally:
        match.process.kill()
    assert code == 130 and "Traceback" not in err
    assert re.search(r"^Stopped by Ctrl\+C after [\d,]+ of 1,000,000 games: the figures are "
                     r"partial\.$", out, re.MULTILINE), out
