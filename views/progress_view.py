"""The progress page's charts, sized for a 390 px phone: accuracy and risk added over time,
calibration, accuracy per theme and the rating per theme.

``app_pages/progress.py`` reads the profile's numbers from the store and lays these out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt

from views import palette
from views.charts import CHART_FONT, FIT_WIDTH, ROW_PX
from views.i18n import format_percent, t


def accuracy_chart(labels: Sequence[str], values: Sequence[float],
                   title: str) -> alt.LayerChart | alt.FacetChart:
    """The share of right answers (0 to 1) over ``labels`` in order, each point printed as a
    percentage, on a 0% to 100% axis."""
    return _line_chart(labels, values, [format_percent(value) for value in values], title,
                       palette.COACH, top=1.0, axis_format="%")


def risk_points_chart(labels: Sequence[str], values: Sequence[float],
                      title: str) -> alt.LayerChart | alt.FacetChart:
    """The average risk added (a difference of probabilities, 0.467) over ``labels``, in
    whole points as the practice reveal says them (47; ``<1`` for a sliver), from 0 to a
    little above the largest value."""
    points = [value * 100 for value in values]
    top = min(100.0, max(5.0, *points) * 1.25)
    return _line_chart(labels, points, [_whole_points(point) for point in points], title,
                       palette.MINE, top=top, axis_format="d")


def _whole_points(points: float) -> str:
    if 0 < points < 0.5:
        return t("format.below", value="1")
    return str(round(points))


def title_lines(title: str) -> str | list[str]:
    """An axis title as its catalog breaks it (``\\n``): a title up the side of a 180 px
    chart has about 120 px, which a long one in one line overflows (its end cut off)."""
    lines = title.split("\n")
    return lines[0] if len(lines) == 1 else lines


def _line_chart(labels: Sequence[str], values: Sequence[float], texts: Sequence[str],
                title: str, color: str, top: float,
                axis_format: str) -> alt.LayerChart | alt.FacetChart:
    """A line of ``values`` over ``labels`` in order, each point printed with its text."""
    rows = [{"label": label, "value": value, "text": text}
            for label, value, text in zip(labels, values, texts, strict=True)]
    base = alt.Chart(alt.Data(values=rows)).encode(
        x=alt.X("label:O", sort=list(labels), title=None,
                axis=alt.Axis(labelAngle=-40, labelOverlap="parity", labelFontSize=11)),
        y=alt.Y("value:Q", title=title_lines(title), scale=alt.Scale(domain=[0, top]),
                axis=alt.Axis(format=axis_format, tickCount=4)),
    )
    line = base.mark_line(point=alt.OverlayMarkDef(color=color, size=50), color=color)
    text = base.mark_text(dy=-9, fontSize=11, color=palette.INK).encode(text="text:N")
    return alt.layer(line, text).properties(height=180)


def calibration_chart(rows: Sequence[tuple[float, float, int]]) -> alt.LayerChart | alt.FacetChart:
    """Observed frequency against the estimate, one point per band (sized by answers),
    with the diagonal of perfect calibration."""
    estimate_title, observed_title = t("progress.calibration.x"), t("progress.calibration.y")
    data = [{"estimate": estimate, "observed": observed, "answers": answers,
             "estimate_text": format_percent(estimate), "observed_text": format_percent(observed)}
            for estimate, observed, answers in rows]
    unit = alt.Scale(domain=[-0.04, 1.04], nice=False)  # room for a dot at 0% or 100%
    ticks = alt.Axis(format="%", values=[0, 0.2, 0.4, 0.6, 0.8, 1])
    diagonal = alt.Chart(alt.Data(values=[{"x": 0.0, "y": 0.0}, {"x": 1.0, "y": 1.0}])).mark_line(
        color=palette.OTHER, strokeDash=[5, 4]).encode(x=alt.X("x:Q", scale=unit),
                                                  y=alt.Y("y:Q", scale=unit))
    points_layer = alt.Chart(alt.Data(values=data)).mark_circle(
        color=palette.MINE, opacity=0.85).encode(
        x=alt.X("estimate:Q", title=estimate_title, scale=unit, axis=ticks),
        y=alt.Y("observed:Q", title=observed_title, scale=unit, axis=ticks),
        size=alt.Size("answers:Q", legend=None, scale=alt.Scale(range=[60, 400])),
        tooltip=[alt.Tooltip("estimate_text:N", title=estimate_title),
                 alt.Tooltip("observed_text:N", title=observed_title),
                 alt.Tooltip("answers:Q", title=t("progress.answers"))],
    )
    return alt.layer(diagonal, points_layer).properties(height=280)


def themes_chart(rows: Sequence[tuple[str, float, int, bool]]) -> alt.LayerChart | alt.FacetChart:
    """Accuracy per theme, weakest first: ``(label, accuracy, answers, weakest)`` rows."""
    weak, other = t("progress.themes.weak"), t("progress.themes.rest")
    data: list[dict[str, Any]] = [{"theme": label, "accuracy": accuracy, "answers": answers,
             "group": weak if weakest else other, "text": format_percent(accuracy)}
            for label, accuracy, answers, weakest in rows]
    order = [row["theme"] for row in data]
    domain = [group for group in (weak, other) if any(row["group"] == group for row in data)]
    colors = {weak: palette.MINE, other: palette.OTHER}
    base = alt.Chart(alt.Data(values=data)).encode(
        y=alt.Y("theme:N", sort=order, title=None,
                axis=alt.Axis(labelFontSize=CHART_FONT, labelLimit=150)),
        x=alt.X("accuracy:Q", title=t("progress.themes.x"), scale=alt.Scale(domain=[0, 1.2]),
                axis=alt.Axis(format="%", values=[0, 0.5, 1])),
    )
    bars = base.mark_bar(height={"band": 0.75}, stroke=palette.INK).encode(
        color=alt.Color("group:N", scale=alt.Scale(domain=domain,
                                                   range=[colors[g] for g in domain]),
                        legend=alt.Legend(title=None, orient="top")),
        # The weakest themes framed as well as coloured: not told by colour alone.
        strokeWidth=alt.condition(alt.datum.group == weak, alt.value(2), alt.value(0)),
        tooltip=[alt.Tooltip("theme:N", title=t("progress.themes.theme")),
                 alt.Tooltip("text:N", title=t("progress.themes.x")),
                 alt.Tooltip("answers:Q", title=t("progress.answers"))],
    )
    text = base.mark_text(align="left", dx=3, fontSize=CHART_FONT, color=palette.INK).encode(
        text="text:N")
    return alt.layer(bars, text).properties(height=ROW_PX * len(data), autosize=FIT_WIDTH)


def ratings_chart(rows: Sequence[tuple[str, float, float]]) -> alt.LayerChart | alt.FacetChart:
    """Each theme's rating as a dot with its uncertainty (± deviation) as a bar."""
    data: list[dict[str, Any]] = [{"theme": label, "rating": rating, "low": rating - deviation,
             "high": rating + deviation, "text": str(round(rating))}
            for label, rating, deviation in rows]
    order = [row["theme"] for row in data]
    low = min(1000.0, *(row["low"] for row in data))
    high = max(2000.0, *(row["high"] for row in data))
    y = alt.Y("theme:N", sort=order, title=None,
              axis=alt.Axis(labelFontSize=CHART_FONT, labelLimit=150))
    x_scale = alt.Scale(domain=[low, high], zero=False, nice=False)
    spread = alt.Chart(alt.Data(values=data)).mark_rule(
        color=palette.OTHER, strokeWidth=6).encode(
        y=y, x=alt.X("low:Q", title=t("progress.ratings.x"), scale=x_scale,
                     axis=alt.Axis(tickCount=4, format="d")),
        x2="high:Q")
    dot = alt.Chart(alt.Data(values=data)).mark_circle(size=120, color=palette.COACH,
                                                       opacity=1).encode(
        y=y, x=alt.X("rating:Q", scale=x_scale),
        tooltip=[alt.Tooltip("theme:N", title=t("progress.themes.theme")),
                 alt.Tooltip("text:N", title=t("progress.ratings.x"))])
    text = alt.Chart(alt.Data(values=data)).mark_text(dy=-12, fontSize=11,
                                                      color=palette.INK).encode(
        y=y, x=alt.X("rating:Q", scale=x_scale), text="text:N")
    return alt.layer(spread, dot, text).properties(height=(ROW_PX + 8) * len(data),
                                                   autosize=FIT_WIDTH)


__all__ = [
    "accuracy_chart",
    "calibration_chart",
    "ratings_chart",
    "risk_points_chart",
    "themes_chart",
    "title_lines",
]
