"""Speed as felt (issue 11): the app beside a bare one-button Streamlit page, in one run.

``make bench-speed`` (or ``make bench``, with the others) runs it in full and prints medians,
p95 and the ratios to the bare page (also kept in the benchmark's ``extra_info``); ``make
test`` runs one round of each, which only checks that every step still works. No timed
assertion. Targets: a tap within 1.5× a tap on
the bare page, the first page within 1.25× the bare page's.

The baseline is the bare page as Streamlit serves it (``streamlit run``). The app is served
as ``make run`` serves it: through ``serving.streamlit_cli``, whose server answers without
Nagle's delay. So that the gain this makes and the app's own cost can be told apart, the bare
page is also measured on the app's server ("bare, app's server"), and each figure's ratio to
it is printed beside the target's. All three servers run the same Streamlit, with the same
flags and configuration, and are measured in the same headless Chromium at 390 × 844, in
turn, the order rotated every round, so a busy shared machine slows all alike. Every time is
taken inside the page:

- **first page**: a fresh context (empty HTTP cache) opens the page; from the navigation's
  start until the first script run is over (no skeleton left), the main content is visible,
  the fonts are loaded and every chart is drawn (checked every frame).
- **a tap**: from the tap's ``click`` event to the page's last change (a MutationObserver),
  once the run the tap started is over and drawn and the page has stayed still for
  :data:`QUIET_MS`. The bare page's tap is its button. The app's:

  - *odds*: on a hand of five dice and a bid (entered untimed), the bid's face changes;
    before it (untimed) the table gets a size not asked before, so the coach and the charts
    work afresh, as at the table;
  - *odds a die (1st to 4th)*, *odds fifth die (advice)*: a hand entered die by die on a
    page whose bid is set (the fifth brings the advice and its charts); for each, also the
    time until the line of dice shows it (*shown:*), before the advice under it is ready;
  - *odds die removed*: the last die taken off (and put back, untimed);
  - *odds table dice stepper*, *odds players stepper*: a ``+`` or ``−`` of the table;
  - *odds bid quantity*: another quantity of the bid;
  - *tracker bid*: a quantity tapped, the face picked (a round's opening bid, its first
    raise, then a raise in the round's course);
  - *tracker dudo*, *tracker calza*: the call tapped, the count entered beforehand (untimed);
  - *practice answer*: Dudo on a scenario that faces a bid (the verdict, the cups, the
    options weighed), saved in the learner's profile (made once, by a first answer untimed);
  - *a move against the bots*: Dudo at my turn (the cups, then the bots' moves, at the
    "instant" pace);
  - *follower shown a move*: the host of a shared table bids (written through the store, as
    the host's phone writes it); on a follower's page, from its watch's request that finds
    the move until the page shows it and is still. How long the move waits for that request
    (the watch's interval) is ``make bench-live``'s measure, not this one's.

Where a tap's time goes is printed under the table (medians per tap): the app server's script
runs the tap started (the app is served through :mod:`tests.benchmarks.timed_server`, which
logs each run's length, CPU, messages and bytes), the browser's JavaScript, and its layout and
style work (Chrome's performance metrics over the tap). The bare page's own server keeps no
log: its runs are the one button and one line. The column "× bare, no run" is a floor on the
tap's ratio to the bare page's were the app's script runs instant (the tap less its runs):
above 1.5, the browser's work and the waiting alone miss the target, whatever the server does.
The last, "× bare, as many", sets the tap against the bare page sending as many messages: the
bare page is also tapped with 12 and 24 more elements redrawn a tap (:data:`SIZED`), and the
app's tap divided by the bare page's time at its median messages (:func:`bare_of_its_size`).
Near 1, the tap costs what the elements it redraws cost any Streamlit page; fewer messages,
not faster code, would make it quicker.
"""

from __future__ import annotations

import itertools
import os
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from weakref import WeakKeyDictionary

import pytest
from playwright.sync_api import Browser, CDPSession, Page, expect

from perudo_math import Bid, GameState
from storage.sql import Database
from storage.tables import SharedTables
from tests.benchmarks import timed_server
from tests.browser import conftest as browser
from tests.browser.kit import (
    IDLE,
    choose_segment,
    phone_context,
    script_run,
    set_stepper,
    tap,
    type_into,
    url_param,
)
from tests.servers import streamlit_app
from views.i18n import translate

