"""No valid game costs more than a normal one by much (issue 31, point 1): the longest rounds
the limits allow beside a normal spot, in one run, each figure printed beside its target
(``make bench``; no timed assertion).

The issue's round (``tests/long_round.py``): ten players holding ten dice, the any-face rule,
2,999 smallest legal raises (a game of ``MAX_MOVES`` moves with its dudo), past the table
from bid 501 on. Every figure starts from cold caches (the coach's, the app's, the game
codes read), and each measure's spots take turns round by round, so that a shared machine
slows them alike. Time is given twice: as the clock saw it (wall) and as the CPU time the
process spent (cpu: the server's time, which other work on a shared machine does not
inflate). A target is met when both medians are within it.

- **advice** (``coach.advise`` for the player to act) on: a normal spot (one bid a player),
  the most bids the coach reads (``TABLE_READ_BIDS``), the issue round's useful range (500
  bids, the last 100 × 6), and the issue's round (2,999 bids). Target: within 50 ms and
  20 MB (the peak tracemalloc saw) of the normal spot.
- **review** (``coach review --game CODE --seat 9 --hand 1:…``): seat 9's 300 decisions in
  the issue's finished round, beside a normal round's; and the other longest game, whose
  every round climbs to the table (34 rounds of about 88 bids, 296 decisions, each facing a
  long round still open), beside a normal game at the same table (97 rounds of nine bids
  and a dudo, 161 decisions), per decision; and the game of most decisions, the issue's
  round between two players (seat 1's 1,500 decisions, nearly all past the table). Target:
  within 2 s.
- **odds page**: the tap of the tenth die on ``/bid-odds?game=CODE&me=9`` (the coach's
  advice and charts on a new hand), and **practice link**: ``/train?review=…`` on seat 9's
  last decision of the finished round, each one script run of the app (AppTest). Target:
  0.5 s.

- **a fifth session** while four others open practice links of the longest game at the same
  moment (four players sent the link), and four links of a normal round for comparison: the
  fifth as the server serves it (one run of the odds page over a websocket,
  ``script_run``) and as a phone shows it (its first page in Chromium). The four are
  sessions without a browser: their phones' own work is not this machine's. Target: within
  1.5× the fifth's idle time.
"""

from __future__ import annotations

import statistics
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

import pytest
from streamlit.testing.v1 import AppTest

from coach import Situation, advise
from coach.engine.beliefs import TABLE_READ_BIDS, clear_caches
from coach.review import move_outcomes, review, tracked_decisions
from perudo_math import MAX_MOVES, GameState, Hand
from perudo_math import game as game_module
from tests.app.conftest import ENTRY
from tests.benchmarks.conftest import first_page, printed, script_run
from tests.long_round import finished_long_round, hands_of, long_round, rounds_within_the_table
from views import charts, engine_cache, practice_view

HAND = Hand([1, 2, 2, 3, 4, 4, 5, 5, 6, 6])
FACES = HAND.faces
ME = 9
SPOTS = {"normal": 9, "read-limit": TABLE_READ_BIDS, "useful-range": 500,
         "issue-round": MAX_MOVES - 1}
"""How many bids of the issue's round each spot holds."""
ADVICE_MS, ADVICE_MB, REVIEW_S, PAGE_S, BESIDE_FOUR = 50, 20, 2.0, 0.5, 1.5
"""The targets: advice within 50 ms and 20 MB of the normal spot, a review of the longest
game within 2 s, the odds page and a practice link within 0.5 s, a fifth session's page load
beside four within 1.5× the idle one."""
HEADS_UP_SEAT = 1
"""The seat reviewed in the heads-up round: half its 3,000 moves are its decisions."""
ROUNDS = {"advice": 9, "review": 3, "page": 5, "browser": 8}


def forget_everything() -> None:
    """Every cache of the coach, the app's engine and the game codes read: each figure
    starts cold."""
    clear_caches()
    game_module._read_code.cache_clear()
    for cached in (engine_cache.cached_odds, engine_cache.cached_advice,
                   engine_cache.cached_read_odds, engine_cache.cached_count_shift,
                   engine_cache.cached_raise_grid, engine_cache.cached_smallest_raises,
                   charts.cached_distribution_html,
                   charts.cached_read_distribution_html, charts.cached_raise_html):
        cached.cache_clear()
    practice_view.cached_game_scenario.clear()


