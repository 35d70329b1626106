"""Bots and the arena where they play whole games against each other."""

from coach.play.arena import (
    ArenaSpec,
    BotResult,
    IllegalMove,
    iter_decisions,
    play_game,
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
    "BotResult",
    "CoachBot",
    "IllegalMove",
    "N3Bot",
    "ProbabilityBot",
    "PureOddsCoachBot",
    "RandomBot",
    "iter_decisions",
    "load_bot",
    "play_game",
    "run_arena",
    "wilson_interval",
]
