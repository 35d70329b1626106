"""The heads-up solver's acceptance figures: solve times, lookup latency, and whether the
shipped tables beat the plain coach heads-up.

    .venv/bin/python -m benchmarks.solver_acceptance [--rounds 2000] [--games 1000]
                                                     [--seed 0] [--skip-solve]

Prints one JSON object:

* ``solve``: 1v1 (normal round) solved by CFR+ to exploitability 1e-4 and by the LP, and
  2v1 by CFR+ to 1e-4, wall-clock and CPU seconds on one core;
* ``tables``: the figures the build recorded for each shipped table;
* ``lookup``: the first load of each table and the median / 95th percentile of a lookup;
* ``rounds``: single rounds from each table's dice and round type, the coach with tables
  (:class:`~coach.solver.tables.CoachTablesBot`) against the coach without
  (:class:`~coach.play.bots.CoachBot`), each opening half of the rounds; a "win" is a round in
  which the tables bot keeps its dice. Coach against coach scores exactly one half in
  expectation under this seat rotation, so a rate above 0.5 is the tables' gain;
* ``games``: whole heads-up games from each starting dice count, to the last die, under the
  default rules (palifico on the drop to one die, no calza heads-up), seats and first
  opener rotated.

Rates come with Wilson 95% intervals. Nothing here asserts: the figures are measured.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from coach.engine.situation import Action, Situation
from coach.play.arena import wilson_interval
from coach.play.bots import Bot, CoachBot
from coach.solver.cfr import solve_cfr, solve_lp
from coach.solver.games import PerudoRound, build_tree
from coach.solver.tables import (
    CoachTablesBot,
    available_tables,
    heads_up_strategy,
    load_table,
)
from perudo_math import GameState, Hand, Player, Rules

ROUND_SPOTS = [((1, 1), False), ((1, 1), True), ((1, 2), False), ((1, 2), True),
               ((2, 1), False), ((2, 2), False)]
"""(opener's dice, responder's dice), palifico: the rounds that occur heads-up under the
default rules (a palifico round is opened by the player who has just dropped to one die)."""
GAME_STARTS = [(1, 1), (1, 2), (2, 1), (2, 2)]
HERO, VILLAIN = "tables", "coach"


# Solve times.


def timed(task: Callable[[], object]) -> tuple[object, float, float]:
    """Run ``task``; its result, wall-clock seconds and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = task()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def solve_figures() -> dict[str, object]:
    figures = {}
    for name, dice, method in (("1v1-normal cfr+", (1, 1), "cfr"),
                               ("1v1-normal lp", (1, 1), "lp"),
                               ("2v1-normal cfr+", (2, 1), "cfr")):
        tree = build_tree(PerudoRound(dice))
        solver = (lambda t=tree: solve_lp(t)) if method == "lp" else \
            (lambda t=tree: solve_cfr(t, target=1e-4))
        solution, wall, cpu = timed(solver)
        figures[name] = {"value": round(solution.value, 6),
                         "exploitability": float(f"{solution.exploitability:.3g}"),
                         "iterations": solution.iterations, "wall_seconds": round(wall, 2),
                         "cpu_seconds": round(cpu, 2)}
    return figures


# Lookups.


def lookup_figures(samples: int, rng: random.Random) -> dict[str, object]:
    load_table.cache_clear()
    loads = {}
    for key in available_tables():
        _, wall, _ = timed(lambda k=key: load_table(k))
        loads[key] = round(wall * 1000, 2)
    spots = [_random_spot(rng) for _ in range(samples)]
    times = []
    for spot in spots:
        start = time.perf_counter()
        heads_up_strategy(spot)
        times.append(time.perf_counter() - start)
    times.sort()
    return {"first_load_ms": loads,
            "median_us": round(statistics.median(times) * 1e6, 1),
            "p95_us": round(times[int(0.95 * len(times))] * 1e6, 1)}


def _random_spot(rng: random.Random) -> Situation:
    """A heads-up spot a few table moves into a round."""
    dice, palifico = rng.choice(ROUND_SPOTS)
    hands = [Hand(rng.randint(1, 6) for _ in range(n)) for n in dice]
    bids: list = []
    for _ in range(rng.randint(0, 3)):
        mover = len(bids) % 2
        mixed = heads_up_strategy(Situation(Rules(), dice, mover, hands[mover], tuple(bids),
                                            palifico))
        action = mixed.sample(rng) if mixed else None
        if action is None or action.kind != "raise":
            break
        bids.append((mover, action.bid))
    mover = len(bids) % 2
    return Situation(Rules(), dice, mover, hands[mover], tuple(bids), palifico)


# Matches.


