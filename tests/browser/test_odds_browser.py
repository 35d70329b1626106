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
    open_details,
    open_page,
    phone_context,
    reload_page,
    script_run,
    segment,
    set_stepper,
    stepper_value,
    tap,
    whole_page_screenshot,
)
from views.charts import ROW_PX
from views.dice import face_label
from views.i18n import format_percent, translate

pytestmark = pytest.mark.browser


ODDS_NUMBERS = "[data-testid='stMarkdownContainer']:has(h3) table tbody td"
"""The odds section's two numbers: the chance the bid is true, and exactly right."""


def open_app(page: Page, url: str, *, lang: str | None = None) -> None:
    open_page(page, url, lang=lang)
    expect(page.locator(".st-key-odds_add_1")).to_be_visible()


def odds_numbers(page: Page) -> list[str]:
    return [text.strip() for text in page.locator(ODDS_NUMBERS).all_inner_texts()]


def tap_hand(page: Page, faces: list[int]) -> None:
    for count, face in enumerate(faces, start=1):
        tap(page, f"odds_add_{face}")
        expect(page.get_by_text(
            re.compile(rf"^{count} (die|dice|dé|dés|dado|dados)\s?:"))).to_be_visible()


def exactly(label: str) -> re.Pattern:
    return re.compile(rf"^\s*{re.escape(label)}\s*$")


def shown_quantities(page: Page) -> list[int]:
    return [int(text) for text in page.locator(".st-key-odds_qty [role='radio']").all_inner_texts()]


def pick_quantity(page: Page, quantity: int) -> int:
    """Tap ``quantity`` in the bid's row, paging the row to it first; returns the taps."""
    taps = 0
    while quantity not in (shown := shown_quantities(page)):
        key = "odds_qty_more" if quantity > max(shown) else "odds_qty_less"
        with script_run(page):  # a key with help is drawn twice, one of them hidden
            page.locator(f".st-key-{key} button:visible").click()
        taps += 1
    option = segment(page, "odds_qty", exactly(str(quantity)))
    if option.get_attribute("aria-checked") != "true":
        choose_segment(page, "odds_qty", exactly(str(quantity)))
        taps += 1
    return taps


def set_table(page: Page, *, hand, dice, players, quantity, face) -> None:
    """Every input of the page, as a player enters them at the table."""
    tap_hand(page, hand)
    set_stepper(page, "odds_players", players)
    set_stepper(page, "odds_dice", dice)
    choose_segment(page, "odds_face", face)
    pick_quantity(page, quantity)


README_TABLE = {"hand": [1, 1, 5, 2, 3], "dice": 8, "players": 3, "quantity": 4, "face": "5"}


def test_hand_and_bid_give_the_published_odds(app_url, phone, screenshot_dir) -> None:
    open_app(phone, app_url)
    set_table(phone, hand=[1, 2, 2, 5, 6], dice=20, players=4, quantity=5, face="4")
    flip(phone, "odds_read")  # the published odds are the dice alone
    open_details(phone)
    expect(phone.locator(ODDS_NUMBERS).first).to_have_text("79.1%")
    assert odds_numbers(phone)[0] == "79.1%"
    assert phone.get_by_text("5 dice: P 2 2 5 6").is_visible()
    assert phone.get_by_text("20 dice on the table: about 6.0 fours, pacos included.").count() == 1
    phone.locator(ODDS_NUMBERS).first.scroll_into_view_if_needed()
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


TRUNCATED_JS = """
(root) => [...root.querySelectorAll("button p, [data-testid='stMarkdownContainer'] p")]
  .filter(text => text.scrollWidth > text.clientWidth).map(text => text.innerText)
"""
"""The texts under ``root`` cut short (an ellipsis or a clip) for want of width."""


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_inputs_read_in_full_on_a_phone(app_url, phone, lang) -> None:
    """Every key, step and pill of the inputs shows its whole label at 390 px, with a hand
    entered (the advice's switch appears) and without."""
    open_app(phone, app_url, lang=lang)
    expect(phone.locator(".st-key-odds_open button")).to_have_text(
        translate(lang, "odds.bid.none"))
    inputs = ".st-key-phone-page"
    assert phone.locator(inputs).evaluate(TRUNCATED_JS) == []
    tap_hand(phone, [1, 2, 2, 5, 6])
    expect(advice_headline(phone)).to_be_visible()
    assert phone.locator(inputs).evaluate(TRUNCATED_JS) == []


