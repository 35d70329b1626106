"""``tight``: never bluffs, raises to the bid its own dice make likeliest, calls readily."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from coach.engine.situation import CALZA, DUDO, Action, ActionKind, Situation
from coach.play.opponents.common import one_in_three
from coach.play.opponents.odds import (
    OddsPlayer,
    chance,
    own_exact,
)
from perudo_math import Bid


class TightBot(OddsPlayer):
    """A conservative player: opens low, never bluffs (its raise is always the one its own
    dice make likeliest) and calls dudo readily once the last bid is above what it expects on
    the table (when the bid is no likelier true than its best raise by ``eagerness``)."""

    def __init__(self, rng: random.Random, eagerness: float = 0.2) -> None:
        super().__init__(rng, opening_confidence=0.85)
        self.eagerness = eagerness

    def _preference(self, situation: Situation,
                    odds: np.ndarray) -> Callable[[Bid], tuple[float, bool, int]]:
        """Likeliest first, then the lowest: which faces it holds does not matter."""
        return lambda bid: (chance(odds, bid), False, -bid.quantity)

    def respond(self, situation: Situation, odds: np.ndarray, best: Bid) -> Action:
        last = situation.last_bid
        assert last is not None
        true, safest = chance(odds, last), chance(odds, best)
        palifico = situation.palifico
        unknown = situation.table_dice - len(situation.hand)
        expected = situation.hand.count(last.face, palifico=palifico) + unknown * (
            1 / 3 if one_in_three(last.face, palifico) else 1 / 6)
        margin = self.eagerness if last.quantity > expected else 0.0
        if situation.may_dudo() and 1.0 - true >= safest - margin:
            return DUDO
        if situation.may_calza() and own_exact(situation, last) > 0.55:
            return CALZA
        return Action(ActionKind.RAISE, best)