BARE_PAGE = Path(__file__).with_name("bare_page.py")
LOAD_ROUNDS, TAP_ROUNDS, WARMUP_ROUNDS = 15, 20, 2
"""Full run (``make bench``): first pages per page, rounds of taps, rounds not counted."""
QUIET_MS = 250
"""A tap's effect is over once the page has not changed for this long (not counted)."""
PLAYERS = ("Ana", "Ben", "Cleo", "Dan", "Eve")
FOLLOWED_FACE = 5
"""The face the host of the shared table bids on, one more each move."""
HAND = (1, 2, 3, 4, 5)
TARGETS = {"first page": 1.25, "tap": 1.5}
BASELINES = {"first page": "first page: bare", "tap": "tap: bare"}
"""Each measure's baseline, against which its target is set."""
SAME_SERVER = ", app's server"
"""The suffix of a baseline measured on the app's server."""
BARE_MESSAGES = 2
"""What a tap on the bare page sends the browser: its button and its line."""
SIZED = {12: "tap: bare, 12 elements redrawn", 24: "tap: bare, 24 elements redrawn"}
"""The bare page drawing more elements a tap (``?elements=N``): the browser's cost of an
element redrawn, against which each of the app's taps is set by the messages it sends."""

# What the app's pages are driven by: change here when a page's keys change.
APP_CONTENT = "[data-testid='stMainBlockContainer'] h1"
BARE_BUTTON = ".st-key-bare_tap button"
ODDS_ADD = "odds_add_{face}"
ODDS_FACE = "odds_face"
ODDS_QUANTITY = "odds_qty"
ODDS_BID = ("4", "7")
"""The bid entered once, untimed (the page starts with none): its face, then its quantity."""
ODDS_TABLE = "odds_dice"
TRACKER_FACE = "tracker_face"
TRACKER_QUANTITY = ".st-key-tracker_quantities button"
TRACKER_COUNT = "[class*='st-key-tracker_count'] input"
TRACKER_DUDO = ".st-key-tracker_dudo button"
TRACKER_BID_FACE = "5"
TRACKER_CALZA = ".st-key-tracker_calza button"
ODDS_HAND_LINE = "[class*='st-key-odds_hand_line']"
"""The line that shows the dice entered: a die tapped shows there first."""

CLOCK_JS = """
(() => {
  const clock = { tapAt: null, changedAt: performance.now(), shownAt: null, watch: null };
  window.__speed = clock;
  const hover = "[data-testid^='stElementToolbar'], .vg-tooltip";
  const element = (node) => node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
  new MutationObserver((records) => {
    if (records.some(record => !element(record.target)?.closest(hover))) {
      clock.changedAt = performance.now();
      if (clock.armed && records.some(record => (element(record.target)?.textContent || "")
                                                .includes(clock.armed))) {
        clock.tapAt = clock.sentAt;  // a follower: the request that found the move
        clock.armed = null;
      }
    }
    if (clock.watch && clock.shownAt === null
        && records.some(record => element(record.target)?.closest(clock.watch))) {
      clock.shownAt = performance.now();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true,
                         characterData: true });
  document.addEventListener("click", () => {
    clock.tapAt = clock.changedAt = performance.now();
    clock.shownAt = null;
  }, true);
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    clock.sentAt = performance.now();
    return send.call(this, data);
  };
})();
"""
"""Installed in every page before its own scripts: when the last tap happened, and when the
page last changed. A chart's toolbar and tooltip, which show where the finger rests rather
than what the tap changed, do not count. A follower's page has no tap: ``armed`` with the
text of the move awaited, its "tap" is the last message it sent to the server (its watch
asking for news) before that text appeared."""

DRAWN_JS = """
(idle) => document.querySelector(idle) !== null
  && document.querySelector("[data-testid='stSkeleton']") === null
  && document.fonts.status === "loaded"
  && [...document.querySelectorAll("[data-testid='stVegaLiteChart']")]
       .every(chart => chart.querySelector("svg, canvas"))
"""
"""The script run is over and everything it sent is drawn."""

LOADED_JS = f"""
([idle, content]) => {{
  const drawn = {DRAWN_JS};
  const shown = document.querySelector(content);
  const box = shown && shown.getBoundingClientRect();
  return drawn(idle) && box && box.width > 0 && box.height > 0 ? performance.now() : false;
}}
"""
"""The time since the navigation started once the first run is drawn and ``content`` shows."""

STILL_JS = f"""
([idle, quiet]) => ({DRAWN_JS})(idle) && performance.now() - window.__speed.changedAt >= quiet
"""

TAP_MS_JS = "() => window.__speed.changedAt - window.__speed.tapAt"
SHOWN_MS_JS = "() => window.__speed.shownAt - window.__speed.tapAt"
"""From the tap to the first change inside the watched element (``window.__speed.watch``)."""


# --- measuring -------------------------------------------------------------------------------


