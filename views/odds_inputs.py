"""The Odds & advice page's inputs between visits: what it remembers and where it starts.

The common query (my dice, the dice on the table, a bid) should take few taps, so:

* the table and the players come back from the last use: the session keeps them across
  page switches, the link (``?table=…&players=…``) across a reload or a reopened link;
* until the table is set by hand, it holds every player's starting dice (four players at
  five dice: 20), so a new game needs only the players;
* there is no bid until one is tapped (an opening): a face, then a quantity in a row
  centred on the table's expected count of that face, where a bid is worth asking about.

State keys: ``odds_dice``, ``odds_players``, ``odds_face`` and ``odds_qty`` (the widgets),
``odds_dice_set`` (set by hand).
"""

from __future__ import annotations

import streamlit as st

from perudo_math import MAX_PLAYERS, MAX_TABLE_DICE, MIN_PLAYERS, PACO
from views import url_state

TABLE_PARAM = "table"
PLAYERS_PARAM = "players"
DEFAULT_PLAYERS = 4

DICE_KEY, PLAYERS_KEY = "odds_dice", "odds_players"
FACE_KEY, QUANTITY_KEY = "odds_face", "odds_qty"
_DICE_SET = "odds_dice_set"


def expected_quantity(dice: int, face: int | None, palifico: bool) -> int:
    """How many ``face`` a table of ``dice`` dice holds on average, from the dice alone
    (a third of them, or a sixth for pacos and in a palifico round), rounded half up and at
    least 1: where the quantities are centred (``None``, no face yet: as for a face not
    pacos)."""
    share = 6 if face == PACO or palifico else 3
    return max(1, (2 * dice + share) // (2 * share))


def recall_table(starting_dice: int) -> None:
    """Before the table's widgets: on a fresh session the table and the players from the
    link, then the table at every player's starting dice unless it was set by hand."""
    state = st.session_state
    if PLAYERS_KEY not in state:
        players = url_state.read(PLAYERS_PARAM, url_state.whole_number(MIN_PLAYERS, MAX_PLAYERS))
        state[PLAYERS_KEY] = DEFAULT_PLAYERS if players is None else players
        table = url_state.read(TABLE_PARAM, url_state.whole_number(1, MAX_TABLE_DICE))
        if table is not None:
            state[DICE_KEY] = table
            state[_DICE_SET] = True
    if not state.get(_DICE_SET):
        state[DICE_KEY] = min(MAX_TABLE_DICE, int(state[PLAYERS_KEY]) * starting_dice)


def table_set_by_hand() -> None:
    """The table's ``on_change``: from now on it stays as set."""
    st.session_state[_DICE_SET] = True


def clear_bid() -> None:
    """The "I open" pill's ``on_change``: no bid on the table, neither face nor quantity."""
    st.session_state[FACE_KEY] = None
    st.session_state[QUANTITY_KEY] = None


def remember_in_link(dice: int, players: int) -> None:
    """Write the players, and the table when set by hand, into the link."""
    table = str(dice) if st.session_state.get(_DICE_SET) else None
    url_state.set_page_params({TABLE_PARAM: table, PLAYERS_PARAM: str(players)})


__all__ = [
    "DEFAULT_PLAYERS",
    "PLAYERS_PARAM",
    "TABLE_PARAM",
    "clear_bid",
    "expected_quantity",
    "recall_table",
    "remember_in_link",
    "table_set_by_hand",
]
