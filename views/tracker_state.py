"""What the tracker page remembers between taps, as one typed object (``views.session``).

The game itself is not here: ``views.url_state`` keeps it (the link, so a reload loses
nothing) and ``perudo_math.GameState`` alone decides whether a move is allowed. Here are the
set-up's rows, the bid and call being entered, one-shot messages, and which panel is open.
"""

from __future__ import annotations

from typing import Any, Literal

import streamlit as st

from coach.review import GameReview
from perudo_math import Bid, GameState, RulesChanged
from views.session import Field, Keyed, PageState
from views.tracker_view import LOG_PAGE

FIRST_ROWS = 4
"""Four players, the usual table (and the odds page's): a fifth is one tap on "Add a player",
and rows left empty at the end are no seats. Six rows made every smaller table scroll."""
NOBODY = -1
"""The set-up choice "nobody" (which one is me) and "roll for it" (who opens)."""

Slot = Literal["top", "bid", "call", "rules"]
"""Where a one-shot message shows: above the game, under the bid, the call, or the rules."""
Level = Literal["error", "warning", "info"]
Flashes = dict[str, list[tuple[Level, str]]]
Offer = tuple[GameState, RulesChanged, Bid]
"""A bid refused only by a setting: the game it was tried on, the switch offered, the bid."""
ReviewKept = tuple[tuple[object, ...], GameReview | None, list[tuple[int, int]]]
"""The review of my moves, with what it was worked out for (the game, my seat, my hands),
and the round and rank of each decision reviewed."""


def first_rows() -> list[int]:
    return list(range(FIRST_ROWS))


