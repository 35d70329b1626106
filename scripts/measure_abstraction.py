"""Measure the imperfect-recall abstraction (coach/solver/abstract.py) state by state.

    .venv/bin/python -m scripts.measure_abstraction [--states 1v1 1v2 2v1 2v2] [--recall 1 2 3]
        [--palifico] [--iterations 1000] [--time-limit 600]
        [--full-limit 400000] [--bound-recall 4 5]

For each heads-up state and recall K (the last K bids), with game payoffs under the default
rules (the shipped tables' values for the states a round leads to): the abstract game's
size, ``--iterations`` of CFR+ on it (or fewer if ``--time-limit`` ends them: with imperfect
recall no in-game measure is a safe stop), the seconds, the opener's value, the gap against
local best responses (``local_gap``, a lower bound, see coach/solver/abstract.py) and the
bytes a table of it would take (one uint16 per action and hand). Then, where the
perfect-recall tree has at most ``--full-limit`` nodes (count_tree decides without building
it), the exploitability of the abstract strategy measured exactly in the full game; and
for each ``--bound-recall`` K' > K, a lower bound on it from local best responders that
remember K' bids (everywhere: beside the exact figure it shows how tight the bound is). The
shipped exact tables' value and exploitability are printed beside it where they exist.
One JSON object per (state, K) goes to stdout; progress to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from coach.solver.abstract import (
    AbstractGame,
    Recall,
    build_abstract,
    full_game_profile,
    restricted_exploitability,
    solve_abstract,
)
from coach.solver.cfr import Profile, exploitability
from coach.solver.games import GameTree, PerudoRound, build_tree, count_tree
from coach.solver.tables import table_key
from coach.solver.values import INDEX_FILE


def table_bytes(abstract: AbstractGame) -> int:
    """What the abstract strategy takes as one uint16 per (state, action, hand)."""
    hands = abstract.hand_counts
    return sum(2 * stage.actions * hands[stage.mover] for stage in abstract.stages)


def parse_state(text: str) -> tuple[int, int]:
    """``2v3`` → (2, 3): the opener's dice, the responder's."""
    opener, _, responder = text.partition("v")
    return int(opener), int(responder)


def exploitability_figures(game: PerudoRound, abstract: AbstractGame, profile: Profile,
                           tree: GameTree | None, bounds: Sequence[int]) -> dict[str, float]:
    """The abstract ``profile``'s exploitability measured exactly in the full game (when its
    ``tree`` is given), and the lower bound from local best responders remembering each of
    ``bounds`` bids (``at_least_K4``), those longer than the abstraction's recall."""
    figures = {}
    if tree is not None:
        gap = exploitability(tree, full_game_profile(tree, abstract, profile))
        figures["exploitability"] = float(f"{gap:.3g}")
    for finer in bounds:
        if finer > abstract.recall.bids:
            bound = restricted_exploitability(game, abstract, profile,
                                              Recall(finer, abstract.recall.depth_cap))
            figures[f"at_least_K{finer}"] = float(f"{bound:.3g}")
    return figures


def measure(game: PerudoRound, recall: Recall, tree: GameTree | None, args: argparse.Namespace,
            shipped: dict) -> dict[str, object]:
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
    row.update(exploitability_figures(game, abstract, solved.profile, tree, args.bound_recall))
    row["measure_seconds"] = round(time.perf_counter() - start, 2)
    if key in shipped:
        row["exact_value"] = shipped[key]["value"]
        row["exact_exploitability"] = shipped[key]["exploitability"]
    print(f"{key} {recall.name}: {json.dumps(row)}", file=sys.stderr)
    return row


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scripts.measure_abstraction",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--states", nargs="+", default=["1v1", "1v2", "2v1", "2v2"])
    parser.add_argument("--recall", nargs="+", type=int, default=[1, 2, 3],
                        help="how many last bids a player remembers (K)")
    parser.add_argument("--depth-cap", type=int, default=0,
                        help="also remember the number of bids up to this (0: no)")
    parser.add_argument("--palifico", action="store_true", help="palifico rounds")
    parser.add_argument("--iterations", type=int, default=1000,
                        help="CFR+ iterations per (state, K)")
    parser.add_argument("--check-every", type=int, default=100,
                        help="how often the time limit is checked")
    parser.add_argument("--time-limit", type=float, default=600.0,
                        help="seconds of CFR+ per (state, K) at most")
    parser.add_argument("--full-limit", type=int, default=400_000,
                        help="measure in the full game up to this many tree nodes")
    parser.add_argument("--bound-recall", nargs="*", type=int, default=[],
                        help="lower bounds from local best responders remembering this many bids")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    index = json.loads(INDEX_FILE.read_text(encoding="utf-8")) if INDEX_FILE.exists() else {}
    shipped = index.get("tables", {})
    for text in args.states:
        game = PerudoRound(parse_state(text), args.palifico, payoff="game")
        nodes = count_tree(game)
        tree = build_tree(game) if nodes <= args.full_limit else None
        print(f"{text}: {nodes} tree nodes, full game {'built' if tree else 'too large'}",
              file=sys.stderr)
        for bids in args.recall:
            print(json.dumps(measure(game, Recall(bids, args.depth_cap), tree, args, shipped)),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