# --- measuring side by side ------------------------------------------------------------------

Prepared = Callable[[], Callable[[], object]]
"""Untimed set-up that returns the work to time."""


def side_by_side(works: dict[str, Prepared], rounds: int) -> dict[str, dict[str, list[float]]]:
    """Each work's wall and CPU seconds over ``rounds`` rounds; every round times each work
    once, after its set-up and cold caches, the order turned by one each round."""
    samples: dict[str, dict[str, list[float]]] = {name: {"wall": [], "cpu": []}
                                                  for name in works}
    names = list(works)
    for index in range(rounds):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            work = works[name]()
            forget_everything()
            wall, cpu = time.perf_counter(), time.process_time()
            work()
            samples[name]["cpu"].append(time.process_time() - cpu)
            samples[name]["wall"].append(time.perf_counter() - wall)
    return samples


def medians(samples: dict[str, list[float]]) -> tuple[float, float]:
    return statistics.median(samples["wall"]), statistics.median(samples["cpu"])


def peak_mb(work: Callable[[], object]) -> float:
    """The most memory ``work`` held at once from cold caches (tracemalloc), in MB."""
    forget_everything()
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def verdict(*within: bool) -> str:
    return "met" if all(within) else "MISSED"


def rounds_of(benchmark, kind: str) -> int:
    return ROUNDS[kind] if not benchmark.disabled else 1


# --- advice ----------------------------------------------------------------------------------


def spot(bids: int) -> Situation:
    game = long_round(bids)
    assert game.turn is not None
    return game.situation(game.turn, HAND)


def test_advice_beside_a_normal_spot(benchmark, capsys) -> None:
    benchmark.group = "long-round"
    spots = {name: spot(bids) for name, bids in SPOTS.items()}
    works = {name: (lambda situation=situation: lambda: advise(situation))
             for name, situation in spots.items()}
    samples = benchmark.pedantic(side_by_side, args=(works, rounds_of(benchmark, "advice")),
                                 rounds=1, iterations=1)
    peaks = {name: peak_mb(lambda situation=situation: advise(situation))
             for name, situation in spots.items()}
    normal_wall, normal_cpu = medians(samples["normal"])
    lines = [f"{'spot':14}{'bids':>6}{'wall ms':>9}{'cpu ms':>8}{'peak MB':>9}"
             f"{'+wall':>8}{'+cpu':>7}{'+MB':>7}   target: +{ADVICE_MS} ms, +{ADVICE_MB} MB"]
    for name, situation in spots.items():
        wall, cpu = medians(samples[name])
        line = (f"{name:14}{len(situation.bids):>6}{wall * 1e3:>9.1f}{cpu * 1e3:>8.1f}"
                f"{peaks[name]:>9.2f}")
        if name != "normal":
            over = ((wall - normal_wall) * 1e3, (cpu - normal_cpu) * 1e3,
                    peaks[name] - peaks["normal"])
            line += (f"{over[0]:>+8.1f}{over[1]:>+7.1f}{over[2]:>+7.2f}   "
                     + verdict(over[0] <= ADVICE_MS, over[1] <= ADVICE_MS,
                               over[2] <= ADVICE_MB))
        lines.append(line)
        benchmark.extra_info[name] = {"bids": len(situation.bids), "wall_ms": wall * 1e3,
                                      "cpu_ms": cpu * 1e3, "peak_mb": peaks[name]}
    printed(benchmark, capsys, "advice, medians from cold caches, beside the normal spot:",
            lines)
    assert all(advise(situation).options for situation in spots.values())


# --- review ----------------------------------------------------------------------------------


def reviewed(game: GameState, hands: dict[int, Hand], seat: int = ME) -> Callable[[], object]:
    def work() -> int:
        decisions = tracked_decisions(game, seat, hands)
        return len(review(decisions, outcomes=move_outcomes(game, seat, hands)).moves)

    return work


