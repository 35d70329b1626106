"""The game tracker in a real browser at phone size: two rounds with a palifico round, a reload
and a reopened tab that find the game intact, French, literal names, a damaged link.

Three players start with two dice (``?dice=2``), so one lost die drops a player to one die
and the next round is palifico. Screenshots go to ``test-output/screenshots/tracker-*.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from perudo_math import Bid, GameState
from tests.browser.kit import (
    ISOLATES,
    alert,
    assert_fits_the_width,
    choose_option,
    choose_segment,
    flip,
    open_page,
    phone_context,
    reload_page,
    script_run,
    set_text,
    tap,
    tap_named,
    type_into,
    url_param,
    whole_page_screenshot,
    with_names,
)

pytestmark = pytest.mark.browser

WORD_JOINER = "\u2060"


TEXT = {
    "en": {
        "title": "Game tracker",
        "round1": "Round 1 — 6 dice on the table — Ann opens",
        "dudo1": "Dudo by Bob on 2 × 5: 1 counted — Ann loses a die",
        "round2": "Round 2 — 5 dice on the table — Ann opens — palifico",
        "dudo2": "Dudo by Cid on 2 × P: 2 counted — Cid loses a die",
        "round3": "Round 3 — 4 dice on the table — Cid opens — palifico",
        "refusal": "In a palifico round bids stay on pacos: bid at least 2 × P.",
        "log": "Rounds (2)",
        "start": "Start the game",
        "bluffs": "Who bluffs?",
        "held": ["Ann's bids held 1 time out of 2.", "Bob's one bid checked so far held."],
    },
    "fr": {
        "title": "Suivi de partie",
        "round1": "Manche 1 — 6 dés sur la table — Ann ouvre",
        "dudo1": "Bob dit dudo sur 2 × 5\u00a0: 1 compté — Ann perd un dé",
        "round2": "Manche 2 — 5 dés sur la table — Ann ouvre — palifico",
        "dudo2": "Cid dit dudo sur 2 × P\u00a0: 2 comptés — Cid perd un dé",
        "round3": "Manche 3 — 4 dés sur la table — Cid ouvre — palifico",
        "refusal": "En manche palifico, on reste sur les pacos\u00a0: annoncez au moins 2 × P.",
        "log": "Manches (2)",
        "start": "Commencer la partie",
        "bluffs": "Qui bluffe\u202f?",
        "held": ["Ann\u00a0: 1 annonce sur 2 s'est vérifiée.",
                 "Bob\u00a0: une seule annonce jugée jusqu'ici, et elle s'est vérifiée."],
    },
}


# --- helpers ---------------------------------------------------------------------------------


def header(page: Page):
    return page.locator("[data-testid='stMain'] h3").first


def start(page: Page, names: list[str], lang: str) -> None:
    for row, name in enumerate(names):
        set_text(page, f"tracker_name_{row}", name)
    choose_option(page, "tracker_opener", names[0])
    choose_option(page, "tracker_me", names[0])
    tap_named(page, TEXT[lang]["start"])
    expect(page.locator(".st-key-tracker_face")).to_be_visible()


def face(value: str) -> re.Pattern:
    """A face button's label (``⚃ 4``) by its face."""
    return re.compile(rf"\s{value}$")


def bid(page: Page, quantity: int, value: str, bidder: str) -> None:
    """Two taps: the face (unless it is still picked from the last bid), then the quantity."""
    choose_segment(page, "tracker_face", face(value))
    tap(page, f"tracker_q_{quantity}")
    expect(page.locator("[data-testid='stMain']")).to_contain_text(
        re.compile(rf"{bidder}[{ISOLATES}]* .*{quantity} × {value}"))


def dudo(page: Page, count: int, result: str) -> None:
    type_into(page, page.locator(".st-key-tracker_count input"), count)
    tap(page, "tracker_dudo")
    expect(alert(page, "Info")).to_have_text(with_names(result, whole=True))


def game_in_url(page: Page) -> GameState:
    return GameState.from_code(url_param(page, "game"))