OPEN_PILL = ".st-key-odds_open [role='radio']"


def test_no_bid_yet_opens_and_reading_can_be_switched_off(app_url, phone) -> None:
    """Issue 28, point 9: the page starts with no bid ("I open" lit, no face, no quantity);
    a face and a quantity make one; "I open" takes it off again."""
    open_app(phone, app_url)
    expect(phone.locator(OPEN_PILL)).to_have_attribute("aria-checked", "true")
    assert phone.locator(".st-key-odds_face [aria-checked='true']").count() == 0
    assert phone.locator(".st-key-odds_qty [aria-checked='true']").count() == 0
    tap_hand(phone, [1, 2, 2, 5, 6])
    expect(advice_headline(phone)).to_contain_text("OPEN with")
    assert_on_the_first_screen(phone, ADVICE)
    choose_segment(phone, "odds_face", face_label(4))
    pick_quantity(phone, 5)
    shows_bid(phone, "en", "5 × 4")
    expect(advice_headline(phone)).not_to_contain_text("OPEN with")
    expect(phone.locator(OPEN_PILL)).to_have_attribute("aria-checked", "false")
    before = phone.locator(ADVICE).inner_text()
    flip(phone, "odds_read")
    expect(phone.locator(ADVICE)).not_to_have_text(before, use_inner_text=True)
    tap(phone, "odds_open")  # the bid off the table: an opening again
    expect(advice_headline(phone)).to_contain_text("OPEN with")
    expect(phone.locator(OPEN_PILL)).to_have_attribute("aria-checked", "true")
    expect(phone.locator(".st-key-odds_face [aria-checked='true']")).to_have_count(0)
    expect(phone.locator(".st-key-odds_qty [aria-checked='true']")).to_have_count(0)


def test_impossible_inputs_are_explained_inline(app_url, phone, screenshot_dir) -> None:
    open_app(phone, app_url)
    tap_hand(phone, [1, 2, 2, 5, 6])
    set_stepper(phone, "odds_dice", 7)
    alert = phone.get_by_test_id("stAlertContentError")
    expect(alert).to_be_visible()
    assert "4 players need at least 8 dice on the table, not 7" in alert.inner_text()
    assert phone.locator(ADVICE).count() == 0
    assert stepper_value(phone, "odds_dice") == 7  # the inputs stay
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / "advice-phone-error.png")


def test_a_tracked_game_fills_the_table(app_url, phone, screenshot_dir) -> None:
    from perudo_math import GameState

    code = GameState.new(["Ann", "Bob", "Cid"]).bid("3x4").bid("4x4").to_code()
    open_app(phone, f"{app_url}/?game={code}&me=2")
    expect(phone.get_by_text("From the tracker: round 1 (normal)")).to_be_visible()
    assert phone.locator(".st-key-odds_dice_stepper").count() == 0
    tap_hand(phone, [1, 2, 2, 5, 6])
    expect(advice_headline(phone)).to_be_visible()
    assert advice_headline(phone).inner_text().startswith("RAISE to ")
    assert_on_the_first_screen(phone, ADVICE)
    phone.screenshot(path=screenshot_dir / "advice-phone-tracked.png")


@pytest.mark.parametrize(("locale", "lang", "heading"), [
    ("fr-FR", "fr", "Probabilités et conseils"), ("es-MX", "es", "Probabilidades y consejos")])
