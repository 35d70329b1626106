"""``liar``: half of its raises go to a face it holds fewest of; otherwise it plays the odds
of its own dice, and calls by them."""

from __future__ import annotations

import random

import numpy as np

from coach.engine.situation import Action, ActionKind, Situation
from coach.play.opponents.common import one_in_three
from coach.play.opponents.odds import (
    OddsPlayer,
    chance,
    legal_window,
    own_odds,
)
from perudo_math import Bid


class LiarBot(OddsPlayer):
    """Half of its raises (and openings) go to a face it holds fewest of, chosen at random;
    otherwise it plays the odds of its own dice, and calls by them."""

    def __init__(self, rng: random.Random, lie_share: float = 0.5) -> None:
        super().__init__(rng)
        self.lie_share = lie_share

    def __call__(self, situation: Situation) -> Action:
        odds = own_odds(situation)
        last = situation.last_bid
        options = legal_window(situation, self.reach)
        if last is not None:
            honest = max(options, key=lambda bid: (chance(odds, bid), -bid.quantity))
            action = self.respond(situation, odds, honest)
            if action.kind != ActionKind.RAISE:
                return action
        if self.rng.random() < self.lie_share:
            return Action(ActionKind.RAISE, self._lie(situation, options, odds))
        if last is None:
            return self.opening_bid(situation, odds)
        return Action(ActionKind.RAISE, honest)

    def _lie(self, situation: Situation, options: tuple[Bid, ...], odds: np.ndarray) -> Bid:
        """The smallest raise (an opening the table makes likely) on a face I hold fewest of."""
        faces = sorted({bid.face for bid in options})
        fewest = min(situation.hand.faces.count(face) for face in faces)
        face = self.rng.choice([f for f in faces if situation.hand.faces.count(f) == fewest])
        on_face = [bid for bid in options if bid.face == face]
        if situation.last_bid is None:
            unknown = situation.table_dice - len(situation.hand)
            share = 3 if one_in_three(face, situation.palifico) else 6
            quantity = max(1, min(situation.table_dice, round(unknown / share)))
            return Bid(quantity, face)
        return on_face[0]

