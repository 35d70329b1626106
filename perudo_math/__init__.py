"""Exact rules and odds of Perudo (Dudo, Liar's Dice with pacos), the project's foundation.

Bids (``bid``), hands (``hand``), the table's rule settings (``rules``) and bounds
(``limits``), which bids are legal and why not (``legality``), exact odds (``probability``),
and the game as an immutable state machine (``game``); ``python -m perudo_math`` (``cli``).
The one authority for rule decisions (see docs/RULES.md). Imports no other package of the
project; pure Python and numpy, never Streamlit.
"""

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
from perudo_math.limits import (
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_STARTING_DICE,
    MAX_TABLE_DICE,
    MIN_PLAYERS,
    MIN_STARTING_DICE,
)
from perudo_math.probability import (
    Odds,
    count_distribution,
    count_survival,
    odds,
    odds_table,
)
from perudo_math.rules import SETTINGS, PalificoRule, RaiseRule, Rules, Setting, SettingKind

__all__ = [
    "CODE_PREFIX",
    "DAMAGED_CODE",
    "FACES",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MAX_STARTING_DICE",
    "MAX_TABLE_DICE",
    "MIN_PLAYERS",
    "MIN_STARTING_DICE",
    "ORDINARY_FACES",
    "PACO",
    "SETTINGS",
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
    "Setting",
    "SettingKind",
    "Verdict",
    "check_bid",
    "count_distribution",
    "count_survival",
    "exceeds_table",
    "face_name",
    "is_legal",
    "legal_quantities",
    "legal_raises",
    "odds",
    "odds_table",
    "roll_for_first_opener",
    "smallest_raises",
]
