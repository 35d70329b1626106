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


def test_every_caption_is_drawn_in_the_palettes_caption_grey() -> None:
    """Streamlit's captions (the ink at 60 %, 4.46:1) are drawn in :data:`palette.CAPTION`
    by the style sheet of every page, as the app's own small text is."""
    from views.style import MENU_CSS
    from views.text import small

    rule = MENU_CSS.split('[data-testid="stCaptionContainer"]')[1].split("}")[0]
    assert f"color: {palette.CAPTION}" in rule
    assert palette.CAPTION in small("x")
