"""The arena: whole games between bots, reproducible by seed."""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from coach.engine.situation import Action, Situation
from coach.play.bots import Bot, BotFactory, load_bot
from perudo_math import MAX_PLAYERS, MIN_PLAYERS, GameState, Hand, Rules, roll_for_first_opener


class IllegalMove(ValueError):
    """A bot chose a move the rules do not allow."""


def play_game(bots: Sequence[BotFactory], rules: Rules, rng: random.Random) -> int:
    """Play one game between ``bots`` in seat order; return the winner's seat."""
    players = [bot(random.Random(rng.getrandbits(64))) for bot in bots]
    state = GameState.new([f"seat {seat}" for seat in range(len(bots))], rules,
                          first_opener=roll_for_first_opener(rng, len(bots)))
    decisions = iter_decisions(players, state, rng)
    while True:
        try:
            next(decisions)
        except StopIteration as finished:
            winner = finished.value.winner
            assert winner is not None
            return winner


def iter_decisions(players: Sequence[Bot], state: GameState,
                   rng: random.Random) -> Generator[Decision, None, GameState]:
    """Play ``state`` to the end of the game, rolling each round's dice from ``rng``.

    Yields every decision before the bot in that seat makes it, with every seat's hand;
    returns the final state.
    """
    while not state.is_over:
        dice = tuple(player.dice for player in state.players)
        hands = tuple(Hand(rng.randint(1, 6) for _ in range(count)) for count in dice)
        while True:
            seat = state.turn
            assert seat is not None
            situation = Situation(state.rules, dice, seat, hands[seat], state.bids,
                                  state.palifico)
            yield Decision(situation, hands)
            action: Action = players[seat](situation)
            if not isinstance(action, Action) or not situation.is_legal(action):
                raise IllegalMove(f"the bot at seat {seat} chose an illegal move: {action!r}")
            state = apply_action(state, action, hands)
            if action.kind != "raise":
                break
    return state


@dataclass(frozen=True, slots=True)
class Decision:
    """A moment in a game: the player to move's situation, and every seat's hand."""

    situation: Situation
    hands: tuple[Hand, ...]


def apply_action(state: GameState, action: Action, hands: Sequence[Hand]) -> GameState:
    """The game after the player to move takes ``action``; a dudo or calza lifts the cups."""
    if action.kind == "raise":
        return state.bid(action.bid)
    last = state.last_bid
    assert last is not None
    count = sum(hand.count(last.face, palifico=state.palifico) for hand in hands)
    return state.dudo(count) if action.kind == "dudo" else state.calza(count)


@dataclass(frozen=True, slots=True)
class BotResult:
    """Wins of one bot (or of all the seats that one bot name filled)."""

    bot: str
    wins: int
    games: int
    seats: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson's 95% interval for the win rate."""
        return wilson_interval(self.wins, self.games)

    def to_dict(self) -> dict[str, object]:
        low, high = self.ci95
        return {"bot": self.bot, "seats": self.seats, "wins": self.wins,
                "win_rate": round(self.win_rate, 6), "ci95": [round(low, 6), round(high, 6)]}


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


@dataclass(frozen=True, slots=True)
class ArenaSpec:
    """A match: the hero against ``players − 1`` copies of the opponent."""

    hero: str
    opponents: str
    players: int = 5
    games: int = 1000
    seed: int = 0
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {self.players}")
        if self.games < 1:
            raise ValueError(f"play at least one game, not {self.games}")


def seats_for_game(spec: ArenaSpec, index: int) -> tuple[int, list[str]]:
    """The hero's seat in game ``index`` (rotating) and the bot name in each seat."""
    hero_seat = index % spec.players
    names = [spec.opponents] * spec.players
    names[hero_seat] = spec.hero
    return hero_seat, names


def _play_indices(spec: ArenaSpec, indices: range) -> int:
    hero_wins = 0
    factories = {name: load_bot(name) for name in {spec.hero, spec.opponents}}
    for index in indices:
        hero_seat, names = seats_for_game(spec, index)
        rng = random.Random(f"{spec.seed}:{index}")
        winner = play_game([factories[name] for name in names], spec.rules, rng)
        hero_wins += winner == hero_seat
    return hero_wins


def run_arena(spec: ArenaSpec, jobs: int = 1,
              progress: Callable[[int, int], None] | None = None) -> list[BotResult]:
    """Play the match; the same seed gives the same results whatever ``jobs`` is."""
    for name in {spec.hero, spec.opponents}:
        load_bot(name)
    chunk = max(1, min(50, spec.games // (4 * max(1, jobs)) or 1))
    chunks = [range(start, min(start + chunk, spec.games))
              for start in range(0, spec.games, chunk)]
    hero_wins = 0
    done = 0
    if jobs <= 1:
        for indices in chunks:
            hero_wins += _play_indices(spec, indices)
            done += len(indices)
            if progress:
                progress(done, spec.games)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [(indices, pool.submit(_play_indices, spec, indices))
                       for indices in chunks]
            for indices, future in futures:
                hero_wins += future.result()
                done += len(indices)
                if progress:
                    progress(done, spec.games)
    return [
        BotResult(spec.hero, hero_wins, spec.games, 1),
        BotResult(spec.opponents, spec.games - hero_wins, spec.games, spec.players - 1),
    ]


class ProgressBar:
    """A one-line progress bar on stderr, redrawn at most every 0.2 s."""

    def __init__(self, stream=sys.stderr, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.start = time.monotonic()
        self.last_draw = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.last_draw < 0.2:
            return
        self.last_draw = now
        filled = int(self.width * done / total)
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} "
                          f"games, {rate:.0f}/s")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()
