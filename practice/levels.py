"""Practice levels, defined once: 1 is a clear-cut spot, 3 a close call."""

from __future__ import annotations

from perudo_math.checks import is_ascii_digits

LEVELS: tuple[int, ...] = (1, 2, 3)
"""Every level, easiest first; scenarios, drills and ratings all use these."""

LEVEL_WORDS = f"{', '.join(str(level) for level in LEVELS[:-1])} or {LEVELS[-1]}"
"""The levels in words: ``1, 2 or 3``."""


def check_level(level: object) -> int:
    """``level`` when it is one of :data:`LEVELS`; ValueError otherwise."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ValueError(f"a level is {LEVEL_WORDS}, not {level!r}")
    return level


def parse_level(text: str) -> int:
    """A level written as in a link or on a command line (``"2"``); ValueError otherwise."""
    if not is_ascii_digits(text, 2):
        raise ValueError(f"a level is {LEVEL_WORDS}, not {text!r}")
    return check_level(int(text))


__all__ = ["LEVELS", "LEVEL_WORDS", "check_level", "parse_level"]
