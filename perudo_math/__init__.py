"""Exact rules and odds of Perudo (Dudo, Liar's Dice with pacos)."""

from perudo_math.bid import FACES, ORDINARY_FACES, PACO, Bid, face_name
from perudo_math.game import (
    CODE_PREFIX,
    DAMAGED_CODE,
    BidMade,
    CalzaCalled,
    DudoCalled,
    Event,
    GameState,
    Player,
    RoundResult,
    roll_for_first_opener,
)
from perudo_math.hand import Hand
from perudo_math.legality import (
    Refusal,
    Verdict,
    check_bid,
    exceeds_table,
    is_legal,
    legal_quantities,
    legal_raises,
    smallest_raises,
)
from perudo_math.probability import (
    Odds,
    count_distribution,
    count_survival,
    match_probability,
    odds,
    odds_table,
)
from perudo_math.rules import MAX_PLAYERS, MIN_PLAYERS, PalificoRule, RaiseRule, Rules

__all__ = [
    "CODE_PREFIX",
    "DAMAGED_CODE",
    "FACES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ORDINARY_FACES",
    "PACO",
    "Bid",
    "BidMade",
    "CalzaCalled",
    "DudoCalled",
    "Event",
    "GameState",
    "Hand",
    "Odds",
    "PalificoRule",
    "Player",
    "RaiseRule",
    "Refusal",
    "RoundResult",
    "Rules",
    "Verdict",
    "check_bid",
    "count_distribution",
    "count_survival",
    "exceeds_table",
    "face_name",
    "is_legal",
    "legal_quantities",
    "legal_raises",
    "match_probability",
    "odds",
    "odds_table",
    "roll_for_first_opener",
    "smallest_raises",
]
