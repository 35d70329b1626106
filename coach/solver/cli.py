"""``python -m coach solve``: solve a heads-up round and print its value and exploitability.

    python -m coach solve --dice 1 1 --game snyd-normal [--iterations N] [--method cfr|lp]
                          [--payoff dice|game]

Prints its figures as text on a terminal, else one JSON line ``{"value": …,
"exploitability": …, "seconds": …, "iterations": …, "target_reached": …}``: the value is the
first player's (the opener's) expected payoff under the solved profile, by default +1 per
round won, −1 per round lost; with ``--payoff game`` (perudo and palifico rounds) a round
pays 2 P(the opener wins the game) − 1 from the state it leads to, the later rounds valued as
the shipped heads-up tables value them (:mod:`coach.solver.values`). The exploitability
(NashConv / 2, in the same units) is exact.
Bad input exits with status 2 and one line on stderr.

Every accepted run ends within minutes: the tree is counted before it is built and refused
beyond :data:`MAX_TREE_CELLS`, and CFR+ runs at most :data:`MAX_WORK` node-hand updates
(``--iterations`` beyond that is refused; without it, the search for ``--target`` stops there
and says whether it got there).
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from collections.abc import Sequence
from typing import Any

from coach.solver.cfr import solve_cfr, solve_lp
from coach.solver.games import NO_BID, BidGame, LinearBidGame, PerudoRound, build_tree
from coach.solver.values import PAYOFFS
from perudo_math import arguments
from perudo_math.rules import SETTING_BY_NAME

PROG = "python -m coach solve"
GAMES = ("snyd-normal", "snyd-joker", "perudo", "palifico")
MAX_TOTAL_DICE = {"snyd-normal": 3, "snyd-joker": 3, "perudo": 4, "palifico": 4}
"""Beyond these, the public tree outgrows memory and patience."""
MAX_LP_NODES = 20_000
"""The sequence-form LP is exact but slow beyond this many tree nodes: use CFR+."""
MAX_ITERATIONS = 1_000_000
MAX_TREE_CELLS = 35_000_000
"""Tree nodes × both players' hands: the solver's arrays take about 32 bytes a cell (about
1 GB at this bound). Every same-face round of 4 dice fits; any-face rounds of 4 dice do not."""
MAX_WORK = 10**10
"""CFR+ iterations × tree cells: 15 to 60 ns a cell on this machine, so 2.5 to 10 minutes."""
MAX_TARGET_ITERATIONS = 100_000
MIN_TARGET, MAX_TARGET = 1e-6, 1.0
DESCRIPTION = ("Solve a heads-up round exactly: the opener's value under the solved strategies "
               "and their exploitability (NashConv / 2, in the same units). A run that would "
               "last past minutes is refused before it starts.")


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    parser = arguments.OneLineParser(prog=prog, description=DESCRIPTION)
    parser.set_defaults(run=run)
    parser.add_argument("--dice", nargs=2, type=arguments.whole_number(1, 3),
                        required=True, metavar=("FIRST", "SECOND"),
                        help="the first player's (opener's) dice, then the other's: 1 to 3 "
                             "each, at most 3 in all for snyd's games, 4 for ours")
    parser.add_argument("--game", choices=GAMES, required=True,
                        help="snyd's game (one linear bid order, with or without wild ones), "
                             "or a round under our rules (the rule settings below)")
    parser.add_argument("--iterations", type=arguments.whole_number(1, MAX_ITERATIONS),
                        help=f"CFR+ iterations, 1 to {MAX_ITERATIONS:,} and at most "
                             f"{MAX_WORK:.0e} / (tree nodes × hands) (default: until the "
                             "exploitability is below --target, within that bound)")
    parser.add_argument("--target", type=arguments.number(MIN_TARGET, MAX_TARGET),
                        default=1e-4,
                        help=f"the exploitability to reach when --iterations is not given, "
                             f"{MIN_TARGET:g} to {MAX_TARGET:g} (default 1e-4)")
    parser.add_argument("--method", choices=("cfr", "lp"), default="cfr",
                        help="CFR+ or the exact sequence-form linear program (small games)")
    parser.add_argument("--payoff", choices=PAYOFFS, default="dice",
                        help="dice: +1 per round won, -1 per round lost (default); game: "
                             "2 P(win the game) - 1 from the state the round leads to "
                             "(perudo and palifico only)")
    arguments.add_output_options(parser, solution_text)
    arguments.add_rule_options(parser)
    return parser


def game_from_args(args: argparse.Namespace) -> BidGame:
    """The game the arguments name; ValueError when out of range."""
    first, second = args.dice
    limit = MAX_TOTAL_DICE[args.game]
    if first + second > limit:
        raise ValueError(f"{args.game} is solved with at most {limit} dice in all, "
                         f"not {first + second}")
    if args.game.startswith("snyd"):
        if args.payoff != "dice":
            raise ValueError("--payoff game applies to our rules (perudo, palifico) only")
        given = arguments.given_rule_options(args)
        if given:
            option = arguments.rule_options(SETTING_BY_NAME[next(iter(given))])[0]
            raise ValueError(f"{option} applies to our rules (perudo, palifico) only")
        return LinearBidGame((first, second), jokers=args.game == "snyd-joker")
    rules = arguments.rules_from_arguments(args)
    return PerudoRound((first, second), args.game == "palifico", rules, args.payoff)


def tree_nodes(game: BidGame) -> int:
    """The size of ``game``'s public tree, counted without building it."""

    @functools.cache
    def below(last: int, mover: int) -> int:
        return 1 + sum(below(code, 1 - mover) if code >= 0 else 1
                       for code in game.actions(last, mover))

    return below(NO_BID, 0)


