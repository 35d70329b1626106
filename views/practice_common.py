"""What the practice, drills and progress pages share: fresh seeds, theme names, right or wrong."""

from __future__ import annotations

import random
from collections.abc import Callable

from views.i18n import current_language, format_decimal, t, tn, translate

NEW_SEED_LIMIT = 1_000_000
"""New scenarios and drills draw their seed below this: six digits, easy to read out at a table."""


def new_seed() -> int:
    """A fresh seed for the next scenario or drill."""
    return random.SystemRandom().randrange(1, NEW_SEED_LIMIT)


def theme_label(theme: str) -> str:
    """A scenario theme, a drill kind or the overall rating, in words."""
    return t(f"practice.theme.{theme}")


def theme_labeller(lang: str | None = None) -> Callable[[str], str]:
    """:func:`theme_label` fixed to this run's language, for a widget's ``format_func``
    (AppTest calls it again outside the run, where the session's language is unknown)."""
    lang = lang or current_language()
    return lambda theme: translate(lang, f"practice.theme.{theme}")


def result_icon(correct: bool) -> str:
    """A green tick or a red cross (Material icons: no emoji font needed)."""
    return ":green[:material/check_circle:]" if correct else ":red[:material/cancel:]"


def points(difference: float) -> str:
    """A difference of probabilities in percentage points: ``12.3 points``."""
    return t("practice.points", value=format_decimal(difference * 100, 1))


def risk_points(added: float) -> str:
    """Risk added, as a player says it: ``55 points``, ``1 point``, ``0 points``, and
    ``less than 1 point`` for a sliver that would round to a misleading 0."""
    whole = round(added * 100)
    if added > 0 and whole == 0:
        return t("practice.regret.points.tiny")
    return tn("practice.regret.points", whole)


__all__ = ["new_seed", "points", "result_icon", "risk_points", "theme_label", "theme_labeller"]
