"""The worst case of one piece of advice over everything the app and the CLIs accept.

Sweeps every player count (2 to 10), table sizes from the fewest dice to ten a player, my
hand from one die to all I may hold, normal and palifico rounds, an opening, a short and a
long round of bids (every opponent bidding twice and more), and a bid above the table. Each
point is measured cold (every cache cleared first), as a new spot is at the table: the
coach's advice plus the beliefs of every face (what the odds page's charts read).

    .venv/bin/python -m benchmarks.advice_bounds [--quick]

Prints JSON: the number of points, the median and worst time with the worst point, and the
process's peak resident memory. Budget (issue 15): the worst point under 100 ms on one core.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time

from coach import Situation, TableBeliefs, advise
from coach.engine.beliefs import clear_caches
from perudo_math import (
    FACES,
    MAX_PLAYERS,
    MAX_STARTING_DICE,
    MIN_PLAYERS,
    Bid,
    Hand,
    Rules,
)


def rounds_of_bids(players: int, table: int, length: int) -> tuple[tuple[int, Bid], ...]:
    """``length`` rising bids on fours and fives by the seats before mine, ending next to me."""
    bids = []
    quantity = 1
    for step in range(length):
        seat = players - 1 - (length - 1 - step) % (players - 1)
        quantity = min(quantity + 1, table)
        bids.append((seat, Bid(quantity, 4 + step % 2)))
    return tuple(bids)


def points(quick: bool):
    """Every spot of the sweep."""
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        most = players * MAX_STARTING_DICE
        tables = sorted({players, players * 2, players * 5, most // 2, most})
        if quick:
            tables = [players * 5, most]
        for table in tables:
            mine_most = min(MAX_STARTING_DICE, table - (players - 1))
            for hand_size in sorted({1, min(5, mine_most), mine_most}):
                others = table - hand_size
                if others < players - 1:
                    continue
                share, extra = divmod(others, players - 1)
                dice = (hand_size, *[share + (seat < extra) for seat in range(players - 1)])
                hand = Hand(tuple(FACES[(i * 5) % 6] for i in range(hand_size)))
                for palifico in (False, True):
                    for length in (0, players - 1, 4 * (players - 1)):
                        yield Situation(Rules(), dice, 0, hand,
                                        rounds_of_bids(players, table, length), palifico)
                    yield Situation(Rules(), dice, 0, hand,
                                    ((players - 1, Bid(table + 1, 3)),), palifico)


def measure(spot: Situation) -> float:
    clear_caches()
    start = time.perf_counter()
    advise(spot)
    beliefs = TableBeliefs(spot)
    for face in FACES:
        beliefs.tail(face)
    return time.perf_counter() - start


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.advice_bounds",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer table sizes")
    return parser


def main() -> None:
    args = build_parser().parse_args()
    timings = []
    worst = (0.0, None)
    for spot in points(args.quick):
        elapsed = measure(spot)
        timings.append(elapsed)
        if elapsed > worst[0]:
            worst = (elapsed, spot)
    spot = worst[1]
    print(json.dumps({
        "points": len(timings),
        "median_ms": round(statistics.median(timings) * 1000, 2),
        "worst_ms": round(worst[0] * 1000, 2),
        "worst_point": {"dice": list(spot.dice), "hand": len(spot.hand),
                        "bids": len(spot.bids), "palifico": spot.palifico},
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }))


if __name__ == "__main__":
    main()
