"""``python -m coach solve``: solve a heads-up round and print its value and exploitability.

    python -m coach solve --dice 1 1 --game snyd-normal [--iterations N] [--method cfr|lp]

Prints one JSON line ``{"value": …, "exploitability": …, "seconds": …}``: the value is the
first player's (the opener's) expected payoff, +1 per round won, −1 per round lost, under
the solved profile; the exploitability (NashConv / 2) is exact. Bad input exits with
status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from coach.solver.cfr import solve_cfr, solve_lp
from coach.solver.games import BidGame, LinearBidGame, PerudoRound, build_tree
from perudo_math import Rules

PROG = "python -m coach solve"
GAMES = ("snyd-normal", "snyd-joker", "perudo", "palifico")
MAX_TOTAL_DICE = {"snyd-normal": 3, "snyd-joker": 3, "perudo": 4, "palifico": 4}
"""Beyond these, the public tree outgrows memory and patience."""
MAX_LP_NODES = 20_000
"""The sequence-form LP is exact but slow beyond this many tree nodes: use CFR+."""
MAX_ITERATIONS = 1_000_000


class _Parser(argparse.ArgumentParser):
    """Errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, not {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--dice", nargs=2, type=_whole, required=True, metavar=("FIRST", "SECOND"),
                        help="the first player's (opener's) dice, then the other's")
    parser.add_argument("--game", choices=GAMES, required=True,
                        help="snyd's game (one linear bid order, with or without wild ones), "
                             "or a round under our rules")
    parser.add_argument("--iterations", type=_whole,
                        help="CFR+ iterations (default: until the exploitability is below "
                             "--target)")
    parser.add_argument("--target", type=_positive_float, default=1e-4,
                        help="the exploitability to reach when --iterations is not given")
    parser.add_argument("--method", choices=("cfr", "lp"), default="cfr",
                        help="CFR+ or the exact sequence-form linear program (small games)")
    parser.add_argument("--calza-heads-up", action="store_true",
                        help="our rules with calza allowed heads-up")
    return parser


def game_from_args(args: argparse.Namespace) -> BidGame:
    """The game the arguments name; ValueError when out of range."""
    first, second = args.dice
    if first < 1 or second < 1:
        raise ValueError(f"each player needs at least one die, not {first} and {second}")
    limit = MAX_TOTAL_DICE[args.game]
    if first + second > limit:
        raise ValueError(f"{args.game} is solved with at most {limit} dice in all, "
                         f"not {first + second}")
    if args.iterations is not None and not 1 <= args.iterations <= MAX_ITERATIONS:
        raise ValueError(f"--iterations must be from 1 to {MAX_ITERATIONS}, "
                         f"not {args.iterations}")
    if args.calza_heads_up and args.game.startswith("snyd"):
        raise ValueError("--calza-heads-up applies to our rules (perudo, palifico) only")
    if args.game.startswith("snyd"):
        return LinearBidGame((first, second), jokers=args.game == "snyd-joker")
    rules = Rules(calza_heads_up=args.calza_heads_up)
    return PerudoRound((first, second), args.game == "palifico", rules)


def run(args: argparse.Namespace) -> dict[str, float]:
    """Solve the round the arguments name and return the JSON figures."""
    tree = build_tree(game_from_args(args))
    if args.method == "lp":
        if args.iterations is not None:
            raise ValueError("--iterations applies to the cfr method only")
        if tree.size > MAX_LP_NODES:
            raise ValueError(f"this game has {tree.size} tree nodes: the lp method takes "
                             f"at most {MAX_LP_NODES}, use --method cfr")
        solution = solve_lp(tree)
    else:
        solution = solve_cfr(tree, iterations=args.iterations, target=args.target)
    return {"value": solution.value, "exploitability": solution.exploitability,
            "seconds": round(solution.seconds, 3)}


def main(argv: Sequence[str] | None = None) -> int:
    """The ``solve`` subcommand: 0 on success, 2 on bad input (one line on stderr)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, or a usage error already reported on one line
        return stop.code if isinstance(stop.code, int) else 2
    try:
        payload = run(args)
    except ValueError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(payload))
    return 0


if __name__ == "__main__":
    sys.exit(main())
