"""Widgets and cached computations shared by the pages.

Pages stay thin: they lay out these helpers and wire their values together. Every text shown
comes from the catalogs through :func:`views.i18n.t`; the only literals here are die symbols,
chart field names and the phone style sheet.

Session-state keys are namespaced by the page's ``prefix`` (``odds`` for the Odds page):
``{prefix}_hand`` holds the tapped faces (a list, not a widget, so it survives reruns and page
switches), ``{prefix}_add_{face}``, ``{prefix}_undo`` and ``{prefix}_clear`` are its buttons.

The cached functions take plain hashable values (tuples, ints, strings) and return plain or
picklable values, so ``st.cache_data`` serves a rerun after a tap from memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import altair as alt
import streamlit as st

from coach import PURE_ODDS, Advice, BidReading, CoachSettings, Situation, TableBeliefs, advise
from perudo_math import (
    FACES,
    Bid,
    Hand,
    Odds,
    Rules,
    face_name,
    legal_quantities,
    odds,
    smallest_raises,
)
from views.i18n import current_language, format_percent, t, tn, translate

MAX_HAND_DICE = 10
"""A cup never holds more than the largest starting count (docs/RULES.md: 1 to 10)."""

FACE_GLYPHS: dict[int, str] = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}
"""Die faces as players see them (the paco is the one-pip face, written P in bids).

Plain Unicode die faces, not emoji: they render with the default fonts of phones and of a
bare Linux box alike (DejaVu), where the parrot emoji may be missing.
"""

CHART_TRUE_COLOR = "#1b7f4b"
CHART_FALSE_COLOR = "#b9c0c8"
CHART_PICK_COLOR = "#1f1d1a"

TOUCH_TARGET_PX = 44
"""The smallest comfortable height of something to tap (Apple HIG, WCAG 2.5.5)."""

PHONE_CSS = f"""
<style>
/* Perudo Coach on a phone: every button, stepper, switch and segment at least
   {TOUCH_TARGET_PX}px tall, so a tap at a noisy table lands where it is meant to. */
.st-key-phone-page [data-testid="stButton"] button,
.st-key-phone-page [data-testid="stButtonGroup"] button,
.st-key-phone-page [data-testid="stNumberInputContainer"],
.st-key-phone-page [data-testid="stNumberInputContainer"] button {{
  min-height: {TOUCH_TARGET_PX}px;
}}
.st-key-phone-page [data-testid="stNumberInputContainer"] input {{
  min-height: {TOUCH_TARGET_PX - 4}px;
}}
.st-key-phone-page [data-testid="stCheckbox"] label,
.st-key-phone-page [data-testid="stRadio"] [role="radiogroup"] label {{
  min-height: {TOUCH_TARGET_PX}px;
  align-items: center;
}}
.st-key-phone-page [class*="_advice"] h2 {{
  padding-top: 0;
}}
.st-key-phone-page [data-testid="stWidgetLabel"] {{
  margin-bottom: 0.1rem;
}}
</style>
"""
"""Scoped to containers keyed ``phone-page``: the other pages keep Streamlit's look."""


