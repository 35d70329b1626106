"""Reference answers by enumerating every roll of the unknown dice, in exact fractions."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product


def die_matches(die: int, face: int, palifico: bool) -> bool:
    """Whether one die counts toward a bid on ``face``, straight from docs/RULES.md."""
    if face == 1 or palifico:
        return die == face
    return die in (face, 1)


@cache
def unknown_count_distribution(unknown: int, face: int, palifico: bool) -> dict[int, Fraction]:
    """P(k unknown dice match), counting all 6**unknown equally likely rolls."""
    tally: Counter[int] = Counter()
    for roll in product(range(1, 7), repeat=unknown):
        tally[sum(die_matches(die, face, palifico) for die in roll)] += 1
    total = 6**unknown
    return {k: Fraction(n, total) for k, n in tally.items()}


def table_distribution(
    hand: tuple[int, ...], dice: int, face: int, palifico: bool
) -> list[Fraction]:
    """P(exactly k dice on the table match), own dice included, k = 0 .. dice."""
    own = sum(die_matches(die, face, palifico) for die in hand)
    unknown = unknown_count_distribution(dice - len(hand), face, palifico)
    return [unknown.get(k - own, Fraction(0)) for k in range(dice + 1)]
