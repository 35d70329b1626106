"""The row chart (``views.charts.rows_html``): one bar per row, laid out by the browser."""

from __future__ import annotations

import re

from views import charts, palette


def widths(html: str) -> list[float]:
    return [float(width) for width in re.findall(r'class="pc-bar" style="width:([\d.]+)%', html)]


def test_each_bar_is_as_long_as_its_share_on_one_scale() -> None:
    rows = [charts.Row("a", 0.5, "50%", palette.COACH), charts.Row("b", 0.25, "25%", palette.MINE),
            charts.Row("c", 1.4, "140%", palette.OTHER), charts.Row("d", -0.1, "0%", palette.OTHER)]
    html = charts.rows_html(rows, [], "x", "alt", "en")
    top = 100 / charts.ROWS_TOP
    assert widths(html) == [round(top * share, 2) for share in (0.5, 0.25, 1.0, 0.0)]
    assert [f"{top * tick:.2f}" for tick in charts.ROWS_TICKS] == re.findall(
        r'<span style="left:([\d.]+)%">', html)


def test_labels_values_legend_and_tooltips_are_text() -> None:
    row = charts.Row("<b>7 × 5 ★</b>", 0.3, "30.0%", palette.COACH,
                     (("Move", "7 × 5 ★"), ("Lose a die", "30.0%")))
    html = charts.rows_html([row], [("Coach's choice", palette.COACH)], "Chance", "A chart", "en")
    assert "<b>" not in html.split("</style>")[1] and "&lt;b&gt;7 × 5 ★&lt;/b&gt;" in html
    assert 'title="Move: 7 × 5 ★ · Lose a die: 30.0%"' in html
    swatch = f'class="pc-swatch" style="background:{palette.COACH}"></span>'
    assert swatch + "Coach&#x27;s choice" in html
    assert 'role="img" aria-label="A chart"' in html and ">30.0%<" in html