def hands(dice: int) -> int:
    """Sorted hands of ``dice`` six-sided dice."""
    return math.comb(dice + 5, 5)


def run(args: argparse.Namespace) -> dict[str, object]:
    """Solve the round the arguments name and return the JSON figures."""
    game = game_from_args(args)
    nodes = tree_nodes(game)
    cells = nodes * (hands(game.dice[0]) + hands(game.dice[1]))
    if cells > MAX_TREE_CELLS:
        raise ValueError(f"this game has {nodes:,} tree nodes, {cells:,} with both players' "
                         f"hands: at most {MAX_TREE_CELLS:,} fit in memory")
    if args.method == "lp":
        if args.iterations is not None:
            raise ValueError("--iterations applies to the cfr method only")
        if nodes > MAX_LP_NODES:
            raise ValueError(f"this game has {nodes:,} tree nodes: the lp method takes "
                             f"at most {MAX_LP_NODES:,}, use --method cfr")
        solution = solve_lp(build_tree(game))
        return {"value": solution.value, "exploitability": solution.exploitability,
                "seconds": round(solution.seconds, 3), "iterations": None,
                "target_reached": None}
    most = min(MAX_ITERATIONS, MAX_WORK // cells)
    if args.iterations is not None and args.iterations > most:
        raise ValueError(f"--iterations: at most {most:,} for this game ({nodes:,} tree "
                         f"nodes × {cells // nodes} hands), or the run lasts past minutes")
    solution = solve_cfr(build_tree(game), iterations=args.iterations, target=args.target,
                         max_iterations=min(most, MAX_TARGET_ITERATIONS))
    reached = None if args.iterations is not None else solution.exploitability <= args.target
    return {"value": solution.value, "exploitability": solution.exploitability,
            "seconds": round(solution.seconds, 3), "iterations": solution.iterations,
            "target_reached": reached}


def solution_text(args: argparse.Namespace, payload: dict[str, Any]) -> str:
    """The figures in words: the value and its unit, the exploitability and how it was
    reached, the time taken."""
    first, second = args.dice
    unit = ("2 P(the opener wins the game) - 1" if args.payoff == "game"
            else "+1 a round won, -1 a round lost")
    lines = [f"{args.game}, {first} {'die' if first == 1 else 'dice'} against {second}: the "
             "opener's value is "
             f"{payload['value']:+.4f} ({unit}).",
             f"Exploitability: {payload['exploitability']:.2g}."]
    if payload["iterations"] is None:
        lines.append("Solved exactly by the sequence-form linear program.")
    else:
        reached = {True: f", the target {args.target:g} reached",
                   False: f", short of the target {args.target:g} at the work bound",
                   None: ""}[payload["target_reached"]]
        lines.append(f"{payload['iterations']:,} CFR+ iterations{reached}.")
    lines.append(f"Solved in {payload['seconds']:.1f} s.")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """The ``solve`` subcommand: 0 on success, 2 on bad input (one line on stderr)."""
    return arguments.run_command(build_parser(prog), argv)


if __name__ == "__main__":
    sys.exit(main())
