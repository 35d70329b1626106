"""Inputs built for taps: my dice on a keypad of faces, a bid's face and quantity, the kind
of round.

Session-state keys are namespaced by the page's ``prefix`` (``odds`` for the Odds page):
``{prefix}_hand`` holds the tapped faces (a list, not a widget, so it survives reruns and page
switches), ``{prefix}_add_{face}``, ``{prefix}_undo`` and ``{prefix}_clear`` are its buttons.
The quantity row keeps its pick in ``{key}`` and its paging in ``{key}_page``; ``{key}_less``
and ``{key}_more`` page it. A stepper keeps its number in ``{key}`` (set by the caller) and
steps it with ``{key}_down`` and ``{key}_up``, shown in a row keyed ``{key}_steps`` under its
label, the whole keyed ``{key}_stepper``.

Every input here is made of buttons and segmented controls, which the page loads anyway: a
number input or a switch would make a phone fetch and lay out their own code on the first
page (about 0.1 s of the first page's 1.2 s, ``make bench-speed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, TypeVar, overload

import streamlit as st

from perudo_math import FACES, MAX_STARTING_DICE, Bid, GameState
from views import tracker_view
from views.dice import face_label, glyphs, hand_text
from views.i18n import current_language, t, tn, translate
from views.text import small

T = TypeVar("T")

MAX_HAND_DICE = MAX_STARTING_DICE
"""A cup never holds more than the largest starting count."""
QUANTITY_ROW = 6
"""Quantities side by side in the bid's row, with a page key either side: two-digit numbers
still fit a phone's width, and one tap reaches any of them."""
PAGE_KEY_PX = 44
"""The width of the row's ``‹`` and ``›`` keys: a thumb's width (see ``views.style``)."""
LabelVisibility = Literal["visible", "hidden", "collapsed"]
"""How a widget shows its label, as Streamlit takes it."""


# --- my dice: a keypad of faces ------------------------------------------------------------


def _hand_key(prefix: str) -> str:
    return f"{prefix}_hand"


def _add_die(prefix: str, face: int, then: Callable[[], None] | None = None) -> None:
    hand = st.session_state.setdefault(_hand_key(prefix), [])
    if len(hand) < MAX_HAND_DICE:
        hand.append(face)
    if then is not None:
        then()


def _remove_last(prefix: str, then: Callable[[], None] | None = None) -> None:
    hand = st.session_state.setdefault(_hand_key(prefix), [])
    if hand:
        hand.pop()
    if then is not None:
        then()


def _clear(prefix: str, then: Callable[[], None] | None = None) -> None:
    st.session_state[_hand_key(prefix)] = []
    if then is not None:
        then()


def entered_hand(prefix: str) -> tuple[int, ...]:
    """The faces tapped on ``prefix``'s keypad so far, in tap order."""
    return tuple(st.session_state.get(_hand_key(prefix), ()))


def clear_hand(prefix: str) -> None:
    """Empty ``prefix``'s hand: a new round is rolled, the old dice must not be reused."""
    _clear(prefix)


def set_hand(prefix: str, faces: tuple[int, ...]) -> None:
    """Put ``faces`` on ``prefix``'s keypad, as if tapped in that order."""
    st.session_state[_hand_key(prefix)] = list(faces[:MAX_HAND_DICE])


def hand_line(prefix: str) -> tuple[int, ...]:
    """The dice entered on ``prefix``'s keypad and their count, on one line (drawn above its
    keys, :func:`hand_keys`); returns the faces in tap order."""
    hand = entered_hand(prefix)
    with st.container(horizontal=True, vertical_alignment="center", gap="small",
                      key=f"{prefix}_hand_line"):
        if hand:
            st.markdown(f"**{t('hand.label')}**", width="content")
            st.markdown(f"#### {glyphs(hand)}", anchors=False, width="content")
            st.caption(tn("hand.summary", len(hand), faces=hand_text(hand)), width="content")
        else:  # one element, not two: the page's first screen draws each one
            st.markdown(f"**{t('hand.label')}** {small(t('hand.empty'))}")
    return hand


def keys_look(prefix: str) -> tuple[bool, bool]:
    """What :func:`hand_keys` draws differently with the hand: whether it is full (the faces
    off) and whether it holds a die (the edits on). A tap that leaves it alike need not
    redraw the keys."""
    hand = entered_hand(prefix)
    return len(hand) >= MAX_HAND_DICE, bool(hand)


