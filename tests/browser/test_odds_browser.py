"""The Odds & advice page in a real browser at phone size (390 × 844): tap a hand, set the
table and the bid, read the advice on the first screen, in English and in French."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from coach import Situation, advise
from perudo_math import Bid, Hand, Rules
from tests.browser.kit import (
    ADVICE,
    advice_headline,
    assert_fits_the_width,
    assert_on_the_first_screen,
    choose_segment,
    flip,
    laid_out,
    metric_values,
    open_page,
    phone_context,
    reload_page,
    set_stepper,
    tap,
    whole_page_screenshot,
)
from views.i18n import format_percent

pytestmark = pytest.mark.browser


def open_app(page: Page, url: str, *, lang: str | None = None) -> None:
    open_page(page, url, lang=lang)
    expect(page.get_by_test_id("stMetricValue").first).to_be_visible()


def tap_hand(page: Page, faces: list[int]) -> None:
    for count, face in enumerate(faces, start=1):
        tap(page, f"odds_add_{face}")
        expect(page.get_by_text(re.compile(rf"^{count} (die|dice|dé|dés)\s?:"))).to_be_visible()


def set_table(page: Page, *, hand, dice, players, quantity, face) -> None:
    """Every input of the page, as a player enters them at the table."""
    tap_hand(page, hand)
    set_stepper(page, "odds_dice", dice)
    set_stepper(page, "odds_players", players)
    set_stepper(page, "odds_qty", quantity)
    choose_segment(page, "odds_face", face)


README_TABLE = {"hand": [1, 1, 5, 2, 3], "dice": 8, "players": 3, "quantity": 4, "face": "5"}


def test_hand_and_bid_give_the_published_odds(app_url, phone, screenshot_dir) -> None:
    open_app(phone, app_url)
    set_table(phone, hand=[1, 2, 2, 5, 6], dice=20, players=4, quantity=5, face="4")
    expect(phone.get_by_test_id("stMetricValue").first).to_have_text("79.1%")
    assert metric_values(phone)[0] == "79.1%"
    assert phone.get_by_text("5 dice: P 2 2 5 6").is_visible()
    assert phone.get_by_text("20 dice on the table: about 6.0 fours, pacos included.").count() == 1
    phone.get_by_test_id("stMetricValue").first.scroll_into_view_if_needed()
    laid_out(phone)
    phone.screenshot(path=screenshot_dir / "odds-phone-result.png")


README_ADVICE = {
    "en": {
        "heading": "Odds & advice",
        "this_bid": "challenging 4 × 5",
        "headline": "RAISE to 2 × P",
        "risk": "Chance you lose a die: {lose}",
        "compared": "risks less than challenging 4 × 5",
    },
    "fr": {
        "heading": "Probabilités et conseils",
        "this_bid": "contester 4 × 5",
        "headline": "ANNONCEZ 2 × P",
        "risk": "Risque de perdre un dé\u00a0: {lose}",
        "compared": "moins risqué que de contester 4 × 5",
    },
}
"""What the advice card says for the README's hand, word for word in each language; the
risk (what the rest of the round leaves of it) comes from the engine."""


def readme_risk(lang: str) -> str:
    """The chance the README's raise costs a die, as the page formats it."""
    spot = Situation(Rules(), (5, 2, 1), 0, Hand([1, 1, 5, 2, 3]), ((2, Bid(4, 5)),))
    return format_percent(advise(spot).best.lose, lang)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_readme_hand_reads_raise_to_two_pacos_on_the_first_screen(
    app_url, phone, screenshot_dir, lang
) -> None:
    text = README_ADVICE[lang]
    open_app(phone, app_url, lang=lang)
    assert phone.get_by_role("heading", name=text["heading"]).is_visible()
    set_table(phone, **README_TABLE)
    expect(phone.locator(ADVICE)).to_contain_text(text["this_bid"])  # this bid's advice
    assert advice_headline(phone).inner_text() == text["headline"]
    card = phone.locator(ADVICE).inner_text()
    assert text["risk"].format(lose=readme_risk(lang)) in card
    assert text["compared"] in card
    assert_on_the_first_screen(phone, ADVICE)
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / f"advice-phone-{lang}.png")
    whole_page_screenshot(phone, screenshot_dir / f"advice-phone-{lang}-full.png")
    reload_page(phone)  # the language stays with the page
    expect(phone.get_by_role("heading", name=text["heading"])).to_be_visible()
    assert f"lang={lang}" in phone.url


def test_no_bid_yet_opens_and_reading_can_be_switched_off(app_url, phone) -> None:
    open_app(phone, app_url)
    tap_hand(phone, [1, 2, 2, 5, 6])
    flip(phone, "odds_open")
    expect(advice_headline(phone)).to_contain_text("OPEN with")
    expect(phone.locator(".st-key-odds_qty")).to_have_count(0)  # no bid to enter
    assert_on_the_first_screen(phone, ADVICE)
    flip(phone, "odds_open")
    expect(phone.locator(".st-key-odds_qty")).to_be_visible()
    before = phone.locator(ADVICE).inner_text()
    flip(phone, "odds_read")
    expect(phone.locator(ADVICE)).not_to_have_text(before, use_inner_text=True)


def test_impossible_inputs_are_explained_inline(app_url, phone, screenshot_dir) -> None:
    open_app(phone, app_url)
    tap_hand(phone, [1, 2, 2, 5, 6])
    set_stepper(phone, "odds_dice", 7)
    alert = phone.get_by_test_id("stAlertContentError")
    expect(alert).to_be_visible()
    assert "4 players need at least 8 dice on the table, not 7" in alert.inner_text()
    assert phone.locator(ADVICE).count() == 0
    assert phone.locator(".st-key-odds_dice input").input_value() == "7"  # the inputs stay
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / "advice-phone-error.png")


def test_a_tracked_game_fills_the_table(app_url, phone, screenshot_dir) -> None:
    from perudo_math import GameState

    code = GameState.new(["Ann", "Bob", "Cid"]).bid("3x4").bid("4x4").to_code()
    open_app(phone, f"{app_url}/?game={code}&me=2")
    expect(phone.get_by_text("From the tracker: round 1 (normal)")).to_be_visible()
    assert phone.locator(".st-key-odds_dice").count() == 0
    tap_hand(phone, [1, 2, 2, 5, 6])
    expect(advice_headline(phone)).to_be_visible()
    assert advice_headline(phone).inner_text().startswith("RAISE to ")
    assert_on_the_first_screen(phone, ADVICE)
    phone.screenshot(path=screenshot_dir / "advice-phone-tracked.png")


def test_language_follows_the_browser_locale(app_url, chromium_browser) -> None:
    context = phone_context(chromium_browser, locale="fr-FR")
    try:
        page = context.new_page()
        open_app(page, app_url)
        assert page.get_by_role("heading", name="Probabilités et conseils").is_visible()
        page.wait_for_url(re.compile(r"[?&]lang=fr\b"))
    finally:
        context.close()
