"""Moving between a game and its advice in one tap each way, through AppTest; the menu-closing
script installed once, in the sidebar. (The taps themselves are counted in a real browser:
``tests/browser/test_navigation_and_resume.py``.)"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from perudo_math import GameState, Rules
from tests.app.sessions import open_at
from views import navigation
from views.i18n import translate

TRACKER = "app_pages/tracker.py"
ODDS = "app_pages/odds.py"


def links(at: AppTest) -> dict[str, str]:
    """The main area's page links: label → the page's script hash."""
    return {link.proto.label: link.proto.page_script_hash for link in at.main.get("page_link")}


def a_game() -> GameState:
    return GameState.new(["Ann", "Bob", "Cid"]).bid("3x4")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_advice_for_a_tracked_game_links_back_to_it(app: AppTest, lang: str) -> None:
    open_at(app, None, lang, game=a_game().to_code(), me="1")
    back = translate(lang, "nav.back_to_game")
    assert links(app) == {back: calc_hash("game")}
    assert app.main.get("page_link")[0].proto.icon == ":material/arrow_back:"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_tracked_game_links_to_its_advice(app: AppTest, lang: str) -> None:
    open_at(app, TRACKER, lang, game=a_game().to_code(), me="1")
    advice = translate(lang, "tracker.advice")
    assert links(app)[advice] in {calc_hash("home"), calc_hash("bid-odds")}


def test_the_game_comes_and_goes_intact(app: AppTest) -> None:
    """What the two links do: a page switch that keeps the game (the browser drops the query
    parameters on a switch; the session keeps them)."""
    code = a_game().to_code()
    open_at(app, TRACKER, game=code, me="1")
    app.button(key="tracker_q_4").click().run()  # Bob bids 4 × 4
    moved = app.query_params["game"]
    assert moved != code
    for page in (ODDS, TRACKER, ODDS, TRACKER):
        app.query_params.clear()
        app.switch_page(page).run()
        assert not app.exception
        assert app.query_params["game"] == moved
        assert app.query_params["me"] == "1"


def test_no_back_link_without_a_game(app: AppTest) -> None:
    open_at(app, None)
    assert translate("en", "nav.back_to_game") not in links(app)


def test_no_back_link_once_the_game_is_over(app: AppTest) -> None:
    over = GameState.new(["Ann", "Bob"], Rules(starting_dice=1)).bid("2x4").dudo(0)
    assert over.is_over
    open_at(app, None, game=over.to_code())
    assert translate("en", "nav.back_to_game") not in links(app)


def test_the_menu_closing_script_is_in_the_sidebar_once(app: AppTest) -> None:
    open_at(app, TRACKER)
    scripts = [element for element in app.sidebar.get("html")
               if navigation.CLOSE_MENU_SCRIPT in element.proto.body]
    assert len(scripts) == 1
    assert scripts[0].proto.unsafe_allow_javascript


def test_the_script_closes_the_menu_only_after_a_page_is_chosen_on_a_narrow_screen() -> None:
    script = navigation.CLOSE_MENU_SCRIPT
    assert "[data-testid='stSidebarNavLink']" in script
    assert f"window.innerWidth > {navigation.NARROW_PX}" in script
    assert 'dataset.collapsed === "false"' in script  # never reopens a menu Streamlit closed


@pytest.mark.parametrize("path, game", [("", True), ("bid-odds", True), ("game", True),
                                        ("cheat-sheet", False), ("train", False)])
def test_the_pages_that_show_a_game(path: str, game: bool) -> None:
    assert navigation.shows_a_game(path) is game
