"""The tracker at a real table, on a 390 × 844 phone, in English, French and Spanish, with every tap
counted: set up five players, bid, call dudo with the count typed, and a palifico round whose
new hand the advice asks for afresh.

Five players start with two dice (``?dice=2``): Bob's false 3 × 5 drops him to one die, so
round 2 is palifico, opened by Bob. I am Ann, and still hold two dice in round 2, as in round 1:
the dice entered for round 1 must not be reused. The taps each task takes are asserted (the
issue's budget) and printed as a table (``pytest -s``). Screenshots go to
``test-output/screenshots/tracker-table-*.png``.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from playwright.sync_api import Locator, Page, expect

from perudo_math import GameState
from tests.browser.kit import (
    ADVICE,
    alert,
    assert_fits_the_width,
    assert_on_the_first_screen,
    open_page,
    script_run,
    url_param,
    whole_page_screenshot,
    with_names,
)
from views.i18n import translate

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]

MINE = {  # this work's own catalog texts
    "en": {
        "no_count": "Nothing recorded yet: type how many dice were counted, then tap Dudo.",
        "palifico_open": "Palifico round: pacos are not jokers, and the face Bob opens on "
                         "stays for the whole round.",
        "palifico_frozen": "Palifico round: pacos are not jokers, and the face is frozen on "
                           "threes; only the quantity goes up.",
        "hand_missing": "Round 2: your 2 dice are not entered yet. The advice asks for them.",
        "hand_entered": "Your dice this round: ⚁ ⚅",
    },
    "fr": {
        "no_count": "Rien n'est encore noté\u00a0: saisissez le nombre de dés comptés, puis "
                    "touchez Dudo.",
        "palifico_open": "Manche palifico\u00a0: les pacos ne sont pas des jokers, et la face sur "
                         "laquelle Bob ouvre reste la même toute la manche.",
        "palifico_frozen": "Manche palifico\u00a0: les pacos ne sont pas des jokers, et la face "
                           "reste bloquée sur les 3\u202f; seule la quantité monte.",
        "hand_missing": "Manche 2\u00a0: vos 2\u00a0dés ne sont pas encore saisis. Le conseil "
                        "vous les demandera.",
        "hand_entered": "Vos dés de cette manche\u00a0: ⚁ ⚅",
    },
    "es": {
        "no_count": "Aún no hay nada anotado: escribe cuántos dados se contaron y toca Dudo.",
        "palifico_open": "Ronda palifico: los pacos no son comodines, y la cara con la que "
                         "abra Bob se mantiene toda la ronda.",
        "palifico_frozen": "Ronda palifico: los pacos no son comodines, y la cara queda fija "
                           "en los treses; solo sube la cantidad.",
        "hand_missing": "Ronda 2: tus 2 dados aún no están marcados. El consejo los necesita.",
        "hand_entered": "Tus dados en esta ronda: ⚁ ⚅",
    },
}

BUDGET = {
    # 5 name fields, a fifth row (the set-up starts with four), "which one are you" (2),
    # Start; the roll opens
    "set up 5 players": 9,
    "record a bid (new face)": 2,
    "record a raise (same face)": 1,
    "record a dudo with its count": 2,  # the count field, Dudo (the count itself is typed)
    "new round: enter my hand": 3,  # Advice, then one tap per die held (2 here)
    "ask advice (hand entered)": 1,
}
TYPED = {"set up 5 players": 5, "record a dudo with its count": 1}


class Taps:
    """A phone user's taps (and typed entries), counted per task; each tap that reruns the
    script waits for that run."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.task = ""
        self.taps: Counter[str] = Counter()
        self.typed: Counter[str] = Counter()

    def doing(self, task: str) -> Taps:
        self.task = task
        return self

    def tap(self, target: Locator) -> None:
        with script_run(self.page):
            target.click()
        self.taps[self.task] += 1

    def tap_key(self, key: str) -> None:
        self.tap(self.page.locator(f".st-key-{key} button").first)

    def type_in(self, field: Locator, text: str) -> None:
        """Tap a field and type: the field sends its value when the next tap leaves it."""
        field.click()
        field.fill(text)
        self.taps[self.task] += 1
        self.typed[self.task] += 1

    def choose(self, key: str, option: str) -> None:
        box = self.page.locator(f".st-key-{key} [role='combobox']")
        box.click()
        self.taps[self.task] += 1
        self.tap(self.page.get_by_role("option", name=option, exact=True))
        expect(box).to_have_value(option)

    def back(self) -> None:
        with script_run(self.page):
            self.page.go_back()
        self.taps[self.task] += 1

    def table(self) -> str:
        lines = ["| task | taps | typed |", "|---|---|---|"]
        lines += [f"| {task} | {self.taps[task]} | {self.typed[task]} |" for task in BUDGET]
        return "\n".join(lines)


def main(page: Page) -> Locator:
    return page.locator("[data-testid='stMain']")


def face(page: Page, value: str) -> Locator:
    """A face button of the bid entry (``⚃ 4``) by its face."""
    return page.locator(".st-key-tracker_face [role='radio']").filter(
        has_text=re.compile(rf"\s{value}$"))


def game_in_url(page: Page) -> GameState:
    return GameState.from_code(url_param(page, "game"))


def banner(page: Page) -> Locator:
    """The palifico banner's text."""
    return page.locator(".st-key-tracker_palifico [data-testid='stMarkdownContainer']")


