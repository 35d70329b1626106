"""Where a bot loses its dice: by cause, per table size, against the other seats.

``python -m benchmarks.losses --hero coach --opponents planner --players 5 --games 100``
plays the arena's games (game ``i`` of a seed is the arena's game ``i``: the same seats, dice
and bots' streams) and counts, for the hero and for the opponents' seats together, every die
lost or won back, by its cause (its own dudo wrong, its own calza wrong, its bid called and
false) and by how many players were still in. Rates are per 100 rounds a seat played at that
size, so the hero and one opponent seat compare directly (fair share: 100 / players). Written
for issue 33 (the coach at five players); it is slow against the planners (about a game a
second).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import dataclass, field

from coach.play.arena import ArenaSpec, iter_decisions, seats_for_game, wilson_interval
from coach.play.bots import load_bot
from perudo_math import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameState,
    RoundResult,
    arguments,
    roll_for_first_opener,
)

PROG = "python -m benchmarks.losses"
MAX_GAMES = 1_000_000

CAUSES = ("bid_false", "dudo_wrong", "calza_wrong", "calza_won")
"""A die lost because the seat's bid was called and false, its dudo or its calza was wrong;
a die won back by a right calza."""


@dataclass(slots=True)
class LossTally:
    """Per (``"hero"`` or ``"others"``, players still in): rounds played and dice by cause."""

    games: int = 0
    hero_wins: int = 0
    counts: Counter[tuple[str, int, str]] = field(default_factory=Counter)

    def note_round(self, result: RoundResult, dice: tuple[int, ...], hero: int) -> None:
        """One lifted round: who lost or won a die and why, for every seat still in."""
        players = sum(1 for count in dice if count)
        for seat, count in enumerate(dice):
            if not count:
                continue
            side = "hero" if seat == hero else "others"
            self.counts[side, players, "rounds"] += 1
            if result.loser == seat:
                cause = "bid_false" if seat != result.caller else f"{result.kind}_wrong"
                self.counts[side, players, cause] += 1
            if result.gainer == seat:
                self.counts[side, players, "calza_won"] += 1
            if result.caller == seat:
                self.counts[side, players, f"calls_{result.kind}"] += 1

    def net_lost(self, side: str, players: int) -> int:
        """Dice lost less dice won back by ``side`` at tables of ``players``."""
        lost = sum(self.counts[side, players, cause] for cause in CAUSES[:3])
        return lost - self.counts[side, players, "calza_won"]


def tally(spec: ArenaSpec) -> LossTally:
    """Play ``spec``'s games as the arena would (its seats, dice and bots' streams, through
    :func:`~coach.play.arena.iter_decisions`), counting every round's losses."""
    factories = {name: load_bot(name) for name in {spec.hero, spec.opponents}}
    found = LossTally()
    for index in range(spec.games):
        hero, names = seats_for_game(spec, index)
        rng = random.Random(f"{spec.seed}:{index}")
        bots = [factories[name](random.Random(rng.getrandbits(64))) for name in names]
        state = GameState.new([f"seat {seat}" for seat in range(spec.players)], spec.rules,
                              first_opener=roll_for_first_opener(rng, spec.players))
        decisions = iter_decisions(bots, state, rng)
        dice_at_start: list[tuple[int, ...]] = []  # each round's dice, seat by seat
        while True:
            try:
                decision = next(decisions)
            except StopIteration as finished:
                final: GameState = finished.value
                break
            if not decision.situation.bids:  # a round opens
                dice_at_start.append(tuple(len(hand) for hand in decision.hands))
        for result, dice in zip(final.results, dice_at_start, strict=True):
            found.note_round(result, dice, hero)
        found.games += 1
        found.hero_wins += final.winner == hero
    return found


def report(spec: ArenaSpec, found: LossTally) -> str:
    """The tally as a table: per table size, each side's rates per 100 rounds."""
    low, high = wilson_interval(found.hero_wins, found.games)
    lines = [f"{spec.hero} vs {spec.players - 1} x {spec.opponents}, seed {spec.seed}: "
             f"won {found.hero_wins}/{found.games} = {found.hero_wins / found.games:.3f} "
             f"[{low:.3f}, {high:.3f}]",
             "players side   rounds  net/100  bid_false dudo_wrong calza_wrong calza_won "
             "calls_dudo calls_calza (per 100 rounds)"]
    for players in range(spec.players, 1, -1):
        for side in ("hero", "others"):
            rounds = found.counts[side, players, "rounds"]
            if not rounds:
                continue
            rates = [100 * found.counts[side, players, key] / rounds
                     for key in (*CAUSES, "calls_dudo", "calls_calza")]
            lines.append(f"{players:7d} {side:6s} {rounds:7d} "
                         f"{100 * found.net_lost(side, players) / rounds:8.1f} "
                         + " ".join(f"{rate:9.1f}" for rate in rates))
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = arguments.OneLineParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--hero", default="coach")
    parser.add_argument("--opponents", default="planner")
    parser.add_argument("--players", type=arguments.whole_number(MIN_PLAYERS, MAX_PLAYERS),
                        default=5, help=f"{MIN_PLAYERS} to {MAX_PLAYERS} (default 5)")
    parser.add_argument("--games", type=arguments.whole_number(1, MAX_GAMES), default=100,
                        help=f"1 to {MAX_GAMES:,} (default 100)")
    parser.add_argument("--seed", type=arguments.whole_number(0, 2**63 - 1), default=0,
                        help="0 to 2**63 - 1 (default 0)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        spec = ArenaSpec(args.hero, args.opponents, args.players, args.games, args.seed)
        found = tally(spec)
    except ValueError as error:  # a bot's name that leads nowhere, a bot that fails
        return arguments.report_error(PROG, error)
    print(report(spec, found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
