"""The charts drawn on a tap, as HTML made on the server, sized for a phone: the odds page's
two and the practice reveal's bars of each move.

A Vega-Lite chart cost the phone a chart library's work on every tap (and the server an
Altair spec: 60 to 120 ms of a practice answer); these are a plain table and rows of bars that
the browser lays out like text: the heat map of every legal raise is a ``<table>`` whose cells
are coloured from :mod:`views.palette`, its labels in header cells outside the rows; the
distribution of the matching count is a row of CSS bars; :func:`rows_html` draws one bar per
row. Each mark's exact numbers are in its ``title`` (the tooltip). Show them with ``st.html``.
The layout constants are shared with the altair charts of the progress page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape

import numpy as np

from perudo_math import Bid, Hand
from views import palette
from views.dice import face_label
from views.engine_cache import Table, cached_odds, cached_raise_grid, cached_read_odds
from views.i18n import format_percent, format_whole_percent, translate

CHART_FONT = 12
"""Axis labels and printed values of the horizontal charts."""
ROW_PX = 32
"""The height of one bar (or one row) of a horizontal chart: room for its label."""
FIT_WIDTH = {"type": "fit-x", "contains": "padding"}
"""Altair charts with one row per item: fit the width, and take ``height`` for the rows alone
(Streamlit's default ``fit`` squeezes axes and legend into it)."""
RAISE_CHART_COLUMNS = 10
"""At most this many quantities side by side: cells stay wide enough to read on a phone."""
RAISE_CHART_MIN_COLUMNS = 5
"""At least this many quantities when the table allows: a palifico round's single row of
raises still reads as a row of cells, not one block."""
BARS_PX = 180
"""The height of the distribution's bars at 100 % of its scale."""
MAX_TICKS = 4
"""At most this many gridlines above zero on the distribution's scale."""
TICK_STEPS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5)
"""Distances between gridlines, as fractions: the smallest that keeps within ``MAX_TICKS``."""
LABEL_EM = 7.5
"""The width of a row chart's labels (a move such as "10 × 6 ★ ●" fits)."""
ROWS_TOP = 1.18
"""A row chart's scale runs to this share (above 100 %): room for the value after a full bar."""
ROWS_TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)
MAX_COUNT_LABELS = 14
"""At most this many counts labelled under the bars at 390 px; the others every second (or
third...) count, like Vega's parity thinning."""