def bid(taps: Taps, quantity: int, value: str) -> None:
    """The face (unless it is picked already: a raise on it), then the quantity."""
    page = taps.page
    bids = len(game_in_url(page).bids)
    if face(page, value).get_attribute("aria-checked") != "true":
        taps.tap(face(page, value))
    taps.tap_key(f"tracker_q_{quantity}")
    expect(page).to_have_url(re.compile("game="))
    assert len(game_in_url(page).bids) == bids + 1


def play_the_table(page: Page, app_url: str, lang: str, shots) -> Taps:
    text = MINE[lang]
    taps = Taps(page)
    open_page(page, f"{app_url}/game?dice=2", lang=lang)

    taps.doing("set up 5 players").tap_key("tracker_add")  # four rows to start: a fifth
    for row, name in enumerate(NAMES):
        taps.type_in(page.locator(f".st-key-tracker_name_{row} input"), name)
    taps.choose("tracker_me", "Ann")
    taps.doing("(a fixed opener for the test)").choose("tracker_opener", "Ann")
    assert_fits_the_width(page)
    whole_page_screenshot(page, shots / f"tracker-table-{lang}-setup.png")
    taps.doing("set up 5 players").tap(
        page.get_by_role("button", name=translate(lang, "tracker.setup.start")))
    expect(page.locator(".st-key-tracker_face")).to_be_visible()
    assert [p.name for p in game_in_url(page).players] == NAMES
    assert_fits_the_width(page)

    # Round 1: my two dice on the advice's keypad, then back to the game.
    advice_link = page.get_by_role("link", name=translate(lang, "tracker.advice"))
    taps.doing("(round 1: my hand)").tap(advice_link)
    for die in (3, 5):
        taps.tap_key(f"odds_add_{die}")
    expect(page.locator(ADVICE)).to_be_visible()
    taps.back()

    taps.doing("record a bid (new face)")
    bid(taps, 2, "5")  # Ann
    face(page, "5").click()  # a tap on the picked face (as the label says) keeps it picked
    expect(face(page, "5")).to_have_attribute("aria-checked", "true")
    expect(page.locator(".st-key-tracker_q_3")).to_be_visible()
    taps.doing("record a raise (same face)")
    bid(taps, 3, "5")  # Bob: one tap

    count = page.locator(".st-key-tracker_count input")
    expect(count).to_have_value("")  # nobody has counted yet
    taps.doing("(a dudo without its count)").tap_key("tracker_dudo")
    expect(alert(page, "Error")).to_have_text(text["no_count"])
    assert not game_in_url(page).results
    page.screenshot(path=shots / f"tracker-table-{lang}-count.png")

    taps.doing("record a dudo with its count")
    taps.type_in(count, "2")
    taps.tap_key("tracker_dudo")  # Cid: two fives, Bob's 3 × 5 was false
    expect(banner(page)).to_be_visible()
    state = game_in_url(page)
    assert [p.dice for p in state.players] == [2, 1, 2, 2, 2]
    assert state.palifico and state.opener == 1

    # Round 2, palifico: the banner on the first screen, and my hand still to enter.
    expect(banner(page)).to_have_text(with_names(text["palifico_open"], whole=True))
    assert_on_the_first_screen(page, ".st-key-tracker_palifico")
    expect(main(page)).to_contain_text(text["hand_missing"])
    assert_fits_the_width(page)
    page.screenshot(path=shots / f"tracker-table-{lang}-palifico.png")
    taps.doing("(the other players bid)")
    bid(taps, 1, "3")  # Bob opens on threes
    expect(banner(page)).to_have_text(with_names(text["palifico_frozen"], whole=True))
    for quantity in (2, 3, 4):  # Cid, Dee, Eve
        bid(taps, quantity, "3")

    taps.doing("new round: enter my hand")
    taps.tap(advice_link)
    keypad_empty = translate(lang, "hand.empty")
    asked = translate(lang, "odds.new_round.other", count=2, round=2)
    expect(main(page)).to_contain_text(keypad_empty)  # round 1's dice are gone
    expect(main(page)).to_contain_text(asked)
    expect(page.locator(ADVICE)).to_have_count(0)
    page.screenshot(path=shots / f"tracker-table-{lang}-fresh-hand.png")
    for die in (2, 6):
        taps.tap_key(f"odds_add_{die}")
    expect(page.locator(ADVICE)).to_be_visible()
    taps.doing("(back to the game)").back()
    expect(main(page)).to_contain_text(text["hand_entered"])

    taps.doing("ask advice (hand entered)")
    taps.tap(advice_link)
    expect(page.locator(ADVICE)).to_be_visible()
    assert_fits_the_width(page)
    whole_page_screenshot(page, shots / f"tracker-table-{lang}-advice.png")
    return taps


def assert_within_budget(taps: Taps) -> None:
    print(f"\n{taps.table()}")
    assert {task: taps.taps[task] for task in BUDGET} == BUDGET
    assert {task: taps.typed[task] for task in TYPED} == TYPED


def test_a_table_of_five_in_english(app_url, phone, screenshot_dir) -> None:
    assert_within_budget(play_the_table(phone, app_url, "en", screenshot_dir))


def test_a_table_of_five_in_french(app_url, phone, screenshot_dir) -> None:
    assert_within_budget(play_the_table(phone, app_url, "fr", screenshot_dir))


def test_a_table_of_five_in_spanish(app_url, phone, screenshot_dir) -> None:
    assert_within_budget(play_the_table(phone, app_url, "es", screenshot_dir))
