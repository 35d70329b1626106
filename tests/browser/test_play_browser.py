"""A whole game against the bots in a real browser at 390 × 844, in English and in French:
set up, every move tapped as a player taps it (the coach's move, worked out here from the
game in the page's own link), a reload in the middle that finds the game intact, the end and
its review. Screenshots go to ``test-output/screenshots/play-*.png``.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from coach import advise
from coach.play.bot_game import BotGame, BotTable
from perudo_math import face_name
from tests.browser.kit import (
    alert,
    assert_fits_the_width,
    choose_option,
    choose_segment,
    open_page,
    reload_page,
    set_stepper,
    tap,
    whole_page_screenshot,
)
from views.i18n import translate

pytestmark = pytest.mark.browser

STYLES = ("reader", "liar")


def game_in_link(page: Page) -> BotTable:
    """The game as the page's address holds it, replayed here."""
    query = parse_qs(urlsplit(page.url).query)
    seed, styles = int(query["seed"][0]), tuple(query["vs"][0].split(","))
    moves = BotGame.read_moves(query.get("moves", [""])[0])
    return BotTable(BotGame(seed, styles, moves=moves))


def play_the_coachs_move(page: Page, table: BotTable) -> None:
    action = advise(table.situation).action
    if action.kind != "raise":
        tap(page, f"play_{action.kind}")
        return
    bid = action.bid
    choose_segment(page, "play_face", re.compile(rf"\s{face_name(bid.face)}$"))
    for _ in range(40):
        if page.locator(f".st-key-play_q_{bid.quantity} button").count():
            break
        tap(page, "play_more")
    tap(page, f"play_q_{bid.quantity}")


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_a_whole_game_against_the_bots_at_phone_size(app_url, phone, screenshot_dir, lang):
    """Against two bots in English; heads-up in French and Spanish, every word of a game
    shown as in English in half the moves (the suite's time)."""
    styles = STYLES if lang == "en" else STYLES[:1]
    open_page(phone, f"{app_url}/vs-bots", lang=lang)
    expect(phone.get_by_role("heading", name=translate(lang, "play.title"))).to_be_visible()
    set_stepper(phone, "play_count", len(styles))
    for index, style in enumerate(styles):
        choose_option(phone, f"play_style_{index}", translate(lang, f"play.style.{style}"))
    choose_segment(phone, "play_pace", translate(lang, "play.pace.instant"))
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / f"play-{lang}-setup.png")
    tap(phone, "play_start")
    table = game_in_link(phone)
    assert table.game.styles == styles and table.my_turn
    expect(phone.locator(".st-key-play_face")).to_be_visible()
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / f"play-{lang}-first-move.png")
    reloaded = False
    for _ in range(400):
        if table.state.is_over:
            break
        before = len(table.steps)
        play_the_coachs_move(phone, table)
        table = game_in_link(phone)
        assert len(table.steps) > before
        if table.rounds and not reloaded and not table.state.is_over:
            cups = translate(lang, "play.cups.title", number=table.rounds[-1].number)
            expect(phone.get_by_text(cups)).to_be_visible()
            assert_fits_the_width(phone)
            whole_page_screenshot(phone, screenshot_dir / f"play-{lang}-cups.png")
            reload_page(phone)  # the link holds the game: a reload finds it as it was
            assert game_in_link(phone).state == table.state
            expect(phone.locator(".st-key-play_face")).to_be_visible()
            reloaded = True
    assert table.state.is_over and reloaded
    names = [translate(lang, "play.you"),
             *(translate(lang, f"play.style.{style}") for style in styles)]
    winner = table.state.winner
    won = (translate(lang, "play.won") if winner == 0
           else translate(lang, "play.lost", name=f"\u2068{names[winner]}\u2069"))
    expect(alert(phone, "Success")).to_have_text(won)
    expect(phone.get_by_role("heading", name=translate(lang, "review.title"))).to_be_visible()
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / f"play-{lang}-review.png")
