"""League opponents: bots written apart from the coach, to measure it against, one module each.

- ``reader`` (:mod:`~coach.play.opponents.reader`, its model in
  :mod:`~coach.play.opponents.reading`): an exact Bayesian reader. It keeps a posterior over
  every opponent's hand (each multiset of faces, weighted by the multinomial prior), updates
  it with every bid of the round through a model of how a player bids from their own dice
  (with a share of random bids), calls by that posterior, and weighs each raise by the chance
  that the next player, reading too, calls it. From the hands each showdown lifts it fits
  every opponent's style of bidding (its random-bid share among it) and its way of calling,
  pooled across the table.
- ``liar`` (:mod:`~coach.play.opponents.liar`): half of its raises go to a face it holds
  fewest of; otherwise it plays the odds of its own dice, and calls by them.
- ``tight`` (:mod:`~coach.play.opponents.tight`): never bluffs, raises to the bid its own
  dice make likeliest, calls readily.
- ``mix`` (:mod:`~coach.play.opponents.mix`): one style drawn at the start of each game
  (reader, liar, tight, bold (:mod:`~coach.play.opponents.bold`), odds
  (:mod:`~coach.play.opponents.odds`)).
- ``planner`` (:mod:`~coach.play.opponents.planner`): a determinized Monte-Carlo planner. It
  reads the bids and learns from the showdowns as the reader does, then at each decision
  deals the others' hands many times from that posterior and weighs every move on the same
  deals: dudo and calza by the count each deal shows, each raise by playing the rest of the
  round out, every seat playing a fast policy from its own dice and the bids as read. It
  takes the move that costs it a die least often.
- ``adaptive`` (:mod:`~coach.play.opponents.adaptive`): the planner, plus what each
  showdown tells of every seat: how often its bids held against the chance it read them with
  (a seat whose bids hold less often is called more readily: the deals where its bid is
  false weigh more), its share of bids on a face it held none of, and the margin by which it
  calls, fitted from every bid it faced and played by that seat in the rollouts (bolder
  raises go into a seat that rarely calls, safer ones into one that calls often).

A bot is built per game from a factory taking the game's ``random.Random`` (a class whose
``__init__`` takes it is its own factory); every random choice comes from that generator, so a
game replays from its seed. :data:`OPPONENTS` names them for the league; the arena loads one
as ``coach.play.opponents:ReaderBot``. Nothing here reads the coach's engine.
"""

from __future__ import annotations

from coach.play.opponents.adaptive import AdaptiveBot
from coach.play.opponents.bold import BoldBot
from coach.play.opponents.common import OpponentBot, OpponentFactory, raise_window
from coach.play.opponents.liar import LiarBot
from coach.play.opponents.mix import MIX_STYLES, mix
from coach.play.opponents.odds import OddsPlayer, own_exact, own_odds
from coach.play.opponents.planner import PlannerBot
from coach.play.opponents.reader import ReaderBot
from coach.play.opponents.reading import (
    READ_LIMIT,
    Caller,
    ReadingModel,
    RoundBook,
    Style,
    hand_space,
)
from coach.play.opponents.tight import TightBot

OPPONENTS: dict[str, OpponentFactory] = {
    "reader": ReaderBot,
    "liar": LiarBot,
    "tight": TightBot,
    "mix": mix,
    "planner": PlannerBot,
    "adaptive": AdaptiveBot,
}
"""The league's opponents by name: each a factory taking the game's ``random.Random``."""



__all__ = [
    "MIX_STYLES",
    "OPPONENTS",
    "READ_LIMIT",
    "AdaptiveBot",
    "BoldBot",
    "Caller",
    "LiarBot",
    "OddsPlayer",
    "OpponentBot",
    "OpponentFactory",
    "PlannerBot",
    "ReaderBot",
    "ReadingModel",
    "RoundBook",
    "Style",
    "TightBot",
    "hand_space",
    "mix",
    "own_exact",
    "own_odds",
    "raise_window",
]
