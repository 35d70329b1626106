"""The Odds & advice page's inputs between visits: what it remembers and where it starts.

The common query (my dice, the dice on the table, a bid) should take few taps, so:

* the table and the players come back from the last use: the session keeps them across
  page switches, the link (``?table=…&players=…``) across a reload or a reopened link;
* until the table is set by hand, it holds every player's starting dice (four players at
  five dice: 20), so a new game needs only the players;
* there is no bid until one is tapped (an opening): a face, then a quantity in a row
  centred on the table's expected count of that face, where a bid is worth asking about.

What the session keeps is :class:`OddsState`.
"""

from __future__ import annotations

from perudo_math import MAX_PLAYERS, MAX_TABLE_DICE, MIN_PLAYERS, PACO
from views import url_state
from views.session import Field, PageState

TABLE_PARAM = "table"
PLAYERS_PARAM = "players"
DEFAULT_PLAYERS = 4



class OddsState(PageState):
    """The Odds & advice page's session state: its widgets' values, and whether the table
    was set by hand."""

    dice: Field[int | None] = Field("odds_dice", None)
    """The dice on the table (the stepper's)."""
    players: Field[int | None] = Field("odds_players", None)
    """The players at the table (the stepper's); ``None`` on a fresh session."""
    dice_set = Field("odds_dice_set", False)
    """Whether the table was set by hand (it then stays as set)."""
    face: Field[int | None] = Field("odds_face", None)
    """The bid's face (``None``: no bid)."""
    quantity: Field[int | None] = Field("odds_qty", None)
    """The bid's quantity (``None``: no bid)."""
    opening: Field[str | None] = Field("odds_open", None)
    """The "I open" pill, lit (its one option) whenever no bid is entered."""


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
    state = OddsState()
    players = state.players  # the stepper's, never None once set
    if players is None:
        linked = url_state.read(PLAYERS_PARAM, url_state.whole_number(MIN_PLAYERS, MAX_PLAYERS))
        players = state.players = DEFAULT_PLAYERS if linked is None else linked
        table = url_state.read(TABLE_PARAM, url_state.whole_number(1, MAX_TABLE_DICE))
        if table is not None:
            state.dice = table
            state.dice_set = True
    if not state.dice_set:
        state.dice = min(MAX_TABLE_DICE, int(players) * starting_dice)


def table_set_by_hand() -> None:
    """The table's ``on_change``: from now on it stays as set."""
    OddsState().dice_set = True


def clear_bid() -> None:
    """The "I open" pill's ``on_change``: no bid on the table, neither face nor quantity."""
    state = OddsState()
    state.face = None
    state.quantity = None


def remember_in_link(dice: int, players: int) -> None:
    """Write the players, and the table when set by hand, into the link."""
    table = str(dice) if OddsState().dice_set else None
    url_state.set_page_params({TABLE_PARAM: table, PLAYERS_PARAM: str(players)})


__all__ = [
    "DEFAULT_PLAYERS",
    "PLAYERS_PARAM",
    "TABLE_PARAM",
    "OddsState",
    "clear_bid",
    "expected_quantity",
    "recall_table",
    "remember_in_link",
    "table_set_by_hand",
]
