"""What the practice, drills and progress pages share: fresh seeds, theme names, right or wrong."""

from __future__ import annotations

import random
from collections.abc import Callable

from views.i18n import current_language, format_decimal, t, translate

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


__all__ = ["new_seed", "points", "result_icon", "theme_label", "theme_labeller"]
