"""The coach: decisions that read the bids (``engine``), bots and the arena (``play``), and the
heads-up solver (``solver``); ``python -m coach`` (``cli``). Imports ``perudo_math`` only;
never Streamlit.

The engine's names load with the package; the others load on first use (PEP 562), so advice
for a spot never imports the arena's process pools or the solver's scipy tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from coach.engine import (
    CALZA,
    COACH_TABLE_PLAY,
    DUDO,
    PURE_ODDS,
    TABLES_ANYWHERE,
    Action,
    ActionKind,
    Advice,
    BidReading,
    BidStep,
    CoachSettings,
    CountShift,
    InvalidActionError,
    Option,
    Reason,
    SeatShift,
    Situation,
    TableBeliefs,
    TablePlay,
    advise,
    candidate_raises,
    count_shift,
    weigh_raise,
)
from perudo_math.lazy import lazy_names

if TYPE_CHECKING:
    from coach.play import (
        BUILTIN_BOTS,
        ArenaSpec,
        Bot,
        BotFactory,
        BotFailure,
        BotResult,
        CoachBot,
        MatchResult,
        N3Bot,
        ProbabilityBot,
        PureOddsCoachBot,
        RandomBot,
        load_bot,
        play_game,
        play_match,
        run_arena,
        wilson_interval,
    )
    from coach.solver import (
        CoachTablesBot,
        MixedAdvice,
        advise_with_tables,
        heads_up_strategy,
        phrase_mixed_advice,
        table_strategy,
    )

LAZY: dict[str, str] = {
    **dict.fromkeys(("BUILTIN_BOTS", "ArenaSpec", "Bot", "BotFactory", "BotFailure", "BotResult",
                     "CoachBot", "MatchResult", "N3Bot", "ProbabilityBot", "PureOddsCoachBot",
                     "RandomBot", "load_bot", "play_game", "play_match", "run_arena",
                     "wilson_interval"), "coach.play"),
    **dict.fromkeys(("CoachTablesBot", "MixedAdvice", "advise_with_tables",
                     "heads_up_strategy", "phrase_mixed_advice", "table_strategy"),
                    "coach.solver"),
}
"""Each name loaded on first use, and the package that defines it."""


__getattr__, __dir__ = lazy_names(__name__, globals(), LAZY)

__all__ = [
    "BUILTIN_BOTS",
    "CALZA",
    "COACH_TABLE_PLAY",
    "DUDO",
    "PURE_ODDS",
    "TABLES_ANYWHERE",
    "Action",
    "ActionKind",
    "Advice",
    "ArenaSpec",
    "BidReading",
    "BidStep",
    "Bot",
    "BotFactory",
    "BotFailure",
    "BotResult",
    "CoachBot",
    "CoachSettings",
    "CoachTablesBot",
    "CountShift",
    "InvalidActionError",
    "MatchResult",
    "MixedAdvice",
    "N3Bot",
    "Option",
    "ProbabilityBot",
    "PureOddsCoachBot",
    "RandomBot",
    "Reason",
    "SeatShift",
    "Situation",
    "TableBeliefs",
    "TablePlay",
    "advise",
    "advise_with_tables",
    "candidate_raises",
    "count_shift",
    "heads_up_strategy",
    "load_bot",
    "phrase_mixed_advice",
    "play_game",
    "play_match",
    "run_arena",
    "table_strategy",
    "weigh_raise",
    "wilson_interval",
]
