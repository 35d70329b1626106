"""The arena: whole games between bots, reproducible by seed, tallied as they finish.

Game ``i`` of a match rolls its dice from ``random.Random(f"{seed}:{i}")`` whoever plays it,
so the same seed gives the same results whatever the number of worker processes. Results are
counted as games finish, with a bounded number of games in flight: memory stays flat however
many games a match asks for. A deadline or Ctrl+C ends a match early with the games already
played (:class:`MatchResult` says it was cut short).

A bot that raises, answers with something that is not an :class:`Action` or breaks a rule
stops the match with a :class:`BotFailure` naming the bot, its seat and what it did.
"""

from __future__ import annotations

import math
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TextIO

from coach.engine.showdown import Showdown
from coach.engine.situation import Action, Situation
from coach.play.bots import Bot, BotFactory, load_bot
from perudo_math import MAX_PLAYERS, MIN_PLAYERS, GameState, Hand, Rules, roll_for_first_opener
from perudo_math.moves import IllegalMove

Progress = Callable[[int, int], None]
"""``progress(games_done, games_in_all)``, heard as games finish."""


# --- a bot that fails -------------------------------------------------------------------


class BotFailure(ValueError):
    """A bot raised, answered with something that is not an :class:`Action`, or made a move
    the rules refuse. ``bot`` is its name (``None`` where only the seat is known), ``seat``
    its seat, ``what`` what it did, in words."""

    def __init__(self, bot: str | None, seat: int, what: str) -> None:
        self.bot = bot
        self.seat = seat
        self.what = what
        who = "the bot" if bot is None else f"bot {bot!r}"
        super().__init__(f"{who} at seat {seat} {what}")

    def __reduce__(self) -> tuple[type[BotFailure], tuple[str | None, int, str]]:
        return (BotFailure, (self.bot, self.seat, self.what))  # crosses worker processes

    def named(self, bot: str) -> BotFailure:
        """The same failure, naming the bot."""
        return BotFailure(bot, self.seat, self.what)


class WorkerLost(RuntimeError):
    """A worker process ended without answering (a bot ended it, or memory ran out)."""


MAX_SHOWN = 200
"""The longest text of a failing bot's error or answer quoted in a failure."""


