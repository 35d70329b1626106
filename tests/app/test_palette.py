"""One colour palette: ``views.palette`` holds every colour the app draws with, and agrees with
the Streamlit theme and the web app manifest."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from views import palette

ROOT = Path(__file__).resolve().parents[2]
UI_SOURCES = sorted(
    [ROOT / "streamlit_app.py", *(ROOT / "app_pages").glob("*.py"), *(ROOT / "views").glob("*.py")]
)
COLOUR = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?\b|\"(?:white|black)\"")
"""A colour written in code: ``#abc``, ``#1b7f4b``, or a named ``"white"``/``"black"``."""


def test_the_palette_is_the_theme() -> None:
    theme = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text("utf-8"))["theme"]
    assert (theme["primaryColor"], theme["textColor"], theme["backgroundColor"]) == (
        palette.BRAND, palette.INK, palette.PAPER)


def test_the_home_screen_manifest_uses_the_palette() -> None:
    manifest = json.loads((ROOT / "static" / "manifest.webmanifest").read_text("utf-8"))
    assert (manifest["theme_color"], manifest["background_color"]) == (
        palette.BRAND, palette.PAPER)


@pytest.mark.parametrize("path", UI_SOURCES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_colours_come_from_the_palette(path: Path) -> None:
    if path.name == "palette.py":
        return
    found = COLOUR.findall(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)} writes colours {found}: use views.palette"


def test_the_scan_finds_colours() -> None:
    assert COLOUR.findall('color="#1b7f4b", stroke="white", fill="#fff"') == [
        "#1b7f4b", '"white"', "#fff"]
    assert COLOUR.findall((ROOT / "views" / "palette.py").read_text(encoding="utf-8"))


def test_a_caption_inside_a_block_looks_like_a_caption() -> None:
    """Streamlit draws a caption in the theme's text colour at 60 % opacity on the page."""
    def rgb(colour: str) -> list[int]:
        return [int(colour[i:i + 2], 16) for i in (1, 3, 5)]

    blended = [round(0.6 * ink + 0.4 * paper)
               for ink, paper in zip(rgb(palette.INK), rgb(palette.PAPER), strict=True)]
    assert all(abs(a - b) <= 1 for a, b in zip(blended, rgb(palette.CAPTION), strict=True))
