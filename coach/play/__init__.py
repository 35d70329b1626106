"""Bots and the arena where they play whole games against each other.

The names below load on first use (PEP 562): importing a module of this package, such as
:mod:`coach.play.names`, loads neither the bots nor the arena's process pools."""

from __future__ import annotations

from typing import TYPE_CHECKING

from perudo_math.lazy import lazy_names

if TYPE_CHECKING:
    from coach.play.arena import (
        ArenaSpec,
        BotFailure,
        BotResult,
        MatchResult,
        StopReason,
        iter_decisions,
        play_game,
        play_match,
        run_arena,
        wilson_interval,
    )
    from coach.play.bots import (
        BUILTIN_BOTS,
        Bot,
        BotFactory,
        CoachBot,
        N3Bot,
        ProbabilityBot,
        PureOddsCoachBot,
        RandomBot,
        load_bot,
    )

LAZY: dict[str, str] = {
    **dict.fromkeys(("ArenaSpec", "BotFailure", "BotResult", "MatchResult", "StopReason",
                     "iter_decisions", "play_game", "play_match", "run_arena",
                     "wilson_interval"), "coach.play.arena"),
    **dict.fromkeys(("BUILTIN_BOTS", "Bot", "BotFactory", "CoachBot", "N3Bot",
                     "ProbabilityBot", "PureOddsCoachBot", "RandomBot", "load_bot"),
                    "coach.play.bots"),
}
"""Each name loaded on first use, and the module that defines it."""


__getattr__, __dir__ = lazy_names(__name__, globals(), LAZY)

__all__ = [
    "BUILTIN_BOTS",
    "ArenaSpec",
    "Bot",
    "BotFactory",
    "BotFailure",
    "BotResult",
    "CoachBot",
    "MatchResult",
    "N3Bot",
    "ProbabilityBot",
    "PureOddsCoachBot",
    "RandomBot",
    "StopReason",
    "iter_decisions",
    "load_bot",
    "play_game",
    "play_match",
    "run_arena",
    "wilson_interval",
]