def heads_up_state(dice: tuple[int, int], opener: int, palifico: bool) -> GameState:
    """A two-player game where seat 0 holds ``dice[0]`` and seat 1 ``dice[1]``, ``opener``
    to open a round that is palifico or not (the arena always starts at the starting dice)."""
    rules = Rules(starting_dice=max(dice))
    state = GameState.new(["seat 0", "seat 1"], rules, first_opener=opener)
    players = tuple(Player(f"seat {seat}", count) for seat, count in enumerate(dice))
    had = frozenset({opener}) if palifico else frozenset()
    return replace(state, players=players, palifico=palifico, had_palifico=had)


def play_round(state: GameState, bots: Sequence[Bot], rng: random.Random) -> GameState:
    """Deal, let the bots bid until a call, and settle it."""
    dice = tuple(player.dice for player in state.players)
    hands = {seat: Hand(rng.randint(1, 6) for _ in range(n)) for seat, n in enumerate(dice) if n}
    while True:
        seat = state.turn
        assert seat is not None
        situation = state.situation(seat, hands[seat])
        action: Action = bots[seat](situation)
        if not situation.is_legal(action):
            raise ValueError(f"seat {seat} chose an illegal move {action}")
        if action.kind == "raise":
            state = state.bid(action.bid, seat)
            continue
        last = state.last_bid
        count = sum(hand.count(last.face, palifico=state.palifico) for hand in hands.values())
        return state.dudo(count, seat) if action.kind == "dudo" else state.calza(count, seat)


def seat_bots(hero_seat: int, rng: random.Random) -> list[Bot]:
    """The tables bot at ``hero_seat``, the plain coach at the other seat."""
    hero = CoachTablesBot(random.Random(rng.getrandbits(64)))
    villain = CoachBot(random.Random(rng.getrandbits(64)))
    return [hero, villain] if hero_seat == 0 else [villain, hero]


def round_match(dice: tuple[int, int], palifico: bool, rounds: int, seed: int) -> dict:
    """Single rounds: seat 0 opens with ``dice[0]``; the tables bot sits there half the time."""
    wins = {0: 0, 1: 0}
    for index in range(rounds):
        rng = random.Random(f"{seed}:round:{dice}:{palifico}:{index}")
        hero_seat = index % 2
        state = play_round(heads_up_state(dice, 0, palifico), seat_bots(hero_seat, rng), rng)
        wins[hero_seat] += state.results[-1].loser != hero_seat
    return _rates(wins, rounds, ("as_opener", "as_responder"))


def game_match(dice: tuple[int, int], games: int, seed: int) -> dict:
    """Whole games from ``dice``; the tables bot's seat and the first opener rotate."""
    wins = {0: 0, 1: 0}
    for index in range(games):
        rng = random.Random(f"{seed}:game:{dice}:{index}")
        hero_seat, opener = index % 2, (index // 2) % 2
        bots = seat_bots(hero_seat, rng)
        state = heads_up_state(dice, opener, palifico=False)
        while not state.is_over:
            state = play_round(state, bots, rng)
        wins[hero_seat] += state.winner == hero_seat
    return _rates(wins, games, (f"seat_0_with_{dice[0]}", f"seat_1_with_{dice[1]}"))


def _rates(wins: dict[int, int], total: int, labels: tuple[str, str]) -> dict:
    """The tables bot's overall win rate with its interval, and per seat."""
    overall = wins[0] + wins[1]
    low, high = wilson_interval(overall, total)
    report: dict[str, object] = {"played": total, "tables_wins": overall,
                                 "win_rate": round(overall / total, 4),
                                 "ci95": [round(low, 4), round(high, 4)]}
    for seat, label in enumerate(labels):
        played = (total + 1 - seat) // 2
        low, high = wilson_interval(wins[seat], played)
        report[label] = {"win_rate": round(wins[seat] / played, 4),
                         "ci95": [round(low, 4), round(high, 4)]}
    return report


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.solver_acceptance",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per spot")
    parser.add_argument("--games", type=int, default=1000, help="games per starting dice")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-solve", action="store_true", help="leave out the solve times")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    report: dict[str, object] = {}
    if not args.skip_solve:
        report["solve"] = solve_figures()
    report["tables"] = {key: {name: meta[name] for name in
                              ("value", "exploitability", "shipped_exploitability",
                               "iterations", "solve_seconds", "nodes")}
                        for key, meta in available_tables().items()}
    report["lookup"] = lookup_figures(2000, random.Random(args.seed))
    report["rounds"] = {f"{dice[0]}v{dice[1]}-{'palifico' if palifico else 'normal'}":
                        round_match(dice, palifico, args.rounds, args.seed)
                        for dice, palifico in ROUND_SPOTS}
    report["games"] = {f"from {dice[0]}v{dice[1]}": game_match(dice, args.games, args.seed)
                       for dice in GAME_STARTS}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
