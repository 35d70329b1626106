"""Browser tests: a real ``streamlit run`` server driven by the system Chromium.

``app_url`` starts ``streamlit run streamlit_app.py`` on a free local port and waits for
``/_stcore/health``. ``page`` is a fresh phone-sized (390 × 844) Chromium page. Without
/usr/bin/chromium these tests skip, except under CI (env CI set), where they fail.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = ROOT / "test-output" / "screenshots"
PHONE = {"width": 390, "height": 844}
STARTUP_TIMEOUT_S = 60.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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
    port = _free_port()
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
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                  env=environment)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if server.poll() is not None:
                pytest.fail(f"streamlit exited with {server.returncode}:\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"streamlit not healthy after {STARTUP_TIMEOUT_S}s:\n"
                            f"{log_path.read_text()}")
            time.sleep(0.25)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


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