def play_two_rounds(page: Page, app_url: str, lang: str, shots, tag: str) -> None:
    """Set up Ann, Bob and Cid with two dice each and play into the first palifico round."""
    text = TEXT[lang]
    open_page(page, f"{app_url}/game?dice=2", lang=lang)
    expect(page.get_by_role("heading", name=text["title"])).to_be_visible()
    start(page, ["Ann", "Bob", "Cid"], lang)
    expect(header(page)).to_have_text(with_names(text["round1"], whole=True))
    page.screenshot(path=shots / f"tracker-{tag}-round1.png")
    assert_fits_the_width(page)

    bid(page, 2, "5", "Ann")
    dudo(page, 1, text["dudo1"])
    expect(header(page)).to_have_text(with_names(text["round2"], whole=True))

    bid(page, 1, "P", "Ann")
    choose_segment(page, "tracker_face", face("4"))  # frozen in palifico: refused, with why
    refusal = page.get_by_test_id("stAlertContentWarning").last  # below the palifico banner
    expect(refusal.get_by_test_id("stMarkdownContainer")).to_have_text(text["refusal"])
    assert_fits_the_width(page)
    page.screenshot(path=shots / f"tracker-{tag}-refusal.png")
    count = page.locator(".st-key-tracker_count input")
    expect(count).to_have_value("")  # the last round's count is gone
    type_into(page, count, 3)  # typed, and then Bob raises instead of calling
    bid(page, 2, "P", "Bob")
    expect(count).to_have_value("")
    page.screenshot(path=shots / f"tracker-{tag}-palifico.png")
    dudo(page, 2, text["dudo2"])
    expect(header(page)).to_have_text(with_names(text["round3"], whole=True))
    assert_fits_the_width(page)
    whole_page_screenshot(page, shots / f"tracker-{tag}-full.png")


def show_panel(page: Page, chip: str) -> Locator:
    """Tap a chip under the game: its panel, drawn once chosen."""
    with script_run(page):
        page.locator(".st-key-tracker_chips button").filter(has_text=chip).click()
    return page.locator(".st-key-tracker_panel_shown")


def who_bluffs(page: Page, lang: str) -> None:
    """Open "Who bluffs?": after the two rounds, how each player's bids held."""
    bluffs = show_panel(page, TEXT[lang]["bluffs"])
    for line in TEXT[lang]["held"]:
        expect(bluffs).to_contain_text(with_names(line))
    assert_fits_the_width(page)


# --- tests -----------------------------------------------------------------------------------


def test_two_rounds_with_palifico_survive_a_reload(app_url, phone, screenshot_dir) -> None:
    play_two_rounds(phone, app_url, "en", screenshot_dir, "en")
    who_bluffs(phone, "en")
    before = game_in_url(phone)
    assert [p.dice for p in before.players] == [1, 2, 1]
    assert before.palifico and before.opener == 2

    reload_page(phone)
    expect(header(phone)).to_have_text(with_names(TEXT["en"]["round3"], whole=True))
    assert game_in_url(phone) == before
    expect(phone.locator("[data-testid='stMain']")).to_contain_text(with_names("Ann (you)"))
    log = show_panel(phone, TEXT["en"]["log"])
    expect(log).to_contain_text(with_names(TEXT["en"]["dudo1"]))
    expect(log).to_contain_text(with_names(TEXT["en"]["dudo2"]))
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "tracker-en-reloaded.png")

    # A reopened tab (a new browser context: no session, no storage) finds it too.
    other = phone_context(phone.context.browser)
    try:
        tab = other.new_page()
        open_page(tab, phone.url)
        expect(header(tab)).to_have_text(with_names(TEXT["en"]["round3"], whole=True))
        assert game_in_url(tab) == before
    finally:
        other.close()


