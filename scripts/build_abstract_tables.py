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

Bad input exits with status 2 and one line on stderr, before any solving: every number is
bounded, and every abstract game the run would build (each state's two rounds, and the
``--bound-recall`` games where the tree is too large) is counted first and refused beyond
``scripts.measure_abstraction.MAX_ABSTRACT_BYTES``.
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
from perudo_math import arguments
from scripts.measure_abstraction import (
    MAX_DICE,
    MAX_FULL_NODES,
    MAX_ITERATIONS,
    MAX_RECALL,
    MAX_TIME_LIMIT,
    MIN_TIME_LIMIT,
    check_fits,
    distinct,
    exploitability_figures,
    state,
)

PROG = "python -m scripts.build_abstract_tables"
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
    parser = arguments.OneLineParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--states", nargs="+", type=arguments.parsed_by(state),
                        default=[(1, 3), (3, 1), (2, 3), (3, 2), (3, 3)], metavar="STATE",
                        help=f"states such as 2v3 (opener v responder), 1 to {MAX_DICE} dice "
                             "a side, each once, bottom-up: a state's calls lead only to "
                             "states before it (default 1v3 3v1 2v3 3v2 3v3)")
    parser.add_argument("--recall", type=arguments.whole_number(1, MAX_RECALL), default=2,
                        help=f"last bids remembered (K), 1 to {MAX_RECALL} (default 2)")
    parser.add_argument("--iterations", type=arguments.whole_number(1, MAX_ITERATIONS),
                        default=1000,
                        help=f"CFR+ iterations per table, 1 to {MAX_ITERATIONS:,} (default 1000)")
    parser.add_argument("--time-limit", type=arguments.number(MIN_TIME_LIMIT, MAX_TIME_LIMIT),
                        default=1800.0,
                        help=f"seconds of CFR+ per table at most, {MIN_TIME_LIMIT:g} to "
                             f"{MAX_TIME_LIMIT:,.0f} (default 1800)")
    parser.add_argument("--full-limit", type=arguments.whole_number(0, MAX_FULL_NODES),
                        default=400_000,
                        help=f"measure exactly in the full game up to this many tree nodes, "
                             f"0 to {MAX_FULL_NODES:,} (default 400,000)")
    parser.add_argument("--bound-recall", type=arguments.whole_number(1, MAX_RECALL), default=4,
                        help="beyond --full-limit: local best responders with this recall, "
                             f"1 to {MAX_RECALL} (default 4)")
    parser.add_argument("--out", type=Path, default=Path("build") / TABLES_NAME,
                        help="the folder the tables go to (made if missing)")
    return parser


def plan(args: argparse.Namespace) -> None:
    """ValueError, before any solving, for a state given twice, an --out that is not a folder,
    or an abstract game the run would build beyond the memory bound."""
    distinct("--states", [f"{a}v{b}" for a, b in args.states])
    if args.out.exists() and not args.out.is_dir():
        raise ValueError(f"--out: {str(args.out)!r} is a file, not a folder")
    for dice in args.states:
        for palifico in (False, True):
            game = PerudoRound(dice, palifico, payoff="game")
            recall = recall_for(game, args.recall)
            check_fits(game, recall, "a palifico round is solved with perfect recall: lower "
                                     "the dice" if palifico else "lower --recall or the dice")
            if count_tree(game) > args.full_limit and args.bound_recall > recall.bids:
                check_fits(game, Recall(args.bound_recall), "lower --bound-recall")


def run(args: argparse.Namespace) -> int:
    """Solve, measure and write every table the arguments name; print the figures."""
    plan(args)
    values = shipped_values()
    tables = {}
    started = time.perf_counter()
    for dice in args.states:
        for palifico in (False, True):
            arrays, meta, values = build_one(dice, palifico, values, args)
            tables[table_key(dice, palifico)] = arrays, meta
    try:
        sizes = write(tables, args.out)
    except OSError as error:
        raise ValueError(f"--out: cannot write into {str(args.out)!r}: {error.strerror}"
                         ) from None
    print(json.dumps({"tables": {key: meta for key, (_, meta) in tables.items()},
                      "bytes": sizes, "seconds": round(time.perf_counter() - started, 1)},
                     indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    """0 once the tables are written; 2 and one line on stderr for bad input."""
    return arguments.run_guarded(build_parser(), argv, run)


if __name__ == "__main__":
    sys.exit(main())
