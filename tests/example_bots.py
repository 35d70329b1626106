"""Bots written the way the README tells anyone to write one (loaded as module:attribute)."""

from __future__ import annotations

import random

from coach import DUDO, Action, Situation
from perudo_math import smallest_raises


def cautious(situation: Situation) -> Action:
    """Opens with one of its first die's face (twos when it holds a paco), else dudo."""
    if situation.last_bid is None:
        face = max(2, situation.hand.faces[-1])
        return Action.raise_to(f"1x{face}")
    return DUDO


class Stubborn:
    """A factory: takes the arena's rng, raises the smallest bid on a random face."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, situation: Situation) -> Action:
        options = smallest_raises(situation.last_bid, palifico=situation.palifico,
                                  rules=situation.rules,
                                  bidder_dice=situation.dice[situation.me])
        if situation.last_bid is not None and self.rng.random() < 0.3:
            return DUDO
        return Action("raise", options[self.rng.choice(sorted(options))])


def cheater(situation: Situation) -> Action:
    """Always opens on pacos, which a normal round forbids."""
    return Action.raise_to("1xP")


not_a_bot = 42


def raiser(situation: Situation) -> Action:
    """Fails at its first move."""
    raise RuntimeError("no idea what to do")


def wrong_type(situation: Situation) -> str:
    """Answers with the word, not an Action."""
    return "dudo"


class BadLoser:
    """A factory: plays like ``Stubborn`` but cannot take a showdown."""

    def __init__(self, rng: random.Random) -> None:
        self.play = Stubborn(rng)

    def __call__(self, situation: Situation) -> Action:
        return self.play(situation)

    def observe(self, showdown: object) -> None:
        raise ValueError("showdowns upset me")