def test_language_follows_the_browser_locale(app_url, chromium_browser, locale, lang,
                                             heading) -> None:
    context = phone_context(chromium_browser, locale=locale)
    try:
        page = context.new_page()
        open_app(page, app_url)
        assert page.get_by_role("heading", name=heading).is_visible()
        page.wait_for_url(re.compile(rf"[?&]lang={lang}\b"))
    finally:
        context.close()


# --- issue 11: trust at the table, at 390 × 844 in both languages ----------------------------


class Taps:
    """A player's touches on the phone, counted: a button, a segment, a stepper's − or +."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def button(self, key: str) -> None:
        tap(self.page, key)
        self.count += 1

    def dice(self, faces: list[int]) -> None:
        for face in faces:
            self.button(f"odds_add_{face}")

    def choose(self, key: str, label: str) -> None:
        assert segment(self.page, key, exactly(label)).get_attribute("aria-checked") != "true"
        choose_segment(self.page, key, exactly(label))
        self.count += 1

    def step(self, key: str, up: bool) -> None:
        tap(self.page, f"{key}_{'up' if up else 'down'}")
        self.count += 1

    def quantity(self, quantity: int) -> None:
        self.count += pick_quantity(self.page, quantity)


def shows_bid(page: Page, lang: str, bid: str) -> None:
    """The advice is for ``bid``: the line of the smallest raises after it says so."""
    after = translate(lang, "advice.legal.smallest", bid=bid, bids="\0").split("\0")[0]
    expect(page.get_by_text(re.compile("^" + re.escape(after)))).to_be_visible()


def table_value(page: Page) -> str:
    return str(stepper_value(page, "odds_dice"))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_common_query_takes_at_most_eight_taps(app_url, phone, lang) -> None:
    """Issue 11, point 9: five dice in hand, the dice on the table, a bid, counted from
    opening the page; then the same link reopened later, a die lost; then a bid changed."""
    open_app(phone, app_url, lang=lang)
    taps = Taps(phone)
    taps.dice([1, 2, 4, 4, 6])
    taps.step("odds_players", up=True)  # five players: the table follows, 25 dice
    taps.choose("odds_face", face_label(5))
    taps.quantity(9)
    shows_bid(phone, lang, "9 × 5")
    assert table_value(phone) == "25"
    expect(advice_headline(phone)).to_be_visible()
    assert taps.count == 8

    changed = Taps(phone)  # the next player raises to 10 × 5, then someone to 5 × P
    changed.quantity(10)
    shows_bid(phone, lang, "10 × 5")
    assert changed.count == 1
    changed.choose("odds_face", face_label(1))
    changed.quantity(5)
    shows_bid(phone, lang, "5 × P")
    assert changed.count == 3

    reload_page(phone)  # the link opened again later: a die was lost since
    assert (table_value(phone), stepper_value(phone, "odds_players")) == ("25", 5)
    again = Taps(phone)
    again.step("odds_dice", up=False)
    again.dice([2, 3, 3, 5, 6])
    again.choose("odds_face", face_label(3))
    again.quantity(10)
    shows_bid(phone, lang, "10 × 3")
    assert table_value(phone) == "24"
    expect(advice_headline(phone)).to_be_visible()
    assert again.count == 8

    reload_page(phone)  # and again: a player dropped to one die, a palifico round
    palifico = Taps(phone)
    palifico.step("odds_dice", up=False)
    palifico.choose("odds_round", translate(lang, "round.palifico"))
    palifico.dice([2, 3, 3, 5, 6])
    palifico.choose("odds_face", face_label(3))
    palifico.quantity(5)
    shows_bid(phone, lang, "5 × 3")
    assert table_value(phone) == "23"
    expect(phone.locator(PALIFICO)).to_be_visible()
    assert palifico.count == 9


PALIFICO = ".st-key-odds_palifico"
"""The palifico banner of the Odds & advice page."""

HEAT_MAP_JS = """
(table) => {
  const frame = table.getBoundingClientRect();
  const box = (el) => {
    const b = el.getBoundingClientRect();
    return {text: el.textContent, top: b.top - frame.top, bottom: b.bottom - frame.top,
            left: b.left - frame.left, right: b.right - frame.left, height: b.height,
            clipped: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1};
  };
  return {
    width: frame.width, height: frame.height, page: document.documentElement.clientWidth,
    right: frame.right,
    rows: [...table.querySelectorAll("tbody tr")].map(row => box(row).height),
    cells: [...table.querySelectorAll("tbody td")].filter(cell => cell.textContent).map(box),
    labels: [...table.querySelectorAll("th")].filter(cell => cell.textContent).map(box),
  };
}
"""
"""The heat map's rows, printed cells and labels (faces, quantities, the axis titles),
measured against the table's own frame."""

