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


# --- Issue 31, point 5: control, format and bidi characters in names -------------------------

RLO, ZWSP, FSI, PDI = "\u202e", "\u200b", "\u2068", "\u2069"
CRAFTED = [f"Eve{RLO}", "Bob\n| x | y |", f"Cid{ZWSP}"]
"""A name that reversed the rest of each line, one whose newline ended the players' table,
one with an invisible character."""


def isolated_literal(name: str) -> str:
    return f"{FSI}{literal(name)}{PDI}"


def players_table(at: AppTest) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("| "))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_crafted_names_in_a_link_stay_on_their_line_in_the_tracker(lang: str) -> None:
    from tests.test_names import crafted_code

    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.query_params.update(game=crafted_code(CRAFTED, "2x3 9x3"), me="2", lang=lang)
    at.run()
    at.switch_page("app_pages/tracker.py").run()
    assert not at.exception, [e.message for e in at.exception]
    sources = markdown_sources(at)
    assert not any(RLO in source or ZWSP in source for source in sources)
    table = players_table(at).split("\n")
    assert len(table) == 2 + 3  # the header, its rule and one row a player: no row broken
    assert table[2].startswith(f"| {isolated_literal('Eve')} |")
    assert table[3].startswith(f"| {isolated_literal('Bob | x | y |')} |")
    assert isolated_literal("Cid") in table[4]
    bids = f"{isolated_literal('Eve')} 2 × 3 → {isolated_literal('Bob | x | y |')} 9 × 3"
    assert any(bids in source for source in sources), sources


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_set_up_refuses_invisible_and_twin_names_in_words(lang: str) -> None:
    from tests.app.test_tracker_page import errors, open_tracker, set_up
    from views.i18n import translate

    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.context = {"locale": {"en": "en-US", "fr": "fr-FR"}[lang]}
    open_tracker(at, lang=lang)
    set_up(at, ["Ann", ZWSP * 40, f"Ann{ZWSP}", f"{RLO}\u3164", "Bob"])
    assert at.query_params.get("game") is None  # not started
    assert errors(at) == [
        translate(lang, "tracker.setup.error.invisible", seat=2),
        translate(lang, "tracker.setup.error.duplicate", name="Ann", first=1, seat=3),
        translate(lang, "tracker.setup.error.invisible", seat=4),
    ]
    assert "invisible" in errors(at)[0]  # the word is the same in both languages


def test_names_typed_with_format_characters_start_a_game_without_them() -> None:
    from tests.app.test_tracker_page import game, open_tracker, set_up

    at = AppTest.from_file(ENTRY, default_timeout=60)
    open_tracker(at)
    set_up(at, [f"Eve{RLO}", "Bob", f"{ZWSP}Cid"])
    state = game(at)
    assert state is not None and [p.name for p in state.players] == ["Eve", "Bob", "Cid"]
    assert players_table(at).split("\n")[2].startswith(f"| ▶ **{FSI}Eve{PDI}** |")


def test_every_name_of_the_play_table_is_isolated() -> None:
    from tests.app.test_play_page import open_play, start, table_of

    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.context = {"locale": "en-US"}
    start(open_play(at), ("reader", "liar"))
    names = [player.name for player in table_of(at).state.players]
    rows = players_table(at).split("\n")[2:]
    assert len(rows) == len(names) == 3
    for row, name in zip(rows, names, strict=True):
        assert f"{FSI}{literal(name)}{PDI}" in row, row