def test_review_of_the_longest_game(benchmark, capsys) -> None:
    benchmark.group = "long-round"
    rounds, normal = rounds_within_the_table(), rounds_within_the_table(most=SPOTS["normal"])
    games = {"normal-round": (finished_long_round(SPOTS["normal"] + 10), {1: HAND}),
             "issue-round": (finished_long_round(MAX_MOVES - 1), {1: HAND}),
             "heads-up": (finished_long_round(MAX_MOVES - 1, count=3, players=2), {1: HAND}),
             "normal-game": (normal, hands_of(normal, ME)),
             "rounds-to-table": (rounds, hands_of(rounds, ME))}
    seats = {name: HEADS_UP_SEAT if name == "heads-up" else ME for name in games}
    decisions = {name: len(tracked_decisions(game, seats[name], hands))
                 for name, (game, hands) in games.items()}
    works = {name: (lambda game=game, hands=hands, seat=seats[name]: reviewed(game, hands, seat))
             for name, (game, hands) in games.items()}
    samples = benchmark.pedantic(side_by_side, args=(works, rounds_of(benchmark, "review")),
                                 rounds=1, iterations=1)
    per_normal = medians(samples["normal-game"])[1] / decisions["normal-game"]
    lines = [f"{'game':16}{'moves':>6}{'decisions':>10}{'wall s':>8}{'cpu s':>7}"
             f"{'ms/decision wall, cpu':>24}   target"]
    for name, (game, _) in games.items():
        wall, cpu = medians(samples[name])
        line = (f"{name:16}{len(game.history):>6}{decisions[name]:>10}{wall:>8.2f}{cpu:>7.2f}"
                f"{wall / decisions[name] * 1e3:>15.1f}{cpu / decisions[name] * 1e3:>9.1f}")
        if name in ("issue-round", "heads-up"):
            line += f"   within {REVIEW_S} s: {verdict(wall <= REVIEW_S, cpu <= REVIEW_S)}"
        elif name == "rounds-to-table":
            ratio = cpu / decisions[name] / per_normal
            line += (f"   within {REVIEW_S} s: {verdict(wall <= REVIEW_S, cpu <= REVIEW_S)}; "
                     f"{ratio:.2f}× the normal game's cpu a decision")
        lines.append(line)
        benchmark.extra_info[name] = {"moves": len(game.history),
                                      "decisions": decisions[name], "wall_s": wall,
                                      "cpu_s": cpu}
    printed(benchmark, capsys, "review, medians from cold caches:", lines)


# --- the app: the odds page and a practice link ----------------------------------------------


def odds_page_before_the_last_die(code: str) -> AppTest:
    """The odds page of the game ``code`` for seat 9, nine of its ten dice tapped."""
    at = AppTest.from_file(ENTRY, default_timeout=120)
    at.context = {"locale": "en-US"}
    at.query_params.update(game=code, me=str(ME))
    at.run()
    at.switch_page("app_pages/odds.py").run()
    for face in FACES[:-1]:
        at.button(key=f"odds_add_{face}").click().run()
    assert not at.exception, [error.message for error in at.exception]
    return at


def tap_of_the_tenth_die(code: str) -> Callable[[], AppTest]:
    at = odds_page_before_the_last_die(code)

    def tap() -> AppTest:
        at.button(key=f"odds_add_{FACES[-1]}").click().run()
        assert not at.exception, [error.message for error in at.exception]
        return at

    return tap


def practice_link(game: GameState, decision: int) -> str:
    return practice_view.tracked_spot(game, ME, 1, HAND, decision)


def opening_of(link: str) -> Callable[[], AppTest]:
    """The practice page opened on ``link``: the app started on another page first (its
    imports and entry done, as on a server), so that the run timed is the practice page's
    alone, as a server runs it for ``/train?review=…``."""
    at = AppTest.from_file(ENTRY, default_timeout=120)
    at.context = {"locale": "en-US"}
    at.run()
    at.query_params.update(review=link)

    def open_link() -> AppTest:
        at.switch_page("app_pages/practice.py").run()
        assert not at.exception, [error.message for error in at.exception]
        assert [title.value for title in at.title] == ["Practice"]
        return at

    return open_link


def last_decision_link(bids: int) -> str:
    game = finished_long_round(bids)
    return practice_link(game, len(tracked_decisions(game, ME, {1: HAND})) - 1)