CHART_CSS = f"""<style>
.pc-heat {{ width: 100%; table-layout: fixed; border-collapse: collapse; margin: 0;
  font-size: {CHART_FONT}px; line-height: 1.2; font-variant-numeric: tabular-nums; }}
.pc-heat th, .pc-heat td {{ padding: 0; border: 1px solid {palette.PAPER}; text-align: center;
  font-weight: normal; white-space: nowrap; background: none; color: {palette.INK}; }}
.pc-heat thead th {{ height: 20px; vertical-align: bottom; }}
.pc-heat .pc-axis {{ font-size: {CHART_FONT - 1}px; font-weight: 600; }}
.pc-heat col.pc-labels {{ width: 3.6em; }}
.pc-heat tbody th {{ text-align: right; padding-right: 6px; }}
.pc-heat tbody td, .pc-heat tbody th {{ height: {ROW_PX}px; }}
.pc-heat td.pc-pick {{ box-shadow: inset 0 0 0 3px {palette.INK}; }}
.pc-dist, .pc-rows {{ margin: 0; font-size: {CHART_FONT}px; line-height: 1.2;
  font-variant-numeric: tabular-nums; }}
.pc-dist .pc-legend, .pc-rows .pc-legend {{ display: flex; flex-wrap: wrap; gap: 4px 14px;
  justify-content: center; margin-bottom: 6px; }}
.pc-dist .pc-swatch, .pc-rows .pc-swatch {{ display: inline-block; width: 10px; height: 10px;
  margin-right: 4px; vertical-align: baseline; }}
.pc-dist .pc-plot {{ display: flex; padding-top: 8px; }}
.pc-dist .pc-ticks {{ position: relative; flex: none; width: 3em; height: {BARS_PX}px; }}
.pc-dist .pc-ticks span {{ position: absolute; right: 4px; transform: translateY(50%);
  white-space: nowrap; }}
.pc-dist .pc-area {{ position: relative; flex: 1; min-width: 0; }}
.pc-dist .pc-grid {{ position: absolute; left: 0; right: 0; height: 0;
  border-top: 1px solid {palette.GREY}; opacity: 0.5; }}
.pc-dist .pc-bars {{ position: relative; display: flex; align-items: flex-end;
  height: {BARS_PX}px; border-bottom: 1px solid {palette.INK}; }}
.pc-dist .pc-bar {{ flex: 1; min-width: 0; height: 100%; display: flex;
  align-items: flex-end; padding: 0 1px; }}
.pc-dist .pc-bar span {{ display: block; width: 100%; }}
.pc-dist .pc-true {{ background: {palette.TRUE}; }}
.pc-dist .pc-false {{ background: repeating-linear-gradient(135deg, {palette.FALSE} 0 2px,
  {palette.PAPER} 2px 4px); box-shadow: inset 0 0 0 1px {palette.FALSE}; }}
.pc-dist .pc-counts {{ display: flex; }}
.pc-dist .pc-counts span {{ flex: 1; min-width: 0; text-align: center; overflow: visible;
  white-space: nowrap; }}
.pc-dist .pc-axis, .pc-rows .pc-axis {{ text-align: center; font-weight: 600;
  margin-top: 2px; }}
.pc-dist .pc-y {{ font-weight: 600; margin-bottom: 2px; }}
.pc-rows .pc-row, .pc-rows .pc-scale {{ display: grid; grid-template-columns: {LABEL_EM}em 1fr;
  align-items: center; }}
.pc-rows .pc-row {{ height: {ROW_PX}px; }}
.pc-rows .pc-label {{ text-align: right; padding-right: 6px; overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; }}
.pc-rows .pc-track {{ position: relative; height: 75%; display: flex; align-items: center;
  border-left: 1px solid {palette.INK}; }}
.pc-rows .pc-bar {{ height: 100%; flex: none; }}
.pc-rows .pc-value {{ padding-left: 3px; white-space: nowrap; }}
.pc-rows .pc-grid {{ position: absolute; top: -12.5%; bottom: -12.5%; width: 0;
  border-left: 1px solid {palette.GREY}; opacity: 0.5; }}
.pc-rows .pc-ticks {{ position: relative; height: 1.3em; border-top: 1px solid {palette.INK}; }}
.pc-rows .pc-ticks span {{ position: absolute; top: 2px; transform: translateX(-50%);
  white-space: nowrap; }}
.pc-figure {{ margin: 0; }}
.pc-figure .pc-title {{ font-weight: 600; margin: 0 0 0.75rem; }}
.pc-figure .pc-caption {{ font-size: 0.875rem; color: {palette.CAPTION};
  margin: 0.75rem 0 0; }}
</style>"""
"""The charts' look: one style sheet, sent with each chart (a style alone would go to the
event container, and the chart must not depend on another element being there)."""


def _text(value: object) -> str:
    """``value`` as HTML text or attribute value."""
    return escape(str(value), quote=True)


def _tooltip(lang: str, *fields: tuple[str, object]) -> str:
    """``Face: ⚀ P · Bid: 2 × P``: a mark's fields as a ``title`` attribute's value."""
    return _text(" · ".join(translate(lang, "format.field", name=name, value=value)
                            for name, value in fields))


# --- colours -------------------------------------------------------------------------------


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def heat_colour(p: float) -> str:
    """The cell colour of chance ``p``: :data:`views.palette.HEAT_RAMP` from 0 (pale) to 1
    (dark green), interpolated between its stops."""
    ramp = palette.HEAT_RAMP
    position = min(max(p, 0.0), 1.0) * (len(ramp) - 1)
    index = min(int(position), len(ramp) - 2)
    share = position - index
    low, high = _rgb(ramp[index]), _rgb(ramp[index + 1])
    mixed = (round(a + (b - a) * share) for a, b in zip(low, high, strict=True))
    return "#" + "".join(f"{channel:02x}" for channel in mixed)


def figure(chart: str, caption: str, title: str | None = None) -> str:
    """``chart`` (from this module) with its caption under it and its title, if any, above:
    one element for the page to draw where there were three."""
    heading = "" if title is None else f'<p class="pc-title">{_text(title)}</p>'
    return (f'<div class="pc-figure">{heading}{chart}'
            f'<p class="pc-caption">{_text(caption)}</p></div>')


# --- one bar per row ------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One bar of :func:`rows_html`: its label, its length (a share, 0 to 1), the value printed
    after it, its colour (:mod:`views.palette`) and its tooltip's fields."""

    label: str
    share: float
    value: str
    colour: str
    fields: tuple[tuple[str, object], ...] = ()