def test_undo_in_the_browser(app_url, phone) -> None:
    open_page(phone, f"{app_url}/game?dice=2")
    start(phone, ["Ann", "Bob", "Cid"], "en")
    bid(phone, 2, "5", "Ann")
    dudo(phone, 1, TEXT["en"]["dudo1"])
    tap(phone, "tracker_undo")
    expect(header(phone)).to_have_text(with_names(TEXT["en"]["round1"], whole=True))
    expect(phone.locator("[data-testid='stMain']")).to_contain_text(with_names("Ann bid 2 × 5"))
    assert len(game_in_url(phone).history) == 1


def test_undo_after_a_raise_takes_back_the_raise(app_url, phone) -> None:
    """A raise leaves the undo button as it was (its part is not redrawn): its tap still
    takes back the last move, with no word of another phone."""
    open_page(phone, f"{app_url}/game?dice=2")
    start(phone, ["Ann", "Bob", "Cid"], "en")
    bid(phone, 1, "5", "Ann")
    bid(phone, 2, "5", "Bob")
    tap(phone, "tracker_undo")
    expect(alert(phone, "Info")).to_have_text("Last move undone.")
    assert game_in_url(phone).last_bid == Bid(1, 5)
    expect(alert(phone, "Warning")).to_have_count(0)


def test_a_move_empties_the_entry_it_leaves_behind(app_url, phone) -> None:
    """A bid reruns only the parts it changes, and a call the whole game, each from the
    tap's callback: the count typed and the face picked for a round that a move ended are
    gone from the phone too, so the next round's bid on the same face takes its tap."""
    open_page(phone, f"{app_url}/game?dice=2")
    start(phone, ["Ann", "Bob", "Cid"], "en")
    bid(phone, 1, "5", "Ann")
    count = phone.locator(".st-key-tracker_count input")
    type_into(phone, count, 3)
    bid(phone, 2, "5", "Bob")  # a raise instead of the call
    expect(count).to_have_value("")
    dudo(phone, 3, "Dudo by Cid on 2 × 5: 3 counted — Cid loses a die")
    expect(header(phone)).to_contain_text("Round 2")
    expect(phone.get_by_text("Tap the face that was bid.")).to_be_visible()  # none picked
    bid(phone, 1, "5", "Cid")  # the last round's face, picked again
    assert game_in_url(phone).last_bid == Bid(1, 5)


def test_the_same_flow_in_french(app_url, phone, screenshot_dir) -> None:
    play_two_rounds(phone, app_url, "fr", screenshot_dir, "fr")
    who_bluffs(phone, "fr")
    reload_page(phone)
    expect(header(phone)).to_have_text(with_names(TEXT["fr"]["round3"], whole=True))
    assert "lang=fr" in phone.url
    expect(phone.locator("[data-testid='stMain']")).to_contain_text(with_names("Ann (vous)"))


def test_names_that_look_like_markup_show_literally(app_url, phone, screenshot_dir) -> None:
    names = ["**Bob**", "<b>x</b>", "[x](http://e.com)"]
    open_page(phone, f"{app_url}/game")
    start(phone, names, "en")
    main = phone.locator("[data-testid='stMain']")
    table = main.locator("table").first
    cells = ["".join(char for char in cell if char not in WORD_JOINER + ISOLATES) for cell in
             table.locator("tbody tr td:first-child").all_inner_texts()]
    assert cells == ["▶ **Bob** (you)", "<b>x</b>", "[x](http://e.com)"]
    assert main.locator("[data-testid='stMarkdown'] a").count() == 0  # no link made of a name
    assert table.locator("tbody b, tbody img").count() == 0
    expect(header(phone)).to_have_text(with_names("**Bob** opens"))
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / "tracker-literal-names.png")


def test_a_damaged_link_warns_on_the_tracker_and_starts_afresh(app_url, phone) -> None:
    code = GameState.new(["Ann", "Bob"]).bid("3x4").to_code()
    damaged = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    open_page(phone, f"{app_url}/game?game={damaged}")
    expect(alert(phone, "Warning")).to_have_text(
        "This game link is damaged or not from Perudo Coach: start a new game.")
    expect(phone.get_by_role("button", name="Start the game")).to_be_visible()
    assert "game=" not in phone.url