def test_odds_page_and_practice_link(benchmark, capsys) -> None:
    benchmark.group = "long-round"
    codes = {name: long_round(SPOTS[name]).to_code() for name in ("normal", "issue-round")}
    links = {"normal": last_decision_link(SPOTS["normal"] + 10),
             "issue-round": last_decision_link(MAX_MOVES - 1)}
    AppTest.from_file(ENTRY, default_timeout=120).run()  # imports done, as on a server
    works: dict[str, Prepared] = {}
    for name in codes:
        works[f"odds tap, {name}"] = lambda code=codes[name]: tap_of_the_tenth_die(code)
        works[f"practice link, {name}"] = lambda link=links[name]: opening_of(link)
    samples = benchmark.pedantic(side_by_side, args=(works, rounds_of(benchmark, "page")),
                                 rounds=1, iterations=1)
    lines = [f"{'script run':28}{'wall s':>8}{'cpu s':>7}   target: within {PAGE_S} s"]
    for name in works:
        wall, cpu = medians(samples[name])
        lines.append(f"{name:28}{wall:>8.3f}{cpu:>7.3f}   "
                     + verdict(wall <= PAGE_S, cpu <= PAGE_S))
        benchmark.extra_info[name] = {"wall_s": wall, "cpu_s": cpu}
    printed(benchmark, capsys, "the app's server, one script run, medians from cold caches:",
            lines)


# --- four sessions on the longest game beside a fifth -----------------------------------------


def practice_queries(bids: int, count: int) -> list[str]:
    """``count`` practice links of a game whose one round holds ``bids`` bids (the longest
    game at ``MAX_MOVES - 1``), each on another decision: spots not asked before."""
    game = finished_long_round(bids)
    decisions = len(tracked_decisions(game, ME, {1: HAND}))
    spots = [(decisions - 1 - 37 * index) % decisions for index in range(count)]
    return [f"review={quote(practice_link(game, decision), safe='~')}" for decision in spots]


def fifth_beside_four(url: str, fifth: Callable[[], float], queries: list[str]) -> float:
    """The fifth session's seconds while four others open practice links at the same moment
    (``queries``, four at a time; none if empty): one burst, as four players at a table open
    the link they were sent."""
    if not queries:
        return fifth()
    with ThreadPoolExecutor(max_workers=4) as pool:
        four = [pool.submit(script_run, url, "train", query) for query in queries]
        seconds = fifth()
        for run in four:
            run.result()  # a failed link fails the benchmark
    return seconds


@pytest.mark.browser
def test_a_fifth_session_beside_four(benchmark, capsys, app_url, chromium_thread) -> None:
    """A fifth session, idle and while four others open practice links of the longest game
    at once, and of a normal round (the same four links, cheap ones): as the server serves it
    (one script run of the odds page) and as a phone's browser shows it (its first page)."""
    benchmark.group = "long-round"
    rounds = rounds_of(benchmark, "browser")
    links = {"longest game": practice_queries(MAX_MOVES - 1, 4 * (rounds + 1)),
             "normal round": practice_queries(SPOTS["normal"] + 10, 4 * (rounds + 1))}
    fifths: dict[str, Callable[[], float]] = {
        "script run": lambda: script_run(app_url, "", ""),
        "first page": lambda: timed(lambda: chromium_thread.run(first_page(app_url))),
    }
    for name in links:  # once each, not counted: the server's first runs of each kind
        fifth_beside_four(app_url, fifths["script run"], links[name][:4])
    chromium_thread.run(first_page(app_url))

    def measure() -> dict[tuple[str, str], list[float]]:
        found: dict[tuple[str, str], list[float]] = {}
        for index in range(1, rounds + 1):  # side by side, round after round
            for kind, fifth in fifths.items():
                found.setdefault((kind, "idle"), []).append(fifth_beside_four(app_url, fifth, []))
                for name, queries in links.items():
                    burst = queries[4 * index:4 * index + 4]
                    found.setdefault((kind, f"beside four, {name}"), []).append(
                        fifth_beside_four(app_url, fifth, burst))
        return found

    found = benchmark.pedantic(measure, rounds=1, iterations=1)
    lines = [f"{'fifth session':42}{'median s':>9}{'× idle':>8}"
             f"   target: within {BESIDE_FOUR}× idle"]
    for (kind, name), seconds in found.items():
        median, idle = statistics.median(seconds), statistics.median(found[(kind, "idle")])
        line = f"{kind + ', ' + name:42}{median:>9.3f}{median / idle:>8.2f}"
        if name != "idle":
            line += "   " + verdict(median / idle <= BESIDE_FOUR)
        lines.append(line)
        benchmark.extra_info[f"{kind}, {name}"] = {"median_s": median, "ratio": median / idle}
    printed(benchmark, capsys, "a fifth session while four open practice links at once:", lines)
