"""What the benchmarks share: the browser tests' app server (``app_url``), and their Chromium
driven from a thread of its own (:class:`BrowserThread`; the ``chromium_thread`` fixture, and
``two_browsers``: one that measures and one kept busy beside it)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator

import pytest

from tests.browser import conftest as browser
from tests.browser.conftest import app_url  # noqa: F401 (the browser tests' app server)
from tests.browser.kit import IDLE, PHONE


class BrowserThread:
    """The browser tests' Chromium (same binary, same flags), driven from its own thread.

    Playwright's sync API allows one instance per thread, and the browser tests' session
    fixture may already hold the main thread's: a second ``sync_playwright()`` there fails.
    A job handed to this thread runs there; the hand-over costs microseconds.
    """

    def __init__(self) -> None:
        self.jobs: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=str(browser.CHROMIUM), args=browser.CHROMIUM_ARGS,
            )
            while (job := self.jobs.get()) is not None:
                work, done = job
                try:
                    done.put((work(chromium), None))
                except Exception as error:  # handed back to the test thread
                    done.put((None, error))
            chromium.close()

    def run(self, work: Callable) -> object:
        done: queue.Queue = queue.Queue()
        self.jobs.put((work, done))
        result, error = done.get(timeout=120)
        if error is not None:
            raise error
        return result

    def close(self) -> None:
        self.jobs.put(None)
        self.thread.join(timeout=30)


def first_page(url: str) -> Callable:
    """A job for :class:`BrowserThread`: open ``url`` in a fresh phone context (empty HTTP
    cache) and wait until the odds page has run and shows its title."""

    def job(chromium) -> None:
        context = chromium.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US",
        )
        try:
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector(IDLE)
            page.get_by_role("heading", name="Odds & advice").wait_for()
        finally:
            context.close()

    return job


@pytest.fixture(scope="module")
def chromium_thread() -> Iterator[BrowserThread]:
    """Chromium in a thread of its own (the browser tests may hold this thread's)."""
    browser._require_chromium()
    worker = BrowserThread()
    try:
        yield worker
    finally:
        worker.close()


@pytest.fixture(scope="module")
def two_browsers() -> Iterator[tuple[BrowserThread, BrowserThread]]:
    """Two Chromiums in threads of their own: one measures, the other keeps the app busy."""
    browser._require_chromium()
    measuring, busy = BrowserThread(), BrowserThread()
    try:
        yield measuring, busy
    finally:
        measuring.close()
        busy.close()
