"""The coach: decisions that read the bids, bots and the arena."""

from coach.arena import ArenaSpec, BotResult, IllegalMove, play_game, run_arena, wilson_interval
from coach.beliefs import PURE_ODDS, BidReading, TableBeliefs
from coach.bots import (
    BUILTIN_BOTS,
    Bot,
    BotFactory,
    CoachBot,
    N3Bot,
    ProbabilityBot,
    RandomBot,
    load_bot,
)
from coach.decide import Advice, CoachSettings, Option, Reason, advise, candidate_raises
from coach.situation import CALZA, DUDO, Action, Situation

__all__ = [
    "BUILTIN_BOTS",
    "CALZA",
    "DUDO",
    "PURE_ODDS",
    "Action",
    "Advice",
    "ArenaSpec",
    "BidReading",
    "Bot",
    "BotFactory",
    "BotResult",
    "CoachBot",
    "CoachSettings",
    "IllegalMove",
    "N3Bot",
    "Option",
    "ProbabilityBot",
    "RandomBot",
    "Reason",
    "Situation",
    "TableBeliefs",
    "advise",
    "candidate_raises",
    "load_bot",
    "play_game",
    "run_arena",
    "wilson_interval",
]
