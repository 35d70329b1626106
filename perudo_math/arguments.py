"""What every command line of the project shares: the parser, the argument types, the rule
options and the way a command runs.

A bad argument, or a value the library refuses, ends the command with exit status 2 and one
line on stderr, never a traceback. The rule options are built from :data:`SETTINGS`, so a new
setting appears on every command line that takes the table's rules. A result is printed as
text for a person on a terminal and as one JSON line into a pipe or a file (``--json`` and
``--text`` choose); each command words its own results, in English.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Callable, Collection, Sequence
from typing import Any, NoReturn, Protocol, TypeVar

from perudo_math.bid import PACO, Bid
from perudo_math.rules import SETTING_BY_NAME, SETTINGS, Rules, Setting, SettingKind

T = TypeVar("T")


def one_line(message: object) -> str:
    """``message`` as text on a single line."""
    return " ".join(str(message).splitlines())


def report_error(prog: str, error: object) -> int:
    """Write ``prog: error: …`` as one line on stderr; the exit status of bad input, 2."""
    print(f"{prog}: error: {one_line(error)}", file=sys.stderr)
    return 2


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2.

    Its subcommand parsers are of the same class (argparse's default ``parser_class``).
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


# --- argument types ---------------------------------------------------------------------


def parsed_by(parse: Callable[[str], T]) -> Callable[[str], T]:
    """An argument type reading its text with ``parse``, whose ValueError is the message."""

    def argument(text: str) -> T:
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(one_line(error)) from None

    return argument


bid = parsed_by(Bid.parse)
"""A bid written ``5x4``, ``3xP``, ``3x1`` or ``3×P``."""


def die_face(text: str) -> int:
    """A die's face, ``1`` to ``6``; ``P`` is the paco, 1."""
    face = text.strip()
    if face in ("P", "p"):
        return PACO
    if face not in ("1", "2", "3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"a die shows 1 (paco) to 6, not {text!r}")
    return int(face)


_WHOLE = re.compile(r"[+-]?[0-9]{1,30}")


def _shown(text: str) -> str:
    """``text`` quoted for an error line, cut short when long."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + f"… ({len(text)} characters)"


def whole_number(minimum: int | None = None, maximum: int | None = None) -> Callable[[str], int]:
    """An argument type for a whole number, from ``minimum`` to ``maximum`` when given."""
    if minimum is not None and maximum is not None:
        wanted = f"a whole number from {minimum} to {maximum}"
    elif minimum is not None:
        wanted = f"a whole number of at least {minimum}"
    elif maximum is not None:
        wanted = f"a whole number of at most {maximum}"
    else:
        wanted = "a whole number"

    def whole(text: str) -> int:
        # ASCII digits only, and few of them: int() alone reads "٣" as 3 and "1_0" as 10, and
        # converting a 100,000-digit text is slow.
        if not _WHOLE.fullmatch(text):
            raise argparse.ArgumentTypeError(f"expected {wanted}, not {_shown(text)}")
        value = int(text)
        too_low = minimum is not None and value < minimum
        if too_low or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"expected {wanted}, not {_shown(text)}")
        return value

    return whole


def probability(text: str) -> float:
    """A probability, from 0 to 1."""
    value = _finite(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a probability from 0 to 1, not {text!r}")
    return value


def positive_number(text: str) -> float:
    """A number above 0."""
    value = _finite(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, not {text!r}")
    return value


def number(minimum: float, maximum: float) -> Callable[[str], float]:
    """An argument type for a finite number from ``minimum`` to ``maximum``."""

    def bounded(text: str) -> float:
        value = _finite(text)
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(
                f"expected a number from {minimum:g} to {maximum:g}, not {_shown(text)}")
        return value

    return bounded


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A number as ``float`` reads it, in ASCII digits only: ``float`` alone also reads other
scripts' digits (``"٠.٥"`` is 0.5) and underscores (``"1_0"``)."""
_NOT_FINITE = frozenset({"inf", "infinity", "nan"})


def _finite(text: str) -> float:
    word = text.strip()
    if not _DECIMAL.fullmatch(word):
        if word.lstrip("+-").lower() in _NOT_FINITE:
            raise argparse.ArgumentTypeError(f"expected a finite number, not {_shown(text)}")
        raise argparse.ArgumentTypeError(f"expected a number, not {_shown(text)}")
    value = float(word)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, not {text!r}")
    return value


# --- rule options -----------------------------------------------------------------------

RULE_OPTION_NAMES: dict[str, tuple[str, ...]] = {
    "palifico": ("--palifico-rule",),
    "palifico_one_die_may_change_face": ("--palifico-one-die-may-change-face",
                                         "--one-die-may-change-face"),
}
"""Spellings other than ``--<setting-name>``. ``--palifico`` says the round being played is a
palifico round on every command line, so the palifico setting (which rounds are palifico) is
``--palifico-rule``; ``--one-die-may-change-face`` is the older, shorter name, still read."""

RULE_DEST_PREFIX = "rule_"
"""Rule settings land in the namespace as ``rule_<name>``, apart from the other options."""


def rule_options(setting: Setting) -> tuple[str, ...]:
    """The command-line options of ``setting``, the first one its main name."""
    return RULE_OPTION_NAMES.get(setting.name, ("--" + setting.name.replace("_", "-"),))


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """One option per rule setting of :data:`SETTINGS`, in a group of their own."""
    group = parser.add_argument_group(
        "rule settings",
        "The table's rules; a setting left out keeps its default. --palifico-rule says "
        "which rounds are palifico; --palifico, on the commands that have it, says the round "
        "being played is one.",
    )
    for setting in SETTINGS:
        options = rule_options(setting)
        words = options[0].removeprefix("--").replace("-", " ")
        needs = "" if setting.requires is None else (
            f"; only with {rule_options(SETTING_BY_NAME[setting.requires])[0]} on")
        common: dict[str, Any] = {"dest": RULE_DEST_PREFIX + setting.name,
                                  "default": argparse.SUPPRESS}
        match setting.kind:
            case SettingKind.SWITCH:
                state = "on" if setting.default else "off"
                group.add_argument(*options, action=argparse.BooleanOptionalAction,
                                   help=f"{words} (default: {state}{needs})", **common)
            case SettingKind.NUMBER:
                group.add_argument(*options, metavar="N",
                                   type=whole_number(setting.minimum, setting.maximum),
                                   help=f"{words}, {setting.minimum} to {setting.maximum} "
                                        f"(default: {setting.default}{needs})", **common)
            case SettingKind.CHOICE:
                group.add_argument(*options, choices=setting.choices,
                                   help=f"{words} (default: {setting.default}{needs})",
                                   **common)


def given_rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """The rule settings given on the command line, by setting name."""
    given = vars(args)
    return {setting.name: given[RULE_DEST_PREFIX + setting.name] for setting in SETTINGS
            if RULE_DEST_PREFIX + setting.name in given}


def rules_from_arguments(args: argparse.Namespace) -> Rules:
    """The rules the options say, defaults elsewhere; ValueError for a switch turned on
    while the switch it depends on is off."""
    given = given_rule_options(args)
    rules = Rules(**given)
    for setting in SETTINGS:
        if setting.requires is not None and given.get(setting.name) \
                and not getattr(rules, setting.requires):
            raise ValueError(f"{rule_options(setting)[0]} only applies with "
                             f"{rule_options(SETTING_BY_NAME[setting.requires])[0]} on")
    return rules


# --- running a command ------------------------------------------------------------------

Text = Callable[[argparse.Namespace, Any], str]
"""A command's result worded for a person, from its arguments and its JSON payload."""

OUTPUT_HELP = ("Text for a person when the output is a terminal; one line of JSON when it goes "
               "to a pipe or a file. --json or --text chooses.")


class Subcommands(Protocol):
    """What ``ArgumentParser.add_subparsers()`` returns, as far as :func:`add_command` uses it."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def add_output_options(parser: argparse.ArgumentParser, text: Text,
                       status: Callable[[Any], int] | None = None) -> None:
    """``--json`` and ``--text``; ``text`` words the result, ``status`` (if any) gives the exit
    status of a result printed (0 otherwise)."""
    group = parser.add_argument_group("output", OUTPUT_HELP)
    choice = group.add_mutually_exclusive_group()
    choice.add_argument("--json", dest="output", action="store_const", const="json",
                        help="one line of JSON, even on a terminal")
    choice.add_argument("--text", dest="output", action="store_const", const="text",
                        help="text, even into a pipe or a file")
    parser.set_defaults(output=None, text=text, status=status)


def add_command(commands: Subcommands, name: str,
                run: Callable[[argparse.Namespace], object], summary: str, text: Text,
                status: Callable[[Any], int] | None = None) -> argparse.ArgumentParser:
    """A subcommand ``name`` whose result ``run(args)`` gives, as JSON values, and ``text``
    words (see :func:`run_command`)."""
    command = commands.add_parser(name, help=summary,
                                  description=summary[:1].upper() + summary[1:] + ".")
    command.set_defaults(run=run, prog=command.prog)
    add_output_options(command, text, status)
    return command


def run_guarded(parser: argparse.ArgumentParser, argv: Sequence[str] | None,
                run: Callable[[argparse.Namespace], int],
                errors: tuple[type[Exception], ...] = (ValueError,)) -> int:
    """Parse ``argv`` and ``run`` the command on its arguments. The exit status: ``run``'s, or 2
    after one line on stderr when an argument is bad or ``run`` refuses it with one of
    ``errors``; ``--help`` gives 0."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, or a usage error already written on one line
        return stop.code if isinstance(stop.code, int) else 2
    try:
        return run(args)
    except errors as error:
        return report_error(getattr(args, "prog", parser.prog), error)


def run_command(parser: argparse.ArgumentParser, argv: Sequence[str] | None,
                errors: tuple[type[Exception], ...] = (ValueError,)) -> int:
    """Parse ``argv``, run the command chosen (``args.run``) and print its result (see
    :func:`print_output`), as :func:`run_guarded` does."""
    return run_guarded(parser, argv, lambda args: print_output(args, args.run(args)), errors)


def wants_text(args: argparse.Namespace) -> bool:
    """Whether to word the result for a person: ``--text``, or a terminal without ``--json``;
    never for a command with no words for its results (no :func:`add_output_options`)."""
    if getattr(args, "text", None) is None:
        return False
    output = getattr(args, "output", None)
    return output == "text" or (output is None and sys.stdout.isatty())


def print_output(args: argparse.Namespace, payload: object) -> int:
    """Print ``payload`` as ``args.text`` words it (:func:`wants_text`), else as one JSON line.
    The exit status: ``args.status(payload)`` when the command has one, else 0; 1 when the
    reader stopped early."""
    code = print_text(args.text(args, payload)) if wants_text(args) else print_result(payload)
    status = getattr(args, "status", None)
    return code or (0 if status is None else status(payload))


def print_result(payload: object) -> int:
    """Print ``payload`` as one JSON line (see :func:`print_text`)."""
    return print_text(json.dumps(payload, ensure_ascii=False))


def print_text(text: str) -> int:
    """Print ``text``; a reader that stopped early (``| head``) is not an error worth a
    traceback: the rest is dropped quietly, exit status 1."""
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


# --- words for a person -----------------------------------------------------------------


def percent(probability: float) -> str:
    """A probability as players read it: ``79.1%``; exactly ``0%`` and ``100%`` only when it is
    impossible or certain (``<0.1%`` and ``>99.9%`` near them)."""
    if probability <= 0:
        return "0%"
    if probability >= 1:
        return "100%"
    if probability < 0.0005:
        return "<0.1%"
    if probability >= 0.9995:
        return ">99.9%"
    return f"{probability * 100:.1f}%"


def columns(rows: Sequence[Sequence[str]], right: Collection[int] = ()) -> str:
    """Rows of cells as aligned columns two spaces apart, the first row the heading; the
    columns numbered in ``right`` aligned right (figures)."""
    widths = [max(len(row[index]) for row in rows) for index in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.rjust(width) if index in right else cell.ljust(width)
                 for index, (cell, width) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


__all__ = [
    "OUTPUT_HELP",
    "RULE_DEST_PREFIX",
    "RULE_OPTION_NAMES",
    "OneLineParser",
    "Subcommands",
    "Text",
    "add_command",
    "add_output_options",
    "add_rule_options",
    "bid",
    "columns",
    "die_face",
    "given_rule_options",
    "number",
    "one_line",
    "parsed_by",
    "percent",
    "positive_number",
    "print_output",
    "print_result",
    "print_text",
    "probability",
    "report_error",
    "rule_options",
    "rules_from_arguments",
    "run_command",
    "wants_text",
    "whole_number",
]
