"""Names are text everywhere: a game link whose player names are Markdown, HTML or maths
shows them literally on every page (no link, image, colour or maths from them)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from perudo_math import GameState
from tests.app.conftest import ENTRY
from views.text import literal

HOSTILE = [
    "[Tap here](http://e.com)",
    "![](http://127.0.0.1:9/px.png)",
    ":red[RED] **B** $x^2$",
    "<img src=x onerror=alert(1)>",
]
PAGES = ["app_pages/odds.py", "app_pages/tracker.py", "app_pages/rules.py",
         "app_pages/practice.py", "app_pages/drills.py", "app_pages/progress.py",
         "app_pages/settings.py"]


def markdown_sources(at: AppTest) -> list[str]:
    """Every text the page hands to Streamlit's markdown renderer, as its source."""
    sources = [element.value for element in (
        *at.markdown, *at.caption, *at.title, *at.header, *at.subheader, *at.info,
        *at.warning, *at.error, *at.success)]
    sources += [button.label for button in at.button]
    sources += [expander.label for expander in at.expander]
    return sources


def hostile_game() -> GameState:
    game = GameState.new(["Ann", *HOSTILE])
    return game.bid("3x4").bid("4x4")


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_page_renders_a_name_as_markup(page: str, lang: str) -> None:
    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.query_params.update(game=hostile_game().to_code(), me="2", lang=lang)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    sources = markdown_sources(at)
    for name in HOSTILE:
        assert not any(name in source for source in sources), (page, name)
    if page in ("app_pages/odds.py", "app_pages/tracker.py"):  # the pages that name players
        shown = " ".join(sources)
        assert literal(HOSTILE[0]) in shown and literal(HOSTILE[1]) in shown, page


@pytest.mark.parametrize("quantity", [9223372036854775807, 10**40])
def test_a_huge_bid_in_a_game_link_then_five_dice_tapped(quantity: int) -> None:
    game = GameState.new(["Ann", "Bob", "Cid"]).bid("3x4").bid(f"{quantity}x4")
    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.query_params.update(game=game.to_code(), me="2")
    at.run()
    at.switch_page("app_pages/odds.py").run()
    for face in (1, 2, 3, 4, 5):
        at.button(key=f"odds_add_{face}").click().run()
        assert not at.exception, [e.message for e in at.exception]
    card = " ".join(source for source in markdown_sources(at))
    assert "DUDO" in card.upper(), card[:300]