def rows_html(rows: Sequence[Row], legend: Sequence[tuple[str, str]], x_title: str, alt: str,
              lang: str) -> str:
    """Horizontal bars, one row each, on a scale of percentages from 0 to 100 %: the legend
    (label, colour) above, each bar's value after it, gridlines at each quarter. The browser
    lays it out like text: no chart library on the phone, no chart spec on the server."""
    keys = "".join(
        f'<span><span class="pc-swatch" style="background:{colour}"></span>{_text(label)}</span>'
        for label, colour in legend)
    grid = "".join(f'<div class="pc-grid" style="left:{tick / ROWS_TOP * 100:.2f}%"></div>'
                   for tick in ROWS_TICKS[1:])
    bars = "".join(
        f'<div class="pc-row" title="{_tooltip(lang, *row.fields)}">'
        f'<span class="pc-label">{_text(row.label)}</span><div class="pc-track">{grid}'
        f'<span class="pc-bar" style="width:{min(max(row.share, 0.0), 1.0) / ROWS_TOP * 100:.2f}%;'
        f'background:{row.colour}"></span><span class="pc-value">{_text(row.value)}</span>'
        f"</div></div>"
        for row in rows)
    ticks = "".join(
        f'<span style="left:{tick / ROWS_TOP * 100:.2f}%">{_text(_whole_percent(tick, lang))}'
        f"</span>" for tick in ROWS_TICKS)
    return (
        f'{CHART_CSS}<figure class="pc-rows" role="img" aria-label="{_text(alt)}">'
        f'<div class="pc-legend">{keys}</div>{bars}'
        f'<div class="pc-scale"><span></span><div class="pc-ticks">{ticks}</div></div>'
        f'<div class="pc-axis">{_text(x_title)}</div></figure>'
    )


# --- the odds of one bid ---------------------------------------------------------------------


def _visible_range(distribution: Sequence[float] | np.ndarray, quantity: int) -> tuple[int, int]:
    """The counts worth drawing: where the chance is at least 0.1%, widened to show the bid."""
    shown = [k for k, p in enumerate(distribution) if p >= 0.001]
    if not shown:
        shown = [max(range(len(distribution)), key=lambda k: distribution[k])]
    low, high = shown[0], shown[-1]
    last = len(distribution) - 1
    if quantity <= last:
        low, high = min(low, quantity), max(high, quantity)
    return low, high


def tick_step(top: float) -> float:
    """The distance between gridlines for a scale reaching at least ``top``."""
    for step in TICK_STEPS:
        if top <= step * MAX_TICKS:
            return step
    return TICK_STEPS[-1]


def _whole_percent(p: float, lang: str) -> str:
    return format_whole_percent(p, lang)


def distribution_html(distribution: Sequence[float] | np.ndarray, bid: Bid, lang: str) -> str:
    """Bars of P(count = k) for the matching count k, the bars that make ``bid`` true in green,
    the others hatched grey, in ``lang``.

    Sized for a phone: at most a few dozen bars (the negligible tails are cut), the counts
    labelled every so often when they would crowd, the legend above the bars, gridlines at
    round percentages. Each bar's count and chance are in its tooltip.
    """
    low, high = _visible_range(distribution, bid.quantity)
    chances = [float(distribution[k]) for k in range(low, high + 1)]
    step = tick_step(max(chances))
    top = step * max(1, math.ceil(max(chances) / step - 1e-9))
    ticks = [step * n for n in range(round(top / step) + 1)]
    x_title, y_title = translate(lang, "odds.chart.x"), translate(lang, "odds.chart.y")
    every = math.ceil(len(chances) / MAX_COUNT_LABELS)

    legend = "".join(
        f'<span><span class="pc-swatch {kind}"></span>{_text(label)}</span>'
        for kind, label in (("pc-true", translate(lang, "odds.chart.true")),
                            ("pc-false", translate(lang, "odds.chart.false")))
    )
    tick_labels = "".join(
        f'<span style="bottom:{tick / top * 100:.2f}%">{_text(_whole_percent(tick, lang))}</span>'
        for tick in ticks
    )
    grid = "".join(f'<div class="pc-grid" style="bottom:{tick / top * 100:.2f}%"></div>'
                   for tick in ticks[1:])
    bars, counts = [], []
    for k, p in zip(range(low, high + 1), chances, strict=True):
        kind = "pc-true" if k >= bid.quantity else "pc-false"
        tip = _tooltip(lang, (x_title, k), (y_title, format_percent(p, lang)))
        bars.append(f'<div class="pc-bar" title="{tip}"><span class="{kind}" style="height:'
                    f'{p / top * 100:.2f}%"></span></div>')
        counts.append(f"<span>{k if (k - low) % every == 0 else ''}</span>")
    return (
        f'{CHART_CSS}<figure class="pc-dist" role="img" '
        f'aria-label="{_text(translate(lang, "odds.chart.alt", bid=bid.pretty()))}">'
        f'<div class="pc-legend">{legend}</div>'
        f'<div class="pc-y">{_text(y_title)}</div>'
        f'<div class="pc-plot"><div class="pc-ticks">{tick_labels}</div>'
        f'<div class="pc-area"><div class="pc-bars">{grid}{"".join(bars)}</div>'
        f'<div class="pc-counts">{"".join(counts)}</div></div></div>'
        f'<div class="pc-axis">{_text(x_title)}</div></figure>'
    )


