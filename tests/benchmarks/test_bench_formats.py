"""Babel's numbers and plural forms beside the hand-written ones they replaced (issue 32,
point 2), on the taps that write the most numbers, in one run (``make bench``; no timed
assertion; ``make test`` runs one round, which checks that both ways still draw the page).

- **the fifth die** of a hand on the odds page, a bid already set (untimed): the advice, its
  table of options and both charts appear, every chance written as a percentage;
- **the bid's face** changed on that page: the same, on the cached odds.

Each tap is one script run of the app (AppTest, the server's work), in English, French and
Spanish. The baseline ("by hand") is the app with :func:`views.i18n._written` and
:func:`views.i18n.plural_category` put back as they were written before Babel
(:func:`written_by_hand`, :func:`plural_by_hand`); the two take turns, tap by tap.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import ENTRY
from tests.benchmarks.conftest import printed
from views import i18n

LOCALES = {"en": "en-US", "fr": "fr-FR", "es": "es-ES"}
HAND = (1, 2, 2, 5, 6)
ROUNDS = 15


def written_by_hand(number: Decimal, lang: str, percent: bool, digits: int) -> str:
    """Numbers as ``views.i18n`` wrote them before Babel: Python's digits, the decimal point
    swapped for a comma outside English, a sign after a percentage."""
    text = f"{number * 100 if percent else number:.{digits}f}"
    if lang != "en":
        text = text.replace(".", ",")
    return text + ("%" if lang == "en" else "\u00a0%") if percent else text


def plural_by_hand(lang: str, count: float) -> str:
    if lang == "fr":
        return "one" if 0 <= count < 2 and count == int(count) else "other"
    return "one" if count == 1 else "other"


@contextmanager
def formats(kind: str) -> Iterator[None]:
    if kind == "babel":
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(i18n, "_written", written_by_hand)
        patch.setattr(i18n, "plural_category", plural_by_hand)
        yield


def odds_page(lang: str) -> AppTest:
    """The odds page in ``lang``, four dice of :data:`HAND` tapped and a bid of 5 × 4."""
    at = AppTest.from_file(ENTRY, default_timeout=120)
    at.context = {"locale": LOCALES[lang]}
    at.run()
    at.switch_page("app_pages/odds.py").run()
    at.segmented_control(key="odds_face").set_value(4).run()
    at.segmented_control(key="odds_qty").set_value(5).run()
    for face in HAND[:-1]:
        at.button(key=f"odds_add_{face}").click().run()
    return at


def the_fifth_die(at: AppTest) -> None:
    at.button(key=f"odds_add_{HAND[-1]}").click().run()


def the_face(at: AppTest) -> None:
    at.segmented_control(key="odds_face").set_value(5).run()


TAPS: dict[str, Callable[[AppTest], None]] = {"fifth die": the_fifth_die, "bid's face": the_face}


def timed_tap(lang: str, tap: str, kind: str) -> float:
    """One tap's script run, from a page set up afresh (untimed)."""
    with formats(kind):
        at = odds_page(lang)
        start = time.perf_counter()
        TAPS[tap](at)
        seconds = time.perf_counter() - start
    assert not at.exception, [error.message for error in at.exception]
    assert at.markdown, "the page drew nothing"
    return seconds


def test_babel_beside_the_hand_written_formats(benchmark, capsys) -> None:
    rounds = ROUNDS if not benchmark.disabled else 1
    kinds = ("by hand", "babel")

    def measure() -> dict[tuple[str, str, str], list[float]]:
        found: dict[tuple[str, str, str], list[float]] = {}
        for index in range(rounds):
            for lang in LOCALES:
                for tap in TAPS:
                    for kind in kinds[index % 2:] + kinds[:index % 2]:
                        found.setdefault((lang, tap, kind), []).append(
                            timed_tap(lang, tap, kind))
        return found

    found = benchmark.pedantic(measure, rounds=1, iterations=1)
    lines = [f"{'tap':22}{'by hand ms':>11}{'babel ms':>10}{'ratio':>7}"]
    for lang in LOCALES:
        for tap in TAPS:
            by_hand, babel = (statistics.median(found[(lang, tap, kind)]) for kind in kinds)
            lines.append(f"{lang + ', ' + tap:22}{by_hand * 1e3:>11.1f}{babel * 1e3:>10.1f}"
                         f"{babel / by_hand:>7.2f}")
            benchmark.extra_info[f"{lang}, {tap}"] = {"by_hand_ms": by_hand * 1e3,
                                                     "babel_ms": babel * 1e3}
    printed(benchmark, capsys, "numbers and plurals, one tap's script run, medians:", lines)


def test_one_percentage_and_one_plural_form(benchmark, capsys) -> None:
    """Per call, side by side: the tap above writes about seventy percentages and a few
    plural forms (counted on the fifth die: 70 and 2)."""
    import timeit

    calls = 20_000 if not benchmark.disabled else 10
    works: dict[str, Callable[[], object]] = {
        "percentage": lambda: i18n.format_percent(0.5567, "fr"),
        "plural form": lambda: i18n.translate_plural("fr", "common.dice_on_table", 3)}

    def measure() -> dict[tuple[str, str], list[float]]:
        found: dict[tuple[str, str], list[float]] = {}
        for index in range(5):
            for kind in ("by hand", "babel")[index % 2:] + ("by hand", "babel")[:index % 2]:
                with formats(kind):
                    for name, work in works.items():
                        found.setdefault((name, kind), []).append(
                            timeit.timeit(work, number=calls) / calls)
        return found

    found = benchmark.pedantic(measure, rounds=1, iterations=1)
    lines = [f"{'call':14}{'by hand µs':>11}{'babel µs':>10}"]
    for name in works:
        by_hand, babel = (statistics.median(found[(name, kind)]) for kind in ("by hand", "babel"))
        lines.append(f"{name:14}{by_hand * 1e6:>11.1f}{babel * 1e6:>10.1f}")
    printed(benchmark, capsys, "one call, medians:", lines)