def test_the_cheat_sheet_fits_a_phone(app_url, phone, screenshot_dir) -> None:
    open_page(phone, f"{app_url}/cheat-sheet")
    expect(phone.get_by_role("heading", name="Rules & cheat sheet")).to_be_visible()
    expect(phone.get_by_text("Everyone starts with 5 dice.")).to_be_visible()
    expect(phone.get_by_role("heading", name="How the coach grades a move")).to_be_visible()
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "rules-en-rules.png")
    phone.get_by_role("tab", name="Numbers").click()
    expect(phone.get_by_role("heading", name="Paco conversions")).to_be_visible()
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "rules-en-numbers.png")
    phone.get_by_role("tab", name="Check a bid").click()
    expect(alert(phone, "Success")).to_have_text("6 × 4 is a legal raise over 5 × 4.")
    flip(phone, "rules_opening")
    choose_segment(phone, "rules_new_face", face("P"))
    expect(alert(phone, "Error")).to_have_text(
        "A normal round cannot be opened on pacos: open on a face from 2 to 6.")
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "rules-en-checker.png")


def test_the_cheat_sheet_in_french(app_url, phone, screenshot_dir) -> None:
    open_page(phone, f"{app_url}/cheat-sheet?lang=fr")
    expect(phone.get_by_role("heading", name="Règles et aide-mémoire")).to_be_visible()
    phone.get_by_role("tab", name="Chiffres").click()
    expect(phone.get_by_role("heading", name="Conversion des pacos")).to_be_visible()
    expect(phone.locator("table").last).to_contain_text("1,7")
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "rules-fr-numbers.png")


def test_a_lower_face_refused_by_the_raise_rule_switches_it_in_one_tap(app_url, phone) -> None:
    """Issue 28: the set-up asks the raise rule; at a table that plays any face, 4 × 2 after
    3 × 5 is one tap that switches the rule for the game and records the bid."""
    open_page(phone, f"{app_url}/game")
    expect(phone.locator(".st-key-tracker_raise")).to_contain_text(
        "after 3 × 5, may the next player bid 4 × 2?")
    start(phone, ["Ann", "Bob", "Cid"], "en")
    bid(phone, 3, "5", "Ann")
    choose_segment(phone, "tracker_face", face("2"))
    expect(phone.locator("[data-testid='stMain']")).to_contain_text(
        "With “Any face”, it is allowed.")
    assert_fits_the_width(phone)
    tap(phone, "tracker_switch_q_4")
    expect(phone.locator("[data-testid='stMain']")).to_contain_text(with_names("Bob bid 4 × 2"))
    assert game_in_url(phone).rules.raise_rule == "any-face"
    reload_page(phone)
    assert game_in_url(phone).rules.raise_rule == "any-face"
    assert url_param(phone, "raise") == "any-face"


@pytest.mark.parametrize(("lang", "remove", "move_up"), [
    ("en", "Remove player 2", "Move player 2 up"),
    ("fr", "Retirer le joueur 2", "Remonter le joueur 2"),
    ("es", "Quitar al jugador 2", "Subir al jugador 2"),
])
def test_the_set_up_row_buttons_have_names(app_url, phone, lang, remove, move_up) -> None:
    """Issue 28, point 10: a screen reader names the ✕ and ↑ of each row by its seat; the
    phone still shows the symbol alone, on a key a thumb's width."""
    open_page(phone, f"{app_url}/game", lang=lang)
    button = phone.get_by_role("button", name=remove)
    expect(button).to_have_count(1)
    expect(phone.get_by_role("button", name=move_up)).to_have_count(1)
    expect(button.locator("p")).to_have_text(re.compile(rf"^✕\s*{remove}$"))
    width = button.bounding_box()["width"]
    assert width < 80, width  # the name takes no room: the key is as narrow as "✕"
    name = button.locator("em")
    assert name.bounding_box()["width"] <= 1  # read, not shown
    with script_run(phone):
        button.click()
    expect(phone.locator("[class*='st-key-tracker_name_']")).to_have_count(3)
