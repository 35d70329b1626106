"""Bots and the arena where they play whole games against each other."""

import importlib.util

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

# The league's opponents (coach/play/opponents.py, ``OPPONENTS``) join the built-in bots when
# present; here, once the arena and the bots are loaded, that module may import either.
if importlib.util.find_spec("coach.play.opponents") is not None:
    from coach.play.opponents import OPPONENTS

    for _name, _factory in OPPONENTS.items():
        BUILTIN_BOTS.setdefault(_name, _factory)

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
