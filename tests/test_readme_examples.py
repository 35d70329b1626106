"""The README's command-line examples, run: a figure in the README cannot go stale.

Every line of a fenced block that starts with ``$ `` is a command. When lines of output follow
it, the command is run as from a terminal (its stdout a pseudo-terminal, its stderr shown
after it) and what it prints must be what the README shows, where ``…`` stands for any text
within a line and a line of ``…`` alone for any lines. A command shown without output (a long
match, a rebuild) is parsed by its own parser, so its options stay real.
"""

from __future__ import annotations

import argparse
import importlib
import re
import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from perudo_coach.cli import COMMANDS
from tests.terminal import ROOT, in_terminal

README = ROOT / "README.md"
ELISION = "…"
MODULE_PARSERS = {"perudo_math": "perudo_math.cli", "coach": "coach.cli",
                  "practice": "practice.cli", "serving.start": "serving.start"}
"""Where the parser of each ``python -m`` entry is (its module's ``build_parser``)."""


@dataclass(frozen=True)
class Example:
    line: int
    command: str
    output: tuple[str, ...]

    def __str__(self) -> str:
        return f"README.md:{self.line}: $ {self.command}"


def examples(text: str) -> Iterator[Example]:
    """Each ``$`` command of a fenced block, with the output lines shown after it."""
    fenced = False
    current: Example | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            if current is not None:
                yield current
                current = None
            fenced = not fenced
        elif fenced and line.startswith("$ "):
            if current is not None:
                yield current
            current = Example(number, line[2:], ())
        elif fenced and current is not None:
            current = Example(current.line, current.command, (*current.output, line))


def argv_of(command: str) -> tuple[str, list[str]] | None:
    """``(module, arguments)`` of a ``perudo-coach`` or ``python -m`` command; ``None`` for
    another program."""
    words = shlex.split(command, comments=True)
    if words[:1] == ["perudo-coach"]:
        return "perudo_coach", words[1:]
    if len(words) >= 3 and words[0].endswith("python") and words[1] == "-m":
        return words[2], words[3:]
    return None


def pattern(shown: tuple[str, ...]) -> re.Pattern[str]:
    """The output lines shown, as a pattern: ``…`` any text within a line, a line of ``…``
    any lines."""
    parts = []
    for line in shown:
        if line.strip() == ELISION:
            parts.append(r"(?:.*\n)*?")
        else:
            parts.append(re.escape(line).replace(ELISION, ".*") + r"\n")
    return re.compile("".join(parts))


ALL = list(examples(README.read_text(encoding="utf-8")))
RUN = [example for example in ALL if example.output]
PARSED = [example for example in ALL if not example.output and argv_of(example.command)
          and ELISION not in example.command]  # a placeholder such as 'g1.…' is not run


def test_the_examples_are_found():
    commands = {argv_of(example.command)[1][0] for example in RUN}  # type: ignore[index]
    assert {"odds", "check", "advise", "arena", "review", "solve", "scenario"} <= commands
    assert any("--json" in example.command for example in RUN)


@pytest.mark.parametrize("example", RUN, ids=str)
def test_each_example_prints_what_the_readme_shows(example: Example):
    found = argv_of(example.command)
    assert found is not None, f"{example}: output shown for a command this test cannot run"
    module, argv = found
    _, shown, err = in_terminal([sys.executable, "-m", module, *argv], stderr_too=False)
    printed = shown + err
    assert "Traceback" not in printed, printed
    expected = pattern(example.output)
    assert expected.fullmatch(printed.rstrip("\n") + "\n"), (
        f"{example} printed:\n{printed}\nthe README shows:\n" + "\n".join(example.output))


def parser_of(module: str, argv: list[str]) -> tuple[argparse.ArgumentParser, list[str]]:
    """The parser that reads ``argv`` given to ``python -m module``, as the entry dispatches."""
    if module == "perudo_coach":
        command = COMMANDS[argv[0]]
        module, argv = command.module, [*command.prefix, *argv[1:]]
    if module in ("coach", "coach.cli") and argv[:1] == ["solve"]:
        module, argv = "coach.solver.cli", argv[1:]
    return importlib.import_module(MODULE_PARSERS.get(module, module)).build_parser(), argv


@pytest.mark.parametrize("example", PARSED, ids=str)
def test_each_example_without_output_parses(example: Example):
    found = argv_of(example.command)
    assert found is not None
    parser, argv = parser_of(*found)
    try:
        parser.parse_args(argv)
    except SystemExit as stop:
        pytest.fail(f"{example}: its parser refused it (exit status {stop.code})")


# --- the reader itself ----------------------------------------------------------------------


def test_output_ends_at_the_next_command_or_the_block():
    text = "```console\n$ a --x\none\n\ntwo\n$ b\n```\n$ not fenced\n```sh\n$ c\nthree\n```\n"
    assert list(examples(text)) == [Example(2, "a --x", ("one", "", "two")), Example(6, "b", ()),
                                    Example(10, "c", ("three",))]


@pytest.mark.parametrize(("shown", "printed", "matches"), [
    (("a 1.5%",), "a 1.5%\n", True),
    (("a 1.5%",), "a 1.6%\n", False),
    (("a …%",), "a 1.6%\n", True),
    (("a …",), "a 1\nb\n", False),
    (("a", "…", "d"), "a\nb\nc\nd\n", True),
    (("a", "…", "d"), "a\nd\n", True),
    (("a", "…"), "a\nb\n", True),
    (("a", "b"), "a\nb\nc\n", False),
])
def test_the_output_pattern(shown, printed, matches):
    assert bool(pattern(shown).fullmatch(printed)) is matches


def test_commands_are_read_as_a_shell_reads_them():
    assert argv_of("perudo-coach advise --history 3x5,4x5   # a comment") == (
        "perudo_coach", ["advise", "--history", "3x5,4x5"])
    assert argv_of(".venv/bin/python -m coach review --game 'g1.x y'") == (
        "coach", ["review", "--game", "g1.x y"])
    assert argv_of(".venv/bin/python scripts/build_solver_tables.py") is None