BROWSER_WORK = {"script": ("ScriptDuration",),
                "layout": ("LayoutDuration", "RecalcStyleDuration")}
"""What the browser spends a tap on (Chrome's performance metrics, in seconds): running the
page's JavaScript (Streamlit's React front end), and laying the page out and styling it."""
_metrics: WeakKeyDictionary[Page, CDPSession] = WeakKeyDictionary()
last_tap: dict[str, float] = {}
"""The last timed tap: when it started and ended (``time.time()``, to find its script runs in
the server's log) and the browser's work in milliseconds (:data:`BROWSER_WORK`)."""


def new_page(chromium: Browser) -> Page:
    """A page in a fresh phone context (empty HTTP cache), its clock installed and Chrome's
    performance metrics on."""
    context = phone_context(chromium)
    context.add_init_script(CLOCK_JS)
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Performance.enable")
    _metrics[page] = session
    return page


def browser_work(page: Page) -> dict[str, float]:
    """The browser's work on ``page`` so far (:data:`BROWSER_WORK`), in milliseconds."""
    got = {m["name"]: m["value"] for m in _metrics[page].send("Performance.getMetrics")["metrics"]}
    return {kind: 1000 * sum(got[name] for name in names) for kind, names in BROWSER_WORK.items()}


@contextmanager
def tap_account(page: Page) -> Iterator[None]:
    """Keep in :data:`last_tap` the block's times and the browser's work on ``page``."""
    before, started = browser_work(page), time.time()
    yield
    after = browser_work(page)
    last_tap.clear()
    last_tap.update({kind: after[kind] - before[kind] for kind in after},
                    start=started, end=time.time())


def first_page(url: str, content: str) -> Callable[[Browser], float]:
    """A job: the milliseconds a fresh phone takes to show ``url``'s first page."""

    def job(chromium: Browser) -> float:
        page = new_page(chromium)
        try:
            page.goto(url)
            shown = page.wait_for_function(LOADED_JS, arg=[IDLE, content], polling="raf")
            return float(shown.json_value())
        finally:
            page.context.close()

    return job


def timed_tap(page: Page, selector: str) -> float:
    """Tap ``selector`` and wait until its run is over and the page still: the milliseconds
    from the tap to the page's last change."""
    with tap_account(page):
        with script_run(page):
            page.locator(selector).first.tap()
        page.wait_for_function(STILL_JS, arg=[IDLE, QUIET_MS])
    return float(page.evaluate(TAP_MS_JS))


def timed_tap_shown(page: Page, selector: str, watch: str) -> tuple[float, float]:
    """:func:`timed_tap`, and the milliseconds until ``watch`` first changed (the die shown,
    before the advice under it is ready)."""
    page.evaluate("(watch) => { window.__speed.watch = watch; }", watch)
    total = timed_tap(page, selector)
    return float(page.evaluate(SHOWN_MS_JS)), total


