"""The names and defaults the command line offers before any bot is needed: the built-in
bots, the styles of a game against the bots, and a league's pairings.

It loads no bot, no engine and no process pool, so ``perudo-coach advise`` builds its whole
parser (the arena's and the league's help included) without loading the arena. The modules
that play keep these names too (:data:`coach.play.bots.BUILTIN_BOTS` has one bot for each
of :data:`BOT_NAMES`, in that order: tests/test_startup.py checks it).
"""

from __future__ import annotations

from dataclasses import dataclass

from perudo_math.limits import MAX_PLAYERS, MIN_PLAYERS

BOT_NAMES = ("random", "n3", "probability", "coach", "coach-tables", "coach-no-tables",
             "coach-pure-odds", "coach-low-opening", "reader", "liar", "tight", "mix",
             "planner", "adaptive")
"""The built-in bots' names (:data:`coach.play.bots.BUILTIN_BOTS`)."""

STYLES: dict[str, str] = {
    "odds": "probability",
    "reader": "reader",
    "liar": "liar",
    "tight": "tight",
    "mix": "mix",
}
"""The styles a learner may play against, each a league bot (:data:`coach.play.BUILTIN_BOTS`):
plain odds, a Bayesian reader of the bids, a liar, a tight player, a mix of styles."""
MAX_OPPONENTS = 5

DEFAULT_HERO = "coach"
DEFAULT_OPPONENTS = ("reader", "liar", "tight", "mix", "planner", "adaptive", "probability",
                     "n3")
DEFAULT_SIZES = (2, 3, 5, 6)
DEFAULT_GAMES = 2000


@dataclass(frozen=True, slots=True)
class Match:
    """One pairing: ``hero`` in one seat, ``opponent`` in the ``players − 1`` others."""

    hero: str
    opponent: str
    players: int

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {self.players}")

    def __str__(self) -> str:
        others = self.players - 1
        return f"{self.hero} vs {others} {self.opponent}" if others > 1 else \
            f"{self.hero} vs {self.opponent}"


DEFAULT_EXTRA = (Match("coach", "coach", 5), Match("coach-pure-odds", "liar", 5))
"""A coach among coaches (near its fair share), and the pure-odds coach against liars: the
rate the coach's own rate against liars is held to."""