MIN_ROW_PX = ROW_PX
"""A heat map row this tall holds its printed percent and a thumb's tap."""


def heat_map(page: Page) -> dict:
    open_details(page)
    heading = page.get_by_text(translate(current_lang(page), "advice.chart.heading"), exact=True)
    chart = page.locator("table.pc-heat").first
    heading.scroll_into_view_if_needed()
    laid_out(page)
    return chart.evaluate(HEAT_MAP_JS)


def current_lang(page: Page) -> str:
    found = re.search(r"[?&]lang=(\w+)", page.url)
    return found.group(1) if found else "en"


def assert_readable(measured: dict, faces: list[int]) -> None:
    assert measured["rows"] and min(measured["rows"]) >= MIN_ROW_PX, measured["rows"]
    assert measured["right"] <= measured["page"], measured  # the whole map on the screen
    texts = [label["text"] for label in measured["labels"]]
    assert {face_label(face) for face in faces} <= set(texts), texts
    for label in measured["labels"] + measured["cells"]:  # inside the frame: nothing clipped
        assert not label["clipped"], label
        assert label["left"] >= 0 and label["right"] <= measured["width"], label
        assert label["top"] >= 0 and label["bottom"] <= measured["height"], label
        assert label["height"] >= 10, label


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_palifico_is_unmissable_and_its_heat_map_readable(
    app_url, phone, screenshot_dir, lang
) -> None:
    open_app(phone, app_url, lang=lang)
    tap_hand(phone, [1, 2, 2, 5, 6])
    choose_segment(phone, "odds_face", face_label(2))
    pick_quantity(phone, 5)
    assert phone.locator(PALIFICO).count() == 0
    choose_segment(phone, "odds_round", translate(lang, "round.palifico"))
    banner = phone.locator(PALIFICO)
    expect(banner).to_contain_text(
        translate(lang, "odds.palifico.face", faces=translate(lang, "face.plural.2")))
    assert_on_the_first_screen(phone, PALIFICO)
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / f"odds-palifico-{lang}.png")
    assert_readable(heat_map(phone), [2])  # one face left: one full row, not a stripe
    phone.locator("table.pc-heat").first.screenshot(
        path=screenshot_dir / f"odds-palifico-heat-{lang}.png")
    tap(phone, "odds_open")  # opening a palifico round: every face, each row as tall
    expect(banner).to_contain_text(translate(lang, "odds.palifico.opening"))
    assert_readable(heat_map(phone), [1, 2, 3, 4, 5, 6])


def card_table(page: Page) -> list[tuple[list[str], bool]]:
    """The options table under the card: each row's cells and whether it is in bold."""
    table = page.locator("[data-testid='stMarkdownContainer'] table").first
    rows = []
    for row in table.locator("tbody tr").all():
        cells = [cell.strip() for cell in row.locator("td").all_inner_texts()]
        rows.append((cells, row.locator("strong").count() > 0))
    return rows


