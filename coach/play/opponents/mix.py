"""``mix``: one style drawn at the start of each game (reader, liar, tight, bold, odds)."""

from __future__ import annotations

import random

from coach.play.opponents.bold import BoldBot
from coach.play.opponents.common import OpponentBot, OpponentFactory
from coach.play.opponents.liar import LiarBot
from coach.play.opponents.odds import OddsPlayer
from coach.play.opponents.reader import ReaderBot
from coach.play.opponents.tight import TightBot

MIX_STYLES: dict[str, OpponentFactory] = {
    "reader": ReaderBot,
    "liar": LiarBot,
    "tight": TightBot,
    "bold": BoldBot,
    "odds": OddsPlayer,
}
"""The styles ``mix`` draws from, one per game."""


def mix(rng: random.Random) -> OpponentBot:
    """A player of one style drawn at random for the whole game (see :data:`MIX_STYLES`)."""
    style = rng.choice(sorted(MIX_STYLES))
    return MIX_STYLES[style](rng)