@lru_cache(maxsize=512)
def cached_distribution_html(bid: Bid, hand: Hand, dice: int, palifico: bool, lang: str) -> str:
    """:func:`distribution_html` of the bid's odds from the dice alone."""
    result = cached_odds(bid, hand, dice, palifico)
    return distribution_html(result.distribution, bid, lang)


@lru_cache(maxsize=512)
def cached_read_distribution_html(table: Table, read_bids: bool, bid: Bid, lang: str) -> str:
    """:func:`distribution_html` of the bid's odds as the coach reads ``table`` (see
    :func:`views.engine_cache.cached_read_odds`; the dice alone when no bid is read)."""
    result = cached_read_odds(table, read_bids, bid)
    if result is None:
        situation = table.situation
        return cached_distribution_html(bid, situation.hand, situation.table_dice,
                                        situation.palifico, lang)
    return distribution_html(result.distribution, bid, lang)


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


def raise_html(grid: Sequence[tuple[int, int, float]], pick: Bid | None, lang: str) -> str | None:
    """A quantity × face heat map of P(bid true) over the legal raises of ``grid`` (see
    :func:`views.engine_cache.cached_raise_grid`), the pick outlined, in ``lang``; ``None``
    when there is no legal raise to draw.

    Each cell prints its chance in whole percent, so the map reads without a legend; darker
    green is likelier true. The rows are the faces with a legal raise, each ``ROW_PX`` tall
    whatever their number, labelled in header cells beside them; the quantities head the
    columns. A cell's tooltip names its bid and its chance.
    """
    window = raise_window(grid, pick)
    if window is None:
        return None
    low, high = window
    chances = {(face, quantity): p for face, quantity, p in grid if low <= quantity <= high}
    faces = sorted({face for face, _ in chances})
    y_title, bid_title = translate(lang, "advice.chart.y"), translate(lang, "advice.chart.bid")
    p_title = translate(lang, "advice.chart.p")
    quantities = range(low, high + 1)
    head = "".join(f'<th scope="col">{quantity}</th>' for quantity in quantities)
    rows = []
    for face in faces:
        label = face_label(face)
        cells = []
        for quantity in quantities:
            p = chances.get((face, quantity))
            if p is None:
                cells.append("<td></td>")
                continue
            bid = Bid(quantity, face)
            tip = _tooltip(lang, (y_title, label), (bid_title, bid.pretty()),
                           (p_title, format_percent(p, lang)))
            picked = ' class="pc-pick"' if bid == pick else ""
            cells.append(f'<td{picked} style="background:{heat_colour(p)}" '
                         f'title="{tip}">{_text(_percent_label(p))}</td>')
        rows.append(f'<tr><th scope="row">{_text(label)}</th>{"".join(cells)}</tr>')
    return (
        f'{CHART_CSS}<table class="pc-heat" '
        f'aria-label="{_text(translate(lang, "advice.chart.alt"))}">'
        f'<colgroup><col class="pc-labels">{"<col>" * len(quantities)}</colgroup>'
        f'<thead><tr><th></th><th class="pc-axis" colspan="{len(quantities)}">'
        f'{_text(translate(lang, "advice.chart.x"))}</th></tr>'
        f'<tr><th class="pc-axis" scope="col">{_text(y_title)}</th>{head}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table>'
    )


@lru_cache(maxsize=512)
def cached_raise_html(table: Table, read_bids: bool, pick: Bid | None, lang: str) -> str | None:
    """:func:`raise_html` of the table's legal raises."""
    return raise_html(cached_raise_grid(table, read_bids), pick, lang)


__all__ = [
    "CHART_CSS",
    "CHART_FONT",
    "FIT_WIDTH",
    "RAISE_CHART_COLUMNS",
    "RAISE_CHART_MIN_COLUMNS",
    "ROW_PX",
    "cached_distribution_html",
    "cached_raise_html",
    "cached_read_distribution_html",
    "distribution_html",
    "figure",
    "heat_colour",
    "raise_html",
    "raise_window",
    "tick_step",
]
