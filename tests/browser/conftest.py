"""Browser tests: a real ``streamlit run`` server driven by the system Chromium.

``app_url`` starts ``streamlit run streamlit_app.py`` on a free local port and waits for
``/_stcore/health``. ``phone`` is a fresh phone-sized (390 × 844) Chromium page. Without
/usr/bin/chromium these tests skip, except under CI (env CI set), where they fail.

Under pytest-xdist the session fixtures exist once per worker process: each worker has its own
server (its own port, its own throwaway progress file) and its own Chromium, and every test
its own browser context, so tests share no cookies, storage or Streamlit session.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.kit import TIMEOUT_MS, phone_context
from tests.servers import streamlit_app

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = ROOT / "test-output" / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

expect.set_options(timeout=TIMEOUT_MS)


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    message = f"{CHROMIUM} is missing: install Debian's chromium package"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set: browser tests must run)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of this worker's app server, shared by its browser tests."""
    _require_chromium()
    server_dir = tmp_path_factory.mktemp("streamlit")  # per worker under xdist
    # Practice progress goes to a throwaway file, never to the user's real one.
    environment = {**os.environ, "PERUDO_COACH_DB": str(server_dir / "progress.sqlite3")}
    with streamlit_app(server_dir, environment) as url:
        yield url


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[Browser]:
    """The system Chromium, headless, without background network traffic."""
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def phone(chromium_browser: Browser) -> Iterator[Page]:
    """A fresh phone-sized page (own context: no shared cookies or storage)."""
    context = phone_context(chromium_browser)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
