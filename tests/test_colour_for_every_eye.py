"""Colours for every eye (issue 32, point 4): WCAG 2.2 AA contrast for the palette's text and
marks and for every cell of the heat map, the pairs that carry a meaning apart under each
simulated colour-blindness, and charts that never say a thing by colour alone."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from perudo_math import Bid
from tests.colour_science import (
    MACHADO,
    VISIONS,
    Vision,
    ciede2000,
    contrast,
    difference,
    seen,
)
from views import charts, palette

ROOT = Path(__file__).resolve().parents[1]
TEXT, MARKS = 4.5, 3.0
"""WCAG 2.2 AA: 1.4.3 (text) and 1.4.11 (graphical objects)."""
SECONDARY = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text("utf-8"))[
    "theme"]["secondaryBackgroundColor"]


# --- the measures, against published values --------------------------------------------------


@pytest.mark.parametrize(("one", "other", "published"), [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0000),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
])
def test_ciede2000_gives_sharmas_published_differences(one, other, published) -> None:
    """Sharma, Wu and Dalal (2005), table 1: pairs 1–3, 7, 13, 18 and 17."""
    assert round(ciede2000(one, other), 4) == published


def test_contrast_gives_wcags_values() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert round(contrast("#767676", "#ffffff"), 2) == 4.54  # the grey WCAG's notes cite


@pytest.mark.parametrize("vision", [vision for vision in VISIONS if vision != "normal"])
def test_a_simulated_eye_keeps_greys_and_confuses_what_it_should(vision: Vision) -> None:
    for row in MACHADO[vision]:
        assert sum(row) == pytest.approx(1.0, abs=1e-3)  # white and greys stay as they are
    assert [round(channel) for channel in seen("#808080", vision)] == [128, 128, 128]
    confused = {"protanopia": ("#ff0000", "#7f6a00"), "deuteranopia": ("#ff0000", "#a08c00"),
                "tritanopia": ("#00a0ff", "#20b020")}[vision]
    assert difference(*confused, vision) < difference(*confused, "normal") / 2


# --- the palette -----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "ground"), [
    (palette.INK, palette.PAPER), (palette.INK, SECONDARY), (palette.CAPTION, palette.PAPER),
    (palette.CAPTION, SECONDARY), (palette.PAPER, palette.BRAND)])
def test_text_reads_at_4_5_to_1(text: str, ground: str) -> None:
    assert contrast(text, ground) >= TEXT


@pytest.mark.parametrize("mark", [palette.TRUE, palette.FALSE, palette.COACH, palette.MINE,
                                  palette.OTHER, palette.BRAND])
def test_marks_stand_out_at_3_to_1(mark: str) -> None:
    assert contrast(mark, palette.PAPER) >= MARKS


def test_every_heat_map_cell_reads_at_4_5_to_1() -> None:
    """Its number is printed in the ink on the cell of each chance, 0 to 1 by thousandths."""
    worst = min(contrast(palette.INK, charts.heat_colour(step / 1000)) for step in range(1001))
    assert worst >= TEXT


@pytest.mark.parametrize(("one", "other"), [
    (palette.TRUE, palette.FALSE), (palette.COACH, palette.MINE), (palette.MINE, palette.OTHER),
    (palette.COACH, palette.OTHER)], ids=["true/false", "coach/mine", "mine/other",
                                          "coach/other"])
@pytest.mark.parametrize("vision", VISIONS)
def test_pairs_that_mean_something_stay_apart_for_every_eye(one: str, other: str,
                                                             vision: Vision) -> None:
    assert difference(one, other, vision) >= palette.DISTINCT


# --- never by colour alone -------------------------------------------------------------------


def test_false_counts_are_hatched_not_only_grey() -> None:
    html = charts.distribution_html([0.1, 0.2, 0.3, 0.4], Bid(2, 5), "en")
    assert html.count('class="pc-false"') == 2 and html.count('class="pc-true"') == 2
    assert "repeating-linear-gradient" in charts.CHART_CSS.split(".pc-false")[1].split("}")[0]
    assert 'pc-swatch pc-false' in html and 'pc-swatch pc-true' in html  # the legend too


def test_the_coachs_cell_is_framed() -> None:
    html = charts.raise_html([(5, 2, 0.4), (5, 3, 0.2)], Bid(2, 5), "en")
    assert html is not None and html.count('class="pc-pick"') == 1
    assert "box-shadow" in charts.CHART_CSS.split(".pc-pick")[1].split("}")[0]
