"""Build heads-up strategy tables past the exact ones with the imperfect-recall abstraction.

    .venv/bin/python -m scripts.build_abstract_tables [--states 1v3 3v1 ... 5v5]
        [--recall 2] [--max-mb 60] [--iterations 1000] [--time-limit 1800]
        [--exact-limit 120000000] [--bound-recall 4] [--out build/abstract_tables]

By default every heads-up state from 1 to 5 dice a side that the shipped exact tables
(``coach/solver/data/heads_up_tables.*``) do not cover is solved, bottom-up (fewest dice on
the table first: a state's calls lead to states solved before it, to the exact tables, or,
for a right calza's die back, to the fitted model of ``coach.solver.values``), with game
payoffs under the default rules. A normal round is solved in the abstract game where a
player remembers the last K bids (coach/solver/abstract.py): K is the longest recall up to
``--recall`` whose value array (abstract states × both sides' hands, 8 bytes each) takes at
most ``--max-mb`` megabytes, and 1 when none does; ``--recall 2 --max-mb 60`` gives K2 up to
3 dice against 4 (51 MB) and K1 from 4 against 4 (K2 would take 147 MB there and 0.9 GB at 5
against 5). A palifico round is opened by the player who just dropped to one die, so it is
solved for a one-die opener only, exactly (a recall as long as its longest history: its
tree stays under 13,000 nodes). Every table is quantised as the shipped ones (actions under
0.1% dropped, 1/65535 steps) and its figures are measured on exactly what is stored: the
value, P(the opener loses a die), and the exploitability, exact in the full game where the
tree has at most ``--full-limit`` nodes, or without building the tree up to
``--exact-limit`` nodes (every state of 6 dice or fewer), else the lower bound from local
best responders remembering the longest recall up to ``--bound-recall`` longer than K that
fits in memory (``at_least_K4``). Each table also stores, per player's state and hand, the
player's expected payoff from there (``value0`` / ``value1``: 2 P(win the game) − 1, the
advice's chance of winning, over the histories the state merges). The solve seconds and the
bytes of each table are recorded. The tables go to ``--out`` as ``abstract/<key>.npz`` (one
file a table) and ``abstract_tables.json`` (``--out coach/solver/data`` ships them; the coach
plays them where :data:`coach.engine.table_play.COACH_TABLE_PLAY` says); the figures are
also printed as JSON. The files are rewritten after every table (a run
stopped midway leaves the tables solved so far); a new run starts again from the first
state given.

Bad input exits with status 2 and one line on stderr, before any solving: every number is
bounded, and every abstract game the run would build is counted first and refused beyond
``scripts.measure_abstraction.MAX_ABSTRACT_BYTES``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from coach.solver.abstract import (
    Recall,
    abstract_arrays,
    abstract_profile,
    abstract_values,
    build_abstract,
    solve_abstract,
)
from coach.solver.games import (
    PerudoRound,
    build_tree,
    count_tree,
    opener_die_lost,
    round_rules_key,
)
from coach.solver.tables import available_tables, quantise, table_key
from coach.solver.values import GameValues, RoundStart, SolvedRound, shipped_values
from perudo_math import Rules, arguments
from scripts.measure_abstraction import (
    DEFAULT_EXACT_NODES,
    MAX_ABSTRACT_BYTES,
    MAX_DICE,
    MAX_EXACT_NODES,
    MAX_FULL_NODES,
    MAX_ITERATIONS,
    MAX_RECALL,
    MAX_TIME_LIMIT,
    MIN_TIME_LIMIT,
    abstract_bytes,
    distinct,
    exploitability_figures,
    state,
)

PROG = "python -m scripts.build_abstract_tables"
TABLES_NAME = "abstract_tables"
ARRAYS_FOLDER = "abstract"
MAX_TABLE_MB = MAX_ABSTRACT_BYTES // 10**6


def default_states() -> list[tuple[int, int]]:
    """Every state of 1 to :data:`MAX_DICE` dice a side whose normal round has no shipped
    exact table, fewest dice on the table first (then the opener's)."""
    exact = available_tables()
    states = [(a, b) for a in range(1, MAX_DICE + 1) for b in range(1, MAX_DICE + 1)
              if table_key((a, b), False) not in exact]
    return sorted(states, key=lambda dice: (sum(dice), dice[0]))


def rounds_of(dice: tuple[int, int]) -> list[bool]:
    """Whether each round built for ``dice`` is palifico: the normal round, and the palifico
    one when the opener holds one die (who opens a palifico round has just dropped to one)
    and no exact table has it."""
    palifico = dice[0] == 1 and table_key(dice, True) not in available_tables()
    return [False, True] if palifico else [False]


def recall_for(game: PerudoRound, bids: int, max_bytes: int) -> Recall:
    """Perfect recall (exact) for a palifico round; for a normal one the longest recall up
    to ``bids`` whose value array fits in ``max_bytes``, and 1 when none does."""
    if game.palifico:
        return Recall(len(game.bids))
    for longest in range(bids, 1, -1):
        if abstract_bytes(game, Recall(longest)) <= max_bytes:
            return Recall(longest)
    return Recall(1)


def bound_recall_for(game: PerudoRound, recall: Recall, bids: int) -> list[int]:
    """The longest recall up to ``bids``, longer than ``recall``, whose local best
    responders fit in memory (none when no such recall fits)."""
    for longest in range(bids, recall.bids, -1):
        if abstract_bytes(game, Recall(longest)) <= MAX_ABSTRACT_BYTES:
            return [longest]
    return []


def build_one(dice: tuple[int, int], palifico: bool, values: GameValues,
              args: argparse.Namespace) -> tuple[dict[str, np.ndarray], dict, GameValues]:
    """Solve one state; its arrays, figures, and ``values`` with its game value added."""
    key = table_key(dice, palifico)
    values.model_states.clear()
    rules = Rules()
    game = PerudoRound(dice, palifico, rules, payoff="game", values=values)
    recall = recall_for(game, args.recall, args.max_mb * 10**6)
    abstract = build_abstract(game, recall)
    solved = solve_abstract(abstract, iterations=args.iterations, target=None,
                            check_every=args.iterations, time_limit=args.time_limit)
    steps = quantise(abstract, solved.profile)
    arrays = abstract_arrays(abstract, steps)
    stored = abstract_profile(abstract, arrays)
    arrays.update(abstract_values(abstract, stored))
    value = abstract.expected_value(stored)
    loses = build_abstract(game, recall, opener_die_lost(game)).expected_value(stored)
    game_value = round((1.0 + value) / 2.0, 6)
    meta = {
        "dice": list(dice), "palifico": palifico, "recall": recall.name,
        "recall_bids": recall.bids, "depth_cap": recall.depth_cap, "exact": palifico,
        "payoff": "game",
        "rules": rules.to_dict(), "rules_key": round_rules_key(rules, dice),
        "states": abstract.size, "actions": abstract.actions,
        "iterations": solved.iterations, "solve_seconds": round(solved.seconds, 2),
        "value": round(value, 6), "game_value": game_value,
        "opener_loses": round(loses, 6),
        "bytes": int(sum(array.nbytes for array in arrays.values())),
        "model_states": sorted(table_key((s.opener_dice, s.responder_dice), s.palifico)
                               for s in values.model_states),
    }
    nodes = count_tree(game)
    tree = build_tree(game) if nodes <= args.full_limit else None
    exact = tree is None and nodes <= args.exact_limit and not game.palifico
    started = time.perf_counter()
    meta.update(exploitability_figures(game, abstract, stored, tree,
                                       [] if tree or exact else
                                       bound_recall_for(game, recall, args.bound_recall),
                                       exact))
    meta["measure_seconds"] = round(time.perf_counter() - started, 2)
    print(f"{key}: {json.dumps(meta)}", file=sys.stderr, flush=True)
    start = RoundStart(dice[0], dice[1], palifico)
    return arrays, meta, values.with_solved(start, SolvedRound(game_value, loses))


def write(key: str, arrays: dict[str, np.ndarray], tables: dict[str, dict], out: Path,
          ) -> dict[str, int]:
    """Write table ``key``'s arrays (``abstract/<key>.npz``, compressed), then the figures
    of every table so far (``abstract_tables.json``), each into a temporary file renamed
    over the old one: a run stopped at any point leaves an index whose every table has its
    arrays beside it. The sizes of the files written."""
    folder = out / ARRAYS_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path, partial = folder / f"{key}.npz", folder / f"{key}.partial.npz"
    np.savez_compressed(partial, **arrays)
    os.replace(partial, path)
    index = {"format": 2, "payoff": "game", "tables": tables}
    index_file, partial = out / f"{TABLES_NAME}.json", out / f"{TABLES_NAME}.partial.json"
    partial.write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, index_file)
    return {f"{ARRAYS_FOLDER}/{path.name}": path.stat().st_size,
            index_file.name: index_file.stat().st_size}


