"""Build the shipped heads-up strategy tables (coach/solver/data/heads_up_tables.*).

    .venv/bin/python -m scripts.build_solver_tables [--target 2e-5] [--skip 2v2]
                                                    [--payoff game|dice]

Solves every heads-up round of TABLES under the default rules with CFR+ until the average
profile's exploitability is at most ``--target`` times the round's stake, drops actions
played less than 0.1% of the time, quantises to 1/65535 steps, measures the exploitability
of exactly what is stored, and writes the tables and their figures.

The *stake* is half the spread of the round's payoffs: 1 with dice payoffs, and with game
payoffs (with no heads-up calza) half the gap in 2 V − 1 between winning and losing the
round's die. CFR+ is blind to the payoffs' scale and shift, so a target relative to the stake
stops it at the same iteration, with the same strategies, whatever the payoff; the
exploitabilities recorded are in payoff units.

With game payoffs (the default) a round pays 2 V − 1, V the chance of winning the game from
the state it leads to (:mod:`coach.solver.values`). The rounds are solved bottom-up: 1v1
first (every call ends the game), then 1v2 and 2v1 (a call leads to a 1v1 round or ends the
game), then 2v2; each solved round's equilibrium value is the value of its start state for
the rounds above. Each table's figures name the states its calls lead to that no solved
round covers (``model_states``, valued by the fallback model): none under the default rules.
CFR+ is deterministic: the same command writes the same tables. Progress goes to stderr;
the figures are printed as one JSON object at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from coach.solver.cfr import expected_value, solve_cfr
from coach.solver.games import (
    PerudoRound,
    build_tree,
    opener_die_lost,
    relabel,
    round_rules_key,
)
from coach.solver.tables import (
    DATA_DIR,
    INDEX_FILE,
    TABLES_FILE,
    quantise,
    table_arrays,
    table_key,
    write_tables,
)
from coach.solver.values import PAYOFFS, GameValues, RoundStart, SolvedRound
from perudo_math import Rules

TABLES = [(dice, palifico) for dice in ((1, 1), (1, 2), (2, 1), (2, 2))
          for palifico in (False, True)]
"""(opener's dice, responder's dice) and the round type of every shipped table, bottom-up:
a round's calls lead only to rounds listed before it (or end the game)."""


def opener_loses(tree, profile) -> float:
    """The chance that the opener loses a die in the round, both playing ``profile``."""
    return expected_value(relabel(tree, opener_die_lost(tree.game)), profile)


def round_stake(tree) -> float:
    """Half the spread of the round's payoffs (1 with dice payoffs)."""
    utilities = [group.utility for level in tree.levels for group in level.leaf_groups]
    return (max(float(u.max()) for u in utilities) - min(float(u.min()) for u in utilities)) / 2


def build_one(dice: tuple[int, int], palifico: bool, rules: Rules, target: float,
              time_limit: float, payoff: str,
              values: GameValues) -> tuple[dict, dict, GameValues]:
    """Solve one round; its stored arrays and figures, and ``values`` with its game value."""
    key = table_key(dice, palifico)
    values.model_states.clear()
    tree = build_tree(PerudoRound(dice, palifico, rules, payoff, values))
    model_states = sorted(table_key((state.opener_dice, state.responder_dice), state.palifico)
                          for state in values.model_states)

    def report(iteration: int, gap: float) -> None:
        print(f"{key}: iteration {iteration}, exploitability {gap:.2e}", file=sys.stderr)

    check = 25 if tree.size < 100_000 else 50
    stake = round_stake(tree)
    solution = solve_cfr(tree, target=target * stake, check_every=check, time_limit=time_limit,
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
        "payoff": payoff,
        "stake": round(stake, 6),
        "value": round(solution.value, 6),
        "opener_loses": round(opener_loses(tree, solution.profile), 6),
        "exploitability": float(f"{solution.exploitability:.3g}"),
        "shipped_exploitability": float(f"{shipped_gap:.3g}"),
    }
    if payoff == "game":
        meta["game_value"] = round((1.0 + solution.value) / 2.0, 6)
        meta["model_states"] = model_states
        start = RoundStart(dice[0], dice[1], palifico)
        values = values.with_solved(start, SolvedRound(meta["game_value"], meta["opener_loses"]))
    print(f"{key}: {json.dumps(meta)}", file=sys.stderr)
    return arrays, meta, values


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scripts.build_solver_tables",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--payoff", choices=PAYOFFS, default="game",
                        help="game: 2 P(win the game) - 1 from the state a round leads to "
                             "(default); dice: +1 / -1 per die")
    parser.add_argument("--target", type=float, default=2e-5,
                        help="stop CFR+ at this exploitability, in stakes (default 2e-5)")
    parser.add_argument("--target-2v2", type=float, default=1e-4,
                        help="the same for the 2v2 tables (default 1e-4)")
    parser.add_argument("--time-limit", type=float, default=3600.0,
                        help="seconds per table at most (default 3600)")
    parser.add_argument("--skip", nargs="*", default=[], metavar="DICE",
                        help="dice pairs to leave out, like 2v2")
    parser.add_argument("--out", type=Path, default=DATA_DIR)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    rules = Rules()
    values = GameValues(rules=rules)
    tables = {}
    for dice, palifico in TABLES:
        if f"{dice[0]}v{dice[1]}" in args.skip:
            continue
        target = args.target_2v2 if dice == (2, 2) else args.target
        arrays, meta, values = build_one(dice, palifico, rules, target, args.time_limit,
                                         args.payoff, values)
        tables[table_key(dice, palifico)] = arrays, meta
    write_tables(tables, args.out, args.payoff)
    sizes = {path.name: (args.out / path.name).stat().st_size
             for path in (TABLES_FILE, INDEX_FILE)}
    print(json.dumps({"payoff": args.payoff,
                      "tables": {key: meta for key, (_, meta) in tables.items()},
                      "bytes": sizes}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
