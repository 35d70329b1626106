"""The league: the hero against each opponent at each table size, plus a few set matches.

Each match is an arena match (:func:`~coach.play.arena.play_match`): the hero in one seat,
rotating, the opponent in every other. The league keeps the rows of the matches played when
its deadline or Ctrl+C stops it, the interrupted match included with the games it got to.
A row says whether the hero's 95% lower bound reaches its fair share, one over the players.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from coach.play.arena import ArenaSpec, MatchResult, StopReason, WinTally, Workers, play_match
from coach.play.bots import load_bot
from coach.play.names import (
    DEFAULT_EXTRA,
    DEFAULT_GAMES,
    DEFAULT_HERO,
    DEFAULT_OPPONENTS,
    DEFAULT_SIZES,
    Match,
)
from perudo_math import Rules

LeagueProgress = Callable[[int, int, str], None]
"""``progress(games_done, games_in_all, current_match)``."""


@dataclass(frozen=True, slots=True)
class LeagueSpec:
    """The hero against every opponent at every size, then the ``extra`` matches; each
    match plays ``games`` games from ``seed``."""

    hero: str = DEFAULT_HERO
    opponents: tuple[str, ...] = DEFAULT_OPPONENTS
    sizes: tuple[int, ...] = DEFAULT_SIZES
    extra: tuple[Match, ...] = DEFAULT_EXTRA
    games: int = DEFAULT_GAMES
    seed: int = 0
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"play at least one game a match, not {self.games}")

    @property
    def matches(self) -> tuple[Match, ...]:
        """Every match once, in play order: opponent by opponent, size by size, then extra."""
        grid = (Match(self.hero, opponent, players)
                for opponent in self.opponents for players in self.sizes)
        return tuple(dict.fromkeys((*grid, *self.extra)))

    def bots(self) -> set[str]:
        return {name for match in self.matches for name in (match.hero, match.opponent)}


@dataclass(frozen=True, slots=True)
class MatchRow(WinTally):
    """A match's outcome for its hero, with the Wilson 95% interval and the fair share."""

    match: Match
    games: int
    wins: int
    stopped: StopReason | None = None

    @classmethod
    def of(cls, match: Match, result: MatchResult) -> MatchRow:
        return cls(match, result.played, result.hero_wins, result.stopped)


    @property
    def fair_share(self) -> float:
        return 1 / self.match.players

    @property
    def at_least_fair(self) -> bool:
        """Whether the 95% lower bound reaches the fair share."""
        return self.games > 0 and self.ci95[0] >= self.fair_share

    @property
    def verdict(self) -> str:
        """``above`` (lower bound at or over the fair share), ``below`` (upper bound under
        it) or ``unclear``."""
        if self.at_least_fair:
            return "above"
        return "below" if self.games and self.ci95[1] < self.fair_share else "unclear"

    def to_dict(self) -> dict[str, object]:
        low, high = self.ci95
        return {"hero": self.match.hero, "opponent": self.match.opponent,
                "players": self.match.players, "games": self.games, "wins": self.wins,
                "win_rate": round(self.win_rate, 6), "ci95": [round(low, 6), round(high, 6)],
                "fair_share": round(self.fair_share, 6), "at_least_fair": self.at_least_fair,
                "stopped": None if self.stopped is None else self.stopped.value}


@dataclass(frozen=True, slots=True)
class LeagueResult:
    """The rows of the matches played, in order; ``stopped`` says why the league ended
    early (``None``: every match was played to its last game)."""

    spec: LeagueSpec
    rows: tuple[MatchRow, ...]
    stopped: StopReason | None = None
    stuck: tuple[str, ...] = ()
    """What the workers stopped past the deadline waited on (see :class:`MatchResult`)."""

    def to_dict(self) -> dict[str, object]:
        return {"hero": self.spec.hero, "games_per_match": self.spec.games,
                "seed": self.spec.seed, "matches_planned": len(self.spec.matches),
                "stopped": None if self.stopped is None else self.stopped.value,
                "matches": [row.to_dict() for row in self.rows]}


def run_league(spec: LeagueSpec, jobs: int = 1, progress: LeagueProgress | None = None,
               deadline: float | None = None) -> LeagueResult:
    """Play the league's matches in turn until the last, the ``deadline`` (a
    :func:`time.monotonic` time) or Ctrl+C, on the same ``jobs`` worker processes from match
    to match. Unknown bots are refused before any game; a bot that fails raises
    :class:`~coach.play.arena.BotFailure`, one that ends its worker
    :class:`~coach.play.arena.WorkerLost`."""
    with contextlib.redirect_stdout(sys.stderr):  # a bot module that prints as it loads
        for name in sorted(spec.bots()):
            load_bot(name)
    matches = spec.matches
    total = len(matches) * spec.games
    rows: list[MatchRow] = []
    with Workers(jobs) as workers:
        for number, match in enumerate(matches):
            arena = ArenaSpec(match.hero, match.opponent, match.players, spec.games,
                              spec.seed, spec.rules)
            label = f"match {number + 1}/{len(matches)}: {match}"
            result = play_match(arena, progress=_progress_in(
                progress, number * spec.games, total, label), deadline=deadline,
                workers=workers)
            rows.append(MatchRow.of(match, result))
            if result.stopped is not None:
                return LeagueResult(spec, tuple(rows), result.stopped, result.stuck)
    return LeagueResult(spec, tuple(rows))


def _progress_in(progress: LeagueProgress | None, offset: int, total: int,
                 label: str) -> Callable[[int, int], None] | None:
    """A match's progress as the league's: its games come after ``offset`` others."""
    if progress is None:
        return None
    return lambda done, _games: progress(offset + done, total, label)


MARKDOWN_VERDICT = {"above": "at or above fair share", "below": "below fair share",
                    "unclear": "not separated from fair share"}


def league_markdown(result: LeagueResult) -> str:
    """The league as a markdown table: match, games, win rate, 95% interval, fair share,
    verdict (from the interval)."""
    lines = ["| match | players | games | win rate | 95 % interval | fair share | verdict |",
             "|---|---|---|---|---|---|---|"]
    for row in result.rows:
        low, high = row.ci95
        games = f"{row.games:,}" + ("" if row.stopped is None else f" ({row.stopped})")
        lines.append(f"| {row.match} | {row.match.players} | {games} | {row.win_rate:.3f} | "
                     f"[{low:.3f}, {high:.3f}] | {row.fair_share:.3f} | "
                     f"{MARKDOWN_VERDICT[row.verdict]} |")
    if result.stopped is not None:
        lines.append("")
        lines.append(f"Stopped early ({result.stopped}): {len(result.rows)} of "
                     f"{len(result.spec.matches)} matches.")
    return "\n".join(lines) + "\n"

