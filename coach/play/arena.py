"""The arena: whole games between bots, reproducible by seed, tallied as they finish.

Game ``i`` of a match rolls its dice from ``random.Random(f"{seed}:{i}")`` whoever plays it,
so the same seed gives the same results whatever the number of worker processes. Results are
counted as games finish, with a bounded number of games in flight: memory stays flat however
many games a match asks for. A deadline or Ctrl+C ends a match early with the games already
played (:class:`MatchResult` says it was cut short).

The games are played in worker processes, even with one job, so that the parent stays in
control of the bots: it stops a worker still busy past the deadline, whatever its bot is
doing, and a bot's prints go to stderr, never into the result on stdout.

A bot that raises, answers with something that is not an :class:`Action` or breaks a rule
stops the match with a :class:`BotFailure` naming the bot, its seat and what it did; one
that ends its worker process stops it with a :class:`WorkerLost` naming it.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import pickle
import random
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, MutableSequence, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for
from multiprocessing.process import BaseProcess
from typing import Any, TextIO, TypeVar

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
    """A worker process ended without answering: ``bot`` (at ``seat``) ended it while it was
    asked to play, or, both ``None``, something else did (memory running out, say)."""

    def __init__(self, message: str, bot: str | None = None, seat: int | None = None) -> None:
        super().__init__(message)
        self.bot = bot
        self.seat = seat


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
        action = _asked(seat, bot, situation)
    except (Exception, SystemExit) as error:
        raise BotFailure(None, seat, _raised(error)) from error
    if not isinstance(action, Action):
        raise BotFailure(None, seat, f"returned {_quoted(_repr(action))} "
                                     f"({type(action).__name__}), not an Action")
    return action


Answer = TypeVar("Answer")

NOBODY = -1
_watch: MutableSequence[int] | None = None
"""In a worker process, what it is doing, shared with the parent: the index of the game it
plays and the seat of the bot it waits on (:data:`NOBODY` between bots)."""


def _asked(seat: int, ask: Callable[..., Answer], *given: object) -> Answer:
    """``ask(*given)`` for the bot at ``seat``; a worker's watch shows the seat until the bot
    returns (a bot that raises, or ends the process, is still shown)."""
    watch = _watch
    if watch is None:
        return ask(*given)
    watch[1] = seat
    answer = ask(*given)
    watch[1] = NOBODY
    return answer


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
        return _asked(seat, factory, rng)
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
            situation = state.situation(seat, hands[seat])
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
                _asked(seat, observe, showdown)
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
        assert action.bid is not None  # every raise has its bid
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
    stuck: tuple[str, ...] = ()
    """What each worker stopped past the deadline was waiting on, in words (not in the
    JSON: the command lines write it on stderr)."""

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
               deadline: float | None = None, workers: Workers | None = None) -> MatchResult:
    """Play the match, on ``jobs`` worker processes, until its last game, the ``deadline`` (a
    :func:`time.monotonic` time) or Ctrl+C; the same seed gives the same results whatever
    ``jobs`` is. ``workers`` (then ``jobs`` is theirs) carries the processes over from one
    match to the next. Raises :class:`BotFailure` when a bot fails and :class:`WorkerLost`
    when a worker ends (the workers are ended first).
    """
    with contextlib.redirect_stdout(sys.stderr):  # a bot module that prints as it loads
        _factories(spec)  # an unknown bot is refused before any game
    if workers is None:
        with Workers(jobs) as own:
            return _match(spec, own, progress, deadline)
    return _match(spec, workers, progress, deadline)


def _match(spec: ArenaSpec, workers: Workers, progress: Progress | None,
           deadline: float | None) -> MatchResult:
    stuck: list[str] = []
    stream = _play(spec, workers, deadline, stuck)
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
        stream.close()  # ends the workers, unless every game was played
    if stopped is None and played < spec.games:
        stopped = StopReason.TIME_LIMIT
    return MatchResult(spec, played, wins, stopped, tuple(dict.fromkeys(stuck)))


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


# --- worker processes -------------------------------------------------------------------

IN_FLIGHT_PER_JOB = 2
"""Chunks of games sent to each worker at a time: enough to keep it busy."""
CHUNK_SECONDS = 0.25
"""The work a chunk aims at, once the first games have shown how long a game takes."""
MAX_CHUNK = 1000
WAIT_SECONDS = 0.5
"""How often the parent looks at the clock while the workers play."""
DEADLINE_GRACE = 2.0
"""How long past the deadline the parent waits for the games being played to end; then it
stops the workers still playing, whatever their bots are doing, and drops their chunks."""


@dataclass(frozen=True, slots=True)
class _Chunk:
    """Games ``start`` to ``stop − 1`` of ``spec``'s match, to play until ``deadline``."""

    spec: ArenaSpec
    start: int
    stop: int
    deadline: float | None

    def bot_at(self, watch: Sequence[int]) -> tuple[str, int] | None:
        """The bot a worker playing this chunk waits on, by its watch, and its seat."""
        index, seat = watch[0], watch[1]
        if seat == NOBODY or not self.start <= index < self.stop:
            return None
        return seats_for_game(self.spec, index)[1][seat], seat


