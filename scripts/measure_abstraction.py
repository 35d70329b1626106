"""Measure the imperfect-recall abstraction (coach/solver/abstract.py) state by state.

    .venv/bin/python -m scripts.measure_abstraction [--states 1v1 1v2 2v1 2v2] [--recall 1 2 3]
        [--palifico] [--iterations 1000] [--time-limit 600]
        [--full-limit 400000] [--exact-limit 120000000] [--bound-recall 4 5]

For each heads-up state and recall K (the last K bids), with game payoffs under the default
rules (the shipped tables' values for the states a round leads to): the abstract game's
size, ``--iterations`` of CFR+ on it (or fewer if ``--time-limit`` ends them: with imperfect
recall no in-game measure is a safe stop), the seconds, the opener's value, the gap against
local best responses (``local_gap``, a lower bound, see coach/solver/abstract.py) and the
bytes a table of it would take (one uint16 per action and hand). Then, where the
perfect-recall tree has at most ``--full-limit`` nodes (count_tree decides without building
it), the exploitability of the abstract strategy measured exactly in the full game, and
beyond it up to ``--exact-limit`` nodes measured exactly without building the tree
(coach/solver/full_response.py: every state of 6 dice or fewer); and
for each ``--bound-recall`` K' > K, a lower bound on it from local best responders that
remember K' bids (everywhere: beside the exact figure it shows how tight the bound is). The
shipped exact tables' value and exploitability are printed beside it where they exist.
One JSON object per (state, K) goes to stdout; progress to stderr.

Bad input exits with status 2 and one line on stderr, before any solving: every number is
bounded, and every abstract game a run would build is counted first (count_abstract) and
refused beyond :data:`MAX_ABSTRACT_BYTES`.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from collections.abc import Hashable, Iterable, Sequence

from coach.solver.abstract import (
    AbstractGame,
    Recall,
    build_abstract,
    count_abstract,
    full_game_profile,
    restricted_exploitability,
    solve_abstract,
)
from coach.solver.cfr import Profile, exploitability
from coach.solver.full_response import FullGameResponse, numbered
from coach.solver.games import GameTree, PerudoRound, build_tree, count_tree
from coach.solver.tables import table_key
from coach.solver.values import INDEX_FILE
from perudo_math import arguments
from perudo_math.rules import Rules

PROG = "python -m scripts.measure_abstraction"
MAX_DICE = Rules().starting_dice
"""A side of a state holds 1 to the default rules' starting dice (the rules both scripts
solve under), as ``python -m coach solve`` bounds its ``--dice``."""
MAX_RECALL = 12
"""The longest history of a round of 1 die against 1 (perfect recall there); past 2 dice a
side, far shorter recalls already outgrow :data:`MAX_ABSTRACT_BYTES`."""
MAX_DEPTH_CAP = 6 * 2 * MAX_DICE
"""The longest history of the largest state: a longer cap remembers nothing more."""
MAX_ITERATIONS = 1_000_000
MAX_CHECK_EVERY = 10_000
MIN_TIME_LIMIT, MAX_TIME_LIMIT = 0.01, 86_400.0
MAX_FULL_NODES = 1_000_000
"""Trees of up to this many nodes are built to measure exactly: under the default rules every
such tree holds at most 22 million (node, hand) cells, within ``python -m coach solve``'s
MAX_TREE_CELLS (about 1 GB)."""
MAX_EXACT_NODES = 200_000_000
"""Full games of up to this many nodes are measured exactly without their tree: every state
of 6 dice or fewer (107 million nodes; 7 dice make 3.8 billion)."""
DEFAULT_EXACT_NODES = 120_000_000
"""By default every state of 6 dice or fewer is measured exactly (3 against 3: minutes)."""
MAX_ABSTRACT_BYTES = 2 * 10**9
"""The abstract game's value array, (abstract states × one side's hands × the other's) floats
of 8 bytes: a solve peaks at about four times it (the stages' action matrices and their
copies; measured: +72 MB for 3v3 K2's 17 MB), so this bound keeps a run within about 8 GB.
3v3 K4 (the tables' lower bound) takes 0.5 GB, 4v4 K3 1.2 GB, 5v5 K2 0.9 GB; 3v3 K5 (2.1 GB)
and 5v5 K3 (9 GB) are refused before they start."""


def state(text: str) -> tuple[int, int]:
    """A heads-up state written ``2v3``: the opener's dice, the responder's, 1 to
    :data:`MAX_DICE` each; ValueError otherwise."""
    found = re.fullmatch(r"([0-9]{1,3})v([0-9]{1,3})", text.strip())
    if found is None:
        raise ValueError(f"expected a state like 2v3 (the opener's dice v the responder's), "
                         f"not {text[:40]!r}")
    dice = int(found[1]), int(found[2])
    if not all(1 <= side <= MAX_DICE for side in dice):
        raise ValueError(f"{text.strip()}: each side holds 1 to {MAX_DICE} dice "
                         "(the starting dice)")
    return dice


def distinct(option: str, values: Iterable[Hashable]) -> None:
    """ValueError when ``values`` (given to ``option``) name one twice."""
    seen: set[Hashable] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{option}: {value} is given twice")
        seen.add(value)


def abstract_bytes(game: PerudoRound, recall: Recall) -> int:
    """The bytes of ``game``'s value array under ``recall`` (see :data:`MAX_ABSTRACT_BYTES`)."""
    hands = math.comb(game.dice[0] + 5, 5) * math.comb(game.dice[1] + 5, 5)
    return 8 * hands * count_abstract(game, recall)


def check_fits(game: PerudoRound, recall: Recall, remedy: str) -> None:
    """ValueError ending in ``remedy`` when ``game`` under ``recall`` outgrows
    :data:`MAX_ABSTRACT_BYTES`."""
    size = abstract_bytes(game, recall)
    if size > MAX_ABSTRACT_BYTES:
        raise ValueError(
            f"{table_key(game.dice, game.palifico)} {recall.name}: "
            f"{count_abstract(game, recall):,} abstract states × "
            f"{math.comb(game.dice[0] + 5, 5)} × {math.comb(game.dice[1] + 5, 5)} hands take "
            f"{size / 1e9:,.1f} GB of arrays, at most {MAX_ABSTRACT_BYTES / 1e9:g} GB fit: "
            f"{remedy}")


def table_bytes(abstract: AbstractGame) -> int:
    """What the abstract strategy takes as one uint16 per (state, action, hand)."""
    hands = abstract.hand_counts
    return sum(2 * stage.actions * hands[stage.mover] for stage in abstract.stages)


def exploitability_figures(game: PerudoRound, abstract: AbstractGame, profile: Profile,
                           tree: GameTree | None, bounds: Sequence[int],
                           exact: bool = False) -> dict[str, float]:
    """The abstract ``profile``'s exploitability measured exactly in the full game: on its
    ``tree`` when given, else, when ``exact`` and the recall can be numbered (not a long
    perfect recall), by best responses walked without the tree
    (:class:`coach.solver.full_response.FullGameResponse`); and the lower bound from local
    best responders remembering each of ``bounds`` bids (``at_least_K4``), those longer than
    the abstraction's recall."""
    figures = {}
    if tree is not None:
        gap = exploitability(tree, full_game_profile(tree, abstract, profile))
        figures["exploitability"] = float(f"{gap:.3g}")
    elif exact and numbered(abstract):
        gap = FullGameResponse(abstract).exploitability(profile)
        figures["exploitability"] = float(f"{gap:.3g}")
    for finer in bounds:
        if finer > abstract.recall.bids:
            bound = restricted_exploitability(game, abstract, profile,
                                              Recall(finer, abstract.recall.depth_cap))
            figures[f"at_least_K{finer}"] = float(f"{bound:.3g}")
    return figures


def measure(game: PerudoRound, recall: Recall, tree: GameTree | None, args: argparse.Namespace,
            shipped: dict, exact: bool = False) -> dict[str, object]:
    """Solve ``game`` under ``recall`` and measure it; the figures as JSON values."""
    key = table_key(game.dice, game.palifico)
    start = time.perf_counter()
    abstract = build_abstract(game, recall)
    built = time.perf_counter() - start
    print(f"{key} {recall.name}: {abstract.size} states, {abstract.actions} actions, "
          f"built in {built:.1f}s", file=sys.stderr)
    solved = solve_abstract(abstract, iterations=args.iterations, target=None,
                            check_every=args.check_every, time_limit=args.time_limit)
    row: dict[str, object] = {
        "state": key, "recall": recall.name, "states": abstract.size,
        "actions": abstract.actions, "build_seconds": round(built, 2),
        "iterations": solved.iterations, "solve_seconds": round(solved.seconds, 2),
        "table_bytes": table_bytes(abstract), "value": round(solved.value, 6),
        "local_gap": float(f"{solved.abstract_exploitability:.3g}"),
    }
    start = time.perf_counter()
    row.update(exploitability_figures(game, abstract, solved.profile, tree, args.bound_recall,
                                      exact))
    row["measure_seconds"] = round(time.perf_counter() - start, 2)
    if key in shipped:
        row["exact_value"] = shipped[key]["value"]
        row["exact_exploitability"] = shipped[key]["exploitability"]
    print(f"{key} {recall.name}: {json.dumps(row)}", file=sys.stderr)
    return row


def build_parser() -> argparse.ArgumentParser:
    parser = arguments.OneLineParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--states", nargs="+", type=arguments.parsed_by(state),
                        default=[(1, 1), (1, 2), (2, 1), (2, 2)], metavar="STATE",
                        help=f"states such as 2v3 (opener v responder), 1 to {MAX_DICE} dice "
                             "a side, each once (default 1v1 1v2 2v1 2v2)")
    parser.add_argument("--recall", nargs="+", type=arguments.whole_number(1, MAX_RECALL),
                        default=[1, 2, 3], metavar="K",
                        help=f"how many last bids a player remembers (K), 1 to {MAX_RECALL}, "
                             "each once (default 1 2 3)")
    parser.add_argument("--depth-cap", type=arguments.whole_number(0, MAX_DEPTH_CAP),
                        default=0,
                        help=f"also remember the number of bids up to this, 0 (no) to "
                             f"{MAX_DEPTH_CAP} (default 0)")
    parser.add_argument("--palifico", action="store_true", help="palifico rounds")
    parser.add_argument("--iterations", type=arguments.whole_number(1, MAX_ITERATIONS),
                        default=1000,
                        help=f"CFR+ iterations per (state, K), 1 to {MAX_ITERATIONS:,} "
                             "(default 1000)")
    parser.add_argument("--check-every", type=arguments.whole_number(1, MAX_CHECK_EVERY),
                        default=100,
                        help=f"how often the time limit is checked, 1 to {MAX_CHECK_EVERY:,} "
                             "iterations (default 100)")
    parser.add_argument("--time-limit", type=arguments.number(MIN_TIME_LIMIT, MAX_TIME_LIMIT),
                        default=600.0,
                        help=f"seconds of CFR+ per (state, K) at most, {MIN_TIME_LIMIT:g} to "
                             f"{MAX_TIME_LIMIT:,.0f} (default 600)")
    parser.add_argument("--full-limit", type=arguments.whole_number(0, MAX_FULL_NODES),
                        default=400_000,
                        help=f"measure in the full game up to this many tree nodes, 0 to "
                             f"{MAX_FULL_NODES:,} (default 400,000)")
    parser.add_argument("--exact-limit", type=arguments.whole_number(0, MAX_EXACT_NODES),
                        default=DEFAULT_EXACT_NODES,
                        help="beyond --full-limit, measure exactly without the tree up to this "
                             f"many nodes, 0 to {MAX_EXACT_NODES:,} (default "
                             f"{DEFAULT_EXACT_NODES:,}: every state of 6 dice or fewer; 3v3 "
                             "takes minutes)")
    parser.add_argument("--bound-recall", nargs="*", type=arguments.whole_number(1, MAX_RECALL),
                        default=[], metavar="K",
                        help="lower bounds from local best responders remembering this many "
                             f"bids, 1 to {MAX_RECALL}, each once")
    return parser


def plan(args: argparse.Namespace) -> list[PerudoRound]:
    """The games a run measures; ValueError, before any work, for a state or recall given
    twice or an abstract game (a K, or a --bound-recall K' above it) beyond
    :data:`MAX_ABSTRACT_BYTES`."""
    for option, values in (("--states", [f"{a}v{b}" for a, b in args.states]),
                           ("--recall", args.recall), ("--bound-recall", args.bound_recall)):
        distinct(option, values)
    games = [PerudoRound(dice, args.palifico, payoff="game") for dice in args.states]
    # A longer recall never has fewer states: checking the longest of each game is enough.
    longest = max(args.recall)
    finer = max((bids for bids in args.bound_recall if bids > min(args.recall)), default=0)
    for game in games:
        check_fits(game, Recall(longest, args.depth_cap), "lower --recall or the dice")
        if finer > longest:
            check_fits(game, Recall(finer, args.depth_cap), "lower --bound-recall")
    return games


def run(args: argparse.Namespace) -> int:
    """Measure every (state, K) the arguments name, one JSON line each."""
    games = plan(args)
    index = json.loads(INDEX_FILE.read_text(encoding="utf-8")) if INDEX_FILE.exists() else {}
    shipped = index.get("tables", {})
    for game in games:
        nodes = count_tree(game)
        tree = build_tree(game) if nodes <= args.full_limit else None
        print(f"{table_key(game.dice, game.palifico)}: {nodes} tree nodes, full game "
              f"{'built' if tree else 'too large'}", file=sys.stderr)
        for bids in args.recall:
            print(json.dumps(measure(game, Recall(bids, args.depth_cap), tree, args, shipped,
                                     tree is None and nodes <= args.exact_limit)), flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """0 once every row is printed; 2 and one line on stderr for bad input."""
    return arguments.run_guarded(build_parser(), argv, run)


if __name__ == "__main__":
    sys.exit(main())