def phone_page() -> object:
    """A container for a page built for the phone: large touch targets.

    Use it as ``with phone_page(): ...``; the style sheet goes to Streamlit's event
    container, so it takes no room on the page.
    """
    st.html(PHONE_CSS)
    return st.container(key="phone-page")


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
    Compact for a phone: the dice entered and their count share one line above the keys.
    """
    hand: list[int] = st.session_state.setdefault(_hand_key(prefix), [])
    full = len(hand) >= MAX_HAND_DICE

    with st.container(horizontal=True, vertical_alignment="center", gap="small",
                      key=f"{prefix}_hand_line"):
        st.markdown(f"**{t('hand.label')}**", width="content")
        if hand:
            st.markdown(f"#### {' '.join(FACE_GLYPHS[face] for face in hand)}",
                        anchors=False, width="content")
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
        st.button(
            t("hand.undo"),
            key=f"{prefix}_undo",
            icon=":material/backspace:",
            on_click=_remove_last,
            args=(prefix,),
            disabled=not hand,
            width="stretch",
        )
        st.button(
            t("hand.clear"),
            key=f"{prefix}_clear",
            icon=":material/delete:",
            on_click=_clear,
            args=(prefix,),
            disabled=not hand,
            width="stretch",
        )
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


# --- cached computations -----------------------------------------------------------------


@st.cache_data(max_entries=1024, show_spinner=False)
def cached_odds(
    quantity: int, face: int, hand: tuple[int, ...], dice: int, palifico: bool
) -> Odds:
    """:func:`perudo_math.odds`, cached across reruns and sessions (the inputs are plain)."""
    return odds(Bid(quantity, face), hand, dice, palifico=palifico)


@dataclass(frozen=True, slots=True)
class Table:
    """What the coach is asked about, in plain hashable values (the cache key).

    ``rules`` is :meth:`perudo_math.Rules.changed` as sorted pairs; ``bids`` are this
    round's ``(seat, quantity, face)``.
    """

    rules: tuple[tuple[str, object], ...]
    dice: tuple[int, ...]
    me: int
    hand: tuple[int, ...]
    bids: tuple[tuple[int, int, int], ...]
    palifico: bool

    @classmethod
    def of(cls, rules: Rules, dice: Sequence[int], me: int, hand: Sequence[int],
           bids: Sequence[tuple[int, Bid]], palifico: bool) -> Table:
        return cls(tuple(sorted(rules.changed().items())), tuple(int(n) for n in dice), int(me),
                   tuple(sorted(int(face) for face in hand)),
                   tuple((int(seat), bid.quantity, bid.face) for seat, bid in bids),
                   bool(palifico))

    def situation(self) -> Situation:
        """The coach's view; ``ValueError`` when the numbers cannot make a table."""
        return Situation(Rules.from_dict(dict(self.rules)), self.dice, self.me, Hand(self.hand),
                         tuple((seat, Bid(q, f)) for seat, q, f in self.bids), self.palifico)


def even_split(hand_dice: int, table_dice: int, players: int) -> tuple[int, ...]:
    """Every seat's dice when only the total is known: mine first, the rest split evenly.

    ``ValueError`` when the other players cannot each hold a die.
    """
    others, opponents = table_dice - hand_dice, players - 1
    if opponents < 1 or others < opponents:
        raise ValueError(f"{opponents} other players cannot share {others} dice")
    share, extra = divmod(others, opponents)
    return (hand_dice, *(share + (seat < extra) for seat in range(opponents)))


def _reading(read_bids: bool) -> BidReading:
    return BidReading() if read_bids else PURE_ODDS


@st.cache_data(max_entries=1024, show_spinner=False)
def cached_advice(table: Table, read_bids: bool) -> Advice:
    """:func:`coach.advise` for ``table``, reading the bids or on pure odds."""
    return advise(table.situation(), CoachSettings(reading=_reading(read_bids)))


@st.cache_data(max_entries=512, show_spinner=False)
def cached_raise_grid(table: Table, read_bids: bool) -> tuple[tuple[int, int, float], ...]:
    """``(face, quantity, P(true))`` of every legal raise (or opening) up to the table's dice,
    as the coach sees the table (reading the bids or not)."""
    situation = table.situation()
    beliefs = TableBeliefs(situation, _reading(read_bids))
    spans = legal_quantities(situation.last_bid, situation.table_dice,
                             palifico=situation.palifico, rules=situation.rules,
                             bidder_dice=situation.dice[situation.me])
    return tuple(
        (face, quantity, float(beliefs.tail(face)[quantity]))
        for face, span in sorted(spans.items())
        for quantity in span
    )


@st.cache_data(max_entries=512, show_spinner=False)
def cached_smallest_raises(
    quantity: int, face: int, palifico: bool, rules: tuple[tuple[str, object], ...],
    bidder_dice: int | None,
) -> tuple[Bid, ...]:
    """The lowest legal raise of each face after ``quantity × face`` under ``rules``."""
    raises = smallest_raises(Bid(quantity, face), palifico=palifico,
                             rules=Rules.from_dict(dict(rules)), bidder_dice=bidder_dice)
    return tuple(raises[f] for f in sorted(raises))