def build_parser() -> argparse.ArgumentParser:
    parser = arguments.OneLineParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--states", nargs="+", type=arguments.parsed_by(state),
                        default=None, metavar="STATE",
                        help=f"states such as 2v3 (opener v responder), 1 to {MAX_DICE} dice "
                             "a side, each once, bottom-up: a state's calls lead only to "
                             "states before it (default: every state without an exact "
                             "table, 1v3 to 5v5)")
    parser.add_argument("--recall", type=arguments.whole_number(1, MAX_RECALL), default=2,
                        help=f"last bids remembered (K), 1 to {MAX_RECALL}, at most: the "
                             "longest that fits --max-mb (default 2)")
    parser.add_argument("--max-mb", type=arguments.whole_number(1, MAX_TABLE_MB), default=60,
                        help="megabytes of a normal round's value array under its recall, "
                             f"1 to {MAX_TABLE_MB:,} (default 60)")
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
    parser.add_argument("--exact-limit", type=arguments.whole_number(0, MAX_EXACT_NODES),
                        default=DEFAULT_EXACT_NODES,
                        help="beyond --full-limit, measure exactly without the tree up to this "
                             f"many nodes, 0 to {MAX_EXACT_NODES:,} (default "
                             f"{DEFAULT_EXACT_NODES:,}: every state of 6 dice or fewer)")
    parser.add_argument("--bound-recall", type=arguments.whole_number(1, MAX_RECALL), default=4,
                        help="beyond --full-limit: local best responders with the longest "
                             f"recall up to this that fits, 1 to {MAX_RECALL} (default 4)")
    parser.add_argument("--out", type=Path, default=Path("build") / TABLES_NAME,
                        help="the folder the tables go to (made if missing)")
    return parser


