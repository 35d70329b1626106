"""Issue 13 in the browser: one table, two phones, two app processes, one PostgreSQL.

The host's phone talks to one app process and the follower's to another, both on the same
PostgreSQL database (as a hosted instance with several processes behind one address): the
host shares the game, the follower opens its link, and each bid the host records shows on
the follower's screen without a touch. How soon is the watch's interval (``POLL_S``, at most
two seconds): the follower's page shows a move at its watch's next run. No clock is read here:
the kit's waits only stop a hung test (``make bench-live`` measures the latency). At 390 × 844,
in French.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from perudo_math import GameState
from tests import postgres
from tests.browser.conftest import _require_chromium
from tests.browser.kit import (
    choose_segment,
    open_page,
    phone_context,
    reload_page,
    script_run,
    tap,
    type_into,
    url_param,
    warm_up,
    with_names,
)
from tests.servers import streamlit_app
from views import live_table

FOLLOW_WITHIN_S = 2.0
"""The promise to the follower: a move shows within the watch's interval, at most this."""


@pytest.fixture(scope="module")
def two_processes(postgres_server: str, chromium_browser: Browser,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Two app servers on one fresh PostgreSQL database, warmed up on the tracker and on the
    advice page a follower opens from it: xdist may hand a test a fresh pair, and once, in a
    loaded run, a follower's keypad there did not show within 20 s."""
    _require_chromium()
    env = dict(os.environ, PERUDO_COACH_DB=postgres.fresh_database(postgres_server))
    folder = tmp_path_factory.mktemp("two-processes")
    with streamlit_app(folder, env) as first, streamlit_app(folder, env) as second:
        for url in (first, second):
            warm_up(chromium_browser, f"{url}/game")
            warm_up(chromium_browser, f"{url}/bid-odds")
        yield first, second


def phone_page(browser: Browser, lang: str = "fr") -> Page:
    return phone_context(browser, locale="fr-FR" if lang == "fr" else "en-US").new_page()


def bid(page: Page, face: str, quantity: str) -> None:
    choose_segment(page, "tracker_face", re.compile(rf"\s{face}$"))
    with script_run(page):
        page.locator(".st-key-tracker_quantities button").filter(
            has_text=re.compile(rf"^{quantity}$")).first.click()


@pytest.mark.browser
def test_a_move_on_the_hosts_phone_shows_on_a_follower_served_by_another_process(
        two_processes: tuple[str, str], chromium_browser: Browser) -> None:
    first, second = two_processes
    game = GameState.new(["Ann", "Bob", "Cid"])
    host = phone_page(chromium_browser)
    follower = phone_page(chromium_browser)
    try:
        open_page(host, f"{first}/game?game={game.to_code()}&me=0&lang=fr")
        with script_run(host):
            host.locator(".st-key-tracker_chips button").filter(has_text="Partager").click()
        with script_run(host):
            host.locator(".st-key-tracker_share button").click()
        link = host.locator("[data-testid='stCode']").inner_text().strip()
        assert "share=" in link and link.startswith(first)
        expect(host.get_by_text("Table partagée\u00a0: vous l'hébergez et enregistrez "
                                "les coups.")).to_be_visible()

        open_page(follower, link.replace(first, second))  # the other process
        expect(follower.get_by_text("Seul l'hôte enregistre les coups\u00a0: cet écran suit "
                                    "la table au fil du jeu.")).to_be_visible()
        assert live_table.POLL_S <= FOLLOW_WITHIN_S  # the watch's next run shows the move
        turn = follower.get_by_text(with_names("Ann a annoncé 2 × 5"))
        bid(host, "5", "2")
        expect(turn).to_be_visible()  # no touch on the follower's phone

        bid(host, "5", "3")  # Bob's raise, recorded for him on the host's phone
        expect(follower.get_by_text(with_names("Bob a annoncé 3 × 5"))).to_be_visible()
        # The follower's address holds the game as shown: a reload, or a table that expires,
        # keeps this move.
        expect(follower).to_have_url(re.compile("game=" + re.escape(url_param(host, "game"))))
        # The share panel closed once the game moved on: its chip opens it again. The host
        # lets every phone record: the follower's screen says so without a move.
        expect(host.locator(".st-key-tracker_share_everyone")).to_have_count(0)
        with script_run(host):
            host.locator(".st-key-tracker_chips button").filter(has_text="Partager").click()
        with script_run(host):
            host.locator(".st-key-tracker_share_everyone label").click()
        expect(follower.get_by_text("Table partagée\u00a0: vous la suivez et pouvez "
                                    "enregistrer les coups.")).to_be_visible()
        width = follower.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
    finally:
        host.context.close()
        follower.context.close()


NEW_ROUND = {"fr": "La manche 2 a commencé\u00a0: entrez vos 5 nouveaux dés.",
             "en": "Round 2 has started: enter your 5 new dice."}
SHARE = {"fr": "Partager", "en": "Share"}
ADVICE_LINK = {"fr": "Conseil pour ce coup", "en": "Advice for this spot"}
FOLLOWER_DICE = (2, 3, 5, 5, 6)


def hand_shown(page: Page) -> str:
    return page.locator(".st-key-odds_hand_line").inner_text()


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_follower_on_the_advice_page_never_keeps_last_rounds_dice(
        two_processes: tuple[str, str], chromium_browser: Browser, lang: str) -> None:
    """Issue 28, point 1: Bob follows the table on the advice page with his dice entered;
    the host records the end of the round, and within the watch's interval Bob's page drops
    the old dice and asks for this round's, without a touch. The host's undo back into the
    round brings them back; a reload of Bob's page keeps them (this phone's record)."""
    first, second = two_processes
    game = GameState.new(["Ann", "Bob", "Cid"]).bid("2x5")
    host = phone_page(chromium_browser, lang)
    follower = phone_page(chromium_browser, lang)
    try:
        open_page(host, f"{first}/game?game={game.to_code()}&me=0&lang={lang}")
        with script_run(host):
            host.locator(".st-key-tracker_chips button").filter(has_text=SHARE[lang]).click()
        with script_run(host):
            host.locator(".st-key-tracker_share button").click()
        link = host.locator("[data-testid='stCode']").inner_text().strip()
        open_page(follower, link.replace(first, second))
        follower.locator(".st-key-tracker_iam [role='combobox']").click()
        with script_run(follower):  # asked up top: which player am I?
            follower.get_by_role("option", name="Bob", exact=True).click()
        with script_run(follower):
            follower.get_by_role("link", name=ADVICE_LINK[lang]).click()
        for face in FOLLOWER_DICE:
            tap(follower, f"odds_add_{face}")
        expect(follower.locator(".st-key-odds_advice")).to_be_visible()  # Bob's turn
        assert "⚁ ⚂ ⚄ ⚄ ⚅" in hand_shown(follower)

        type_into(host, host.locator(".st-key-tracker_count input"), 1)
        tap(host, "tracker_dudo")  # Bob's dudo on 2 × 5 was right: Ann drops to 4 dice
        notice = follower.get_by_text(NEW_ROUND[lang])
        expect(notice).to_be_visible()
        assert "⚁ ⚂ ⚄ ⚄ ⚅" not in hand_shown(follower)
        expect(follower.locator(".st-key-odds_advice")).to_have_count(0)

        tap(host, "tracker_undo")  # back into round 1: Bob's dice of round 1 come back
        expect(follower.locator(".st-key-odds_hand_line")).to_contain_text("⚁ ⚂ ⚄ ⚄ ⚅")
        expect(notice).to_have_count(0)
        reload_page(follower)  # this phone's record keeps this round's dice
        expect(follower.locator(".st-key-odds_hand_line")).to_contain_text("⚁ ⚂ ⚄ ⚄ ⚅")
        assert "22556" not in follower.url and "22556" not in link
    finally:
        host.context.close()
        follower.context.close()


def test_screenshots_stay_out_of_the_repository() -> None:
    assert not list(Path(__file__).parent.glob("*.png"))
