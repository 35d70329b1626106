"""Inputs built for taps: my dice on a keypad of faces, a bid's face, the kind of round.

Session-state keys are namespaced by the page's ``prefix`` (``odds`` for the Odds page):
``{prefix}_hand`` holds the tapped faces (a list, not a widget, so it survives reruns and page
switches), ``{prefix}_add_{face}``, ``{prefix}_undo`` and ``{prefix}_clear`` are its buttons.
"""

from __future__ import annotations

import streamlit as st

from perudo_math import FACES, MAX_STARTING_DICE
from views.dice import face_label, glyphs, hand_text
from views.i18n import current_language, t, tn, translate

MAX_HAND_DICE = MAX_STARTING_DICE
"""A cup never holds more than the largest starting count."""


# --- my dice: a keypad of faces ------------------------------------------------------------


def _hand_key(prefix: str) -> str:
    return f"{prefix}_hand"


def _add_die(prefix: str, face: int) -> None:
    hand = st.session_state.setdefault(_hand_key(prefix), [])
    if len(hand) < MAX_HAND_DICE:
        hand.append(face)


def _remove_last(prefix: str) -> None:
    hand = st.session_state.setdefault(_hand_key(prefix), [])
    if hand:
        hand.pop()


def _clear(prefix: str) -> None:
    st.session_state[_hand_key(prefix)] = []


def entered_hand(prefix: str) -> tuple[int, ...]:
    """The faces tapped on ``prefix``'s keypad so far, in tap order."""
    return tuple(st.session_state.get(_hand_key(prefix), ()))


def clear_hand(prefix: str) -> None:
    """Empty ``prefix``'s hand: a new round is rolled, the old dice must not be reused."""
    _clear(prefix)


def hand_keypad(prefix: str) -> tuple[int, ...]:
    """Enter a hand by tapping die faces; returns the faces in tap order.

    One tap adds one die; "remove last" and "clear" fix mistakes. No keyboard is needed.
    Compact for a phone: the dice entered and their count share one line above the keys.
    """
    hand: list[int] = st.session_state.setdefault(_hand_key(prefix), [])
    full = len(hand) >= MAX_HAND_DICE

    with st.container(horizontal=True, vertical_alignment="center", gap="small",
                      key=f"{prefix}_hand_line"):
        st.markdown(f"**{t('hand.label')}**", width="content")
        if hand:
            st.markdown(f"#### {glyphs(hand)}", anchors=False, width="content")
            st.caption(tn("hand.summary", len(hand), faces=hand_text(hand)), width="content")
        else:
            st.caption(t("hand.empty"))

    with st.container(horizontal=True, wrap=False, gap="xsmall", key=f"{prefix}_keypad"):
        for face in FACES:
            st.button(
                face_label(face),
                key=f"{prefix}_add_{face}",
                on_click=_add_die,
                args=(prefix, face),
                disabled=full,
                width="stretch",
            )
    with st.container(horizontal=True, gap="xsmall", key=f"{prefix}_keypad_edit"):
        for name, icon, action in (("undo", ":material/backspace:", _remove_last),
                                   ("clear", ":material/delete:", _clear)):
            st.button(t(f"hand.{name}"), key=f"{prefix}_{name}", icon=icon, on_click=action,
                      args=(prefix,), disabled=not hand, width="stretch")
    if full:
        st.caption(t("hand.full", max=MAX_HAND_DICE))
    return tuple(hand)


# --- bid and round selectors -------------------------------------------------------------


def face_selector(
    label: str, *, key: str, default: int | None = 4, disabled: bool = False,
    label_visibility: str = "visible",
) -> int:
    """Pick a bid face, pacos included (shown ``⚀ P``). Always returns a face.

    ``default=None`` leaves the value to ``st.session_state[key]``, set by the caller (a
    widget must not get both a default and a state value).
    """
    face = st.segmented_control(
        label,
        FACES,
        format_func=face_label,
        default=default,
        required=True,
        key=key,
        persist_state="session",
        width="stretch",
        disabled=disabled,
        label_visibility=label_visibility,
    )
    return 4 if face is None else int(face)


def round_selector(*, key: str, default: str | None = "normal", disabled: bool = False) -> bool:
    """Normal or palifico round; returns whether the round is palifico."""
    lang = current_language()  # bound: the labels may be formatted outside this run
    choice = st.segmented_control(
        t("round.label"),
        ("normal", "palifico"),
        format_func=lambda option: translate(lang, f"round.{option}"),
        default=default,
        required=True,
        key=key,
        persist_state="session",
        width="stretch",
        disabled=disabled,
    )
    return choice == "palifico"


__all__ = [
    "MAX_HAND_DICE",
    "clear_hand",
    "entered_hand",
    "face_selector",
    "hand_keypad",
    "round_selector",
]
