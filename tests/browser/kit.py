"""What every browser test drives and reads the app with.

No fixed sleeps: an action that makes Streamlit rerun the script waits for *that* run to end
(``script_run``), and the tests wait for the content they expect with Playwright's
auto-waiting assertions (``expect``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit
from weakref import WeakKeyDictionary

from playwright.sync_api import Browser, BrowserContext, Locator, Page, WebSocket, expect
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

PHONE = {"width": 390, "height": 844}
"""The viewport of every browser test: a common phone held upright."""

TIMEOUT_MS = 20_000
"""How long an action or an assertion waits: a script run on a busy shared machine."""

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
"""The app has finished a script run (before the first run the state is ``initial``)."""

ADVICE = ".st-key-odds_advice"
"""The recommendation card of the Odds & advice page."""

SETTLED_JS = """
(idle) => document.querySelector(idle) !== null
  && document.querySelector("[data-testid='stSkeleton']") === null
"""
"""The run has ended and every element is drawn: Streamlit loads an element's code on first
use and shows a skeleton meanwhile, so a fresh page can be idle with parts still missing."""

LAID_OUT_JS = """
() => document.fonts.status === "loaded"
  && [...document.images].every(image => image.complete)
  && [...document.querySelectorAll("[data-testid='stVegaLiteChart']")]
       .every(chart => chart.querySelector("svg, canvas"))
"""
"""Fonts loaded, images decoded, every chart drawn: what still moves after a script run."""

NEXT_FRAME_JS = """
() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))
"""
"""Resolves once the browser has laid out and painted what the page just changed."""

OVERFLOW_JS = """
() => {
  const limit = window.innerWidth + 1;
  const main = document.querySelector("[data-testid='stMain']") || document.body;
  const wide = [];
  for (const el of main.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.height > 0 && box.right > limit) {
      wide.push(`${el.tagName}.${el.className} right=${Math.round(box.right)}`);
    }
  }
  return wide.slice(0, 10);
}
"""
"""The elements (up to 10) whose right edge passes the viewport: each would scroll sideways."""

SCROLL_WIDTH_JS = """
() => Math.max(document.scrollingElement.scrollWidth,
               ...[...document.querySelectorAll("[data-testid='stMain'], [data-testid='stMain'] *")]
                  .filter(el => ["auto", "scroll"].includes(getComputedStyle(el).overflowX))
                  .map(el => el.scrollWidth - el.clientWidth + window.innerWidth))
"""
"""The widest scrollable width on the page: the window's, or an inner scroller's overflow."""

TO_TOP_JS = """
() => {
  window.scrollTo(0, 0);
  for (const el of document.querySelectorAll("*")) { if (el.scrollTop) el.scrollTop = 0; }
}
"""
"""Scroll the page and every scrolled container back to the top."""

# --- browsers and pages ----------------------------------------------------------------------


def phone_context(browser: Browser, *, locale: str = "en-US") -> BrowserContext:
    """A fresh phone-sized context (no cookies or storage shared); its pages can wait for
    the script runs their actions start (``script_run``)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale=locale)
    context.set_default_timeout(TIMEOUT_MS)
    context.on("page", _watch_the_stream)
    return context


_streams: WeakKeyDictionary[Page, WebSocket] = WeakKeyDictionary()
"""Each page's connection to the app server, which says when a script run ends."""


def _watch_the_stream(page: Page) -> None:
    def opened(socket: WebSocket) -> None:
        if socket.url.endswith("/_stcore/stream"):
            _streams[page] = socket

    page.on("websocket", opened)


def _run_end_detector() -> Callable[[str | bytes], bool]:
    """A predicate over the server's messages, true on the one that ends a script run: the
    app reported not running after a run finished (not one cut short to rerun at once)."""
    finished = False

    def ends_the_run(payload: str | bytes) -> bool:
        nonlocal finished
        if isinstance(payload, str):
            return False
        message = ForwardMsg.FromString(payload)
        kind = message.WhichOneof("type")
        if kind == "script_finished":
            finished = message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
        return (finished and kind == "session_status_changed"
                and not message.session_status_changed.script_is_running)

    return ends_the_run