class _Worker:
    """One worker process: the pipe to it, its watch (see :data:`_watch`) and the chunks
    sent to it and not yet answered, in the order it plays them."""

    def __init__(self) -> None:
        context = multiprocessing.get_context()
        self.conn, their_end = context.Pipe()
        self.watch = context.RawArray("q", [0, NOBODY])
        self.process: BaseProcess = context.Process(
            target=_work, args=(their_end, self.watch), name="arena worker")
        self.chunks: deque[_Chunk] = deque()
        with _ctrl_c_held():
            self.process.start()
        their_end.close()

    def send(self, chunk: _Chunk) -> None:
        try:
            self.conn.send(chunk)
        except OSError:  # the worker has ended
            raise self.lost() from None
        self.chunks.append(chunk)

    def answer(self) -> tuple[int, int, float]:
        """The first chunk's (games played, hero's wins, seconds); raises what failed in it."""
        try:
            done, answer = self.conn.recv()
        except (EOFError, OSError):
            raise self.lost() from None
        self.chunks.popleft()
        if not done:
            raise answer
        return answer

    def lost(self) -> WorkerLost:
        self.process.join(timeout=5)
        ended = _exit_words(self.process.exitcode)
        found = self.chunks[0].bot_at(self.watch) if self.chunks else None
        if found is None:
            return WorkerLost(f"a worker process ended without answering ({ended}): memory "
                              "may have run out")
        bot, seat = found
        return WorkerLost(f"bot {bot!r} at seat {seat} ended its worker process ({ended})",
                          bot, seat)

    def waiting_on(self) -> str | None:
        """In words, the bot this worker has been waiting on since the deadline, if any."""
        found = self.chunks[0].bot_at(self.watch) if self.chunks else None
        if found is None:
            return None
        bot, seat = found
        return (f"bot {bot!r} at seat {seat} was still playing {DEADLINE_GRACE:g} s past the "
                "time limit: its game was dropped and its worker stopped")

    def stop(self, now: bool) -> None:
        """End the process: ``now``, killed whatever it is doing; else once its work is done."""
        if not now and self.process.is_alive():
            with contextlib.suppress(OSError):
                self.conn.send(None)
            self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()  # SIGKILL: a bot may catch or ignore SIGTERM
            self.process.join()
        self.conn.close()


class Workers:
    """Up to ``jobs`` worker processes, started as a match needs them and kept for the next
    match until :meth:`close` (or the end of a ``with`` block) ends them."""

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = max(1, jobs)
        self._team: list[_Worker] = []

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    def team(self, games: int) -> list[_Worker]:
        """The workers for a match of ``games`` games (no more than that), started now if
        need be."""
        wanted = min(self.jobs, games)
        if len(self._team) < wanted:
            for stream in (sys.stdout, sys.stderr):  # a child must not write it out again
                with contextlib.suppress(Exception):
                    stream.flush()
        while len(self._team) < wanted:
            self._team.append(_Worker())
        return self._team[:wanted]

    def close(self, now: bool = False) -> None:
        """End every worker: ``now``, killed whatever they are doing."""
        team, self._team = self._team, []
        for worker in team:
            worker.stop(now or bool(worker.chunks))