class TrackerState(PageState):
    """The tracker page's session entries, each with its key (all ``tracker_``) and type."""

    # The set-up.
    rows = Field("tracker_rows", factory=first_rows)
    """The set-up's rows, in seat order: ids, so that a name stays with its row when moved."""
    row_seq = Field("tracker_row_seq", FIRST_ROWS)
    """The next row id never used in this session (a removed row's name may still be kept)."""
    names = Keyed("tracker_name_", "")
    """Each row's name box."""
    me = Field("tracker_me", NOBODY)
    opener = Field("tracker_opener", NOBODY)
    errors = Field("tracker_errors", factory=list[str])
    raise_rule: Field[str | None] = Field("tracker_raise", None)

    # The move being entered.
    face: Field[int | None] = Field("tracker_face", None)
    """The bid's face: the last bid's after each move, so a raise on it takes one tap."""
    offset = Field("tracker_offset", 0)
    """How far the row of quantities was paged."""
    spot: Field[GameState | None] = Field("tracker_spot", None)
    """The game the entry was last reset for (a move on this phone, a reload, a reopened
    link, another phone's move read in): the game the call's and undo's buttons act on,
    which a bid does not always redraw (``views.tracker_actions.drawn``)."""
    count: Field[int | None] = Field("tracker_count", None)
    """The count typed for a call: one widget for the whole game, emptied after every move.
    A widget keyed by the move was drawn anew after each bid, which cost every bid tap about
    8 ms on a phone."""
    reset_widgets: Field[set[str]] = Field("tracker_reset_widgets", factory=set)
    """The keys of the entry's widgets a move reset (:meth:`reset_entry`), each yet to be
    drawn as reset: set again in the run that draws it (:meth:`settle`). A value set in a
    tap's callback reaches the phone only when the run goes on from the callback, not in
    the run of a part (or of the whole game) the callback asks for by name."""
    call_drawn: Field[tuple[object, ...] | None] = Field("tracker_call_drawn", None)
    """The call's entry as last drawn (``views.tracker_view.call_look``), or ``None`` when
    it showed more than its look (a count typed, a message): a bid redraws it unless the
    game after the bid looks the same."""
    callers = Keyed[int | None]("tracker_caller_", None)
    """Who calls, by move: keyed by the move, so a caller picked for one bid is not reused."""
    offer: Field[Offer | None] = Field("tracker_offer", None)

    # Messages and panels.
    flashes = Field("tracker_flash", factory=Flashes)
    top_shown_on: Field[tuple[GameState | None] | None] = Field("tracker_flash_top_on", None)
    """The game the messages above it were first shown on (a 1-tuple: the set-up's is None)."""
    panel_closings = Field("tracker_panel_closings", 0)
    """How often the page closed the panel: each closing draws the chips anew under a new key
    (:attr:`panel_key`). A tap sends the chips as the phone last drew them, and the shared
    table's watch taps every few seconds: had the page set the chips' value to none, a watch
    sent before that reached the phone would open the panel again."""
    share_opened_on: Field[GameState | None] = Field("tracker_share_opened_on", None)
    log_shown = Field("tracker_log_shown", LOG_PAGE)
    rule_values = Keyed[int | str | bool | None]("tracker_rule_", None)
    """The rules panel's controls, one per setting a table may change during a game."""
    iam = Field("tracker_iam", NOBODY)
    confirm_new = Field("tracker_confirm_new", False)
    share_everyone = Field("tracker_share_everyone", False)
    review: Field[ReviewKept | None] = Field("tracker_review", None)

    @property
    def panel_key(self) -> str:
        """The chips' key: ``tracker_panel``, then one more suffix for each closing."""
        closings = self.panel_closings
        return "tracker_panel" if not closings else f"tracker_panel_{closings}"

    @property
    def panel(self) -> str | None:
        """The panel open under the game, if any."""
        chosen: str | None = self.store.get(self.panel_key)
        return chosen

    def close_panel(self) -> None:
        """Close the panel: the chips are drawn anew, none chosen (see :attr:`panel_closings`)."""
        self.store.pop(self.panel_key, None)
        self.panel_closings += 1

    def flash(self, slot: Slot, level: Level, text: str) -> None:
        """A message for the next run, at ``slot``. Those above the game ("top") say what
        became of a tap; a new one replaces those already shown."""
        if slot == "top" and self.top_shown_on is not None:
            self.flashes.pop("top", None)
            del self.top_shown_on
        self.flashes.setdefault(slot, []).append((level, text))

    def show_flash(self, slot: Slot, game: GameState | None = None) -> None:
        """The messages of ``slot``: once, but those above the game stay while ``game`` is
        the one they were first shown on, so a rerun of the shared table's watch does not
        take away the warning that a tap was turned away."""
        for level, text in self._top_messages(game) if slot == "top" else self.flashes.pop(
                slot, []):
            if level == "error":
                st.error(text, icon=":material/block:")
            elif level == "warning":
                st.warning(text, icon=":material/warning:")
            else:
                st.info(text, icon=":material/casino:")

    def _top_messages(self, game: GameState | None) -> list[tuple[Level, str]]:
        messages = self.flashes.get("top", [])
        if not messages:
            return []
        shown_on = self.top_shown_on
        if shown_on is None:
            self.top_shown_on = (game,)
        elif shown_on[0] != game:  # the game moved on: the messages were about another one
            self.flashes.pop("top", None)
            del self.top_shown_on
            return []
        return messages

    def reset_entry(self, game: GameState | None) -> None:
        """After a move (or on a reload): the face of the bid on the table is picked for the
        next bid (a raise on it takes one tap), the quantity row rewinds, and no count or
        caller typed for another bid is left to be reused."""
        self.face = game.last_bid.face if game and game.last_bid else None
        self.offset = 0
        self.spot = game
        self.count = None  # set, not deleted: the box on the phone empties too
        self.reset_widgets.update((TrackerState.face.key, TrackerState.count.key))
        del self.offer
        self.drop(TrackerState.callers)

    def settle(self, field: Field[Any]) -> None:
        """Before ``field``'s widget is drawn: if a move reset it, set it again in this run,
        so that the phone shows it reset (:attr:`reset_widgets`)."""
        if field.key in self.reset_widgets:
            self.reset_widgets.discard(field.key)
            self.store[field.key] = self.store.get(field.key)

    def row_name(self, row: int) -> str:
        return str(self.get(TrackerState.names, row) or "").strip()