def with_lang(url: str, lang: str | None) -> str:
    """``url`` with ``lang=…`` added to its query (unchanged when ``lang`` is None)."""
    if lang is None:
        return url
    parts = urlsplit(url)
    query = "&".join(filter(None, [parts.query, urlencode({"lang": lang})]))
    return urlunsplit(parts._replace(query=query))


def open_page(page: Page, url: str, *, lang: str | None = None) -> None:
    """Load ``url`` (in ``lang`` when given) and wait for its first script run to end."""
    page.goto(with_lang(url, lang))
    page.wait_for_function(SETTLED_JS, arg=IDLE)  # the state is "initial" until the first run
    expect(page.get_by_test_id("stMainBlockContainer")).to_be_visible()


WARM_UP_TIMEOUT_MS = 120_000
"""How long a freshly started server's first page may take: its imports
(``views.warmup.TIMEOUT_S``), on a shared machine."""


def warm_up(browser: Browser, url: str) -> None:
    """Open the app at ``url`` once, in a context of its own, and wait for the first run of
    a freshly started server, imports included: a test's pages then wait for their own runs
    alone (a cold second process took 15 to 24 s on a loaded two-core machine)."""
    context = phone_context(browser)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(SETTLED_JS, arg=IDLE, timeout=WARM_UP_TIMEOUT_MS)
    finally:
        context.close()


def reload_page(page: Page) -> None:
    """Reload the page and wait for its first script run to end."""
    page.reload()
    page.wait_for_function(SETTLED_JS, arg=IDLE)


def laid_out(page: Page) -> None:
    """Wait until what lays out after a run (fonts, images, charts) has, and is painted."""
    page.wait_for_function(LAID_OUT_JS)
    page.evaluate(NEXT_FRAME_JS)


def url_param(page: Page, name: str) -> str:
    """The value of query parameter ``name`` in the page's address (the test fails without)."""
    values = parse_qs(urlsplit(page.url).query).get(name)
    assert values, f"no {name}= in {page.url}"
    return values[0]


# --- actions: each waits for the script run it starts ----------------------------------------


@contextmanager
def script_run(page: Page) -> Iterator[None]:
    """Wait, after the block, for the script run it started to end and be drawn.

    The server says when the run ends (on the page's websocket): the idle selector alone
    cannot, since it still matches the run before when the block is over, and a quick run can
    come and go between two renders of the page. The block must start a run: one that starts
    none times out instead of passing unnoticed.
    """
    with _streams[page].expect_event("framereceived", predicate=_run_end_detector()):
        yield
    page.wait_for_function(SETTLED_JS, arg=IDLE)
    page.evaluate(NEXT_FRAME_JS)


def tap(page: Page, key: str) -> None:
    """Tap the button of the widget with key ``key`` (a button with help keeps a hidden twin)."""
    with script_run(page):
        page.locator(f".st-key-{key} button:visible").first.click()


ODDS_DETAILS = "odds_details"
"""The odds page's expander of the odds in detail: the charts and the bid's odds."""


def open_details(page: Page) -> None:
    """Open the odds page's odds in detail (drawn only while open), unless they are."""
    details = page.locator(f".st-key-{ODDS_DETAILS} details")
    if details.get_attribute("open") is None:
        with script_run(page):
            page.locator(f".st-key-{ODDS_DETAILS} summary").click()
    expect(details).to_have_attribute("open", "")


def tap_named(page: Page, name: str) -> None:
    """Tap the button whose accessible name is ``name``."""
    with script_run(page):
        page.get_by_role("button", name=name).click()


def flip(page: Page, key: str) -> None:
    """Flip the toggle (or checkbox) with key ``key``."""
    with script_run(page):
        page.locator(f".st-key-{key} label").click()


def type_into(page: Page, field: Locator, value: str | int) -> None:
    """Type ``value`` into a text or number ``field`` and send it (Enter); nothing to send
    when the field holds it already."""
    text = str(value)
    if field.input_value() != text:
        with script_run(page):
            field.fill(text)
            field.press("Enter")
    expect(field).to_have_value(text)


def set_number(page: Page, key: str, value: int) -> None:
    """Set the number input with key ``key`` to ``value``."""
    type_into(page, page.locator(f".st-key-{key} input"), value)


def stepper_value(page: Page, key: str) -> int:
    """The number the stepper ``key`` (``views.inputs.stepper``) shows."""
    return int(page.locator(f".st-key-{key}_steps [data-testid='stMarkdown']").inner_text())


