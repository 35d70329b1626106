"""Widgets and cached computations shared by the pages.

Pages stay thin: they lay out these helpers and wire their values together. Every text shown
comes from the catalogs through :func:`ui.i18n.t`; the only literals here are die symbols.

Session-state keys are namespaced by the page's ``prefix`` (``odds`` for the Odds page):
``{prefix}_hand`` holds the tapped faces (a list, not a widget, so it survives reruns and page
switches), ``{prefix}_add_{face}``, ``{prefix}_undo`` and ``{prefix}_clear`` are its buttons.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import streamlit as st

from perudo_math import FACES, Bid, Odds, face_name, odds
from ui.i18n import format_percent, t, tn

MAX_HAND_DICE = 10
"""A cup never holds more than the largest starting count (RULES.md: 1 to 10)."""

FACE_GLYPHS: dict[int, str] = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}
"""Die faces as players see them (the paco is the one-pip face, written P in bids).

Plain Unicode die faces, not emoji: they render with the default fonts of phones and of a
bare Linux box alike (DejaVu), where the parrot emoji may be missing.
"""

CHART_TRUE_COLOR = "#1b7f4b"
CHART_FALSE_COLOR = "#b9c0c8"


def face_label(face: int) -> str:
    """A face as a button shows it: the die glyph and its bid notation, ``⚃ 4``, ``⚀ P``."""
    return f"{FACE_GLYPHS[face]} {face_name(face)}"


def hand_text(hand: Sequence[int]) -> str:
    """A hand in bid notation, pacos first: ``P 2 2 5 6``."""
    return " ".join(face_name(face) for face in sorted(hand))


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


def hand_keypad(prefix: str) -> tuple[int, ...]:
    """Enter a hand by tapping die faces; returns the faces in tap order.

    One tap adds one die; "remove last" and "clear" fix mistakes. No keyboard is needed.
    """
    hand: list[int] = st.session_state.setdefault(_hand_key(prefix), [])
    full = len(hand) >= MAX_HAND_DICE

    st.markdown(f"**{t('hand.label')}**")
    if hand:
        st.markdown(
            f"### {' '.join(FACE_GLYPHS[face] for face in hand)}",
            anchors=False,
        )
        st.caption(tn("hand.summary", len(hand), faces=hand_text(hand)))
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
        st.button(
            t("hand.undo"),
            key=f"{prefix}_undo",
            icon=":material/backspace:",
            on_click=_remove_last,
            args=(prefix,),
            disabled=not hand,
        )
        st.button(
            t("hand.clear"),
            key=f"{prefix}_clear",
            icon=":material/delete:",
            on_click=_clear,
            args=(prefix,),
            disabled=not hand,
        )
    if full:
        st.caption(t("hand.full", max=MAX_HAND_DICE))
    return tuple(hand)


# --- bid and round selectors -------------------------------------------------------------


def face_selector(label: str, *, key: str, default: int = 4) -> int:
    """Pick a bid face, pacos included (shown ``⚀ P``). Always returns a face."""
    face = st.segmented_control(
        label,
        FACES,
        format_func=face_label,
        default=default,
        required=True,
        key=key,
        persist_state="session",
        width="stretch",
    )
    return default if face is None else int(face)


def round_selector(*, key: str) -> bool:
    """Normal or palifico round; returns whether the round is palifico."""
    choice = st.segmented_control(
        t("round.label"),
        ("normal", "palifico"),
        format_func=lambda option: t(f"round.{option}"),
        default="normal",
        required=True,
        key=key,
        persist_state="session",
        width="stretch",
    )
    return choice == "palifico"


# --- cached computations -----------------------------------------------------------------


@st.cache_data(max_entries=1024, show_spinner=False)
def cached_odds(
    quantity: int, face: int, hand: tuple[int, ...], dice: int, palifico: bool
) -> Odds:
    """:func:`perudo_math.odds`, cached across reruns and sessions (the inputs are plain)."""
    return odds(Bid(quantity, face), hand, dice, palifico=palifico)


# --- charts --------------------------------------------------------------------------------


def _visible_range(distribution: Sequence[float], quantity: int) -> tuple[int, int]:
    """The counts worth drawing: where the chance is at least 0.1%, widened to show the bid."""
    shown = [k for k, p in enumerate(distribution) if p >= 0.001]
    if not shown:
        shown = [max(range(len(distribution)), key=lambda k: distribution[k])]
    low, high = shown[0], shown[-1]
    last = len(distribution) - 1
    if quantity <= last:
        low, high = min(low, quantity), max(high, quantity)
    return low, high


def distribution_chart(distribution: Sequence[float], bid: Bid) -> alt.Chart:
    """Bars of P(count = k) for the matching count k, bars that make the bid true in green.

    Sized for a phone: at most a few dozen bars (the negligible tails are cut), labels
    thinned when they would overlap, the legend above the bars.
    """
    low, high = _visible_range(distribution, bid.quantity)
    true_label, false_label = t("odds.chart.true"), t("odds.chart.false")
    rows = [
        {
            "k": k,
            "p": float(distribution[k]),
            "outcome": true_label if k >= bid.quantity else false_label,
            "chance": format_percent(float(distribution[k])),
        }
        for k in range(low, high + 1)
    ]
    x_title, y_title = t("odds.chart.x"), t("odds.chart.y")
    return (
        alt.Chart(alt.Data(values=rows))
        .mark_bar()
        .encode(
            x=alt.X(
                "k:O",
                title=x_title,
                axis=alt.Axis(labelAngle=0, labelOverlap="parity"),
            ),
            y=alt.Y("p:Q", title=y_title, axis=alt.Axis(format="%", tickCount=4)),
            color=alt.Color(
                "outcome:N",
                scale=alt.Scale(
                    domain=[true_label, false_label],
                    range=[CHART_TRUE_COLOR, CHART_FALSE_COLOR],
                ),
                legend=alt.Legend(title=None, orient="top"),
            ),
            tooltip=[
                alt.Tooltip("k:O", title=x_title),
                alt.Tooltip("chance:N", title=y_title),
            ],
        )
        .properties(height=240)
    )


__all__ = [
    "FACE_GLYPHS",
    "MAX_HAND_DICE",
    "cached_odds",
    "distribution_chart",
    "face_label",
    "face_selector",
    "hand_keypad",
    "hand_text",
    "round_selector",
]
