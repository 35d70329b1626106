"""Learner ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013).

A rating has three numbers: the rating itself (1500 to start), its deviation RD (350 to
start: how unsure it is) and its volatility σ (0.06: how erratic the learner is). Each
answer is a game against the scenario's level, rated like a player: level 1 = 1300,
2 = 1500, 3 = 1700 (:data:`LEVEL_RATINGS`); a right answer is a win. Each answer is rated
as its own rating period. A scenario's answer moves two ratings, its theme's and the
overall one (:data:`OVERALL`); a drill's, its kind's (:func:`ratings_after`). A store keeps
the numbers; this module computes them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from practice.levels import check_level

SCALE = 173.7178
"""Glicko-2's factor between the Glicko scale (1500-centred) and its own (0-centred)."""

DEFAULT_TAU = 0.5
"""The system constant τ: how much the volatility may move (Glickman: 0.3 to 1.2)."""

CONVERGENCE = 1e-6
"""The tolerance ε of the Illinois iteration for the new volatility."""

OVERALL = "overall"
"""The theme name of the learner's overall rating, moved by every scenario answer."""

BASE_RATING = 1500.0
BASE_DEVIATION = 350.0
BASE_VOLATILITY = 0.06


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating`` ± ``deviation``, ``volatility`` σ."""

    rating: float = BASE_RATING
    deviation: float = BASE_DEVIATION
    volatility: float = BASE_VOLATILITY

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"a rating is a finite number, not {self.rating!r}")
        if not self.deviation > 0 or not math.isfinite(self.deviation):
            raise ValueError(f"a rating deviation is positive, not {self.deviation!r}")
        if not self.volatility > 0 or not math.isfinite(self.volatility):
            raise ValueError(f"a volatility is positive, not {self.volatility!r}")

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale."""
        return (self.rating - BASE_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on the Glicko-2 scale."""
        return self.deviation / SCALE

    @classmethod
    def from_glicko2(cls, mu: float, phi: float, volatility: float) -> Rating:
        """A rating from Glicko-2 scale numbers."""
        return cls(mu * SCALE + BASE_RATING, phi * SCALE, volatility)

    def to_dict(self) -> dict[str, float]:
        """The rating as plain JSON values."""
        return {"rating": self.rating, "deviation": self.deviation,
                "volatility": self.volatility}


LEVEL_RATINGS: dict[int, Rating] = {
    1: Rating(1300.0, 60.0),
    2: Rating(1500.0, 60.0),
    3: Rating(1700.0, 60.0),
}
"""The opponent each scenario level stands for."""

TARGET_SCORE = 0.65
""":func:`next_level` picks the level the learner is expected to get right this often."""


def g(phi: float) -> float:
    """Glickman's g(φ): how much an opponent's deviation damps the result."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected_score(player: Rating, opponent: Rating) -> float:
    """E(μ, μⱼ, φⱼ): the chance that ``player`` beats ``opponent``."""
    return 1.0 / (1.0 + math.exp(-g(opponent.phi) * (player.mu - opponent.mu)))


def update(player: Rating, games: Sequence[tuple[Rating, float]],
           tau: float = DEFAULT_TAU) -> Rating:
    """The rating after one rating period of ``games``: (opponent, score 1, ½ or 0) pairs.

    With no games, only the deviation grows (step 6 of Glickman's paper).
    """
    if not games:
        return Rating(player.rating, math.hypot(player.phi, player.volatility) * SCALE,
                      player.volatility)
    mu, phi = player.mu, player.phi
    impacts = [(g(opponent.phi), expected_score(player, opponent), score)
               for opponent, score in games]
    variance = 1.0 / sum(gj * gj * ej * (1.0 - ej) for gj, ej, _ in impacts)
    improvement = variance * sum(gj * (score - ej) for gj, ej, score in impacts)
    sigma = new_volatility(phi, player.volatility, variance, improvement, tau)
    phi_star = math.hypot(phi, sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / variance)
    new_mu = mu + new_phi * new_phi * sum(gj * (score - ej) for gj, ej, score in impacts)
    return Rating.from_glicko2(new_mu, new_phi, sigma)


def new_volatility(phi: float, sigma: float, variance: float, improvement: float,
                   tau: float = DEFAULT_TAU, epsilon: float = CONVERGENCE) -> float:
    """σ′ by the Illinois algorithm (step 5 of Glickman's paper)."""
    a = math.log(sigma * sigma)
    delta2, phi2 = improvement * improvement, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta2 - phi2 - variance - ex) / (2.0 * (phi2 + variance + ex) ** 2)
                - (x - a) / (tau * tau))

    low = a
    if delta2 > phi2 + variance:
        high = math.log(delta2 - phi2 - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > epsilon:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)


def rate_answer(player: Rating, level: int, correct: bool,
                tau: float = DEFAULT_TAU) -> Rating:
    """The learner's rating after one answer to a scenario (or drill) of ``level``."""
    return update(player, [(LEVEL_RATINGS[check_level(level)], 1.0 if correct else 0.0)], tau)


def rated_themes(kind: str, theme: str) -> tuple[str, ...]:
    """The ratings an answer of ``kind`` (``scenario`` or ``drill``) on ``theme`` moves."""
    return (theme, OVERALL) if kind == "scenario" else (theme,)


def ratings_after(current: Mapping[str, Rating], kind: str, theme: str, level: int | None,
                  correct: bool) -> dict[str, Rating]:
    """The ratings one answer moves, by theme, from the ``current`` ones (a fresh rating
    for a theme not rated yet); none for an answer without a level."""
    if level is None:
        return {}
    return {name: rate_answer(current.get(name, Rating()), level, correct)
            for name in rated_themes(kind, theme)}


def next_level(player: Rating) -> int:
    """The level whose expected score for ``player`` is closest to :data:`TARGET_SCORE`
    (ties: the easier level)."""
    return min(LEVEL_RATINGS, key=lambda level: (
        abs(expected_score(player, LEVEL_RATINGS[level]) - TARGET_SCORE), level))


__all__ = [
    "DEFAULT_TAU",
    "LEVEL_RATINGS",
    "OVERALL",
    "TARGET_SCORE",
    "Rating",
    "expected_score",
    "new_volatility",
    "next_level",
    "rate_answer",
    "rated_themes",
    "ratings_after",
    "update",
]