def percent_number(text: str) -> float:
    return float(text.replace("\u202f", "").replace("%", "").replace(",", ".").lstrip("<>"))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_card_agrees_with_its_table_and_the_big_number(
    app_url, phone, screenshot_dir, lang
) -> None:
    """Issue 11, points 3 and 4, on a deliberate trade: P P P 2 2 against 4 × 4."""
    spot = Situation(Rules(), (5, 5, 5, 5), 0, Hand([1, 1, 1, 2, 2]), ((3, Bid(4, 4)),))
    advice = advise(spot)
    best = advice.best
    assert str(best.action) == "4xP"  # a little riskier than the safest, harder to follow
    rival = min(advice.options, key=lambda option: option.lose)
    assert rival.lose < best.lose
    safer = str(rival.action.bid).replace("x", " × ")
    open_app(phone, app_url, lang=lang)
    tap_hand(phone, [1, 1, 1, 2, 2])
    choose_segment(phone, "odds_face", face_label(4))
    pick_quantity(phone, 4)
    shows_bid(phone, lang, "4 × 4")
    card = phone.locator(ADVICE)
    assert advice_headline(phone).inner_text() == translate(lang, "advice.action.raise",
                                                            bid="4 × P")
    text = card.inner_text()
    assert translate(lang, "advice.risk", lose=format_percent(best.lose, lang)) in text
    assert translate(lang, "advice.reason.raise-pressure", bid="4 × P",
                     lose=format_percent(best.lose, lang), safer=safer,
                     safer_lose=format_percent(rival.lose, lang),
                     safer_true=format_percent(rival.p_true, lang)) in text
    assert translate(lang, "advice.basis.read") in text
    assert_on_the_first_screen(phone, ADVICE)
    rows = card_table(phone)
    bold = [cells for cells, strong in rows if strong]
    assert [cells[0] for cells in bold] == ["4 × P"]
    risks = [percent_number(cells[1]) for cells, _ in rows]
    assert risks == sorted(risks)
    assert rows[0][0][0] == safer  # the safest first; the pick where its risk sorts it
    moves = {cells[0]: cells for cells, _ in rows}
    dudo = moves[translate(lang, "advice.move.dudo")]
    assert "–" not in dudo and "–" not in moves[translate(lang, "advice.move.calza")]
    # The big number is the chance the Dudo row reads.
    open_details(phone)
    assert odds_numbers(phone)[0] == dudo[2]
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / f"odds-agree-{lang}-full.png")


MOVED_TABLE = {"hand": [2, 3, 4, 5, 6], "dice": 20, "players": 4, "quantity": 7, "face": "5"}
"""7 × 5 at 20 dice: 38 % from the dice alone, 57 % read; dudo turns into a raise."""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_what_the_read_changed_shows_under_the_switch_and_keeps_the_card_on_screen(
    app_url, phone, screenshot_dir, lang
) -> None:
    open_app(phone, app_url, lang=lang)
    set_table(phone, **MOVED_TABLE)
    line = phone.locator(".st-key-odds_moved [data-testid='stCaptionContainer']")
    first = {"en": "The last bid, 7 × 5, suggests", "fr": "D'après la dernière annonce, 7 × 5,"}
    expect(line).to_contain_text(first[lang])
    assert_on_the_first_screen(phone, ADVICE)  # the lines sit under it, under the switch
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / f"advice-phone-read-{lang}.png")
    flip(phone, "odds_read")
    expect(line).to_have_count(0)


def test_remove_last_and_clear_bring_the_advice_along(app_url, chromium_browser) -> None:
    """Each part of the page reruns alone: "remove last" and "clear" rerun the keypad and
    the advice with it, so the advice is the one a hand tapped afresh gets."""
    phone = phone_context(chromium_browser).new_page()
    fresh = phone_context(chromium_browser).new_page()
    open_app(phone, app_url)
    tap_hand(phone, [1, 1, 3])
    tap(phone, "odds_undo")
    open_app(fresh, app_url)
    tap_hand(fresh, [1, 1])
    expect(phone.locator(ADVICE)).to_have_text(fresh.locator(ADVICE).inner_text(),
                                               use_inner_text=True)
    tap(phone, "odds_clear")
    expect(phone.locator(ADVICE)).to_have_count(0)
    expect(phone.get_by_text(translate("en", "odds.hint.empty_hand"))).to_be_visible()
    for page in (phone, fresh):
        page.context.close()
