"""The odds and the coach behind an in-process cache: a rerun after a tap is served from memory.

The cached functions take the engine's own values, all hashable (:class:`~perudo_math.Bid`,
:class:`~perudo_math.Hand`, :class:`~perudo_math.Rules`, and :class:`Table`: a
:class:`~perudo_math.Situation` with what the game's showdowns told), and return immutable
values (frozen dataclasses, tuples, read-only arrays), shared by every rerun and session of the
server. The cache is :func:`functools.lru_cache` rather than
``st.cache_data``: that one hashed every argument with its own hasher and pickled and
unpickled every value, about 8 ms of each tap on the odds page (``make bench-speed``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from coach import (
    PURE_ODDS,
    Advice,
    BidReading,
    CoachSettings,
    CountShift,
    Situation,
    TableBeliefs,
    advise_with_tables,
    count_shift,
)
from perudo_math import Bid, Hand, Odds, Rules, legal_quantities, odds, smallest_raises


@lru_cache(maxsize=1024)
def cached_odds(bid: Bid, hand: Hand, dice: int, palifico: bool) -> Odds:
    """:func:`perudo_math.odds`, cached across reruns and sessions."""
    return _read_only(odds(bid, hand, dice, palifico=palifico))


def _read_only(result: Odds) -> Odds:
    """``result`` with its distribution frozen: every caller shares the cached value."""
    result.distribution.flags.writeable = False
    return result


@dataclass(frozen=True, slots=True)
class Table:
    """What the coach is asked about (the cache key): the player's view, and per seat its
    share of bluffs as this game's showdowns told it (a tracked game)."""

    situation: Situation
    bluffs: tuple[tuple[int, float], ...] = ()


def _reading(table: Table, read_bids: bool) -> BidReading:
    return BidReading(bluffs=table.bluffs) if read_bids else PURE_ODDS


@lru_cache(maxsize=1024)
def cached_advice(table: Table, read_bids: bool) -> Advice:
    """The coach's advice for ``table``, reading the bids or on pure odds, as the coach plays:
    from a solved heads-up table where it plays one (:func:`coach.advise_with_tables`)."""
    return advise_with_tables(table.situation, CoachSettings(reading=_reading(table, read_bids)))


@lru_cache(maxsize=1024)
def cached_read_odds(table: Table, read_bids: bool, bid: Bid) -> Odds | None:
    """The odds of ``bid`` as the coach reads the table, the numbers its advice uses;
    ``None`` when no bid moves them away from :func:`cached_odds` (nothing read)."""
    situation = table.situation
    beliefs = TableBeliefs(situation, _reading(table, read_bids))
    if not beliefs.reads_bids:
        return None
    distribution = beliefs.distribution(bid.face)
    own = beliefs.own_matches(bid.face)
    return _read_only(Odds(
        bid=bid, palifico=situation.palifico,
        unknown_dice=situation.table_dice - len(situation.hand), own_matches=own,
        at_least=beliefs.at_least(bid), exactly=beliefs.exactly(bid),
        expected=float(np.dot(np.arange(len(distribution)), distribution)),
        distribution=np.array(distribution),
    ))


@lru_cache(maxsize=1024)
def cached_count_shift(table: Table, face: int) -> CountShift:
    """What reading the bids moves in the expected count of ``face``, seat by seat, read as
    :func:`cached_read_odds` reads them: its totals are their ``expected`` (dice alone, read)."""
    return count_shift(table.situation, face, _reading(table, True))


@lru_cache(maxsize=512)
def cached_raise_grid(table: Table, read_bids: bool) -> tuple[tuple[int, int, float], ...]:
    """``(face, quantity, P(true))`` of every legal raise (or opening) up to the table's dice,
    as the coach sees the table (reading the bids or not)."""
    situation = table.situation
    beliefs = TableBeliefs(situation, _reading(table, read_bids))
    spans = legal_quantities(situation.last_bid, situation.table_dice,
                             palifico=situation.palifico, rules=situation.rules,
                             bidder_dice=situation.dice[situation.me])
    return tuple(
        (face, quantity, float(beliefs.tail(face)[quantity]))
        for face, span in sorted(spans.items())
        for quantity in span
    )


@lru_cache(maxsize=512)
def cached_smallest_raises(
    bid: Bid, palifico: bool, rules: Rules, bidder_dice: int | None,
) -> tuple[Bid, ...]:
    """The lowest legal raise of each face after ``bid`` under ``rules``."""
    raises = smallest_raises(bid, palifico=palifico, rules=rules, bidder_dice=bidder_dice)
    return tuple(raises[f] for f in sorted(raises))


__all__ = [
    "Table",
    "cached_advice",
    "cached_count_shift",
    "cached_odds",
    "cached_raise_grid",
    "cached_read_odds",
    "cached_smallest_raises",
]
