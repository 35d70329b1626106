"""The weakest themes: lowest share right first, and never a theme answered right every time."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from practice.weakness import is_weak, weakest, weakest_first


@dataclass(frozen=True)
class Stats:
    theme: str
    answers: int
    accuracy: float
    mean_regret: float | None = None


CALZA = Stats("calza", 4, 0.5, 0.2)
PALIFICO = Stats("palifico", 3, 1 / 3, 0.1)
ENDGAME = Stats("endgame", 9, 1.0, 0.0)
ODDS = Stats("odds", 1, 1.0)


def test_a_theme_answered_right_every_time_is_never_weak() -> None:
    assert not is_weak(ENDGAME) and not is_weak(ODDS)
    assert weakest([ENDGAME, CALZA, ODDS], limit=3) == [CALZA]
    assert weakest([ENDGAME, ODDS], limit=3) == []


def test_the_lowest_share_right_comes_first() -> None:
    assert weakest([CALZA, ENDGAME, PALIFICO], limit=3) == [PALIFICO, CALZA]
    assert weakest([CALZA, ENDGAME, PALIFICO], limit=1) == [PALIFICO]


def test_ties_go_to_more_risk_added_then_more_answers_then_the_name() -> None:
    risky = Stats("reading-bids", 4, 0.5, 0.3)
    seasoned = Stats("endgame", 8, 0.5, 0.2)
    named = Stats("any", 4, 0.5, 0.2)
    assert weakest_first([CALZA, named, seasoned, risky]) == [risky, seasoned, named, CALZA]


def test_min_answers_and_limit() -> None:
    assert weakest([CALZA, PALIFICO], limit=3, min_answers=4) == [CALZA]
    assert weakest([CALZA, PALIFICO], limit=0) == []
    with pytest.raises(ValueError, match="at least 0"):
        weakest([CALZA], limit=-1)


def test_the_chart_order_keeps_every_theme_weakest_first() -> None:
    assert weakest_first([ENDGAME, CALZA, ODDS, PALIFICO]) == [PALIFICO, CALZA, ENDGAME, ODDS]
