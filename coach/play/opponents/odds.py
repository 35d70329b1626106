"""``odds``: a player of its own dice's odds, and what the bots built on it share."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from coach.engine.situation import CALZA, DUDO, Action, ActionKind, Situation
from coach.play.opponents.common import raise_window, smallest_on_each_face
from perudo_math import FACES, Bid, count_distribution, count_survival


def own_odds(situation: Situation) -> np.ndarray:
    """P(at least q dice show f) from my own dice, shape (6, table + 2): row f − 1, column q
    (the last column, above the table, is 0)."""
    palifico = situation.palifico
    table = situation.table_dice
    unknown = table - len(situation.hand)
    rows = np.zeros((6, table + 2))
    for face in FACES:
        own = situation.hand.count(face, palifico=palifico)
        tail = count_survival(unknown, face, palifico)
        rows[face - 1, :own + 1] = 1.0
        rows[face - 1, own:own + unknown + 1] = tail
    return rows


def own_exact(situation: Situation, bid: Bid) -> float:
    """P(exactly the bid's quantity) from my own dice."""
    palifico = situation.palifico
    unknown = situation.table_dice - len(situation.hand)
    need = bid.quantity - situation.hand.count(bid.face, palifico=palifico)
    if not 0 <= need <= unknown:
        return 0.0
    return float(count_distribution(unknown, bid.face, palifico)[need])


def chance(table: np.ndarray, bid: Bid) -> float:
    return float(table[bid.face - 1, min(bid.quantity, table.shape[1] - 1)])


def legal_window(situation: Situation, reach: int) -> tuple[Bid, ...]:
    return raise_window(situation.last_bid, situation.table_dice, situation.palifico,
                        situation.rules, situation.dice[situation.me] == 1, reach)


def _best_face(situation: Situation, faces: Sequence[int]) -> int:
    """The face I hold most of (ties: the highest)."""
    return max(faces, key=lambda f: (situation.hand.count(f, palifico=situation.palifico), f))


def _opening(situation: Situation, face: int, confidence: float, odds: np.ndarray) -> Action:
    """The highest quantity on ``face`` my dice make at least ``confidence`` likely (≥ 1)."""
    row = odds[face - 1]
    quantity = max(1, int(np.flatnonzero(row >= confidence).max(initial=1)))
    return Action(ActionKind.RAISE, Bid(min(quantity, situation.table_dice), face))


def _opening_faces(situation: Situation) -> tuple[int, ...]:
    one_die = situation.dice[situation.me] == 1
    return tuple(bid.face for bid in smallest_on_each_face(None, situation.palifico,
                                                           situation.rules, one_die))


@dataclass
class OddsPlayer:
    """Plays the odds of its own dice: raises to its likeliest bid, calls when the last bid is
    less likely true than that raise. ``caution`` lifts the bar for a raise."""

    rng: random.Random
    opening_confidence: float = 0.6
    caution: float = 0.0
    reach: int = 2

    def __call__(self, situation: Situation) -> Action:
        odds = own_odds(situation)
        last = situation.last_bid
        if last is None:
            return self.opening_bid(situation, odds)
        best = max(legal_window(situation, self.reach), key=self._preference(situation, odds))
        return self.respond(situation, odds, best)

    def opening_bid(self, situation: Situation, odds: np.ndarray) -> Action:
        """The opening on the face I hold most of, as high as my dice make likely enough
        (``opening_confidence``)."""
        return _opening(situation, _best_face(situation, _opening_faces(situation)),
                        self.opening_confidence, odds)

    def _preference(self, situation: Situation,
                    odds: np.ndarray) -> Callable[[Bid], tuple[float, bool, int]]:
        """How raises rank: likeliest first, then on a face held, then the lowest."""
        held = self._held(situation)
        return lambda bid: (chance(odds, bid), bid.face in held, -bid.quantity)

    def respond(self, situation: Situation, odds: np.ndarray, best: Bid) -> Action:
        last = situation.last_bid
        assert last is not None
        true = chance(odds, last)
        raise_chance = chance(odds, best) - self.caution
        if situation.may_calza() and own_exact(situation, last) > max(0.5, 1.0 - true):
            return CALZA
        if situation.may_dudo() and 1.0 - true >= raise_chance:
            return DUDO
        return Action(ActionKind.RAISE, best)

    @staticmethod
    def _held(situation: Situation) -> frozenset[int]:
        return frozenset(situation.hand.faces)