def _quoted(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"


def _raised(error: BaseException, where: str = "") -> str:
    try:
        message = _quoted(str(error))
    except Exception:  # an error whose own str fails
        message = ""
    return f"raised {type(error).__name__}{where}{': ' + message if message else ''}"


def _decide(bot: Bot, situation: Situation, seat: int) -> Action:
    """``bot``'s move in ``situation``, or a :class:`BotFailure` saying what it did instead."""
    try:
        action = bot(situation)
    except (Exception, SystemExit) as error:
        raise BotFailure(None, seat, _raised(error)) from error
    if not isinstance(action, Action):
        raise BotFailure(None, seat, f"returned {_quoted(_repr(action))} "
                                     f"({type(action).__name__}), not an Action")
    return action


def _repr(value: object) -> str:
    try:
        return repr(value)
    except Exception:  # a hostile answer's own repr may fail
        return f"<{type(value).__name__}>"


# --- one game ---------------------------------------------------------------------------


def play_game(bots: Sequence[BotFactory], rules: Rules, rng: random.Random,
              names: Sequence[str] | None = None) -> int:
    """Play one game between ``bots`` in seat order; return the winner's seat.

    A failing bot raises :class:`BotFailure`, naming it by ``names[seat]`` when given.
    """
    try:
        players = [_build(bot, seat, random.Random(rng.getrandbits(64)))
                   for seat, bot in enumerate(bots)]
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
    except BotFailure as failure:
        if names is None or failure.bot is not None:
            raise
        raise failure.named(names[failure.seat]) from failure.__cause__


def _build(factory: BotFactory, seat: int, rng: random.Random) -> Bot:
    try:
        return factory(rng)
    except (Exception, SystemExit) as error:
        raise BotFailure(None, seat, _raised(error, " when built")) from error


def iter_decisions(players: Sequence[Bot], state: GameState,
                   rng: random.Random) -> Generator[Decision, None, GameState]:
    """Play ``state`` to the end of the game, rolling each round's dice from ``rng``.

    Yields every decision before the bot in that seat makes it, with every seat's hand;
    returns the final state. After each round, every bot with an ``observe`` method sees
    the :class:`~coach.engine.showdown.Showdown`. A bot that fails raises
    :class:`BotFailure` (naming its seat).
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
            action = _decide(players[seat], situation, seat)
            try:
                state, count = apply_action(state, action, hands)
            except IllegalMove as refused:  # the game's own refusal, in words
                raise BotFailure(None, seat, f"made an illegal move, {action}: {refused}"
                                 ) from None
            if action.kind != "raise":
                show_showdown(players, Showdown(situation.bids, situation.palifico, seat,
                                        action.kind.value, count, hands))
                break
    return state


def show_showdown(players: Sequence[Bot | None], showdown: Showdown) -> None:
    """Each bot object with an ``observe`` method sees ``showdown`` once."""
    seen: set[int] = set()
    for seat, player in enumerate(players):
        if id(player) in seen:
            continue
        seen.add(id(player))
        try:
            observe = getattr(player, "observe", None)
            if observe is not None:
                observe(showdown)
        except (Exception, SystemExit) as error:
            raise BotFailure(None, seat, _raised(error, " in observe")) from error


@dataclass(frozen=True, slots=True)
class Decision:
    """A moment in a game: the player to move's situation, and every seat's hand."""

    situation: Situation
    hands: tuple[Hand, ...]


def apply_action(state: GameState, action: Action,
                 hands: Sequence[Hand]) -> tuple[GameState, int]:
    """The game after the player to move takes ``action``, and for a dudo or calza the count
    of dice the lifted cups show for the last bid (0 after a raise). Raises
    :class:`perudo_math.IllegalMove` when the game refuses the move."""
    if action.kind == "raise":
        return state.bid(action.bid), 0
    last = state.last_bid
    count = 0 if last is None else sum(hand.count(last.face, palifico=state.palifico)
                                       for hand in hands)
    return (state.dudo(count) if action.kind == "dudo" else state.calza(count)), count


# --- a match ----------------------------------------------------------------------------


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's interval for a rate of ``successes`` in ``trials`` (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


class WinTally:
    """``wins`` out of ``games``, as a rate with Wilson's 95% interval."""

    __slots__ = ()
    wins: int
    games: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson's 95% interval for the win rate."""
        return wilson_interval(self.wins, self.games)


@dataclass(frozen=True, slots=True)
class BotResult(WinTally):
    """Wins of one bot (or of all the seats that one bot name filled)."""

    bot: str
    wins: int
    games: int
    seats: int

    def to_dict(self) -> dict[str, object]:
        low, high = self.ci95
        return {"bot": self.bot, "seats": self.seats, "wins": self.wins,
                "win_rate": round(self.win_rate, 6), "ci95": [round(low, 6), round(high, 6)]}


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


class StopReason(StrEnum):
    """Why a match ended before its last game."""

    TIME_LIMIT = "time-limit"
    INTERRUPTED = "interrupted"


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The games of a match played so far and the hero's wins among them; ``stopped`` says
    why the match ended early (``None``: every game was played)."""

    spec: ArenaSpec
    played: int
    hero_wins: int
    stopped: StopReason | None = None

    @property
    def results(self) -> list[BotResult]:
        """The hero's row, then the opponents' (every other seat together)."""
        spec = self.spec
        return [BotResult(spec.hero, self.hero_wins, self.played, 1),
                BotResult(spec.opponents, self.played - self.hero_wins, self.played,
                          spec.players - 1)]

    def to_dict(self) -> dict[str, object]:
        """``games`` counts the games played, which the rates rest on; ``games_requested``
        the games asked for; ``stopped`` is ``null``, ``"time-limit"`` or ``"interrupted"``."""
        return {"games": self.played, "games_requested": self.spec.games,
                "players": self.spec.players, "seed": self.spec.seed,
                "stopped": None if self.stopped is None else self.stopped.value,
                "results": [row.to_dict() for row in self.results]}


def seats_for_game(spec: ArenaSpec, index: int) -> tuple[int, list[str]]:
    """The hero's seat in game ``index`` (rotating) and the bot name in each seat."""
    hero_seat = index % spec.players
    names = [spec.opponents] * spec.players
    names[hero_seat] = spec.hero
    return hero_seat, names


def _factories(spec: ArenaSpec) -> dict[str, BotFactory]:
    return {name: load_bot(name) for name in {spec.hero, spec.opponents}}


def _hero_won(spec: ArenaSpec, factories: dict[str, BotFactory], index: int) -> bool:
    """Play game ``index`` of the match: whether the hero won it."""
    hero_seat, names = seats_for_game(spec, index)
    rng = random.Random(f"{spec.seed}:{index}")
    winner = play_game([factories[name] for name in names], spec.rules, rng, names)
    return winner == hero_seat


def play_match(spec: ArenaSpec, jobs: int = 1, progress: Progress | None = None,
               deadline: float | None = None) -> MatchResult:
    """Play the match, on ``jobs`` processes, until its last game, the ``deadline`` (a
    :func:`time.monotonic` time) or Ctrl+C; the same seed gives the same results whatever
    ``jobs`` is. Raises :class:`BotFailure` when a bot fails (the workers are ended first).
    """
    _factories(spec)  # an unknown bot is refused before any game
    stream = _serial(spec, deadline) if jobs <= 1 else _parallel(spec, jobs, deadline)
    played = wins = 0
    stopped = None
    try:
        for games, hero_wins in stream:
            played += games
            wins += hero_wins
            if progress:
                progress(played, spec.games)
    except KeyboardInterrupt:
        stopped = StopReason.INTERRUPTED
    finally:
        stream.close()  # ends the workers, whatever happened
    if stopped is None and played < spec.games:
        stopped = StopReason.TIME_LIMIT
    return MatchResult(spec, played, wins, stopped)


def run_arena(spec: ArenaSpec, jobs: int = 1,
              progress: Progress | None = None) -> list[BotResult]:
    """Play the whole match: the hero's row, then the opponents'. Ctrl+C still raises
    ``KeyboardInterrupt`` here (:func:`play_match` keeps the partial result instead)."""
    result = play_match(spec, jobs, progress)
    if result.stopped is StopReason.INTERRUPTED:
        raise KeyboardInterrupt
    return result.results


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def _serial(spec: ArenaSpec, deadline: float | None) -> Iterator[tuple[int, int]]:
    """(1, hero won) for each game in turn, in this process, until the deadline."""
    factories = _factories(spec)
    for index in range(spec.games):
        if _past(deadline):
            return
        yield 1, int(_hero_won(spec, factories, index))


# --- worker processes -------------------------------------------------------------------

IN_FLIGHT_PER_JOB = 2
"""Chunks of games submitted per worker at a time: enough to keep each one busy."""
CHUNK_SECONDS = 0.25
"""The work a chunk aims at, once the first games have shown how long a game takes."""
MAX_CHUNK = 1000
WAIT_SECONDS = 0.5
"""How often the parent looks at the clock while the workers play."""
DEADLINE_GRACE = 5.0
"""How long past the deadline the parent waits for the games being played to end."""


def _parallel(spec: ArenaSpec, jobs: int, deadline: float | None
              ) -> Generator[tuple[int, int], None, None]:
    """(games, hero wins) for each chunk of games as a worker finishes it, until the last
    game or the deadline; at most ``IN_FLIGHT_PER_JOB × jobs`` chunks wait at once.

    At the deadline each worker ends its chunk after the game it is playing, and its games
    count; one that has not answered :data:`DEADLINE_GRACE` seconds later is dropped.
    Closing the generator before the end (Ctrl+C, a failure) ends the workers at once.
    """
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker)
    sizes = _ChunkSizes(jobs)
    pending: set[Future[tuple[int, int, float]]] = set()
    start = 0
    finished = False
    try:
        while True:
            while (start < spec.games and len(pending) < IN_FLIGHT_PER_JOB * jobs
                   and not _past(deadline)):
                size = sizes.next(spec.games - start)
                pending.add(pool.submit(_play_chunk, spec, start, start + size, deadline))
                start += size
            if not pending:
                break
            timeout = WAIT_SECONDS
            if deadline is not None and _past(deadline):
                timeout = deadline + DEADLINE_GRACE - time.monotonic()
                if timeout <= 0:
                    return
            done, pending = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
            for future in done:
                played, wins, seconds = _chunk_outcome(future)
                sizes.record(played, seconds)
                yield played, wins
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            end_workers(pool)


