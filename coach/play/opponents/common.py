"""What the league bots share: their types, and which raises a player weighs."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache

from coach.engine.situation import Action, Situation
from perudo_math import PACO, Bid, Rules, check_bid, smallest_raises

OpponentBot = Callable[[Situation], Action]
OpponentFactory = Callable[[random.Random], OpponentBot]
"""A league bot is built per game from a factory taking the game's ``random.Random``."""


def one_in_three(face: int, palifico: bool) -> bool:
    """Whether a die counts toward ``face`` one time in three (pacos wild), not one in six."""
    return not palifico and face != PACO


@lru_cache(maxsize=65536)
def smallest_on_each_face(previous: Bid | None, palifico: bool, rules: Rules,
                          one_die: bool) -> tuple[Bid, ...]:
    """The smallest legal raise on each face (one-die matters only for palifico rules)."""
    raises = smallest_raises(previous, palifico=palifico, rules=rules,
                             bidder_dice=1 if one_die else 2)
    return tuple(raises[face] for face in sorted(raises))


@lru_cache(maxsize=65536)
def raise_window(previous: Bid | None, table_dice: int, palifico: bool, rules: Rules,
                 one_die: bool, reach: int) -> tuple[Bid, ...]:
    """The raises a player weighs: on each face, the smallest legal quantity and up to
    ``reach`` more (openings reach to about a third of the table), within the table.

    When nothing legal fits on the table, the smallest raises (all surely false).
    """
    found: list[Bid] = []
    for lowest in smallest_on_each_face(previous, palifico, rules, one_die):
        top = lowest.quantity + reach
        if previous is None:
            share = 3 if one_in_three(lowest.face, palifico) else 6
            top = max(top, table_dice // share + 2)
        for quantity in range(lowest.quantity, min(top, table_dice) + 1):
            bid = Bid(quantity, lowest.face)
            if quantity == lowest.quantity or check_bid(
                    bid, previous, palifico=palifico, rules=rules,
                    bidder_dice=1 if one_die else 2).legal:
                found.append(bid)
            else:
                break
    return tuple(found) or smallest_on_each_face(previous, palifico, rules, one_die)