def set_stepper(page: Page, key: str, value: int) -> None:
    """Tap the stepper ``key``'s ``−`` or ``+`` until it shows ``value``."""
    while (shown := stepper_value(page, key)) != value:
        tap(page, f"{key}_{'up' if value > shown else 'down'}")


def set_text(page: Page, key: str, text: str) -> None:
    """Set the text input with key ``key`` to ``text``."""
    type_into(page, page.locator(f".st-key-{key} input"), text)


def segment(page: Page, key: str, label: str | re.Pattern) -> Locator:
    """The option labelled ``label`` of the segmented control with key ``key``."""
    return page.locator(f".st-key-{key} [role='radio']").filter(has_text=label)


def choose_segment(page: Page, key: str, label: str | re.Pattern) -> None:
    """Pick an option of a segmented control; a required one ignores a tap on its choice."""
    option = segment(page, key, label)
    if option.get_attribute("aria-checked") != "true":
        with script_run(page):
            option.click()
    expect(option).to_have_attribute("aria-checked", "true")


def choose_option(page: Page, key: str, option: str) -> None:
    """Pick ``option`` in the selectbox with key ``key`` (a combobox and its list)."""
    box = page.locator(f".st-key-{key} [role='combobox']")
    if box.input_value() != option:
        box.click()
        with script_run(page):
            page.get_by_role("option", name=option, exact=True).click()
    expect(box).to_have_value(option)


# --- reading ---------------------------------------------------------------------------------


def advice_headline(page: Page) -> Locator:
    """The headline of the advice card (``RAISE to 2 × P``)."""
    return page.locator(f"{ADVICE} h2")


def metric_values(page: Page) -> list[str]:
    return page.get_by_test_id("stMetricValue").all_inner_texts()


ISOLATES = "\u2068\u2069"
"""The invisible marks around each player's name on a page (``views.text.isolated``)."""


def with_names(text: str, *, whole: bool = False) -> re.Pattern[str]:
    """``text`` as a page shows it with players' names in it: each name drawn between the
    invisible isolates FSI and PDI, which the pattern allows anywhere. ``whole``: the
    element's whole text, else a part of it."""
    gap = f"[{ISOLATES}]*"
    body = gap + "".join(re.escape(char) + gap for char in text)
    return re.compile(f"^{body}$" if whole else body)


def alert(page: Page, kind: str) -> Locator:
    """The text of the first alert of ``kind`` (Info, Warning, Error, Success), icon left out."""
    return page.get_by_test_id(f"stAlertContent{kind}").first.get_by_test_id(
        "stMarkdownContainer")


def assert_fits_the_width(page: Page) -> None:
    """Laid out, nothing scrolls sideways: not the window, not an inner scroller, and no
    element of the main area passes the right edge."""
    laid_out(page)
    width = page.viewport_size["width"]
    assert page.evaluate(SCROLL_WIDTH_JS) <= width
    assert page.evaluate(OVERFLOW_JS) == []


def assert_on_the_first_screen(page: Page, selector: str) -> None:
    """``selector`` is wholly visible without scrolling (the page scrolled back to its top)."""
    laid_out(page)
    page.evaluate(TO_TOP_JS)
    page.evaluate(NEXT_FRAME_JS)
    box = page.locator(selector).bounding_box()
    assert box is not None
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box


# --- screenshots -----------------------------------------------------------------------------


def whole_page_screenshot(page: Page, path: Path) -> None:
    """Streamlit scrolls an inner container, so ``full_page`` sees one screen: grow the
    viewport to the content's height instead (the width, hence the layout, stays)."""
    laid_out(page)
    size = page.viewport_size
    height = page.evaluate(
        "Math.max(...[...document.querySelectorAll('*')].map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": size["width"], "height": min(int(height), 4000)})
    laid_out(page)
    page.screenshot(path=path)
    page.set_viewport_size(size)


AXE_SERIOUS = {"serious", "critical"}


def axe_findings(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    laid_out(page)
    found = Axe().run(page).response["violations"]
    return [f"{rule['id']} ({rule['impact']}): {node['target']} {node['failureSummary']}"
            for rule in found if rule["impact"] in AXE_SERIOUS for node in rule["nodes"]]