def _chunk_outcome(future: Future[tuple[int, int, float]]) -> tuple[int, int, float]:
    try:
        return future.result()
    except BrokenProcessPool:
        raise WorkerLost("a worker process ended without answering (a bot may have ended "
                         "it, or memory ran out): try --jobs 1") from None


def _play_chunk(spec: ArenaSpec, start: int, stop: int,
                deadline: float | None) -> tuple[int, int, float]:
    """In a worker: games ``start`` to ``stop − 1`` until the deadline (the monotonic clock
    is the machine's, shared by every process); the games played, the hero's wins among
    them and the seconds taken."""
    began = time.perf_counter()
    factories = _factories(spec)
    played = wins = 0
    for index in range(start, stop):
        if _past(deadline):
            break
        wins += _hero_won(spec, factories, index)
        played += 1
    return played, wins, time.perf_counter() - began


class _ChunkSizes:
    """Chunks of about :data:`CHUNK_SECONDS` of play: one game until the first chunk is back,
    then as many as the games so far say fit, fewer near the end so the workers end
    together. Results do not depend on the sizes (each game has its own seed)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.games = 0
        self.seconds = 0.0

    def record(self, games: int, seconds: float) -> None:
        self.games += games
        self.seconds += seconds

    def next(self, remaining: int) -> int:
        if self.games == 0:
            size = 1
        else:
            per_game = max(self.seconds / self.games, 1e-6)
            size = int(CHUNK_SECONDS / per_game)
        balanced = remaining // (IN_FLIGHT_PER_JOB * self.jobs)
        return max(1, min(size, MAX_CHUNK, balanced, remaining))


def _start_worker() -> None:
    """Each worker leaves Ctrl+C to the parent, and ends when the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


def _end_with(parent: int) -> None:
    """Exit as soon as this process's parent changes: the parent died (even by SIGKILL) and
    the worker was handed to another process."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def end_workers(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: queued work is dropped and running workers are terminated."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()


# --- progress ---------------------------------------------------------------------------


class ProgressBar:
    """A one-line progress bar on stderr, redrawn at most every 0.2 s, with a label."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.start = time.monotonic()
        self.last_draw = 0.0
        self.open_line = False
        self.drawn = 0

    def __call__(self, done: int, total: int, label: str = "") -> None:
        now = time.monotonic()
        if done < total and now - self.last_draw < 0.2:
            return
        self.last_draw = now
        filled = int(self.width * done / total) if total else self.width
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        suffix = f"  {label}" if label else ""
        line = f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} games, " \
               f"{rate:.0f}/s{suffix}"
        self.stream.write("\r" + line.ljust(self.drawn))  # blanks a longer line drawn before
        self.drawn = len(line)
        self.open_line = done < total
        if not self.open_line:
            self.stream.write("\n")
        self.stream.flush()

    def finish(self) -> None:
        """End the bar's line when the work stopped before the end."""
        if self.open_line:
            self.stream.write("\n")
            self.stream.flush()
            self.open_line = False
