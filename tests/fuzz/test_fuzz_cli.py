"""Arbitrary arguments to the command lines: each run answers (exit 0) or refuses with exit 2
and one line on stderr, never a traceback.

The commands that only read a spot are fuzzed with any options and values; ``arena`` and
``solve`` start long jobs by design, so they get only values their parsers must refuse
(their bounded ranges are the CLI issue's subject).
"""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coach.cli import build_parser as coach_parser
from coach.cli import main as coach_main
from perudo_math.cli import build_parser as math_parser
from perudo_math.cli import main as math_main
from practice.cli import main as practice_main

pytestmark = pytest.mark.fuzz


def options_of(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """Each subcommand's option strings, ``--help`` left out."""
    found: dict[str, list[str]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[name] = [option for act in sub._actions for option in act.option_strings
                               if option not in ("-h", "--help")]
    return found


MATH = options_of(math_parser())
COACH = options_of(coach_parser())

HOSTILE_VALUES = st.one_of(
    st.sampled_from(["", " ", "²", "٣", "5x4", "3xP", "0x4", "-1", "nan", "inf", "1e309",
                     "9223372036854775807x4", "99999999999999999999999", "{}", "[]",
                     '{"rules":{},"dice":[5,5],"me":0,"hand":[1],"bids":[],"palifico":"false"}',
                     "[" * 5000, "\x00", "7" * 5000, "1 2 3", "x" * 100_000]),
    st.integers(-10**30, 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(max_size=30),
)
"""Values a careless or hostile user types: unicode digits, huge numbers, long texts."""

REFUSED_VALUES = st.sampled_from(["²", "٣", "-1", "nan", "1e309", "x" * 1000, "[", "",
                                  "99999999999999999999999999"])
"""Values no numeric or choice option accepts."""


def run(main, argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def assert_answers_or_refuses(main, argv: list[str]) -> None:
    code, out, err = run(main, argv)
    assert "Traceback" not in err, (argv, err)
    answers = (0, 1) if argv[:1] == ["check"] else (0,)  # check: 1 for a bid not legal
    assert code in (*answers, 2), (argv, code, err)
    if code == 2:
        assert err.count("\n") == 1 and err.strip(), (argv, err)
    elif "--help" not in argv:
        assert out.strip(), argv


def argv_for(command: str, options: list[str], values=HOSTILE_VALUES):
    pairs = st.lists(st.tuples(st.sampled_from(options), values), max_size=6)
    return pairs.map(lambda chosen: [command, *[part for pair in chosen for part in pair]])


FUZZ = settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(data=st.data())
def test_perudo_math_commands(data):
    command = data.draw(st.sampled_from(sorted(MATH)))
    assert_answers_or_refuses(math_main, data.draw(argv_for(command, MATH[command])))


@FUZZ
@given(argv=argv_for("advise", COACH["advise"]))
def test_coach_advise(argv):
    assert_answers_or_refuses(coach_main, argv)


@FUZZ
@given(argv=argv_for("scenario", ["--seed", "--theme", "--level", "--answer", "--raise-rule",
                                  "--starting-dice", "--salsa", "--no-calza"]))
def test_practice_scenario(argv):
    assert_answers_or_refuses(practice_main, argv)


@FUZZ
@given(data=st.data())
def test_long_jobs_refuse_bad_values(data):
    command = data.draw(st.sampled_from(["arena", "solve"]))
    numeric = {"arena": ["--players", "--games", "--seed", "--jobs", "--starting-dice"],
               "solve": ["--dice", "--iterations", "--target"]}[command]
    option = data.draw(st.sampled_from(numeric))
    value = data.draw(REFUSED_VALUES)
    code, _, err = run(coach_main, [command, option, value])
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (option, value, err)


@given(words=st.lists(st.text(max_size=12), max_size=5))
@settings(max_examples=100)
def test_any_words_at_all(words):
    for main in (math_main, coach_main, practice_main):
        if words[:1] in (["arena"], ["solve"]):
            continue
        assert_answers_or_refuses(main, words)
