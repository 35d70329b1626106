"""Moving around and resuming, in a real browser at 390 × 844, in English and in French.

* One tap from the tracked game to its advice, one tap back, the game intact.
* The menu closes after a choice: switching pages takes two taps (open the menu, choose),
  not three (the menu used to stay open over the page until closed by hand); its button and
  links are 44 px touch targets (Streamlit draws them 28 px). Checked with
  the test browser's own user agent (Streamlit then leaves the menu open) and with a
  phone's (Streamlit closes it itself: the script must not open it again).
* A fresh tab of the same browser (a new tab, the home-screen icon) offers "resume the game
  in progress" and one tap brings it back, the move made before included; another phone (its
  own browser context) is offered nothing and sees an empty set-up; after a server restart
  the game is still there.

Screenshots go to ``test-output/screenshots/nav-*.png``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from perudo_math import GameState
from tests.browser.conftest import _require_chromium
from tests.browser.kit import (
    NEXT_FRAME_JS,
    PHONE,
    TIMEOUT_MS,
    _watch_the_stream,
    assert_fits_the_width,
    assert_on_the_first_screen,
    open_page,
    phone_context,
    script_run,
    tap,
    url_param,
    with_names,
)
from tests.servers import free_port, running_server, streamlit_command
from views.i18n import translate
from views.style import TOUCH_TARGET_PX

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "fr": "fr-FR"}
IPHONE_UA = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
             "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
SIDEBAR = "[data-testid='stSidebar']"
OFF_SCREEN_JS = """
(selector) => {
  const sidebar = document.querySelector(selector);
  return sidebar === null || sidebar.getBoundingClientRect().right <= 1;
}
"""
OFFER = ".st-key-resume_offer"
BACK = ".st-key-nav_back_to_game"


def a_game() -> GameState:
    """Ann, Bob and Cid; Ann opened 3 × 4: Bob (this phone) to play."""
    return GameState.new(["Ann", "Bob", "Cid"]).bid("3x4")


class Taps:
    """Counts the taps of a task: every tap goes through :meth:`link` or :meth:`on`."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def link(self, name: str) -> None:
        """Tap the page link (in the page, or the menu) named ``name``; wait for its run."""
        with script_run(self.page):
            self.page.get_by_role("link", name=name, exact=True).click()
        self.count += 1

    def open_menu(self) -> None:
        button = self.page.get_by_test_id("stExpandSidebarButton")
        assert_a_sure_tap(button)
        button.click()
        expect(self.page.locator(SIDEBAR)).to_have_attribute("data-collapsed", "false")
        self.count += 1

    def key(self, key: str) -> None:
        tap(self.page, key)
        self.count += 1


def assert_a_sure_tap(target: Locator) -> None:
    """``target`` is at least a touch target (44 px) tall and wide."""
    box = target.bounding_box()
    assert box is not None and min(box["width"], box["height"]) >= TOUCH_TARGET_PX, box


def heading(page: Page, lang: str, key: str):
    return page.get_by_role("heading", name=translate(lang, key), exact=True)


def track(page: Page, url: str, lang: str) -> str:
    """Open the tracker on a game link (Bob holds this phone) and bid 4 × 4 for Bob; the
    game's code after that move."""
    open_page(page, f"{url}/game?game={a_game().to_code()}&me=1", lang=lang)
    expect(heading(page, lang, "tracker.title")).to_be_visible()
    tap(page, "tracker_q_4")
    code = url_param(page, "game")
    assert GameState.from_code(code).last_bid.quantity == 4  # type: ignore[union-attr]
    return code


@pytest.fixture
def phone_in(chromium_browser: Browser, lang: str) -> Iterator[Page]:
    """A fresh phone page whose browser speaks the test's ``lang``."""
    context = phone_context(chromium_browser, locale=LOCALES[lang])
    try:
        yield context.new_page()
    finally:
        context.close()


# --- one tap each way ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_one_tap_from_the_game_to_the_advice_and_one_back(app_url, phone_in, lang,
                                                         screenshot_dir) -> None:
    page = phone_in
    code = track(page, app_url, lang)
    taps = Taps(page)
    taps.link(translate(lang, "tracker.advice"))
    expect(heading(page, lang, "odds.title")).to_be_visible()
    expect(page.locator(".st-key-odds_tracker")).to_be_visible()
    assert url_param(page, "game") == code
    assert taps.count == 1
    assert_on_the_first_screen(page, BACK)
    assert_fits_the_width(page)
    page.screenshot(path=screenshot_dir / f"nav-{lang}-advice-back-link.png")

    taps.link(translate(lang, "nav.back_to_game"))
    expect(heading(page, lang, "tracker.title")).to_be_visible()
    assert taps.count == 2
    assert url_param(page, "game") == code
    assert url_param(page, "me") == "1"
    expect(page.locator("[data-testid='stMain']")).to_contain_text("4 × 4")


# --- the menu closes after a choice ----------------------------------------------------------


