"""Every page's own address opens cleanly, cold and warm; several sessions right after a
start all draw; hostile player names never become links, images, colours or maths."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from perudo_math import GameState
from tests.browser.conftest import _require_chromium
from tests.browser.kit import IDLE, PHONE
from tests.servers import free_port, running_server, streamlit_command

ROOT = Path(__file__).resolve().parents[2]


def own_addresses() -> list[str]:
    """Each page's own URL path from the entry script's st.Page list (the default page's
    reserved path is served at the root instead, so "" stands for it)."""
    paths = [""]
    for node in ast.walk(ast.parse((ROOT / "streamlit_app.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "Page":
            keywords = {k.arg: k.value for k in node.keywords}
            if not (isinstance(keywords.get("default"), ast.Constant)
                    and keywords["default"].value):
                paths.append(keywords["url_path"].value)
    return paths


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[str]:
    """A server started for this test alone: its first visitors meet a cold process."""
    _require_chromium()
    port = free_port()
    command = streamlit_command("streamlit_app.py", port)
    environment = {**os.environ, "PERUDO_COACH_DB": str(tmp_path / "progress.sqlite3")}
    url = f"http://127.0.0.1:{port}"
    with running_server(command, url, tmp_path / "server.log", environment):
        yield url


def open_page(browser: Browser, url: str) -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale="en-US")
    context.set_default_timeout(60_000)
    page = context.new_page()
    page.goto(url, wait_until="commit")
    return page


def assert_drawn_without_error(page: Page) -> None:
    page.wait_for_selector(IDLE)
    expect(page.locator("h1").first).to_be_visible()
    assert page.locator("[data-testid='stException']").count() == 0, page.url
    assert page.get_by_text("Page not found").count() == 0, page.url


def test_every_page_opens_at_its_own_address_cold_and_warm(fresh_server, chromium_browser):
    addresses = own_addresses()
    assert "bid-odds" in addresses and "vs-bots" in addresses and len(addresses) == 9
    for visit in ("cold", "warm"):
        for path in addresses:
            page = open_page(chromium_browser, f"{fresh_server}/{path}")
            try:
                assert_drawn_without_error(page)
                if path:
                    assert f"/{path}" in page.url, (visit, page.url)
            finally:
                page.context.close()


def test_sessions_opening_together_right_after_a_start_all_draw(fresh_server,
                                                                 chromium_browser):
    paths = ["train", "my-progress", "", "drill", "train?seed=3", "bid-odds"]
    pages = [open_page(chromium_browser, f"{fresh_server}/{path}") for path in paths]
    try:
        for page in pages:
            assert_drawn_without_error(page)
    finally:
        for page in pages:
            page.context.close()


HOSTILE = ["[Tap here](http://e.com)", "![](http://127.0.0.1:9/px.png)",
           ":red[RED] **B** $x^2$"]


@pytest.mark.parametrize("path", ["bid-odds", "game"])
def test_hostile_names_stay_text_in_the_browser(app_url, phone, path):
    game = GameState.new(["Ann", *HOSTILE]).bid("3x4").bid("4x4").bid("5x4")
    requested: list[str] = []
    phone.on("request", lambda request: requested.append(request.url))
    phone.goto(f"{app_url}/{path}?game={game.to_code()}&me=1&lang=en")
    phone.wait_for_selector(IDLE)
    main = phone.locator("[data-testid='stMain']")
    expect(main.get_by_text("Tap here", exact=False).first).to_be_visible()
    assert main.locator("a[href*='e.com']").count() == 0
    assert main.locator("img[src*='px.png']").count() == 0
    assert main.locator(".katex").count() == 0
    assert not any("px.png" in url for url in requested)
    colours = main.locator("span").evaluate_all(
        "spans => spans.filter(s => s.textContent === 'RED' && getComputedStyle(s).color"
        " === 'rgb(255, 43, 43)').length")
    assert colours == 0
