"""Charts sized for a phone: the odds page's Vega-Lite templates and the layout every chart shares.

Altair writes each odds chart once per language (and layout) as a Vega-Lite template whose
data is a named placeholder; a rerun only fills in the rows. Building and validating an
Altair chart takes tens of milliseconds, filling a template a fraction of one. Colours come
from :mod:`views.palette`.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import streamlit as st

from perudo_math import Bid
from views import palette
from views.dice import face_label
from views.engine_cache import Table, cached_odds, cached_raise_grid, cached_read_odds
from views.i18n import current_language, format_percent, t, translate

CHART_FONT = 12
"""Axis labels and printed values of the horizontal charts."""
ROW_PX = 32
"""The height of one bar (or one row) of a horizontal chart: room for its label."""
FIT_WIDTH = alt.AutoSizeParams(type="fit-x", contains="padding")
"""Charts with one row per item: fit the width, and take ``height`` for the rows alone
(Streamlit's default ``fit`` squeezes axes and legend into it)."""
RAISE_CHART_COLUMNS = 10
"""At most this many quantities side by side: cells stay wide enough to read on a phone."""
RAISE_CHART_MIN_COLUMNS = 5
"""At least this many quantities when the table allows: a palifico round's single row of
raises still reads as a row of cells, not one block."""

_ROWS = "rows"


def chart_spec(chart: alt.TopLevelMixin) -> dict:
    """The chart's Vega-Lite spec for ``st.vega_lite_chart``.

    Altair's default theme (a fixed 300 px view) is dropped: Streamlit sizes the chart to
    its container. Validation is skipped: the charts are fixed, and tests validate them.
    """
    spec = chart.to_dict(validate=False)
    spec.pop("config", None)
    return spec


def _with_rows(template: dict, rows: list[dict]) -> dict:
    """A template (a fresh copy from the cache) with its placeholder data filled in."""
    template["data"] = {"values": rows}
    return template


# --- the odds of one bid ---------------------------------------------------------------------


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
                                range=[palette.TRUE, palette.FALSE]),
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


@st.cache_data(max_entries=512, show_spinner=False)
def cached_distribution_spec(
    quantity: int, face: int, hand: tuple[int, ...], dice: int, palifico: bool, lang: str
) -> dict:
    """:func:`distribution_spec` of the bid's odds; ``lang`` keys the texts."""
    result = cached_odds(quantity, face, hand, dice, palifico)
    return distribution_spec(result.distribution, Bid(quantity, face))


@st.cache_data(max_entries=512, show_spinner=False)
def cached_read_distribution_spec(
    table: Table, read_bids: bool, quantity: int, face: int, lang: str
) -> dict:
    """:func:`distribution_spec` of the bid's odds as the coach reads ``table`` (see
    :func:`views.engine_cache.cached_read_odds`; the dice alone when no bid is read)."""
    result = cached_read_odds(table, read_bids, quantity, face)
    if result is None:
        situation = table.situation()
        return cached_distribution_spec(quantity, face, table.hand, situation.table_dice,
                                        table.palifico, lang)
    return distribution_spec(result.distribution, Bid(quantity, face))


# --- every legal raise -----------------------------------------------------------------------


def raise_window(
    grid: Sequence[tuple[int, int, float]], pick: Bid | None
) -> tuple[int, int] | None:
    """The quantities worth a column: where some legal raise is neither near-sure nor
    near-hopeless, widened to show the coach's pick and to ``RAISE_CHART_MIN_COLUMNS`` where
    the grid has them, at most ``RAISE_CHART_COLUMNS`` wide."""
    if not grid:
        return None
    uncertain = [q for _, q, p in grid if 0.005 <= p <= 0.995]
    quantities = uncertain or [q for _, q, _ in grid]
    low = min(quantities)
    if pick is not None:
        low = min(low, pick.quantity)
    top = max(q for _, q, _ in grid)
    high = min(max(max(quantities), low + RAISE_CHART_MIN_COLUMNS - 1), top)
    high = min(high, low + RAISE_CHART_COLUMNS - 1)
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
    darker green is more likely true. ``faces`` are the rows (faces with a legal raise), each
    ``ROW_PX`` tall whatever their number: the axes come on top of the rows, never out of
    them. The rows need no title beside them (their labels are die faces): it is in the
    tooltip.
    """
    labels = [face_label(face) for face in faces]
    x_title, y_title = translate(lang, "advice.chart.x"), translate(lang, "advice.chart.y")
    base = alt.Chart(alt.Data(name=_ROWS)).encode(
        x=alt.X("q:O", title=x_title, axis=alt.Axis(labelAngle=0, labelFontSize=CHART_FONT)),
        y=alt.Y("face:N", title=None, sort=labels, scale=alt.Scale(domain=labels),
                axis=alt.Axis(labelOverlap=False, labelFontSize=CHART_FONT, labelPadding=6)),
    )
    cells = base.mark_rect(stroke=palette.PAPER, strokeWidth=1).encode(
        color=alt.Color("p:Q", scale=alt.Scale(domain=[0, 1], scheme=palette.HEAT_SCHEME),
                        legend=None),
        tooltip=[alt.Tooltip("face:N", title=y_title),
                 alt.Tooltip("bid:N", title=translate(lang, "advice.chart.bid")),
                 alt.Tooltip("chance:N", title=translate(lang, "advice.chart.p"))],
    )
    text = base.mark_text(fontSize=11).encode(
        text="label:N",
        color=alt.condition("datum.p > 0.6", alt.value(palette.PAPER), alt.value(palette.INK)),
    )
    layers = [cells, text]
    if with_pick:
        layers.append(base.transform_filter("datum.pick")
                      .mark_rect(fill=None, stroke=palette.INK, strokeWidth=3))
    spec = chart_spec(alt.layer(*layers).properties(height=len(faces) * ROW_PX,
                                                    autosize=FIT_WIDTH))
    for layer in spec["layer"]:  # the layers share the top-level rows
        layer.pop("data", None)
    spec["data"] = {"name": _ROWS}
    return spec


def raise_spec(grid: Sequence[tuple[int, int, float]], pick: Bid | None) -> dict | None:
    """The heat map of ``grid`` (see :func:`views.engine_cache.cached_raise_grid`) as a
    Vega-Lite spec, or ``None`` when there is no legal raise to draw."""
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


@st.cache_data(max_entries=512, show_spinner=False)
def cached_raise_spec(table: Table, read_bids: bool, pick: Bid | None, lang: str) -> dict | None:
    """:func:`raise_spec` of the table's legal raises; ``lang`` keys the texts."""
    return raise_spec(cached_raise_grid(table, read_bids), pick)


__all__ = [
    "CHART_FONT",
    "FIT_WIDTH",
    "RAISE_CHART_COLUMNS",
    "RAISE_CHART_MIN_COLUMNS",
    "ROW_PX",
    "cached_distribution_spec",
    "cached_raise_spec",
    "cached_read_distribution_spec",
    "chart_spec",
    "distribution_spec",
    "distribution_template",
    "raise_spec",
    "raise_template",
    "raise_window",
]