def hand_keys(prefix: str, on_change: Callable[[], None] | None = None) -> None:
    """Enter a hand by tapping die faces: one tap adds one die; "remove last" and "clear"
    fix mistakes. No keyboard is needed. ``on_change`` runs after each tap has changed the
    hand (it may say what reruns)."""
    full, holds = keys_look(prefix)
    with st.container(horizontal=True, wrap=False, gap="xsmall", key=f"{prefix}_keypad"):
        for face in FACES:
            st.button(
                face_label(face),
                key=f"{prefix}_add_{face}",
                on_click=_add_die,
                args=(prefix, face, on_change),
                disabled=full,
                width="stretch",
            )
    with st.container(horizontal=True, gap="xsmall", key=f"{prefix}_keypad_edit"):
        for name, icon, action in (("undo", ":material/backspace:", _remove_last),
                                   ("clear", ":material/delete:", _clear)):
            st.button(t(f"hand.{name}"), key=f"{prefix}_{name}", icon=icon, on_click=action,
                      args=(prefix, on_change), disabled=not holds, width="stretch")
    if full:
        st.caption(t("hand.full", max=MAX_HAND_DICE))


# --- bid and round selectors -------------------------------------------------------------


@overload
def face_selector(
    label: str, *, key: str, default: int | None = 4, disabled: bool = False,
    label_visibility: LabelVisibility = "visible", optional: Literal[False] = False,
    on_change: Callable[[], None] | None = None,
) -> int: ...


@overload
def face_selector(
    label: str, *, key: str, default: int | None = 4, disabled: bool = False,
    label_visibility: LabelVisibility = "visible", optional: bool,
    on_change: Callable[[], None] | None = None,
) -> int | None: ...


def face_selector(
    label: str, *, key: str, default: int | None = 4, disabled: bool = False,
    label_visibility: LabelVisibility = "visible", optional: bool = False,
    on_change: Callable[[], None] | None = None,
) -> int | None:
    """Pick a bid face, pacos included (shown ``⚀ P``). Returns a face, or with
    ``optional`` ``None`` until one is picked (a face picked cannot be unpicked).

    ``default=None`` leaves the value to ``st.session_state[key]``, set by the caller (a
    widget must not get both a default and a state value), or to the user with ``optional``.
    ``on_change`` runs after a new face is picked.
    """
    face = _kept_choice(label, FACES, format_func=face_label, default=default, key=key,
                        disabled=disabled, label_visibility=label_visibility,
                        on_change=on_change)
    if face is None:
        return None if optional else 4
    return int(face)


def quantity_window(centre: int, page: int, maximum: int) -> range:
    """The ``QUANTITY_ROW`` quantities shown: from two below ``centre``, ``page`` rows on,
    within 1 .. ``maximum``."""
    last_start = max(1, maximum - QUANTITY_ROW + 1)
    start = min(max(1, centre - 2 + page * QUANTITY_ROW), last_start)
    return range(start, min(start + QUANTITY_ROW, maximum + 1))


def _turn_page(key: str, centre: int, step: int) -> None:
    page = st.session_state.get(f"{key}_page", (centre, 0))
    st.session_state[f"{key}_page"] = (centre, (page[1] if page[0] == centre else 0) + step)


def quantity_row(label: str, *, key: str, centre: int, maximum: int,
                 on_change: Callable[[], None] | None = None) -> int | None:
    """Pick a bid's quantity with one tap in a row of numbers around ``centre`` (a sensible
    place, such as the expected count); ``‹`` and ``›`` page the row. Returns the pick, or
    ``None`` until one is tapped (``st.session_state[key]`` may also be set by the caller).

    The row keeps the pick in view: it stays among the numbers even when the row is paged
    away from it. A new ``centre`` brings the row back around it.
    """
    state = st.session_state
    picked = state.get(key)
    page_centre, page = state.get(f"{key}_page", (centre, 0))
    window = quantity_window(centre, page if page_centre == centre else 0, maximum)
    options = sorted({*window, *(() if picked is None else (int(picked),))})
    with st.container(horizontal=True, gap="xsmall", wrap=False, vertical_alignment="bottom",
                      key=f"{key}_line"):
        st.button("‹", key=f"{key}_less", on_click=_turn_page, args=(key, centre, -1),
                  help=t("odds.bid.less"), disabled=window.start <= 1, width=PAGE_KEY_PX)
        choice = st.segmented_control(label, options, key=key, required=True, width="stretch",
                                      on_change=on_change, persist_state="session",
                                      label_visibility="collapsed")
        st.button("›", key=f"{key}_more", on_click=_turn_page, args=(key, centre, 1),
                  help=t("odds.bid.more"), disabled=window.stop > maximum, width=PAGE_KEY_PX)
    return None if choice is None else int(choice)


def _step(key: str, step: int, minimum: int, maximum: int,
          on_change: Callable[[], None] | None) -> None:
    state = st.session_state
    state[key] = min(maximum, max(minimum, int(state[key]) + step))
    if on_change is not None:
        on_change()


