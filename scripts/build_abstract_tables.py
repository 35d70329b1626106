"""Build heads-up strategy tables beyond 2 dice against 2 with the imperfect-recall abstraction.

    .venv/bin/python -m scripts.build_abstract_tables [--states 1v3 3v1 2v3 3v2 3v3]
        [--recall 2] [--iterations 1000] [--bound-recall 4] [--out build/abstract_tables]

Each state is solved bottom-up (a round's calls lead to states solved before it, or to the
shipped exact tables' 1v1 to 2v2), with game payoffs under the default rules. A normal round
is solved in the abstract game where a player remembers the last ``--recall`` bids
(coach/solver/abstract.py); a palifico round's tree is small enough to solve exactly, so it
gets a recall as long as its longest history (perfect recall, same format). Every table is
quantised as the shipped ones (actions under 0.1% dropped, 1/65535 steps) and its figures
are measured on exactly what is stored: the value, P(the opener loses a die), and the
exploitability, exact in the full game where the tree has at most ``--full-limit`` nodes,
else the lower bound from local best responders remembering ``--bound-recall`` bids
(``at_least_K4``). The
solve seconds and the bytes of each table are recorded. The tables go to ``--out`` (not the
shipped data: the league decides whether the coach plays them) as ``abstract_tables.npz``
and ``abstract_tables.json``; the figures are also printed as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from coach.solver.abstract import (
    Recall,
    abstract_arrays,
    abstract_profile,
    build_abstract,
    solve_abstract,
)
from coach.solver.games import PerudoRound, build_tree, count_tree, opener_die_lost
from coach.solver.tables import quantise, table_key
from coach.solver.values import GameValues, RoundStart, SolvedRound, shipped_values
from scripts.measure_abstraction import exploitability_figures, parse_state

TABLES_NAME = "abstract_tables"


def recall_for(game: PerudoRound, bids: int) -> Recall:
    """``bids`` for a normal round; perfect recall (exact) for a palifico one."""
    return Recall(len(game.bids)) if game.palifico else Recall(bids)


def build_one(dice: tuple[int, int], palifico: bool, values: GameValues,
              args: argparse.Namespace) -> tuple[dict[str, np.ndarray], dict, GameValues]:
    """Solve one state; its arrays, figures, and ``values`` with its game value added."""
    key = table_key(dice, palifico)
    values.model_states.clear()
    game = PerudoRound(dice, palifico, payoff="game", values=values)
    recall = recall_for(game, args.recall)
    abstract = build_abstract(game, recall)
    solved = solve_abstract(abstract, iterations=args.iterations, target=None,
                            check_every=100, time_limit=args.time_limit)
    steps = quantise(abstract, solved.profile)
    arrays = abstract_arrays(abstract, steps)
    stored = abstract_profile(abstract, arrays)
    value = abstract.expected_value(stored)
    loses = build_abstract(game, recall, opener_die_lost(game)).expected_value(stored)
    meta = {
        "dice": list(dice), "palifico": palifico, "recall": recall.name,
        "exact": palifico, "states": abstract.size, "actions": abstract.actions,
        "iterations": solved.iterations, "solve_seconds": round(solved.seconds, 2),
        "value": round(value, 6), "game_value": round((1.0 + value) / 2.0, 6),
        "opener_loses": round(loses, 6),
        "bytes": int(sum(array.nbytes for array in arrays.values())),
        "model_states": sorted(table_key((s.opener_dice, s.responder_dice), s.palifico)
                               for s in values.model_states),
    }
    tree = build_tree(game) if count_tree(game) <= args.full_limit else None
    meta.update(exploitability_figures(game, abstract, stored, tree,
                                       [] if tree else [args.bound_recall]))
    print(f"{key}: {json.dumps(meta)}", file=sys.stderr, flush=True)
    start = RoundStart(dice[0], dice[1], palifico)
    return arrays, meta, values.with_solved(start, SolvedRound(meta["game_value"], loses))


def write(tables: dict[str, tuple[dict[str, np.ndarray], dict]], out: Path) -> dict[str, int]:
    """Write the arrays (one compressed .npz) and the figures (JSON); the files' sizes."""
    out.mkdir(parents=True, exist_ok=True)
    flat = {f"{key}.{name}": array for key, (arrays, _) in tables.items()
            for name, array in arrays.items()}
    np.savez_compressed(out / f"{TABLES_NAME}.npz", **flat)
    index = {"format": 1, "payoff": "game",
             "tables": {key: meta for key, (_, meta) in tables.items()}}
    (out / f"{TABLES_NAME}.json").write_text(json.dumps(index, indent=1) + "\n",
                                             encoding="utf-8")
    return {path.name: path.stat().st_size for path in sorted(out.glob(f"{TABLES_NAME}.*"))}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scripts.build_abstract_tables",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--states", nargs="+", default=["1v3", "3v1", "2v3", "3v2", "3v3"],
                        help="bottom-up: a state's calls lead only to states before it")
    parser.add_argument("--recall", type=int, default=2, help="last bids remembered (K)")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--time-limit", type=float, default=1800.0,
                        help="seconds of CFR+ per table at most")
    parser.add_argument("--full-limit", type=int, default=400_000,
                        help="measure exactly in the full game up to this many tree nodes")
    parser.add_argument("--bound-recall", type=int, default=4,
                        help="beyond --full-limit: local best responders with this recall")
    parser.add_argument("--out", type=Path, default=Path("build") / TABLES_NAME)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    values = shipped_values()
    tables = {}
    started = time.perf_counter()
    for text in args.states:
        for palifico in (False, True):
            arrays, meta, values = build_one(parse_state(text), palifico, values, args)
            tables[table_key(parse_state(text), palifico)] = arrays, meta
    sizes = write(tables, args.out)
    print(json.dumps({"tables": {key: meta for key, (_, meta) in tables.items()},
                      "bytes": sizes, "seconds": round(time.perf_counter() - started, 1)},
                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
