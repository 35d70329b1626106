"""The Odds & advice page in a real browser at phone size (390 × 844): tap a hand, set the
table and the bid, read the advice on the first screen, in English and in French."""

from __future__ import annotations

import re

import pytest

from tests.browser.kit import IDLE, OVERFLOW_JS, TO_TOP_JS, whole_page_screenshot

pytestmark = pytest.mark.browser

ADVICE = ".st-key-odds_advice"
"""The recommendation card."""




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


def set_table(page, *, hand, dice, players, quantity, face) -> None:
    """Every input of the page, as a player enters them at the table."""
    tap_hand(page, hand)
    set_number(page, "odds_dice", dice)
    set_number(page, "odds_players", players)
    set_number(page, "odds_qty", quantity)
    choose(page, "odds_face", face)


def advice_headline(page) -> str:
    return page.locator(f"{ADVICE} h2").inner_text()


def metric_values(page) -> list[str]:
    return page.get_by_test_id("stMetricValue").all_inner_texts()


def assert_fits_the_width(page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.evaluate(OVERFLOW_JS) == []


def assert_on_the_first_screen(page, selector: str) -> None:
    """``selector`` is wholly visible without scrolling (the page scrolled back to its top)."""
    page.evaluate(TO_TOP_JS)
    page.wait_for_timeout(200)
    box = page.locator(selector).bounding_box()
    assert box is not None
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box



README_TABLE = {"hand": [1, 1, 5, 2, 3], "dice": 8, "players": 3, "quantity": 4, "face": "5"}


def test_hand_and_bid_give_the_published_odds(app_url, phone, screenshot_dir) -> None:
    open_app(phone, app_url)
    set_table(phone, hand=[1, 2, 2, 5, 6], dice=20, players=4, quantity=5, face="4")
    phone.get_by_test_id("stMetricValue").first.filter(has_text="79.1%").wait_for()
    assert metric_values(phone)[0] == "79.1%"
    assert phone.get_by_text("5 dice: P 2 2 5 6").is_visible()
    assert phone.get_by_text("20 dice on the table: about 6.0 fours, pacos included.").count() == 1
    phone.get_by_test_id("stMetricValue").first.scroll_into_view_if_needed()
    phone.wait_for_timeout(300)
    phone.screenshot(path=screenshot_dir / "odds-phone-result.png")


def test_the_readme_hand_reads_raise_to_two_pacos_on_the_first_screen(
    app_url, phone, screenshot_dir
) -> None:
    open_app(phone, app_url)
    set_table(phone, **README_TABLE)
    phone.locator(ADVICE, has_text="challenging 4 × 5").wait_for()  # this bid's advice
    settled(phone)
    assert advice_headline(phone) == "RAISE to 2 × P"
    card = phone.locator(ADVICE).inner_text()
    assert "Chance you lose a die: 0%" in card
    assert "risks less than challenging 4 × 5" in card
    assert_on_the_first_screen(phone, ADVICE)
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / "advice-phone-en.png")
    whole_page_screenshot(phone, screenshot_dir / "advice-phone-full.png")


def test_the_same_advice_in_french(app_url, phone, screenshot_dir) -> None:
    open_app(phone, f"{app_url}/?lang=fr")
    assert phone.get_by_role("heading", name="Probabilités et conseils").is_visible()
    set_table(phone, **README_TABLE)
    phone.locator(ADVICE, has_text="contester 4 × 5").wait_for()
    settled(phone)
    assert advice_headline(phone) == "MONTEZ À 2 × P"
    card = phone.locator(ADVICE).inner_text()
    assert "Risque de perdre un dé\u00a0: 0\u202f%" in card
    assert "moins risqué que contester 4 × 5" in card
    assert_on_the_first_screen(phone, ADVICE)
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / "advice-phone-fr.png")
    whole_page_screenshot(phone, screenshot_dir / "advice-phone-fr-full.png")
    phone.reload()
    settled(phone)
    assert phone.get_by_role("heading", name="Probabilités et conseils").is_visible()
    assert "lang=fr" in phone.url


def test_no_bid_yet_opens_and_reading_can_be_switched_off(app_url, phone) -> None:
    open_app(phone, app_url)
    tap_hand(phone, [1, 2, 2, 5, 6])
    phone.locator(".st-key-odds_open label").click()
    settled(phone)
    phone.locator(f"{ADVICE} h2", has_text="OPEN with").wait_for()
    phone.locator(".st-key-odds_qty").wait_for(state="detached")  # no bid to enter
    settled(phone)
    assert_on_the_first_screen(phone, ADVICE)
    phone.locator(".st-key-odds_open label").click()
    settled(phone)
    phone.locator(".st-key-odds_qty").wait_for()
    before = phone.locator(ADVICE).inner_text()
    phone.locator(".st-key-odds_read label").click()
    settled(phone)
    phone.wait_for_function(
        "([sel, text]) => document.querySelector(sel)?.innerText !== text",
        arg=[ADVICE, before],
    )


def test_impossible_inputs_are_explained_inline(app_url, phone, screenshot_dir) -> None:
    open_app(phone, app_url)
    tap_hand(phone, [1, 2, 2, 5, 6])
    set_number(phone, "odds_dice", 7)
    alert = phone.get_by_test_id("stAlertContentError")
    alert.wait_for()
    assert "4 players need at least 8 dice on the table, not 7" in alert.inner_text()
    assert phone.locator(ADVICE).count() == 0
    assert phone.locator(".st-key-odds_dice input").input_value() == "7"  # the inputs stay
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / "advice-phone-error.png")


def test_a_tracked_game_fills_the_table(app_url, phone, screenshot_dir) -> None:
    from perudo_math import GameState

    code = GameState.new(["Ann", "Bob", "Cid"]).bid("3x4").bid("4x4").to_code()
    open_app(phone, f"{app_url}/?game={code}&me=2")
    phone.get_by_text("From the tracker: round 1 (normal)").wait_for()
    assert phone.locator(".st-key-odds_dice").count() == 0
    tap_hand(phone, [1, 2, 2, 5, 6])
    phone.locator(f"{ADVICE} h2").wait_for()
    assert advice_headline(phone).startswith("RAISE to ")
    assert_on_the_first_screen(phone, ADVICE)
    phone.screenshot(path=screenshot_dir / "advice-phone-tracked.png")


def test_language_follows_the_browser_locale(app_url, chromium_browser) -> None:
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    try:
        page = context.new_page()
        open_app(page, app_url)
        assert page.get_by_role("heading", name="Probabilités et conseils").is_visible()
        page.wait_for_url(re.compile(r"[?&]lang=fr\b"))
    finally:
        context.close()