def _play(spec: ArenaSpec, workers: Workers, deadline: float | None,
          stuck: list[str]) -> Generator[tuple[int, int], None, None]:
    """(games, hero wins) for each chunk of games as a worker finishes it, until the last
    game or the deadline; each worker has at most :data:`IN_FLIGHT_PER_JOB` chunks.

    At the deadline each worker ends its chunk after the game it is playing, and its games
    count; one that has not answered :data:`DEADLINE_GRACE` seconds later is stopped, and what
    it waited on goes into ``stuck``. Closing the generator before the end (Ctrl+C, a
    failure) stops the workers at once.
    """
    team = workers.team(spec.games)
    sizes = _ChunkSizes(len(team))
    start = 0
    finished = False
    try:
        while True:
            for worker in team:
                while (start < spec.games and len(worker.chunks) < IN_FLIGHT_PER_JOB
                       and not _past(deadline)):
                    size = sizes.next(spec.games - start)
                    worker.send(_Chunk(spec, start, start + size, deadline))
                    start += size
            busy = [worker for worker in team if worker.chunks]
            if not busy:
                break
            timeout = WAIT_SECONDS
            if deadline is not None and _past(deadline):
                timeout = deadline + DEADLINE_GRACE - time.monotonic()
                if timeout <= 0:
                    stuck.extend(filter(None, (worker.waiting_on() for worker in busy)))
                    return
            for worker in _ready(busy, timeout):
                played, wins, seconds = worker.answer()
                sizes.record(played, seconds)
                yield played, wins
        finished = True
    finally:
        if not finished:
            workers.close(now=True)


def _ready(busy: list[_Worker], timeout: float) -> list[_Worker]:
    """The workers with an answer waiting, or ended, within ``timeout`` seconds."""
    by_handle: dict[Any, _Worker] = {}  # pipes and sentinels, as wait_for takes them
    for worker in busy:
        by_handle[worker.conn] = by_handle[worker.process.sentinel] = worker
    ready = wait_for(list(by_handle), timeout)
    return list(dict.fromkeys(by_handle[handle] for handle in ready))


def _exit_words(code: int | None) -> str:
    if code is None:
        return "still running"
    if code >= 0:
        return f"exit status {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """SIGINT held back while a worker starts, until it ignores it: Ctrl+C is the parent's."""
    hold = getattr(signal, "pthread_sigmask", None)
    if hold is None:  # Windows: no signal masks
        yield
        return
    before = hold(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        hold(signal.SIG_SETMASK, before)


def _work(conn: Connection, watch: MutableSequence[int]) -> None:
    """A worker process: plays each chunk ``conn`` brings and answers (True, its games, the
    hero's wins, the seconds taken) or (False, what failed), until ``conn`` brings None."""
    global _watch
    _settle_in()
    _watch = watch
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        watch[1] = NOBODY
        try:
            answer: tuple[bool, object] = (True, _play_chunk(chunk, watch))
        except BaseException as error:  # a bot's KeyboardInterrupt too: SIGINT is ignored
            answer = (False, _failure(chunk, watch, error))
        conn.send(answer)


def _settle_in() -> None:
    """Leave Ctrl+C to the parent, end when the parent is gone, and keep off its stdout: a
    bot's prints (``print`` or the file descriptor) go to stderr."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        os.dup2(2, 1)
    except OSError:  # no stderr at all
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, 1)
        os.close(nowhere)
    sys.stdout = sys.stderr
    threading.Thread(target=_end_with_parent, daemon=True).start()


def _play_chunk(chunk: _Chunk, watch: MutableSequence[int]) -> tuple[int, int, float]:
    """In a worker: the chunk's games until its deadline (the monotonic clock is the
    machine's, shared by every process); the games played, the hero's wins among them and
    the seconds taken."""
    began = time.perf_counter()
    spec = chunk.spec
    factories = _factories(spec)
    played = wins = 0
    for index in range(chunk.start, chunk.stop):
        if _past(chunk.deadline):
            break
        watch[0] = index
        wins += _hero_won(spec, factories, index)
        played += 1
    return played, wins, time.perf_counter() - began


def _failure(chunk: _Chunk, watch: Sequence[int], error: BaseException) -> BaseException:
    """What to tell the parent of ``error``: a failure naming the bot when one was asked to
    play, else the error itself if it crosses processes."""
    if isinstance(error, BotFailure):
        return error
    found = chunk.bot_at(watch)
    if found is not None:
        return BotFailure(found[0], found[1], _raised(error))
    try:
        pickle.dumps(error)
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {_quoted(str(error))}")
    return error


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


def _end_with_parent() -> None:
    """Exit as soon as the process that started this one ends (even by SIGKILL): its
    sentinel, whichever way processes start (fork, spawn, or a fork server's)."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()
        os._exit(1)


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
