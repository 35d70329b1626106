"""Which themes a learner is weakest at, and the order the progress page lists them in.

Weakest first: the lowest share of right answers, then the most risk added (mean regret),
then the most answers (more evidence of a real weakness), then the theme's name. A theme
answered right every time is never called weak, however few its answers: "weakest themes"
must not list a theme at 100 %.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar


class ThemeRecord(Protocol):
    """How a learner does on one theme: what the ranking reads of it."""

    @property
    def theme(self) -> str: ...

    @property
    def answers(self) -> int: ...

    @property
    def accuracy(self) -> float: ...

    @property
    def mean_regret(self) -> float | None: ...


R = TypeVar("R", bound=ThemeRecord)


def weakness_key(record: ThemeRecord) -> tuple[float, float, int, str]:
    """Sorts weakest first (see the module's docstring)."""
    return (record.accuracy, -(record.mean_regret or 0.0), -record.answers, record.theme)


def weakest_first(records: Iterable[R]) -> list[R]:
    """Every record, weakest first."""
    return sorted(records, key=weakness_key)


def is_weak(record: ThemeRecord) -> bool:
    """Some answer of the theme was wrong."""
    return record.answers > 0 and record.accuracy < 1


def weakest(records: Iterable[R], limit: int, min_answers: int = 1) -> list[R]:
    """At most ``limit`` weak themes with at least ``min_answers`` answers, weakest first."""
    if limit < 0 or min_answers < 0:
        raise ValueError(f"limit and min_answers are at least 0, not {limit} and {min_answers}")
    ranked = [record for record in weakest_first(records)
              if record.answers >= min_answers and is_weak(record)]
    return ranked[:limit]


__all__ = ["ThemeRecord", "is_weak", "weakest", "weakest_first", "weakness_key"]
