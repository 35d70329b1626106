"""Build the shipped heads-up strategy tables (coach/solver/data/heads_up_tables.*).

    .venv/bin/python scripts/build_solver_tables.py [--target 1e-4] [--skip 2v2]

Solves every heads-up round of TABLES under the default rules with CFR+ until the average
profile's exploitability is at most ``--target`` dice, drops actions played less than 0.1%
of the time, quantises to 1/65535 steps, measures the exploitability of exactly what is
stored, and writes the tables and their figures.
CFR+ is deterministic: the same command writes the same tables. Progress goes to stderr;
the figures are printed as one JSON object at the end.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the figures are one-core figures
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from coach.solver.cfr import solve_cfr
from coach.solver.games import PerudoRound, build_tree, round_rules_key
from coach.solver.tables import (
    DATA_DIR,
    INDEX_FILE,
    TABLES_FILE,
    quantise,
    table_arrays,
    table_key,
    write_tables,
)
from perudo_math import Rules

TABLES = [(dice, palifico) for dice in ((1, 1), (1, 2), (2, 1), (2, 2))
          for palifico in (False, True)]
"""(opener's dice, responder's dice) and the round type of every shipped table."""


def build_one(dice: tuple[int, int], palifico: bool, rules: Rules, target: float,
              time_limit: float) -> tuple[dict, dict]:
    """Solve one round and return its stored arrays and figures."""
    key = table_key(dice, palifico)
    tree = build_tree(PerudoRound(dice, palifico, rules))

    def report(iteration: int, gap: float) -> None:
        print(f"{key}: iteration {iteration}, exploitability {gap:.2e}", file=sys.stderr)

    check = 25 if tree.size < 100_000 else 50
    solution = solve_cfr(tree, target=target, check_every=check, time_limit=time_limit,
                         progress=report)
    start = time.perf_counter()
    steps = quantise(tree, solution.profile)
    arrays, shipped_gap = table_arrays(tree, steps)
    meta = {
        "dice": list(dice),
        "palifico": palifico,
        "rules": rules.to_dict(),
        "rules_key": round_rules_key(rules, dice),
        "method": solution.method,
        "iterations": solution.iterations,
        "solve_seconds": round(solution.seconds, 2),
        "export_seconds": round(time.perf_counter() - start, 2),
        "nodes": tree.size,
        "value": round(solution.value, 6),
        "exploitability": float(f"{solution.exploitability:.3g}"),
        "shipped_exploitability": float(f"{shipped_gap:.3g}"),
    }
    print(f"{key}: {json.dumps(meta)}", file=sys.stderr)
    return arrays, meta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", type=float, default=2e-5,
                        help="stop CFR+ at this exploitability, in dice (default 2e-5)")
    parser.add_argument("--target-2v2", type=float, default=1e-4,
                        help="the same for the 2v2 tables (default 1e-4)")
    parser.add_argument("--time-limit", type=float, default=3600.0,
                        help="seconds per table at most (default 3600)")
    parser.add_argument("--skip", nargs="*", default=[], metavar="DICE",
                        help="dice pairs to leave out, like 2v2")
    parser.add_argument("--out", type=Path, default=DATA_DIR)
    args = parser.parse_args(argv)
    rules = Rules()
    tables = {}
    for dice, palifico in TABLES:
        if f"{dice[0]}v{dice[1]}" in args.skip:
            continue
        target = args.target_2v2 if dice == (2, 2) else args.target
        tables[table_key(dice, palifico)] = build_one(dice, palifico, rules, target,
                                                     args.time_limit)
    write_tables(tables, args.out)
    sizes = {path.name: (args.out / path.name).stat().st_size
             for path in (TABLES_FILE, INDEX_FILE)}
    print(json.dumps({"tables": {key: meta for key, (_, meta) in tables.items()},
                      "bytes": sizes}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