def switch_by_the_menu(taps: Taps, lang: str, nav_key: str, title_key: str) -> int:
    """Switch pages through the menu; the taps it took, the menu closed at the end."""
    before = taps.count
    taps.open_menu()
    for link in taps.page.get_by_test_id("stSidebarNavLink").all():  # as wide as the menu
        box = link.bounding_box()
        assert box is not None and box["height"] >= TOUCH_TARGET_PX, box
    taps.link(translate(lang, nav_key))
    page = taps.page
    expect(heading(page, lang, title_key)).to_be_visible()
    expect(page.locator(SIDEBAR)).to_have_attribute("data-collapsed", "true")
    expect(page.get_by_test_id("stExpandSidebarButton")).to_be_visible()
    # Off the screen, not over it, once its slide-out is over (it animates for ~0.3 s).
    page.wait_for_function(OFF_SCREEN_JS, arg=SIDEBAR)
    return taps.count - before


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_menu_closes_after_a_choice(app_url, phone_in, lang, screenshot_dir) -> None:
    page = phone_in
    open_page(page, f"{app_url}/game", lang=lang)
    taps = Taps(page)
    assert switch_by_the_menu(taps, lang, "nav.rules", "rules.title") == 2
    assert switch_by_the_menu(taps, lang, "nav.tracker", "tracker.title") == 2
    assert switch_by_the_menu(taps, lang, "nav.odds", "odds.title") == 2
    page.screenshot(path=screenshot_dir / f"nav-{lang}-menu-closed.png")


def test_a_phone_user_agent_keeps_two_taps(app_url, chromium_browser) -> None:
    """Streamlit closes the menu itself for a phone's user agent: it stays closed."""
    context = chromium_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                           locale="en-US", user_agent=IPHONE_UA)
    context.set_default_timeout(TIMEOUT_MS)
    context.on("page", _watch_the_stream)  # as phone_context does: taps wait for their run
    page = context.new_page()
    try:
        open_page(page, f"{app_url}/game", lang="en")
        taps = Taps(page)
        assert switch_by_the_menu(taps, "en", "nav.rules", "rules.title") == 2
        # The switch's run is over (the server said so) and drawn, and the menu has slid
        # off: a reopening by the script would have come with that run. Once more painted:
        page.evaluate(NEXT_FRAME_JS)
        expect(page.locator(SIDEBAR)).to_have_attribute("data-collapsed", "true")
    finally:
        context.close()


# --- resume ----------------------------------------------------------------------------------


def resume_in_a_fresh_tab(context: BrowserContext, url: str, lang: str, code: str) -> Page:
    """Open the app's root in a new tab of ``context`` (as the home-screen icon does, no
    language in the link), tap "resume": one tap to the game ``code``."""
    page = context.new_page()
    open_page(page, url)
    offer = page.locator(OFFER)
    expect(offer).to_contain_text(translate(lang, "resume.title"))
    expect(offer).to_contain_text(with_names(translate(lang, "resume.summary",
                                                       players="Ann, Bob, Cid", round=1)))
    assert_on_the_first_screen(page, OFFER)
    assert_fits_the_width(page)
    taps = Taps(page)
    taps.key("resume_yes")
    expect(heading(page, lang, "tracker.title")).to_be_visible()
    assert taps.count == 1
    assert url_param(page, "game") == code
    assert url_param(page, "me") == "1"
    expect(page.locator(OFFER)).to_have_count(0)
    return page


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_fresh_tab_resumes_the_game_and_another_phone_does_not_see_it(
        app_url, chromium_browser, lang, screenshot_dir) -> None:
    mine = phone_context(chromium_browser, locale=LOCALES[lang])
    other = phone_context(chromium_browser, locale=LOCALES[lang])
    try:
        code = track(mine.new_page(), app_url, lang)
        tab = mine.new_page()
        open_page(tab, app_url)
        tab.screenshot(path=screenshot_dir / f"nav-{lang}-resume-offer.png")
        tab.close()
        page = resume_in_a_fresh_tab(mine, app_url, lang, code)
        expect(page.locator("[data-testid='stMain']")).to_contain_text("4 × 4")

        stranger = other.new_page()
        for path in ("", "/game", "/bid-odds"):
            open_page(stranger, f"{app_url}{path}")
            expect(stranger.locator(OFFER)).to_have_count(0)
            assert "game=" not in stranger.url
        open_page(stranger, f"{app_url}/game")
        expect(stranger.locator(".st-key-tracker_start")).to_be_visible()  # an empty set-up
    finally:
        mine.close()
        other.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_not_now_leaves_the_page_as_it_was(app_url, chromium_browser, lang) -> None:
    context = phone_context(chromium_browser, locale=LOCALES[lang])
    try:
        track(context.new_page(), app_url, lang)
        page = context.new_page()
        open_page(page, f"{app_url}/game")
        tap(page, "resume_no")
        expect(page.locator(OFFER)).to_have_count(0)
        expect(page.locator(".st-key-tracker_start")).to_be_visible()
    finally:
        context.close()


@pytest.fixture
def restartable_server(tmp_path: Path) -> Iterator[Callable[[], str]]:
    """Start the app on a fresh port with this test's own files, stopping the one before."""
    _require_chromium()
    environment = {**os.environ, "PERUDO_COACH_DB": str(tmp_path / "progress.sqlite3")}
    with ExitStack() as running:

        def restart() -> str:
            running.close()
            port = free_port()
            command = streamlit_command("streamlit_app.py", port)
            url = f"http://127.0.0.1:{port}"
            running.enter_context(
                running_server(command, url, tmp_path / f"server-{port}.log", environment))
            return url

        yield restart


def test_the_game_survives_a_server_restart(restartable_server, chromium_browser: Browser
                                            ) -> None:
    context = phone_context(chromium_browser, locale="en-US")
    try:
        code = track(context.new_page(), restartable_server(), "en")
        for page in context.pages:
            page.close()
        url = restartable_server()  # the old server stops, a new one starts (cookies are
        resume_in_a_fresh_tab(context, url, "en", code)  # per host, not per port)
    finally:
        context.close()
