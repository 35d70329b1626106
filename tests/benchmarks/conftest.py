"""What the benchmarks share: the browser tests' app server (``app_url``), their Chromium
driven from a thread of its own (:class:`BrowserThread`; the ``chromium_thread`` fixture, and
``two_browsers``: one that measures and one kept busy beside it), and a session opened
without a browser (:func:`script_run`): a phone whose own work happens on the phone."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from tests.app.conftest import whole_runs_after_taps  # noqa: F401  (autouse: AppTest's taps)
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


def script_run(url: str, page: str, query: str, locale: str = "en-US") -> float:
    """Open a session on the app's server as a browser does, without one: its websocket, then
    one run of the page at ``page`` (its URL path) with ``query``, as a link opens it. Returns
    the seconds from connecting to the run's end; an exception drawn on the page fails.

    What a phone's browser does for itself (loading the app's JavaScript, drawing) is not
    done here: on this 2-core machine four browsers beside the one measured cost it more than
    the server's work for them, which is not what a fifth phone at a table feels."""
    started = time.perf_counter()
    with connect(url.replace("http", "ws", 1) + "/_stcore/stream", subprotocols=["streamlit"],
                 max_size=None, open_timeout=60) as stream:
        request = BackMsg()
        state = request.rerun_script
        state.query_string, state.page_name = query, page
        state.context_info.locale, state.context_info.timezone = locale, "UTC"
        state.context_info.url = f"{url}/{page}?{query}"
        stream.send(request.SerializeToString())
        while True:
            message = ForwardMsg()
            message.ParseFromString(stream.recv(timeout=120))
            kind = message.WhichOneof("type")
            if kind == "delta" and message.delta.new_element.WhichOneof("type") == "exception":
                raise AssertionError(message.delta.new_element.exception.message)
            if kind == "script_finished" and (
                    message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN):
                return time.perf_counter() - started


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


def printed(benchmark, capsys, title: str, lines: list[str]) -> None:
    """A benchmark's table: kept in its ``extra_info`` and, in a full run, printed."""
    benchmark.extra_info["report"] = [title, *lines]
    if not benchmark.disabled:
        with capsys.disabled():
            print(f"\n{title}")
            for line in lines:
                print(f"  {line}")
