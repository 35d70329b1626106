"""How often the default coach plays from the heads-up tables, and how it fares heads-up.

    .venv/bin/python -m benchmarks.coach_tables_usage [--games 1000] [--seed 0]
        [--opponents coach-no-tables probability n3] [--players 2] [--tables-dir DIR]

Plays whole games under the default rules, the coach (``coach``: the tables where they fit,
the advice elsewhere) against copies of each opponent, the coach's seat rotating and the first
opener rolled, as the arena does. Per opponent it prints the coach's win rate with its Wilson
95% interval and how its decisions split: all of them, those with two players left, and those
played from a table (and their share of the heads-up decisions), per game.
``--tables-dir`` reads the tables from another directory (built by
``python -m scripts.build_solver_tables --out DIR``, for example with ``--payoff dice``).
Nothing here asserts: the figures are measured.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from coach.play.arena import play_game, wilson_interval
from coach.play.bots import Bot, load_bot
from coach.solver import tables
from coach.solver.tables import CoachTablesBot
from perudo_math import Rules


def use_tables_from(directory: Path) -> None:
    """Read the heads-up tables from ``directory`` instead of the shipped ones."""
    tables.TABLES_FILE = directory / tables.TABLES_FILE.name
    tables.INDEX_FILE = directory / tables.INDEX_FILE.name
    tables._index.cache_clear()
    tables.load_table.cache_clear()


def match(opponent: str, players: int, games: int, seed: int) -> dict[str, object]:
    """The coach against ``players − 1`` copies of ``opponent``."""
    hero_factory, villain = load_bot("coach"), load_bot(opponent)
    built: list[CoachTablesBot] = []

    def hero(rng: random.Random) -> Bot:
        bot = hero_factory(rng)
        assert isinstance(bot, CoachTablesBot)
        built.append(bot)
        return bot

    wins = 0
    start = time.perf_counter()
    for index in range(games):
        seat = index % players
        seated = [hero if place == seat else villain for place in range(players)]
        wins += play_game(seated, Rules(), random.Random(f"{seed}:{opponent}:{index}")) == seat
    decisions = sum(bot.decisions for bot in built)
    heads_up = sum(bot.heads_up for bot in built)
    from_tables = sum(bot.from_tables for bot in built)
    low, high = wilson_interval(wins, games)
    return {
        "opponent": opponent, "games": games, "wins": wins,
        "win_rate": round(wins / games, 4), "ci95": [round(low, 4), round(high, 4)],
        "decisions_per_game": round(decisions / games, 2),
        "heads_up_per_game": round(heads_up / games, 2),
        "from_tables_per_game": round(from_tables / games, 2),
        "share_of_heads_up_from_tables": round(from_tables / heads_up, 4) if heads_up else None,
        "games_with_a_table_move": sum(bot.from_tables > 0 for bot in built),
        "seconds": round(time.perf_counter() - start, 1),
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.coach_tables_usage",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", nargs="+",
                        default=["coach-no-tables", "probability", "n3"])
    parser.add_argument("--tables-dir", type=Path, help="read the tables from here")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    if args.tables_dir is not None:
        use_tables_from(args.tables_dir)
    report = {"tables": str(tables.INDEX_FILE), "payoff": tables._index().get("payoff", "dice"),
              "players": args.players, "seed": args.seed,
              "matches": [match(opponent, args.players, args.games, args.seed)
                          for opponent in args.opponents]}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