def open_and_settle(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function(DRAWN_JS, arg=IDLE)


def fresh_game_url(base: str) -> str:
    """The tracker on a new game of :data:`PLAYERS`, the phone's holder in seat 0."""
    return f"{base}/game?game={GameState.new(PLAYERS).to_code()}&me=0"


def face_pattern(face: str) -> re.Pattern:
    return re.compile(rf"\s{face}$")


class SharedTable:
    """A table shared from the app's database; the host's moves written as the host's phone
    writes them (through the store), one more five each time."""

    def __init__(self, database: str) -> None:
        self.tables = SharedTables(Database(database))
        self.game = GameState.new(PLAYERS)
        hosted = self.tables.host(self.game.to_code())
        self.host_token, self.follow_token, self.version = (hosted.host_token,
                                                            hosted.follow_token, 1)

    def next_bid(self) -> Bid:
        """The next move's bid; on a new game once the bids reach the table's dice (never
        within a run)."""
        last = self.game.last_bid
        if last is not None and last.quantity >= self.game.table_dice:
            self.game = GameState.new(PLAYERS)
            last = None
        return Bid(1 if last is None else last.quantity + 1, FOLLOWED_FACE)

    def move(self, bid: Bid) -> None:
        self.game = self.game.bid(bid)
        self.version = self.tables.record(self.host_token, self.version,
                                          self.game.to_code()).version


class Taps:
    """The pages tapped side by side (the bare page on both servers), each in its own phone
    context, and a follower of a shared table. Every method runs in the browser thread; the
    ``*_tap`` methods return milliseconds."""

    def __init__(self, chromium: Browser, app: str, bare: str, bare_same_server: str,
                 database: str) -> None:
        self.app = app
        self.shared = SharedTable(database)
        self.follower = new_page(chromium)
        open_and_settle(self.follower,
                        f"{app}/game?share={self.shared.follow_token}&lang=en")
        self.bare = new_page(chromium)
        open_and_settle(self.bare, bare)
        self.bare_same_server = new_page(chromium)
        open_and_settle(self.bare_same_server, bare_same_server)
        self.sized = {elements: new_page(chromium) for elements in SIZED}
        for elements, page in self.sized.items():
            open_and_settle(page, f"{bare}?elements={elements}")
        self.odds = new_page(chromium)
        open_and_settle(self.odds, app)
        for face in HAND:
            tap(self.odds, ODDS_ADD.format(face=face))
        choose_segment(self.odds, ODDS_FACE, face_pattern(ODDS_BID[0]))
        choose_segment(self.odds, ODDS_QUANTITY, re.compile(rf"^\s*{ODDS_BID[1]}\s*$"))
        self.tracker = new_page(chromium)
        open_and_settle(self.tracker, fresh_game_url(app))
        self.table = 14
        self.keypad = new_page(chromium)  # the hand entered die by die, the bid set first
        open_and_settle(self.keypad, app)
        choose_segment(self.keypad, ODDS_FACE, face_pattern(ODDS_BID[0]))
        choose_segment(self.keypad, ODDS_QUANTITY, re.compile(rf"^\s*{ODDS_BID[1]}\s*$"))
        self.practice = new_page(chromium)
        self.practice_seed = 0
        self.practice_profile = ""
        self.play = new_page(chromium)
        open_and_settle(self.play, f"{app}/vs-bots")
        choose_segment(self.play, "play_pace", translate("en", "play.pace.instant"))
        tap(self.play, "play_start")

    def close(self) -> None:
        for page in (self.bare, self.bare_same_server, *self.sized.values(), self.odds,
                     self.tracker, self.keypad, self.practice, self.play, self.follower):
            page.context.close()

    # --- the odds page: dice, steppers, the bid ---

    def prepare_hand(self) -> None:
        """An empty hand: the next five taps enter it."""
        if self.keypad.locator(".st-key-odds_clear button").is_enabled():
            tap(self.keypad, "odds_clear")

    def die_tap(self, face: int) -> tuple[float, float]:
        """A die tapped: milliseconds until the hand line shows it, and until the page is
        still (the fifth brings the advice)."""
        return timed_tap_shown(self.keypad, f".st-key-{ODDS_ADD.format(face=face)} button",
                               ODDS_HAND_LINE)

    def undo_tap(self) -> float:
        """The last die removed (and put back, untimed)."""
        ms = timed_tap(self.keypad, ".st-key-odds_undo button")
        tap(self.keypad, ODDS_ADD.format(face=HAND[-1]))
        return ms

    def stepper_tap(self, key: str, up: bool) -> float:
        return timed_tap(self.odds, f".st-key-{key}_{'up' if up else 'down'} button:visible")

    def quantity_tap(self) -> float:
        """The quantity next to the bid's (the row of quantities may page around it)."""
        options = self.odds.locator(f".st-key-{ODDS_QUANTITY} [role='radio']")
        checked = [o.get_attribute("aria-checked") == "true" for o in options.all()]
        following = (checked.index(True) + 1) % len(checked) if True in checked else 0
        label = options.nth(following).inner_text().strip()
        ms = timed_tap(self.odds, f".st-key-{ODDS_QUANTITY} [role='radio'] >> nth={following}")
        chosen = options.filter(has_text=re.compile(rf"^\s*{label}\s*$"))
        expect(chosen).to_have_attribute("aria-checked", "true")
        return ms

    # --- practice and a game against the bots ---

    def prepare_practice(self) -> None:
        """A scenario facing a bid (its dudo button shown), in the learner's profile: a
        learner's first answer makes it, once; every answer timed is one of the others."""
        for _ in range(50):
            self.practice_seed += 1
            open_and_settle(self.practice, f"{self.app}/train?seed={self.practice_seed}"
                                           f"{self.practice_profile}")
            if not self.practice.locator(".st-key-practice_dudo button").count():
                continue
            if self.practice_profile:
                return
            tap(self.practice, "practice_dudo")  # the first answer, untimed: the profile
            token = parse_qs(urlsplit(self.practice.url).query).get("profile", [""])[0]
            assert token, "the first answer made no profile: is the bench server's store usable?"
            self.practice_profile = f"&profile={token}"
        raise AssertionError("no practice scenario faced a bid")

    def practice_tap(self) -> float:
        """An answer: the verdict, the cups lifted and the options weighed."""
        return timed_tap(self.practice, ".st-key-practice_dudo button")

    def prepare_play(self) -> None:
        """My turn against the bots, facing a bid: a new game once one is over, my opening
        made (untimed) when it is mine."""
        for _ in range(20):
            if self.play.locator(".st-key-play_dudo button").count():
                return
            if self.play.locator(".st-key-play_new button").count():
                tap(self.play, "play_new")
                if self.play.locator(".st-key-play_start button").count():
                    tap(self.play, "play_start")
                continue
            choose_segment(self.play, "play_face", face_pattern("5"))
            with script_run(self.play):
                self.play.locator("[class*='st-key-play_q_'] button:visible").first.click()
        raise AssertionError("the game against the bots never came to a bid to call")

    def play_tap(self) -> float:
        """Dudo against the bots: the cups lifted, the bots' next moves played."""
        return timed_tap(self.play, ".st-key-play_dudo button")

    def follower_tap(self) -> float:
        """The host bids on the shared table: from the follower's watch asking for news (the
        request that finds the move) until its page shows the move and is still."""
        page = self.follower
        bid = self.shared.next_bid()
        page.evaluate("(text) => { window.__speed.armed = text; }", bid.pretty())
        with tap_account(page):
            self.shared.move(bid)
            page.wait_for_function("() => window.__speed.armed === null")
            page.wait_for_function(STILL_JS, arg=[IDLE, QUIET_MS])
        shown = GameState.from_code(url_param(page, "game")).last_bid
        assert shown == bid, f"the follower's page shows {shown}, not {bid}"
        return float(page.evaluate(TAP_MS_JS))

    def bare_tap(self, same_server: bool = False, elements: int = 0) -> float:
        page = (self.sized[elements] if elements else
                self.bare_same_server if same_server else self.bare)
        count = page.get_by_text(re.compile(r"^Taps: \d+$"))
        before = int(count.inner_text().split()[-1])
        ms = timed_tap(page, BARE_BUTTON)
        expect(count).to_have_text(f"Taps: {before + 1}")
        return ms

    def prepare_odds(self) -> None:
        """A table size not asked before: the next tap meets an empty cache."""
        self.table = self.table + 1 if self.table < 40 else 15
        set_stepper(self.odds, ODDS_TABLE, self.table)

    def odds_tap(self) -> float:
        options = self.odds.locator(f".st-key-{ODDS_FACE} [role='radio']")
        checked = [o.get_attribute("aria-checked") == "true" for o in options.all()]
        following = (checked.index(True) + 1) % len(checked)
        ms = timed_tap(self.odds, f".st-key-{ODDS_FACE} [role='radio'] >> nth={following}")
        expect(options.nth(following)).to_have_attribute("aria-checked", "true")
        return ms

    def moves(self) -> int:
        return len(GameState.from_code(url_param(self.tracker, "game")).history)

    def prepare_bid(self) -> None:
        """A face picked for the bid; a new game once this one is over."""
        if not self.tracker.locator(f".st-key-{TRACKER_FACE}").is_visible():
            open_and_settle(self.tracker, fresh_game_url(self.app))
        choose_segment(self.tracker, TRACKER_FACE, face_pattern(TRACKER_BID_FACE))

    def bid_tap(self) -> float:
        before = self.moves()
        ms = timed_tap(self.tracker, TRACKER_QUANTITY)
        assert self.moves() == before + 1, "the bid was not recorded"
        return ms

    def prepare_dudo(self, holds: bool) -> None:
        """The count entered: the bid's quantity (it holds) or none (it fails)."""
        game = GameState.from_code(url_param(self.tracker, "game"))
        assert game.last_bid is not None
        count = game.last_bid.quantity if holds else 0
        type_into(self.tracker, self.tracker.locator(TRACKER_COUNT), count)

    def prepare_calza(self, holds: bool) -> None:
        """A new game (five players: calza allowed), a bid made, the count entered."""
        open_and_settle(self.tracker, fresh_game_url(self.app))
        self.prepare_bid()
        self.bid_tap()
        self.prepare_dudo(holds)

    def dudo_tap(self, call: str = TRACKER_DUDO) -> float:
        rounds = len(GameState.from_code(url_param(self.tracker, "game")).results)
        ms = timed_tap(self.tracker, call)
        assert len(GameState.from_code(url_param(self.tracker, "game")).results) == rounds + 1
        return ms


def p95(values: list[float]) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def kind(name: str) -> str:
    """"first page" or "tap": which target a measure answers to."""
    return "first page" if name.startswith("first page") else "tap"


def summary(samples: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """Per measure: the count, median and p95 in ms, and the app's ratios to the bare page
    (the target's baseline) and to the bare page on the app's server."""
    figures: dict[str, dict[str, float]] = {}
    for name, values in samples.items():
        figures[name] = {"n": len(values), "median_ms": round(statistics.median(values), 1),
                         "p95_ms": round(p95(values), 1)}
    for name, row in figures.items():
        baseline = BASELINES[kind(name)]
        if name.startswith(baseline):
            continue
        row["median_ratio"] = round(row["median_ms"] / figures[baseline]["median_ms"], 2)
        row["p95_ratio"] = round(row["p95_ms"] / figures[baseline]["p95_ms"], 2)
        same_server = figures.get(baseline + SAME_SERVER)
        if same_server is not None:
            row["median_ratio_same_server"] = round(
                row["median_ms"] / same_server["median_ms"], 2)
    return figures


ACCOUNT = ("server run", "messages", "kB", "script", "layout")
"""Where a tap's time goes, per tap (medians in the table): the app server's script runs the
tap started (milliseconds, the messages they sent and their size), then the browser's work
(:data:`BROWSER_WORK`). The rest of a tap is waiting: the network, the event loop, frames."""


def account(measure: str, server_log: str) -> dict[str, float]:
    """:data:`ACCOUNT` of the last tap, ``measure``: with the app's, the runs of
    ``server_log`` within it (a bare page's server keeps no log; a run whose line is not
    written yet is left out of the medians)."""
    row = {"script": last_tap["script"], "layout": last_tap["layout"]}
    runs = timed_server.runs(server_log, last_tap["start"], last_tap["end"])
    if runs and not measure.startswith(BASELINES["tap"]):
        row.update({"server run": sum(run["ms"] for run in runs),
                    "messages": sum(run["messages"] for run in runs),
                    "kB": sum(run["bytes"] for run in runs) / 1000})
    return row


def keep(samples: dict[str, list[float]], accounts: dict[str, list[dict[str, float]]],
         measure: str, ms: float, server_log: str) -> None:
    """One more sample of ``measure``, and for a tap its :func:`account`."""
    samples[measure].append(ms)
    if kind(measure) == "tap":
        accounts[measure].append({**account(measure, server_log), "tap": ms})


def account_medians(accounts: dict[str, list[dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Per tap kind, the median of each part of :data:`ACCOUNT` it has."""
    return {name: {part: statistics.median([row[part] for row in rows if part in row])
                   for part in (*ACCOUNT, "tap") if any(part in row for row in rows)}
            for name, rows in accounts.items()}


def without_run(rows: list[dict[str, float]], bare_ms: float) -> float | None:
    """The median tap less its server runs, as a multiple of the bare page's median tap: a
    floor on what the tap would take, in the target's terms, were the app's script to run in
    no time (the browser's work and the waiting left; work the browser did while the run went
    on is not counted). ``None`` without the server's account."""
    left = [row["tap"] - row["server run"] for row in rows if "server run" in row]
    return round(statistics.median(left) / bare_ms, 2) if left else None


def bare_of_its_size(messages: float, figures: dict[str, dict[str, float]]) -> float | None:
    """The bare page's median tap, in milliseconds, had it sent ``messages``: a straight line
    through the bare page's taps (:data:`BARE_MESSAGES`, then :data:`SIZED`'s more), on from
    its last two points past them. ``None`` unless a sized bare page was measured."""
    points = sorted((BARE_MESSAGES + elements, figures[name]["median_ms"])
                    for elements, name in {0: BASELINES["tap"], **SIZED}.items()
                    if name in figures)
    if len(points) < 2:
        return None
    (low, low_ms), (high, high_ms) = next(
        ((a, b) for a, b in itertools.pairwise(points) if messages <= b[0]), points[-2:])
    return low_ms + (messages - low) * (high_ms - low_ms) / (high - low)


def account_report(accounts: dict[str, list[dict[str, float]]],
                   figures: dict[str, dict[str, float]]) -> str:
    """The median of each part of :data:`ACCOUNT`, beside the median tap; the tap's ratio to
    the bare page were the script run instant (:func:`without_run`), and to the bare page
    sending as many messages (:func:`bare_of_its_size`)."""
    bare_ms = figures[BASELINES["tap"]]["median_ms"]
    lines = [f"{'':32}{'tap ms':>8}" + "".join(f"{part:>12}" for part in ACCOUNT)
             + f"{'× bare, no run':>16}{'× bare, as many':>17}"]
    for name, rows in accounts.items():
        line = f"{name:32}{figures[name]['median_ms']:>8.0f}"
        for part in ACCOUNT:
            values = [row[part] for row in rows if part in row]
            line += f"{statistics.median(values):>12.1f}" if values else f"{'–':>12}"
        ratio = without_run(rows, bare_ms)
        line += f"{ratio:>16.2f}" if ratio is not None else f"{'–':>16}"
        messages = [row["messages"] for row in rows if "messages" in row]
        sized = bare_of_its_size(statistics.median(messages), figures) if messages else None
        line += (f"{figures[name]['median_ms'] / sized:>17.2f}" if sized
                 else f"{'–':>17}")
        lines.append(line)
    return "\n".join(lines)


def report(figures: dict[str, dict[str, float]]) -> str:
    same_server = "× bare" + SAME_SERVER
    lines = [f"{'':32}{'n':>4}{'median ms':>11}{'p95 ms':>9}{'× bare':>8}{'p95 ×':>7}"
             f"  target{same_server:>23}"]
    for name, row in figures.items():
        ratio = row.get("median_ratio")
        line = f"{name:32}{row['n']:>4}{row['median_ms']:>11.0f}{row['p95_ms']:>9.0f}"
        if ratio is not None:
            line += f"{ratio:>8.2f}{row['p95_ratio']:>7.2f}  ≤ {TARGETS[kind(name)]:<5}"
            if "median_ratio_same_server" in row:
                line += f"{row['median_ratio_same_server']:>22.2f}"
        lines.append(line)
    return "\n".join(lines)


# --- the benchmark ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def timed_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    """The app as ``make run`` serves it, its script runs logged (:mod:`timed_server`): its
    URL, the log and its database (where the shared table is hosted)."""
    browser._require_chromium()
    server_dir = tmp_path_factory.mktemp("timed-app")
    log, database = server_dir / "runs.jsonl", server_dir / "progress.sqlite3"
    log.touch()
    environment = {**os.environ, "PERUDO_COACH_DB": str(database),
                   timed_server.LOG_ENV: str(log)}
    with streamlit_app(server_dir, environment, module=timed_server.__name__) as url:
        yield url, str(log), str(database)


@pytest.fixture(scope="module")
def bare_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The bare page as Streamlit serves it (``streamlit run``, the app's flags and
    configuration)."""
    browser._require_chromium()
    server_dir = tmp_path_factory.mktemp("bare")
    with streamlit_app(server_dir, dict(os.environ), stock=True,
                       script=str(BARE_PAGE.relative_to(browser.ROOT))) as url:
        yield url


@pytest.fixture(scope="module")
def bare_same_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The bare page served as the app is (``serving.streamlit_cli``)."""
    browser._require_chromium()
    server_dir = tmp_path_factory.mktemp("bare-same-server")
    with streamlit_app(server_dir, dict(os.environ),
                       script=str(BARE_PAGE.relative_to(browser.ROOT))) as url:
        yield url


@pytest.mark.browser
def test_speed_beside_a_bare_page(benchmark, capsys, timed_app, bare_url,
                                  bare_same_server_url, chromium_thread) -> None:
    benchmark.group = "speed-as-felt"
    app_url, server_log, database = timed_app
    full = not benchmark.disabled
    load_rounds, tap_rounds = (LOAD_ROUNDS, TAP_ROUNDS) if full else (1, 1)
    warmup = WARMUP_ROUNDS if full else 0
    run = chromium_thread.run
    samples: dict[str, list[float]] = defaultdict(list)
    accounts: dict[str, list[dict[str, float]]] = defaultdict(list)

    def side_by_side(index: int, *jobs: tuple[str, Callable[[], float]]) -> None:
        """Each job once, in an order rotated by ``index``."""
        shift = index % len(jobs)
        for measure, job in jobs[shift:] + jobs[:shift]:
            ms = job()
            if index >= warmup:
                keep(samples, accounts, measure, ms, server_log)

    def measure() -> None:
        for index in range(warmup + load_rounds):
            side_by_side(
                index,
                ("first page: app", lambda: run(first_page(app_url, APP_CONTENT))),
                ("first page: bare", lambda: run(first_page(bare_url, BARE_BUTTON))),
                ("first page: bare" + SAME_SERVER,
                 lambda: run(first_page(bare_same_server_url, BARE_BUTTON))),
            )
        taps: Taps = run(lambda chromium: Taps(chromium, app_url, bare_url,
                                                bare_same_server_url, database))
        bare = "tap: bare", lambda: run(lambda _: taps.bare_tap())
        try:
            for index in range(warmup + tap_rounds):
                side_by_side(index, bare, ("tap: bare" + SAME_SERVER,
                                           lambda: run(lambda _: taps.bare_tap(same_server=True))))
                side_by_side(index, bare, *((name, lambda elements=elements: run(
                    lambda _: taps.bare_tap(elements=elements)))
                    for elements, name in SIZED.items()))
                run(lambda _: taps.prepare_odds())
                side_by_side(index, ("tap: odds", lambda: run(lambda _: taps.odds_tap())), bare)
                run(lambda _: taps.prepare_bid())
                for _ in range(3):  # the round's opening bid, its first raise, one more
                    side_by_side(index, ("tap: tracker bid",
                                         lambda: run(lambda _: taps.bid_tap())), bare)
                run(lambda _, holds=index % 2 == 0: taps.prepare_dudo(holds))
                side_by_side(index, ("tap: tracker dudo",
                                     lambda: run(lambda _: taps.dudo_tap())), bare)
                run(lambda _, holds=index % 2 == 1: taps.prepare_calza(holds))
                side_by_side(index, ("tap: tracker calza", lambda: run(
                    lambda _: taps.dudo_tap(TRACKER_CALZA))), bare)
                side_by_side(index, ("tap: follower shown a move",
                                     lambda: run(lambda _: taps.follower_tap())), bare)
                run(lambda _: taps.prepare_hand())
                for number, face in enumerate(HAND, start=1):
                    name = "tap: odds fifth die (advice)" if number == len(HAND) else \
                        "tap: odds a die (1st to 4th)"

                    def die(face: int = face, name: str = name, index: int = index) -> float:
                        shown, total = run(lambda _: taps.die_tap(face))
                        if index >= warmup:
                            samples[name.replace("tap: ", "shown: ")].append(shown)
                        return total

                    side_by_side(index, (name, die), bare)
                side_by_side(index, ("tap: odds die removed",
                                     lambda: run(lambda _: taps.undo_tap())), bare)
                up = index % 2 == 0
                side_by_side(index, ("tap: odds table dice stepper", lambda up=up: run(
                    lambda _: taps.stepper_tap(ODDS_TABLE, up))), bare)
                side_by_side(index, ("tap: odds players stepper", lambda up=up: run(
                    lambda _: taps.stepper_tap("odds_players", up))), bare)
                side_by_side(index, ("tap: odds bid quantity",
                                     lambda: run(lambda _: taps.quantity_tap())), bare)
                run(lambda _: taps.prepare_practice())
                side_by_side(index, ("tap: practice answer",
                                     lambda: run(lambda _: taps.practice_tap())), bare)
                run(lambda _: taps.prepare_play())
                side_by_side(index, ("tap: a move against the bots",
                                     lambda: run(lambda _: taps.play_tap())), bare)
        finally:
            run(lambda _: taps.close())

    benchmark.pedantic(measure, rounds=1, iterations=1)
    figures = summary(samples)
    benchmark.extra_info.update(figures)
    benchmark.extra_info["where the time goes"] = account_medians(accounts)
    if full:
        with capsys.disabled():
            print(f"\nspeed as felt ({load_rounds} first pages, {tap_rounds} rounds of taps):\n"
                  + report(figures)
                  + "\n\nwhere a tap's time goes (medians: ms, messages, kB, ms, ms):\n"
                  + account_report(accounts, figures))
    assert all(ms > 0 for values in samples.values() for ms in values)
    assert any("messages" in row for rows in accounts.values() for row in rows), \
        "no tap's script run was found in the server's log"


def test_a_tap_without_its_runs_is_measured_in_bare_taps() -> None:
    """The last column of the account: the median of each tap less its own runs (taps
    without the server's account left out), over the bare page's median tap."""
    rows = [{"tap": 150.0, "server run": 30.0}, {"tap": 130.0, "server run": 40.0},
            {"tap": 500.0}]
    assert without_run(rows, 70.0) == 1.5  # the median of 120 and 90 ms, over 70 ms
    assert without_run([{"tap": 100.0}], 70.0) is None


def test_a_tap_is_set_against_a_bare_page_sending_as_many_messages() -> None:
    """The bare page's taps at 2, 14 and 26 messages, on a line between them and past."""
    figures = {BASELINES["tap"]: {"median_ms": 50.0}, SIZED[12]: {"median_ms": 80.0},
               SIZED[24]: {"median_ms": 140.0}}
    assert bare_of_its_size(2, figures) == 50.0
    assert bare_of_its_size(8, figures) == 65.0  # halfway to 14 messages
    assert bare_of_its_size(20, figures) == 110.0
    assert bare_of_its_size(38, figures) == 200.0  # on past 26 at 5 ms a message
    assert bare_of_its_size(8, {BASELINES["tap"]: {"median_ms": 50.0}}) is None