def stepper(label: str, *, key: str, minimum: int, maximum: int, less: str, more: str,
            help: str | None = None, on_change: Callable[[], None] | None = None) -> int:
    """A whole number from ``minimum`` to ``maximum``, one tap of ``−`` or ``+`` a step, the
    number large between them: no keyboard to open on a phone. ``less`` and ``more`` say
    what each key does; ``on_change`` runs after a step. The caller sets
    ``st.session_state[key]`` before the first call; returns the number."""
    value = min(maximum, max(minimum, int(st.session_state[key])))
    st.session_state[key] = value
    with st.container(key=f"{key}_stepper", gap="xxsmall"):
        st.markdown(label, help=help)
        with st.container(horizontal=True, wrap=False, gap="xsmall",
                          vertical_alignment="center", key=f"{key}_steps"):
            st.button("−", key=f"{key}_down", help=less, disabled=value <= minimum,
                      on_click=_step, args=(key, -1, minimum, maximum, on_change),
                      width=PAGE_KEY_PX)
            st.markdown(f"**{value}**", width="stretch", text_alignment="center")
            st.button("+", key=f"{key}_up", help=more, disabled=value >= maximum,
                      on_click=_step, args=(key, 1, minimum, maximum, on_change),
                      width=PAGE_KEY_PX)
    return value


def bid_numbers(game: GameState, face: int, *, key: str, offset: int,
                on_bid: Callable[..., None], bid_args: Callable[[Bid], tuple[object, ...]],
                on_shift: Callable[[int], None]) -> None:
    """The quantities of a bid on ``face`` for the player to act in ``game``, one tap each,
    from the smallest legal one (``offset`` further on); ``‹`` and ``›`` page the row
    (``on_shift(step)``). A tap calls ``on_bid(*bid_args(bid))``; a number the rules refuse
    is drawn quieter, and a face with no legal bid says why instead."""
    lowest = tracker_view.lowest_quantity(game, face)
    if lowest is None:
        st.warning(tracker_view.refusal_text(game, tracker_view.face_refusal(game, face)),
                   icon=":material/block:")
        return
    quantity_buttons(face, key=key, lowest=lowest, offset=offset, table_dice=game.table_dice,
                     legal=lambda bid: game.bid_refusal(bid) is None, on_bid=on_bid,
                     bid_args=bid_args, on_shift=on_shift)


def quantity_buttons(face: int, *, key: str, lowest: int, offset: int, table_dice: int,
                     legal: Callable[[Bid], bool], on_bid: Callable[..., None],
                     bid_args: Callable[[Bid], tuple[object, ...]],
                     on_shift: Callable[[int], None]) -> None:
    """:func:`bid_numbers`' row for any table: the quantities on ``face`` from ``lowest``
    (the smallest legal one, ``offset`` further on), one tap a bid, ``legal`` ones drawn
    plain; ``›`` stops past the ``table_dice``."""
    row = tracker_view.QUANTITY_ROW
    start = lowest + offset
    st.caption(t("tracker.bid.quantity", faces=t(f"face.plural.{face}"),
                 bid=Bid(lowest, face).pretty()))
    with st.container(horizontal=True, gap="xsmall", wrap=False, key=f"{key}_quantities"):
        if offset:
            st.button("‹", key=f"{key}_less", on_click=on_shift, args=(-row,),
                      help=t("tracker.bid.less"), width="stretch")
        for quantity in range(start, start + row):
            bid = Bid(quantity, face)
            st.button(str(quantity), key=f"{key}_q_{quantity}", on_click=on_bid,
                      args=bid_args(bid), type="secondary" if legal(bid) else "tertiary",
                      width="stretch")
        st.button("›", key=f"{key}_more", on_click=on_shift, args=(row,),
                  help=t("tracker.bid.more"), disabled=start + row > table_dice,
                  width="stretch")


def round_selector(*, key: str, default: str | None = "normal", disabled: bool = False,
                   label_visibility: LabelVisibility = "visible",
                   on_change: Callable[[], None] | None = None) -> bool:
    """Normal or palifico round; returns whether the round is palifico. ``on_change`` runs
    after the round is switched."""
    lang = current_language()  # bound: the labels may be formatted outside this run
    choice = _kept_choice(t("round.label"), ("normal", "palifico"),
                          format_func=lambda option: translate(lang, f"round.{option}"),
                          default=default, key=key, disabled=disabled,
                          label_visibility=label_visibility, on_change=on_change)
    return choice == "palifico"


def _kept_choice(label: str, options: Sequence[T], *, format_func: Callable[[T], str],
                 default: T | None, key: str, disabled: bool,
                 label_visibility: LabelVisibility,
                 on_change: Callable[[], None] | None = None) -> T | None:
    """A segmented control as wide as the page whose choice, once made, stays made and is
    kept across pages (``persist_state``)."""
    return st.segmented_control(label, options, format_func=format_func, default=default,
                                required=True, key=key, persist_state="session",
                                width="stretch", disabled=disabled,
                                label_visibility=label_visibility, on_change=on_change)


__all__ = [
    "MAX_HAND_DICE",
    "QUANTITY_ROW",
    "clear_hand",
    "entered_hand",
    "face_selector",
    "hand_keys",
    "hand_line",
    "keys_look",
    "quantity_buttons",
    "quantity_row",
    "quantity_window",
    "round_selector",
    "stepper",
]
