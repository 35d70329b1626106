"""The Odds & advice page's inputs between visits: what it remembers and where it starts.

The common query (my dice, the dice on the table, a bid) should take few taps, so:

* the table and the players come back from the last use: the session keeps them across
  page switches, the link (``?table=…&players=…``) across a reload or a reopened link;
* until the table is set by hand, it holds every player's starting dice (four players at
  five dice: 20), so a new game needs only the players;
* there is no bid until one is tapped (an opening): a face, then a quantity in a row
  centred on the table's expected count of that face, where a bid is worth asking about.

What the session keeps is :class:`OddsState`.

The page is seven fragments (:data:`PARTS`): my dice, their keys, the table's dice and its
players side by side, the bid's round and face, its quantity, the advice. A tap reruns its
own part and the advice (:func:`rerun_with_advice`), not the rest: a die's tap redraws the
line of my dice, not the keys unless they look otherwise (:func:`hand_tapped`), nor the
steppers or the bid; a stepper's neither the keypad nor the bid. The bid's quantities are
centred on the table's expected count when a face (or the round) is picked, and stay so
until the next: a change of the table leaves the row as it is (re-sending it cost a
stepper's tap about 40 ms, ``make bench-speed``), and no quantity moves under the finger
that taps it.
"""

from __future__ import annotations

from typing import NamedTuple

from perudo_math import MAX_PLAYERS, MAX_TABLE_DICE, MIN_PLAYERS, PACO
from views import parts, url_state
from views.inputs import keys_look
from views.my_dice import KEYPAD
from views.session import Field, PageState

TABLE_PARAM = "table"
PLAYERS_PARAM = "players"
DEFAULT_PLAYERS = 4

HAND_PART = "odds_hand_part"
"""My dice, as entered, on one line (and a new round's notice above them)."""
KEYPAD_PART = "odds_keypad_part"
"""The keys my dice are entered with."""
DICE_PART = "odds_dice_part"
PLAYERS_PART = "odds_players_part"
BID_PART = "odds_bid_part"
QUANTITY_PART = "odds_quantity_part"
ADVICE_PART = "odds_advice_part"
PARTS = (HAND_PART, KEYPAD_PART, DICE_PART, PLAYERS_PART, BID_PART, QUANTITY_PART, ADVICE_PART)
"""The page's fragments' keys (``st.fragment(key=...)``), top to bottom."""


class OddsState(PageState):
    """The Odds & advice page's session state: its widgets' values, whether the table was
    set by hand, where the quantities are centred and how the bid's parts were last drawn,
    and whether the odds in detail are open."""

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
    round: Field[str | None] = Field("odds_round", None)
    """The round's kind, ``"normal"`` or ``"palifico"`` (the round selector's)."""
    centre: Field[int | None] = Field("odds_qty_centre", None)
    """Where the bid's quantities are centred (set when a face or the round is picked)."""
    drawn_entered: Field[bool | None] = Field("odds_drawn_entered", None)
    """Whether the bid's part was last drawn with a bid entered (the pill unlit)."""
    drawn_centre: Field[int | None] = Field("odds_drawn_centre", None)
    """Where the quantities' part last drew them centred."""
    drawn_keys: Field[tuple[bool, bool] | None] = Field("odds_drawn_keys", None)
    """How the keys of my dice were last drawn (``views.inputs.keys_look``)."""
    details: Field[bool] = Field("odds_details", False)
    """Whether "The chances in detail" is open (the expander's)."""
    details_kept: Field[bool] = Field("odds_details_kept", False)
    """The same, kept while the page is not shown (a widget's state is not)."""


class BidLook(NamedTuple):
    """What the bid's part shows beyond the control tapped: whether a bid is entered (the
    "I open" pill is lit when none is) and where its quantities are centred."""

    entered: bool
    centre: int


def bid_look(state: OddsState) -> BidLook:
    """How the bid's parts look for the session's bid: the quantities centred where they
    were last centred, or (the first time, which sets the centre) on the table's expected
    count of the face."""
    entered = state.face is not None and state.quantity is not None
    if state.centre is None:
        recentre(state)
    return BidLook(entered, int(state.centre or 1))


