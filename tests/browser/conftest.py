"""Browser tests: a real ``streamlit run`` server driven by the system Chromium.

``app_url`` starts ``streamlit run streamlit_app.py`` on a free local port and waits for
``/_stcore/health``. ``page`` is a fresh phone-sized (390 × 844) Chromium page. Without
/usr/bin/chromium these tests skip, except under CI (env CI set), where they fail.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import free_port, running_server

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = ROOT / "test-output" / "screenshots"
PHONE = {"width": 390, "height": 844}


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    message = f"{CHROMIUM} is missing: install Debian's chromium package"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set: browser tests must run)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a running app server, shared by the session's browser tests."""
    _require_chromium()
    port = free_port()
    server_dir = tmp_path_factory.mktemp("streamlit")
    log_path = server_dir / "server.log"
    # Practice progress goes to a throwaway file, never to the user's real one.
    environment = {**os.environ, "PERUDO_COACH_DB": str(server_dir / "progress.sqlite3")}
    command = [
        sys.executable, "-m", "streamlit", "run", "streamlit_app.py",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        "--browser.serverAddress", "127.0.0.1",
    ]
    url = f"http://127.0.0.1:{port}"
    with running_server(command, url, log_path, environment):
        yield url


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[object]:
    """The system Chromium, headless, without background network traffic."""
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking"],
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def phone(chromium_browser) -> Iterator[object]:
    """A fresh phone-sized page (own context: no shared cookies or storage)."""
    context = chromium_browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-US"
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
