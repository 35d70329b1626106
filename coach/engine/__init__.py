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
from coach.engine.situation import (
    CALZA,
    DUDO,
    Action,
    ActionKind,
    InvalidActionError,
    Situation,
)

__all__ = [
    "CALZA",
    "DUDO",
    "PURE_ODDS",
    "Action",
    "ActionKind",
    "Advice",
    "BidReading",
    "CoachSettings",
    "InvalidActionError",
    "Option",
    "Reason",
    "Situation",
    "TableBeliefs",
    "advise",
    "candidate_raises",
    "weigh_raise",
]