def recentre(state: OddsState) -> None:
    """Centre the bid's quantities on the table's expected count of the bid's face."""
    dice = int(state.dice) if state.dice is not None else 1
    state.centre = expected_quantity(dice, state.face, state.round == "palifico")


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
    """The table was set by hand: from now on it stays as set."""
    OddsState().dice_set = True


def clear_bid() -> None:
    """No bid on the table, neither face nor quantity."""
    state = OddsState()
    state.face = None
    state.quantity = None


def rerun_with_advice(part: str) -> None:
    """A tap's callback, once its change is made: rerun ``part`` and the advice."""
    parts.rerun_parts(part, ADVICE_PART)


def hand_tapped() -> None:
    """A die's tap (added, removed, all cleared): my dice and the advice follow, and the
    keys when they look otherwise (full, or a first die in or the last out)."""
    redraw = [HAND_PART, ADVICE_PART]
    if keys_look(KEYPAD) != OddsState().drawn_keys:
        redraw.append(KEYPAD_PART)
    parts.rerun_parts(*redraw)


def table_stepped() -> None:
    """The table's stepper's ``on_change``: from now on it stays as set; the advice follows."""
    table_set_by_hand()
    rerun_with_advice(DICE_PART)


def players_stepped() -> None:
    """The players' stepper's ``on_change``: the advice follows, and the table too while it
    holds every player's starting dice (not set by hand)."""
    if OddsState().dice_set:
        rerun_with_advice(PLAYERS_PART)
    else:
        recall_table(url_state.current_rules().starting_dice)
        parts.rerun_parts(DICE_PART, PLAYERS_PART, ADVICE_PART)


def bid_tapped(*, new_face: bool) -> None:
    """The round's and the face's (``new_face``) and the quantity's ``on_change``: the advice
    follows, and of the bid's two parts only the one that would look otherwise than the tap
    has made it: the pill's (a bid entered or not) or the quantities' (their centre). A tap
    on a quantity, or on a face whose expected count is the last one's, redraws neither:
    their rows of segments cost the phone about as much again as the advice."""
    state = OddsState()
    if new_face:
        recentre(state)
    look = bid_look(state)
    changed = ((BID_PART, look.entered != state.drawn_entered),
               (QUANTITY_PART, look.centre != state.drawn_centre))
    parts.rerun_parts(*(part for part, redraw in changed if redraw), ADVICE_PART)


def opening_tapped() -> None:
    """The "I open" pill's ``on_change``: no bid, no face nor quantity picked; the advice
    follows."""
    clear_bid()
    parts.rerun_parts(BID_PART, QUANTITY_PART, ADVICE_PART)


def keep_details() -> None:
    """The details' expander's ``on_change``: keep whether it is open across pages."""
    state = OddsState()
    state.details_kept = bool(state.details)


def remember_in_link() -> None:
    """Write the players, and the table when set by hand, into the link."""
    state = OddsState()
    table = str(state.dice) if state.dice_set and state.dice is not None else None
    players = None if state.players is None else str(state.players)
    url_state.set_page_params({TABLE_PARAM: table, PLAYERS_PARAM: players})


__all__ = [
    "ADVICE_PART",
    "BID_PART",
    "DEFAULT_PLAYERS",
    "DICE_PART",
    "HAND_PART",
    "KEYPAD_PART",
    "PARTS",
    "PLAYERS_PARAM",
    "PLAYERS_PART",
    "QUANTITY_PART",
    "TABLE_PARAM",
    "BidLook",
    "OddsState",
    "bid_look",
    "bid_tapped",
    "clear_bid",
    "expected_quantity",
    "hand_tapped",
    "keep_details",
    "opening_tapped",
    "players_stepped",
    "recall_table",
    "recentre",
    "remember_in_link",
    "rerun_with_advice",
    "table_set_by_hand",
    "table_stepped",
]
