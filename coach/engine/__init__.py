"""The coach's engine: the situation a player faces, what the bids say, and the decision."""

from coach.engine.beliefs import PURE_ODDS, BidReading, TableBeliefs
from coach.engine.decide import (
    Advice,
    CoachSettings,
    Option,
    Reason,
    advise,
    candidate_raises,
    weigh_raise,
)
from coach.engine.shifts import BidStep, CountShift, SeatShift, count_shift
from coach.engine.situation import (
    CALZA,
    DUDO,
    Action,
    ActionKind,
    InvalidActionError,
    Situation,
)
from coach.engine.table_play import COACH_TABLE_PLAY, TABLES_ANYWHERE, TablePlay

__all__ = [
    "CALZA",
    "COACH_TABLE_PLAY",
    "DUDO",
    "PURE_ODDS",
    "TABLES_ANYWHERE",
    "Action",
    "ActionKind",
    "Advice",
    "BidReading",
    "BidStep",
    "CoachSettings",
    "CountShift",
    "InvalidActionError",
    "Option",
    "Reason",
    "SeatShift",
    "Situation",
    "TableBeliefs",
    "TablePlay",
    "advise",
    "candidate_raises",
    "count_shift",
    "weigh_raise",
]
