"""The coach's acceptance figures: win rates over whole games, advise latency, arena speed.

    .venv/bin/python -m benchmarks.coach_acceptance [--games 2000] [--jobs 2]

Prints one JSON object; the closing notes quote it. Nothing here asserts a time: the
figures are measured side by side in one run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from coach import ArenaSpec, Situation, advise, run_arena
from coach.engine.beliefs import clear_caches
from perudo_math import Bid, Hand, Rules

MATCHES = [("coach", "probability"), ("coach", "n3"), ("probability", "probability"),
           ("coach", "random")]


def full_round_situation() -> Situation:
    """Six players, 30 dice, a whole round of bids before my turn."""
    bids = ["3x4", "4x4", "4x5", "5x5", "6x5", "7x5", "4xP", "9x5", "10x5", "11x5"]
    seats = [(1 + index) % 6 for index in range(len(bids))]
    history = tuple((seat, Bid.parse(bid)) for seat, bid in zip(seats, bids, strict=True))
    me = (seats[-1] + 1) % 6
    return Situation(Rules(), (5, 5, 5, 5, 5, 5), me, Hand([1, 2, 5, 5, 6]), history)


def advise_latency(samples: int = 2000) -> dict[str, float]:
    """Median and 95th percentile of one advise, warm and with every cache cleared first."""
    situation = full_round_situation()
    report = {}
    for label, before in (("warm", None), ("cold", clear_caches)):
        times = []
        for _ in range(samples):
            if before:
                before()
            start = time.perf_counter()
            advise(situation)
            times.append(time.perf_counter() - start)
        report[f"{label}_median_ms"] = round(statistics.median(times) * 1000, 3)
        report[f"{label}_p95_ms"] = round(sorted(times)[int(0.95 * samples)] * 1000, 3)
    return report


def arena_speed(hero: str, opponents: str, games: int) -> float:
    start = time.perf_counter()
    run_arena(ArenaSpec(hero, opponents, 5, games, seed=99))
    return games / (time.perf_counter() - start) * 60


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.coach_acceptance",
                                     description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    return parser


def main() -> None:
    args = build_parser().parse_args()
    report: dict[str, object] = {"advise_full_round_6_players": advise_latency()}
    report["arena_games_per_minute_one_core"] = {
        f"{hero} vs {opponents}": round(arena_speed(hero, opponents, 300))
        for hero, opponents in [("coach", "probability"), ("probability", "probability")]
    }
    results = {}
    for hero, opponents in MATCHES:
        spec = ArenaSpec(hero, opponents, 5, args.games, args.seed)
        start = time.perf_counter()
        rows = run_arena(spec, jobs=args.jobs)
        results[f"{hero} vs 4 {opponents}"] = {
            **rows[0].to_dict(), "seconds": round(time.perf_counter() - start, 1)}
        print(f"{hero} vs {opponents}: {rows[0].to_dict()}", file=sys.stderr)
    report["five_player_matches"] = results
    report["games_per_match"] = args.games
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
