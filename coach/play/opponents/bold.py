"""``bold``: jumps its raises, bluffs a third of the time, rarely calls."""

from __future__ import annotations

import random

from coach.engine.situation import DUDO, Action, ActionKind, Situation
from coach.play.opponents.odds import (
    OddsPlayer,
    chance,
    legal_window,
    own_odds,
)


class BoldBot(OddsPlayer):
    """A bold bluffer: jumps its raises, bluffs a third of the time, rarely calls."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng, opening_confidence=0.45)

    def __call__(self, situation: Situation) -> Action:
        odds = own_odds(situation)
        last = situation.last_bid
        options = legal_window(situation, 3)
        if last is not None and situation.may_dudo() and chance(odds, last) < 0.25:
            return DUDO
        if last is None and self.rng.random() > 0.33:
            return self.opening_bid(situation, odds)
        if self.rng.random() < 0.33:
            return Action(ActionKind.RAISE, self.rng.choice(options))
        plausible = [bid for bid in options if chance(odds, bid) >= 0.4] or list(options)
        return Action(ActionKind.RAISE, max(plausible, key=lambda bid: (
            bid.quantity, chance(odds, bid))))

