"""How fast the league opponents decide, and how long a game of readers takes.

Plays whole games of six players with five dice each, one opponent type filling the table,
every round's showdown shown to every bot (``observe``), and times each decision; then times
five-player games of readers with and without showdowns.

    .venv/bin/python -m benchmarks.opponents_speed [--games 20]

Prints JSON: per opponent, the decisions timed and their median, 95th percentile and worst
time in milliseconds; the mean seconds of a five-reader game. Budget (issue 10): a median
decision of at most 2 ms at six players × five dice, a five-reader game well under 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from coach.engine.showdown import Showdown
from coach.engine.situation import Action, Situation
from coach.play.arena import play_game
from coach.play.opponents import OPPONENTS, OpponentFactory, ReaderBot
from perudo_math import Rules


class Timed:
    """A bot whose decisions are timed into ``times``; it sees no showdown."""

    def __init__(self, bot: Callable[[Situation], Action], times: list[float]) -> None:
        self.bot, self.times = bot, times

    def __call__(self, situation: Situation) -> Action:
        start = time.perf_counter()
        action = self.bot(situation)
        self.times.append(time.perf_counter() - start)
        return action


class TimedObserving(Timed):
    """A timed bot that the arena shows each showdown, as it shows the bot inside."""

    def observe(self, showdown: Showdown) -> None:
        if hasattr(self.bot, "observe"):
            self.bot.observe(showdown)


def timed_game(factories: list[OpponentFactory], seed: int, observe: bool = True,
               times: list[float] | None = None) -> int:
    """One arena game; each decision's seconds appended to ``times``. Returns the winner."""
    kept: list[float] = [] if times is None else times
    wrapper = TimedObserving if observe else Timed
    timed = [lambda rng, factory=factory: wrapper(factory(rng), kept) for factory in factories]
    return play_game(timed, Rules(), random.Random(seed))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.opponents_speed",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    return parser


def main() -> None:
    games = build_parser().parse_args().games
    report: dict[str, object] = {}
    for name, factory in OPPONENTS.items():
        times: list[float] = []
        for seed in range(games):
            timed_game([factory] * 6, seed, times=times)
        ordered = sorted(times)
        report[name] = {
            "decisions": len(times),
            "median_ms": round(1000 * statistics.median(ordered), 3),
            "p95_ms": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 3),
            "worst_ms": round(1000 * ordered[-1], 3),
        }
    for observe in (True, False):
        start = time.perf_counter()
        for seed in range(games):
            timed_game([ReaderBot] * 5, seed, observe=observe)
        key = "five_reader_game_s" + ("" if observe else "_without_showdowns")
        report[key] = round((time.perf_counter() - start) / games, 4)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
