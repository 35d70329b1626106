"""Accessibility checked in the browser (issue 32, point 3): axe-core over every page in each
language (every page as it opens: ``test_phone_fit.py``) and in the states a player sees (a
hand and a bid with the advice and its charts, a palifico round at the odds page and in the
tracker, a practice answer, a game against the bots): no serious or critical violation. And
the whole odds query with a keyboard alone."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from perudo_math import Bid, BidMade, DudoCalled, GameState, Rules
from tests.browser.kit import (
    advice_headline,
    axe_findings,
    choose_segment,
    open_details,
    open_page,
    script_run,
    tap,
)
from tests.browser.test_odds_browser import open_app, pick_quantity, tap_hand
from views.dice import face_label
from views.i18n import LANGUAGES, translate

pytestmark = pytest.mark.browser

violations = axe_findings
"""axe-core's serious and critical findings on the page as it is."""


def test_the_check_finds_what_it_is_for(app_url, phone) -> None:
    """A button with no name, put on a page, is found (so is Streamlit's own caption grey,
    4.46:1 at 60 % opacity, without the app's style sheet: see :mod:`views.style`)."""
    open_page(phone, f"{app_url}/cheat-sheet")
    phone.evaluate("""() => document.querySelector('[data-testid=stMainBlockContainer]')
        .insertAdjacentHTML('beforeend', '<button id="nameless"></button>')""")
    assert any(line.startswith("button-name (critical): ['#nameless']")
               for line in violations(phone))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_advice_and_its_charts_in_a_normal_and_a_palifico_round(app_url, phone,
                                                                     lang) -> None:
    open_app(phone, app_url, lang=lang)
    tap_hand(phone, [1, 2, 2, 5, 6])
    choose_segment(phone, "odds_face", face_label(4))
    pick_quantity(phone, 5)
    expect(advice_headline(phone)).to_be_visible()
    open_details(phone)
    assert phone.locator("table.pc-heat, figure.pc-dist").count() >= 1
    normal = violations(phone)
    choose_segment(phone, "odds_round", translate(lang, "round.palifico"))
    expect(phone.locator("table.pc-heat").first).to_be_visible()
    assert (normal, violations(phone)) == ([], [])


def palifico_game() -> GameState:
    """Three players of two dice; the opener's false bid costs it a die: it opens a palifico
    round holding one."""
    game = GameState.new(["Ana", "Bruno", "Chloé"], Rules(starting_dice=2))
    game = game.apply(BidMade(None, Bid(1, 2))).apply(DudoCalled(None, 0))
    assert game.palifico
    return game.apply(BidMade(None, Bid(1, 3)))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tracked_palifico_round(app_url, phone, lang) -> None:
    game = palifico_game()
    open_page(phone, f"{app_url}/game?game={quote(game.to_code())}", lang=lang)
    expect(phone.get_by_text(re.compile("palifico", re.IGNORECASE)).first).to_be_visible()
    assert violations(phone) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_practice_answer_and_a_game_against_the_bots(app_url, phone, lang) -> None:
    open_page(phone, f"{app_url}/train", lang=lang)
    with script_run(phone):
        phone.locator(".st-key-practice_dudo button:visible, "
                      ".st-key-practice_answer button:visible").first.click()
    answered = violations(phone)
    open_page(phone, f"{app_url}/vs-bots", lang=lang)
    tap(phone, "play_start")
    expect(phone.locator(".st-key-play_face")).to_be_visible()
    assert (answered, violations(phone)) == ([], [])


# --- the keyboard alone ----------------------------------------------------------------------


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focus is inside ``selector``."""
    for _ in range(limit):
        if page.evaluate(f"() => !!document.activeElement?.closest({selector!r})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def press(page: Page, key: str) -> None:
    with script_run(page):
        page.keyboard.press(key)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_odds_query_with_a_keyboard_alone(app_url, phone, lang) -> None:
    """Five dice, the bid's face and quantity, then the advice: Tab, Enter and the arrows."""
    open_app(phone, app_url, lang=lang)
    for count, face in enumerate([1, 2, 2, 5, 6], start=1):
        tab_to(phone, f".st-key-odds_add_{face}")
        press(phone, "Enter")
        expect(phone.get_by_text(re.compile(rf"^{count} \w+\s?:"))).to_be_visible()
    tab_to(phone, ".st-key-odds_face")
    while not phone.evaluate(
            "() => document.activeElement?.textContent?.includes(arguments[0])"
            .replace("arguments[0]", repr(face_label(4)))):
        phone.keyboard.press("ArrowRight")
    press(phone, "Enter")
    tab_to(phone, ".st-key-odds_qty")
    press(phone, "Enter")
    expect(advice_headline(phone)).to_be_visible()
