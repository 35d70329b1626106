"""Glicko-2 ratings: Glickman's worked example, the volatility iteration, levels."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from practice.rating import (
    LEVEL_RATINGS,
    SCALE,
    Rating,
    expected_score,
    g,
    new_volatility,
    next_level,
    rate_answer,
    update,
)

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickmans_worked_example():
    """'Example of the Glicko-2 system' (Glickman, 2013): 1464.06, 151.52, 0.05999."""
    after = update(PLAYER, OPPONENTS, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_the_worked_examples_intermediate_numbers():
    """The paper's steps 2 to 5: μ, φ, g, E, v, Δ and σ′."""
    assert PLAYER.mu == 0.0
    assert PLAYER.phi == pytest.approx(1.1513, abs=1e-4)
    gs = [g(opponent.phi) for opponent, _ in OPPONENTS]
    assert gs == pytest.approx([0.9955, 0.9531, 0.7242], abs=1e-4)
    es = [expected_score(PLAYER, opponent) for opponent, _ in OPPONENTS]
    assert es == pytest.approx([0.639, 0.432, 0.303], abs=1e-3)
    v = 1 / sum(gj * gj * ej * (1 - ej) for gj, ej in zip(gs, es, strict=True))
    assert v == pytest.approx(1.7785, abs=1e-3)
    delta = v * sum(gj * (score - ej)
                    for gj, ej, (_, score) in zip(gs, es, OPPONENTS, strict=True))
    assert delta == pytest.approx(-0.4834, abs=1e-3)
    assert new_volatility(PLAYER.phi, 0.06, v, delta, 0.5) == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_widens_the_deviation():
    after = update(PLAYER, [])
    assert after.rating == PLAYER.rating and after.volatility == PLAYER.volatility
    assert after.deviation == pytest.approx(math.sqrt((200 / SCALE) ** 2 + 0.06**2) * SCALE)


def test_the_large_improvement_branch_of_the_illinois_iteration():
    """Δ² > φ² + v: the upper bracket is ln(Δ² − φ² − v)."""
    surprised = update(Rating(1500, 30, 0.06), [(Rating(2500, 30), 1.0)] * 3)
    assert math.isfinite(surprised.volatility) and surprised.volatility > 0.06
    assert surprised.rating > 1500


@given(rating=st.floats(800, 2200), deviation=st.floats(30, 350),
       level=st.sampled_from(sorted(LEVEL_RATINGS)))
@settings(max_examples=60, deadline=None)
def test_a_right_answer_never_lowers_and_a_wrong_one_never_raises(rating, deviation, level):
    player = Rating(rating, deviation)
    won, lost = rate_answer(player, level, True), rate_answer(player, level, False)
    assert lost.rating <= player.rating <= won.rating
    assert won.deviation <= math.hypot(deviation, player.volatility * SCALE) + 1e-9


def test_next_level_climbs_with_the_rating():
    levels = [next_level(Rating(rating, 60)) for rating in range(1000, 2101, 50)]
    assert levels == sorted(levels)
    assert levels[0] == 1 and levels[-1] == 3
    assert next_level(Rating()) == 1  # a new learner starts on clear-cut spots


def test_a_learner_who_keeps_winning_moves_up():
    player = Rating()
    for _ in range(15):
        player = rate_answer(player, next_level(player), True)
    assert next_level(player) == 3


def test_bad_ratings_and_levels_are_refused():
    with pytest.raises(ValueError):
        Rating(1500, 0)
    with pytest.raises(ValueError):
        Rating(float("nan"))
    with pytest.raises(ValueError):
        rate_answer(Rating(), 4, True)
