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
    PureOddsCoachBot,
    RandomBot,
    load_bot,
)
from coach.decide import Advice, CoachSettings, Option, Reason, advise, candidate_raises
from coach.drills import DRILL_KINDS, generate_drill, grade_drill
from coach.rating import Rating, next_level, rate_answer
from coach.scenarios import THEMES, Grade, Scenario, generate, grade
from coach.situation import CALZA, DUDO, Action, Situation
from coach.strategy_tables import (
    CoachTablesBot,
    MixedAdvice,
    heads_up_strategy,
    phrase_mixed_advice,
)

__all__ = [
    "BUILTIN_BOTS",
    "CALZA",
    "DRILL_KINDS",
    "DUDO",
    "PURE_ODDS",
    "THEMES",
    "Action",
    "Advice",
    "ArenaSpec",
    "BidReading",
    "Bot",
    "BotFactory",
    "BotResult",
    "CoachBot",
    "CoachSettings",
    "CoachTablesBot",
    "Grade",
    "IllegalMove",
    "MixedAdvice",
    "N3Bot",
    "Option",
    "ProbabilityBot",
    "PureOddsCoachBot",
    "RandomBot",
    "Rating",
    "Reason",
    "Scenario",
    "Situation",
    "TableBeliefs",
    "advise",
    "candidate_raises",
    "generate",
    "generate_drill",
    "grade",
    "grade_drill",
    "heads_up_strategy",
    "load_bot",
    "next_level",
    "phrase_mixed_advice",
    "play_game",
    "rate_answer",
    "run_arena",
    "wilson_interval",
]
