"""The Odds page in a real browser at phone size: tap a hand, read the odds, no sideways scroll."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
"""The app has finished its script run: safe to read."""

OVERFLOW_JS = """
() => {
  const limit = window.innerWidth + 1;
  const main = document.querySelector("[data-testid='stMain']") || document.body;
  const wide = [];
  for (const el of main.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.height > 0 && box.right > limit) {
      wide.push(`${el.tagName}.${el.className} right=${Math.round(box.right)}`);
    }
  }
  return wide.slice(0, 10);
}
"""


def open_app(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(IDLE)
    page.get_by_test_id("stMetricValue").first.wait_for()


def settled(page) -> None:
    page.wait_for_selector(IDLE)


def tap_hand(page, faces: list[int]) -> None:
    for count, face in enumerate(faces, start=1):
        page.locator(f".st-key-odds_add_{face} button").click()
        page.get_by_text(re.compile(rf"^{count} (die|dice|dé|dés)\s?:")).wait_for()
        settled(page)


def set_number(page, key: str, value: int) -> None:
    field = page.locator(f".st-key-{key} input")
    if field.input_value() != str(value):
        field.fill(str(value))
        field.press("Enter")
        page.wait_for_function(
            "([sel, v]) => document.querySelector(sel)?.value === v",
            arg=[f".st-key-{key} input", str(value)],
        )
    settled(page)


def choose(page, key: str, option_text: str) -> None:
    page.locator(f".st-key-{key} button", has_text=option_text).click()
    settled(page)


def metric_values(page) -> list[str]:
    return page.get_by_test_id("stMetricValue").all_inner_texts()


def assert_fits_the_width(page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.evaluate(OVERFLOW_JS) == []


def whole_page_screenshot(page, path) -> None:
    """Streamlit scrolls an inner container, so ``full_page`` sees one screen: grow the
    viewport to the content's height instead (the width, hence the layout, stays)."""
    size = page.viewport_size
    height = page.evaluate(
        "Math.max(...[...document.querySelectorAll('*')].map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": size["width"], "height": min(int(height), 4000)})
    page.wait_for_timeout(400)
    page.screenshot(path=path)
    page.set_viewport_size(size)


def test_hand_and_bid_give_the_published_odds(app_url, phone, screenshot_dir) -> None:
    open_app(phone, app_url)
    tap_hand(phone, [1, 2, 2, 5, 6])
    set_number(phone, "odds_dice", 20)
    set_number(phone, "odds_qty", 5)
    choose(phone, "odds_face", "4")
    phone.get_by_test_id("stMetricValue").first.filter(has_text="79.1%").wait_for()
    assert metric_values(phone)[0] == "79.1%"
    assert phone.get_by_text("5 dice: P 2 2 5 6").is_visible()
    assert phone.get_by_text("20 dice on the table: about 6.0 fours, pacos included.").count() == 1
    phone.screenshot(path=screenshot_dir / "odds-phone-top.png")
    phone.get_by_test_id("stMetricValue").first.scroll_into_view_if_needed()
    phone.wait_for_timeout(300)
    phone.screenshot(path=screenshot_dir / "odds-phone-result.png")
    whole_page_screenshot(phone, screenshot_dir / "odds-phone-full.png")


def test_no_horizontal_scroll_on_a_phone(app_url, phone) -> None:
    open_app(phone, app_url)
    assert phone.viewport_size["width"] == 390
    assert_fits_the_width(phone)
    tap_hand(phone, [1, 2, 2, 5, 6])
    choose(phone, "odds_face", "P")
    phone.get_by_role("heading", name="Bid 5 × P").wait_for()
    settled(phone)
    assert_fits_the_width(phone)


def test_french_from_the_query_parameter(app_url, phone, screenshot_dir) -> None:
    open_app(phone, f"{app_url}/?lang=fr")
    assert phone.get_by_role("heading", name="Probabilité d'une annonce").is_visible()
    tap_hand(phone, [1, 2, 2, 5, 6])
    choose(phone, "odds_face", "4")
    phone.get_by_test_id("stMetricValue").first.filter(has_text="79,1").wait_for()
    assert metric_values(phone)[0] == "79,1\u202f%"
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "odds-phone-fr.png")
    phone.reload()
    settled(phone)
    assert phone.get_by_role("heading", name="Probabilité d'une annonce").is_visible()
    assert "lang=fr" in phone.url


def test_language_follows_the_browser_locale(app_url, chromium_browser) -> None:
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    try:
        page = context.new_page()
        open_app(page, app_url)
        assert page.get_by_role("heading", name="Probabilité d'une annonce").is_visible()
        page.wait_for_url(re.compile(r"[?&]lang=fr\b"))
    finally:
        context.close()
