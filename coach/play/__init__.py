"""Bots and the arena where they play whole games against each other."""

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