def plan(args: argparse.Namespace) -> None:
    """ValueError, before any solving, for a state given twice or an --out that is not a
    folder (every recall is chosen to fit: see :func:`recall_for`)."""
    if args.states is None:
        args.states = default_states()
    distinct("--states", [f"{a}v{b}" for a, b in args.states])
    if args.out.exists() and not args.out.is_dir():
        raise ValueError(f"--out: {str(args.out)!r} is a file, not a folder")


def run(args: argparse.Namespace) -> int:
    """Solve, measure and write every table the arguments name; print the figures."""
    plan(args)
    values = shipped_values()
    tables: dict[str, dict] = {}
    started = time.perf_counter()
    sizes: dict[str, int] = {}
    for dice in args.states:
        for palifico in rounds_of(dice):
            arrays, meta, values = build_one(dice, palifico, values, args)
            key = table_key(dice, palifico)
            tables[key] = meta
            try:  # after every table: a long run stopped midway keeps what it solved
                sizes.update(write(key, arrays, tables, args.out))
            except OSError as error:
                raise ValueError(f"--out: cannot write into {str(args.out)!r}: "
                                 f"{error.strerror}") from None
    print(json.dumps({"tables": tables,
                      "bytes": sizes, "seconds": round(time.perf_counter() - started, 1)},
                     indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    """0 once the tables are written; 2 and one line on stderr for bad input."""
    return arguments.run_guarded(build_parser(), argv, run)


if __name__ == "__main__":
    sys.exit(main())
