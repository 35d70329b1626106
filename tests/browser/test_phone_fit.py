"""Every page on a 390 × 844 phone: nothing scrolls sideways, in each language, axe-core finds
nothing serious, and the
controls of the phone-first pages are at least 44 px tall (a thumb at a noisy table).

The pages come from the entry script (every ``st.Page``'s ``url_path``, so a page added later
is checked too), and a test holds the sidebar's links to the same list.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.kit import (
    assert_fits_the_width,
    axe_findings,
    laid_out,
    open_page,
    tap,
    whole_page_screenshot,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "streamlit_app.py"
TOUCH_TARGET_PX = 44
# The same floor as views.style.TOUCH_TARGET_PX, restated: the test states the requirement.


def declared_pages() -> list[tuple[str, str, bool]]:
    """``(file, url_path, default)`` of every ``st.Page`` in the entry script."""
    pages = []
    for node in ast.walk(ast.parse(ENTRY.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "Page"):
            keywords = {k.arg: k.value for k in node.keywords}
            default = keywords.get("default")
            pages.append((
                node.args[0].value,
                keywords["url_path"].value,
                isinstance(default, ast.Constant) and default.value is True,
            ))
    return pages


def hidden_paths() -> set[str]:
    """The url paths of pages declared with ``visibility="hidden"`` (not in the menu)."""
    hidden = set()
    for node in ast.walk(ast.parse(ENTRY.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "Page":
            keywords = {k.arg: k.value for k in node.keywords}
            visibility = keywords.get("visibility")
            if isinstance(visibility, ast.Constant) and visibility.value == "hidden":
                hidden.add(keywords["url_path"].value)
    return hidden


PAGES = declared_pages()


TARGETS_JS = """
(selectors) => {
  const root = document.querySelector(".st-key-phone-page");
  if (!root) return null;
  const found = {};
  for (const selector of selectors) {
    found[selector] = [...root.querySelectorAll(selector)]
      .map(el => [el.innerText.trim().slice(0, 30), Math.round(el.getBoundingClientRect().height)])
      .filter(([, height]) => height > 0);
  }
  return found;
}
"""

TARGETS = (
    "[data-testid='stButton'] button",
    "[data-testid='stButtonGroup'] button",
    "[data-testid='stNumberInputContainer']",
    "[data-testid='stNumberInputContainer'] button",
    "[data-testid='stCheckbox'] label",
    "[data-testid='stRadio'] [role='radiogroup'] label",
)
"""What a thumb taps: buttons, segments, steppers and their ± buttons, switches, radio rows."""


def page_id(page: tuple[str, str, bool]) -> str:
    return page[1]


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_no_page_scrolls_sideways(app_url, phone, screenshot_dir, page, lang) -> None:
    """Every page as it opens, in each language: no sideways scroll, and no serious or
    critical finding of axe-core (issue 32; the other states a player sees are in
    ``test_accessibility_browser.py``)."""
    _, url_path, _ = page
    open_page(phone, f"{app_url}/{url_path}", lang=lang)
    assert phone.viewport_size == {"width": 390, "height": 844}
    assert not phone.get_by_test_id("stException").count()
    assert_fits_the_width(phone)
    assert axe_findings(phone) == []
    phone.screenshot(path=screenshot_dir / f"fit-{url_path}-{lang}.png")


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_no_page_scrolls_sideways_with_a_tracked_game(app_url, phone, page) -> None:
    """A tracked game fills the pages with names, bids and notes: still no sideways scroll."""
    from perudo_math import GameState

    game = GameState.new(["Annabelle", "Bartholomew", "Cid", "Dominique", "Eve", "Fitzgerald"])
    code = game.bid("3x4").bid("4x4").bid("5x4").to_code()
    open_page(phone, f"{app_url}/{page[1]}?game={code}&me=3", lang="fr")
    assert not phone.get_by_test_id("stException").count()
    assert_fits_the_width(phone)


def test_the_sidebar_lists_every_declared_page(app_url, phone) -> None:
    open_page(phone, app_url)
    links = phone.evaluate(
        "[...document.querySelectorAll(\"[data-testid='stSidebarNav'] a\")]"
        ".map(a => new URL(a.href).pathname.replace(/^\\//, ''))"
    )
    declared = {"" if default else url_path for _, url_path, default in PAGES}
    hidden = hidden_paths()  # e.g. the odds page's own address: the menu links it at /
    assert set(links) == declared - hidden


def assert_touch_targets(page: Page) -> dict[str, list]:
    laid_out(page)
    found = page.evaluate(TARGETS_JS, list(TARGETS))
    assert found is not None, "not a phone-first page"
    small = {selector: [t for t in targets if t[1] < TOUCH_TARGET_PX]
             for selector, targets in found.items()}
    assert not any(small.values()), small
    return found


def test_the_odds_page_controls_are_thumb_sized(app_url, phone) -> None:
    open_page(phone, app_url)
    tap(phone, "odds_add_5")
    expect(phone.get_by_text(re.compile(r"^1 die\s?:"))).to_be_visible()
    found = assert_touch_targets(phone)
    for selector in (TARGETS[0], TARGETS[1], TARGETS[4]):
        assert found[selector], f"no {selector} on the odds page"
    labels = [label for label, _ in found[TARGETS[0]]]
    assert labels.count("−") == labels.count("+") == 2  # the table's and the players' steppers


def test_the_settings_page_controls_are_thumb_sized(app_url, phone, screenshot_dir) -> None:
    settings = next(url_path for file, url_path, _ in PAGES if file == "app_pages/settings.py")
    open_page(phone, f"{app_url}/{settings}")
    found = assert_touch_targets(phone)
    for selector in (TARGETS[0], TARGETS[1], TARGETS[2], TARGETS[4], TARGETS[5]):
        assert found[selector], f"no {selector} on the settings page"
    whole_page_screenshot(phone, screenshot_dir / "settings-phone-full.png")
