"""Exact rules and odds of Perudo (Dudo, Liar's Dice with pacos): the one authority on them.

One module per concept: ``bid`` and ``hand`` (what is said and held), ``rules`` (the table's
settings), ``limits`` (every bound), ``names`` (what a player's name may be), ``legality``
(which bids may be made), ``moves`` (who may call, and every refused move as a code),
``settle`` (the outcome of a dudo or a calza), ``game`` (:class:`GameState`, a whole game),
``situation`` (:class:`Situation`, one player's view of it at their turn), ``probability``
(the odds) and ``cli`` (``python -m perudo_math``). See docs/RULES.md.
Imports no other package of the project; pure Python and numpy, never Streamlit.

Every public entry point checks its arguments (``checks``): a wrong type raises
:class:`WrongTypeError` (a ``TypeError`` that is also a ``ValueError``), a wrong value a
``ValueError``, each naming the argument. A bid given as an argument may be its text
(``"5x4"``), a hand its text (``"1 2 5"``) or a list of faces.

The odds (``probability``, the one module that needs numpy) load on first use (PEP 562), so a
legality check never imports numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from perudo_math.bid import FACES, ORDINARY_FACES, PACO, Bid, face_name
from perudo_math.checks import WrongTypeError
from perudo_math.game import (
    CODE_PREFIX,
    DAMAGED_CODE,
    BidMade,
    CalzaCalled,
    DamagedGameCode,
    DudoCalled,
    Event,
    GameState,
    Player,
    RoundResult,
    RulesChanged,
    roll_for_first_opener,
)
from perudo_math.hand import Hand
from perudo_math.lazy import lazy_names
from perudo_math.legality import (
    Refusal,
    Verdict,
    check_bid,
    exceeds_table,
    is_legal,
    legal_quantities,
    legal_raises,
    most_useful_bids,
    smallest_raises,
    useful_range,
)
from perudo_math.limits import (
    MAX_MOVES,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_STARTING_DICE,
    MAX_TABLE_DICE,
    MAX_USEFUL_BIDS,
    MIN_PLAYERS,
    MIN_STARTING_DICE,
)
from perudo_math.moves import (
    CALL_KINDS,
    CallKind,
    IllegalMove,
    MistypedMove,
    MoveKind,
    MoveRefusal,
    RefusedMove,
    call_refusal,
    calza_refusal,
    dudo_refusal,
)
from perudo_math.names import (
    InvalidName,
    NameRefusal,
    RefusedName,
    clean_name,
    name_key,
    name_refusal,
    table_refusals,
)
from perudo_math.rules import SETTINGS, PalificoRule, RaiseRule, Rules, Setting, SettingKind
from perudo_math.settle import Settlement, settle_round
from perudo_math.situation import RoundBids, Situation

if TYPE_CHECKING:
    from perudo_math.probability import (
        Odds,
        count_distribution,
        count_survival,
        odds,
        odds_table,
    )

ODDS_NAMES = ("Odds", "count_distribution", "count_survival", "odds", "odds_table")
"""The names of :mod:`perudo_math.probability`, loaded on first use."""


__getattr__, __dir__ = lazy_names(__name__, globals(),
                                  dict.fromkeys(ODDS_NAMES, "perudo_math.probability"))


__all__ = [
    "CALL_KINDS",
    "CODE_PREFIX",
    "DAMAGED_CODE",
    "FACES",
    "MAX_MOVES",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_STARTING_DICE",
    "MAX_TABLE_DICE",
    "MAX_USEFUL_BIDS",
    "MIN_PLAYERS",
    "MIN_STARTING_DICE",
    "ORDINARY_FACES",
    "PACO",
    "SETTINGS",
    "Bid",
    "BidMade",
    "CallKind",
    "CalzaCalled",
    "DamagedGameCode",
    "DudoCalled",
    "Event",
    "GameState",
    "Hand",
    "IllegalMove",
    "InvalidName",
    "MistypedMove",
    "MoveKind",
    "MoveRefusal",
    "NameRefusal",
    "Odds",
    "PalificoRule",
    "Player",
    "RaiseRule",
    "Refusal",
    "RefusedMove",
    "RefusedName",
    "RoundBids",
    "RoundResult",
    "Rules",
    "RulesChanged",
    "Setting",
    "SettingKind",
    "Settlement",
    "Situation",
    "Verdict",
    "WrongTypeError",
    "call_refusal",
    "calza_refusal",
    "check_bid",
    "clean_name",
    "count_distribution",
    "count_survival",
    "dudo_refusal",
    "exceeds_table",
    "face_name",
    "is_legal",
    "legal_quantities",
    "legal_raises",
    "most_useful_bids",
    "name_key",
    "name_refusal",
    "odds",
    "odds_table",
    "roll_for_first_opener",
    "settle_round",
    "smallest_raises",
    "table_refusals",
    "useful_range",
]