# --- charts --------------------------------------------------------------------------------
#
# Altair writes each chart once per language (and layout) as a Vega-Lite template whose data
# is a named placeholder; a rerun only fills in the rows. Building and validating an Altair
# chart takes tens of milliseconds, filling a template a fraction of one.

_ROWS = "rows"


def _with_rows(template: dict, rows: list[dict]) -> dict:
    """A template (a fresh copy from the cache) with its placeholder data filled in."""
    template["data"] = {"values": rows}
    return template


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


@st.cache_data(max_entries=8, show_spinner=False)
def distribution_template(lang: str) -> dict:
    """Bars of P(count = k) for the matching count k, bars that make the bid true in green.

    Sized for a phone: at most a few dozen bars (the negligible tails are cut), labels
    thinned when they would overlap, the legend above the bars.
    """
    true_label = translate(lang, "odds.chart.true")
    false_label = translate(lang, "odds.chart.false")
    x_title, y_title = translate(lang, "odds.chart.x"), translate(lang, "odds.chart.y")
    chart = (
        alt.Chart(alt.Data(name=_ROWS))
        .mark_bar()
        .encode(
            x=alt.X("k:O", title=x_title, axis=alt.Axis(labelAngle=0, labelOverlap="parity")),
            y=alt.Y("p:Q", title=y_title, axis=alt.Axis(format="%", tickCount=4)),
            color=alt.Color(
                "outcome:N",
                scale=alt.Scale(domain=[true_label, false_label],
                                range=[CHART_TRUE_COLOR, CHART_FALSE_COLOR]),
                legend=alt.Legend(title=None, orient="top"),
            ),
            tooltip=[alt.Tooltip("k:O", title=x_title), alt.Tooltip("chance:N", title=y_title)],
        )
        .properties(height=240)
    )
    return chart_spec(chart)


def distribution_spec(distribution: Sequence[float], bid: Bid) -> dict:
    """The distribution chart of ``bid`` as a Vega-Lite spec, in the current language."""
    lang = current_language()
    low, high = _visible_range(distribution, bid.quantity)
    true_label, false_label = t("odds.chart.true"), t("odds.chart.false")
    rows = [
        {
            "k": k,
            "p": float(distribution[k]),
            "outcome": true_label if k >= bid.quantity else false_label,
            "chance": format_percent(float(distribution[k]), lang),
        }
        for k in range(low, high + 1)
    ]
    return _with_rows(distribution_template(lang), rows)


RAISE_CHART_COLUMNS = 10
"""At most this many quantities side by side: cells stay wide enough to read on a phone."""


def raise_window(
    grid: Sequence[tuple[int, int, float]], pick: Bid | None
) -> tuple[int, int] | None:
    """The quantities worth a column: where some legal raise is neither near-sure nor
    near-hopeless, widened to show the coach's pick, at most ``RAISE_CHART_COLUMNS`` wide."""
    if not grid:
        return None
    uncertain = [q for _, q, p in grid if 0.005 <= p <= 0.995]
    quantities = uncertain or [q for _, q, _ in grid]
    low = min(quantities)
    if pick is not None:
        low = min(low, pick.quantity)
    high = min(max(quantities), low + RAISE_CHART_COLUMNS - 1)
    if pick is not None and pick.quantity > high:
        high = pick.quantity
        low = max(low, high - RAISE_CHART_COLUMNS + 1)
    return low, high


def _percent_label(p: float) -> str:
    """A cell's chance in whole percent; ``<1`` and ``>99`` rather than a misleading 0 or 100."""
    if 0 < p < 0.005:
        return "<1"
    if 0.995 < p < 1:
        return ">99"
    return str(round(p * 100))


