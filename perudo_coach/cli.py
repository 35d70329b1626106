"""``perudo-coach``: one command for the app and every tool of the project.

Each subcommand hands the rest of the command line to the module that owns it, imported only
when that subcommand runs (so ``perudo-coach check`` never loads the app or the solver):

=========  =========================================  ==========================
command    what it does                               same as
=========  =========================================  ==========================
run        the app on this computer (127.0.0.1)       ``make run``
serve      the app on the local network, QR code      ``make serve``
odds       exact odds of a bid from your hand         ``python -m perudo_math odds``
check      is a bid a legal opening or raise          ``python -m perudo_math check``
advise     the coach's advice for a spot              ``python -m coach advise``
review     a game's review                            ``python -m coach review``
arena      a match between bots                       ``python -m coach arena``
league     a league of matches between bots           ``python -m coach league``
solve      the heads-up solver                        ``python -m coach solve``
scenario   a practice scenario from a seed            ``python -m practice scenario``
=========  =========================================  ==========================
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from perudo_coach.blas import one_thread

PROG = "perudo-coach"
USAGE_ERROR = 2
SERVER_MODULE = "serving.start"
"""What ``run`` and ``serve`` hand over to."""


@dataclass(frozen=True)
class Command:
    """A subcommand: the module whose ``main(argv)`` runs it, and the words put before the
    rest of the command line (the owner's own subcommand, if any)."""

    summary: str
    module: str
    prefix: tuple[str, ...] = ()


COMMANDS: dict[str, Command] = {
    "run": Command("the app on this computer (127.0.0.1)", SERVER_MODULE),
    "serve": Command("the app on the local network, with a QR code for phones",
                     SERVER_MODULE),
    "odds": Command("exact odds of a bid from your hand", "perudo_math.cli", ("odds",)),
    "check": Command("is a bid a legal opening or raise", "perudo_math.cli", ("check",)),
    "advise": Command("the coach's advice for a spot", "coach.cli", ("advise",)),
    "review": Command("a game's review, move by move", "coach.cli", ("review",)),
    "arena": Command("a match between bots", "coach.cli", ("arena",)),
    "league": Command("a league of matches between bots", "coach.cli", ("league",)),
    "solve": Command("the heads-up solver's tables and checks", "coach.cli", ("solve",)),
    "scenario": Command("a practice scenario from a seed", "practice.cli", ("scenario",)),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"usage: {PROG} [--version] [--help] COMMAND [ARGS...]", "",
             "Exact odds, advice and practice for Perudo (Dudo).", "", "commands:"]
    lines += [f"  {name:<{width}}  {command.summary}" for name, command in COMMANDS.items()]
    lines += ["", "Every command but run and serve prints text on a terminal, and one line of",
              "JSON when its output goes to a pipe or a file (--json or --text chooses).",
              "", f"{PROG} COMMAND --help tells what a command takes."]
    return "\n".join(lines) + "\n"


def _runner(name: str) -> Callable[[list[str]], int]:
    command = COMMANDS[name]
    if command.module == SERVER_MODULE:  # run and serve: the app, with its own settings
        start = importlib.import_module(SERVER_MODULE)
        host = start.THIS_COMPUTER if name == "run" else start.EVERY_INTERFACE
        return lambda argv: int(start.main(argv, prog=f"{PROG} {name}", default_host=host))
    one_thread()  # before the subcommand's module loads numpy (see perudo_coach.blas)
    main = importlib.import_module(command.module).main
    return lambda argv: int(main([*command.prefix, *argv], prog=PROG))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``perudo-coach …``: the subcommand's exit status; 2 after one line on stderr when
    no known subcommand is given."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        sys.stdout.write(usage())
        return 0 if args else USAGE_ERROR
    if args[0] == "--version":
        from perudo_coach import __version__

        print(f"{PROG} {__version__}")
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"{PROG}: unknown command {name[:40]!r}; one of {', '.join(COMMANDS)}",
              file=sys.stderr)
        return USAGE_ERROR
    return _runner(name)(rest)
