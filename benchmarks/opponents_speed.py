"""How fast the league opponents decide, and how long a game of readers takes.

Plays whole games of six players with five dice each, one opponent type filling the table,
every round's showdown shown to every bot (``observe``), and times each decision; then times
five-player games of readers with and without showdowns.

    .venv/bin/python benchmarks/opponents_speed.py [--games 20]

Prints JSON: per opponent, the decisions timed and their median, 95th percentile and worst
time in milliseconds; the mean seconds of a five-reader game. Budget (issue 10): a median
decision of at most 2 ms at six players × five dice, a five-reader game well under 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coach.engine.showdown import Showdown
from coach.engine.situation import Situation
from coach.play.arena import apply_action
from coach.play.opponents import OPPONENTS, OpponentFactory, ReaderBot
from perudo_math import GameState, Hand, Rules, roll_for_first_opener


def timed_game(factories: list[OpponentFactory], seed: int, observe: bool = True,
               times: list[float] | None = None) -> int:
    """One game; each decision's seconds appended to ``times``. Returns the winner."""
    rng = random.Random(seed)
    players = [factory(random.Random(rng.getrandbits(64))) for factory in factories]
    rules = Rules()
    state = GameState.new([f"seat {seat}" for seat in range(len(players))], rules,
                          first_opener=roll_for_first_opener(rng, len(players)))
    while not state.is_over:
        dice = tuple(player.dice for player in state.players)
        hands = tuple(Hand(rng.randint(1, 6) for _ in range(count)) for count in dice)
        while True:
            seat = state.turn
            spot = Situation(rules, dice, seat, hands[seat], state.bids, state.palifico)
            start = time.perf_counter()
            action = players[seat](spot)
            if times is not None:
                times.append(time.perf_counter() - start)
            if action.kind == "raise":
                state = apply_action(state, action, hands)
                continue
            last = state.last_bid
            count = sum(hand.count(last.face, palifico=state.palifico) for hand in hands)
            showdown = Showdown(state.bids, state.palifico, seat, action.kind.value, count,
                                hands)
            state = apply_action(state, action, hands)
            for player in players if observe else ():
                if hasattr(player, "observe"):
                    player.observe(showdown)
            break
    assert state.winner is not None
    return state.winner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    games = parser.parse_args().games
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