@st.cache_data(max_entries=64, show_spinner=False)
def raise_template(lang: str, faces: tuple[int, ...], with_pick: bool) -> dict:
    """A quantity × face heat map of P(bid true) over the legal raises, the pick outlined.

    Each cell prints its chance in whole percent, so the chart reads without a legend;
    darker green is more likely true. ``faces`` are the rows (faces with a legal raise).
    """
    labels = [face_label(face) for face in faces]
    x_title, y_title = translate(lang, "advice.chart.x"), translate(lang, "advice.chart.y")
    base = alt.Chart(alt.Data(name=_ROWS)).encode(
        x=alt.X("q:O", title=x_title, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("face:N", title=y_title, sort=labels, scale=alt.Scale(domain=labels),
                axis=alt.Axis(labelOverlap=False, labelFontSize=12)),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=alt.Color("p:Q", scale=alt.Scale(domain=[0, 1], scheme="greens"), legend=None),
        tooltip=[alt.Tooltip("bid:N", title=translate(lang, "advice.chart.bid")),
                 alt.Tooltip("chance:N", title=translate(lang, "advice.chart.p"))],
    )
    text = base.mark_text(fontSize=11).encode(
        text="label:N",
        color=alt.condition("datum.p > 0.6", alt.value("white"), alt.value(CHART_PICK_COLOR)),
    )
    layers = [cells, text]
    if with_pick:
        layers.append(base.transform_filter("datum.pick")
                      .mark_rect(fill=None, stroke=CHART_PICK_COLOR, strokeWidth=3))
    # Streamlit fits the whole chart, axes included, in the height: 32 px a row, 48 for the axis.
    spec = chart_spec(alt.layer(*layers).properties(height=len(faces) * 32 + 48))
    for layer in spec["layer"]:  # the layers share the top-level rows
        layer.pop("data", None)
    spec["data"] = {"name": _ROWS}
    return spec


def raise_spec(grid: Sequence[tuple[int, int, float]], pick: Bid | None) -> dict | None:
    """The heat map of ``grid`` (see :func:`cached_raise_grid`) as a Vega-Lite spec, or
    ``None`` when there is no legal raise to draw."""
    window = raise_window(grid, pick)
    if window is None:
        return None
    low, high = window
    lang = current_language()
    rows = [
        {
            "q": quantity,
            "face": face_label(face),
            "p": p,
            "label": _percent_label(p),
            "chance": format_percent(p, lang),
            "bid": Bid(quantity, face).pretty(),
            "pick": pick is not None and (quantity, face) == (pick.quantity, pick.face),
        }
        for face, quantity, p in grid
        if low <= quantity <= high
    ]
    faces = tuple(sorted({face for face, quantity, _ in grid if low <= quantity <= high}))
    with_pick = any(row["pick"] for row in rows)
    return _with_rows(raise_template(lang, faces, with_pick), rows)


def chart_spec(chart: alt.TopLevelMixin) -> dict:
    """The chart's Vega-Lite spec for ``st.vega_lite_chart``.

    Altair's default theme (a fixed 300 px view) is dropped: Streamlit sizes the chart to
    its container. Validation is skipped: the charts are fixed, and tests validate them.
    """
    spec = chart.to_dict(validate=False)
    spec.pop("config", None)
    return spec


@st.cache_data(max_entries=512, show_spinner=False)
def cached_distribution_spec(
    quantity: int, face: int, hand: tuple[int, ...], dice: int, palifico: bool, lang: str
) -> dict:
    """:func:`distribution_spec` of the bid's odds; ``lang`` keys the texts."""
    result = cached_odds(quantity, face, hand, dice, palifico)
    return distribution_spec(result.distribution, Bid(quantity, face))


@st.cache_data(max_entries=512, show_spinner=False)
def cached_raise_spec(table: Table, read_bids: bool, pick: Bid | None, lang: str) -> dict | None:
    """:func:`raise_spec` of the table's legal raises; ``lang`` keys the texts."""
    return raise_spec(cached_raise_grid(table, read_bids), pick)


__all__ = [
    "FACE_GLYPHS",
    "MAX_HAND_DICE",
    "PHONE_CSS",
    "TOUCH_TARGET_PX",
    "Table",
    "cached_advice",
    "cached_distribution_spec",
    "cached_odds",
    "cached_raise_grid",
    "cached_raise_spec",
    "cached_smallest_raises",
    "chart_spec",
    "distribution_spec",
    "distribution_template",
    "even_split",
    "face_label",
    "face_selector",
    "hand_keypad",
    "hand_text",
    "phone_page",
    "raise_spec",
    "raise_template",
    "raise_window",
    "round_selector",
]
