"""The odds and the coach behind an in-process cache: a rerun after a tap is served from memory.

The cached functions take plain hashable values (tuples, ints, strings, :class:`Table`) and
return immutable values (frozen dataclasses, tuples, read-only arrays), shared by every rerun
and session of the server. The cache is :func:`functools.lru_cache` rather than
``st.cache_data``: that one hashed every argument with its own hasher and pickled and
unpickled every value, about 8 ms of each tap on the odds page (``make bench-speed``).
"""

from __future__ import annotations

from collections.abc import Sequence
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
    advise,
    count_shift,
)
from perudo_math import Bid, Hand, Odds, Rules, legal_quantities, odds, smallest_raises


@lru_cache(maxsize=1024)
def cached_odds(
    quantity: int, face: int, hand: tuple[int, ...], dice: int, palifico: bool
) -> Odds:
    """:func:`perudo_math.odds`, cached across reruns and sessions (the inputs are plain)."""
    return _read_only(odds(Bid(quantity, face), hand, dice, palifico=palifico))


def _read_only(result: Odds) -> Odds:
    """``result`` with its distribution frozen: every caller shares the cached value."""
    result.distribution.flags.writeable = False
    return result


@dataclass(frozen=True, slots=True)
class Table:
    """What the coach is asked about, in plain hashable values (the cache key).

    ``rules`` is :meth:`perudo_math.Rules.changed` as sorted pairs; ``bids`` are this
    round's ``(seat, quantity, face)``.
    """

    rules: tuple[tuple[str, object], ...]
    dice: tuple[int, ...]
    me: int
    hand: tuple[int, ...]
    bids: tuple[tuple[int, int, int], ...]
    palifico: bool
    bluffs: tuple[tuple[int, float], ...] = ()
    """Per seat, its share of bluffs as this game's showdowns told it (a tracked game)."""

    @classmethod
    def of(cls, rules: Rules, dice: Sequence[int], me: int, hand: Sequence[int],
           bids: Sequence[tuple[int, Bid]], palifico: bool,
           bluffs: Sequence[tuple[int, float]] = ()) -> Table:
        return cls(rules_key(rules), tuple(int(n) for n in dice), int(me),
                   tuple(sorted(int(face) for face in hand)),
                   _shared(tuple((int(seat), bid.quantity, bid.face) for seat, bid in bids)),
                   bool(palifico), tuple((int(seat), float(share)) for seat, share in bluffs))

    def situation(self) -> Situation:
        """The coach's view; ``ValueError`` when the numbers cannot make a table. The same
        object for the same table while it is kept (every cached answer of a tap asks for
        it, and a round may hold thousands of bids)."""
        return _situation_of(self)


@lru_cache(maxsize=64)
def _shared(bids: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, int, int], ...]:
    """``bids``, as the first equal round kept: the tables of every hand tapped on a round
    share its bids, so that a cache of a thousand tables does not hold a long round a
    thousand times."""
    return bids


@lru_cache(maxsize=64)
def _situation_of(table: Table) -> Situation:
    return Situation(Rules.from_dict(dict(table.rules)), table.dice, table.me, Hand(table.hand),
                     _bids_of(table.bids), table.palifico)


@lru_cache(maxsize=64)
def _bids_of(bids: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, Bid], ...]:
    """The round's ``(seat, Bid)`` pairs, built once for every table of the round."""
    return tuple((seat, Bid(quantity, face)) for seat, quantity, face in bids)


def rules_key(rules: Rules) -> tuple[tuple[str, object], ...]:
    """Rules as a hashable cache key: the settings that differ from the defaults."""
    return tuple(sorted(rules.changed().items()))


def even_split(hand_dice: int, table_dice: int, players: int) -> tuple[int, ...]:
    """Every seat's dice when only the total is known: mine first, the rest split evenly.

    ``ValueError`` when the other players cannot each hold a die.
    """
    others, opponents = table_dice - hand_dice, players - 1
    if opponents < 1 or others < opponents:
        raise ValueError(f"{opponents} other players cannot share {others} dice")
    share, extra = divmod(others, opponents)
    return (hand_dice, *(share + (seat < extra) for seat in range(opponents)))


def _reading(table: Table, read_bids: bool) -> BidReading:
    return BidReading(bluffs=table.bluffs) if read_bids else PURE_ODDS


@lru_cache(maxsize=1024)
def cached_advice(table: Table, read_bids: bool) -> Advice:
    """:func:`coach.advise` for ``table``, reading the bids or on pure odds."""
    return advise(table.situation(), CoachSettings(reading=_reading(table, read_bids)))


@lru_cache(maxsize=1024)
def cached_read_odds(table: Table, read_bids: bool, quantity: int, face: int) -> Odds | None:
    """The odds of ``quantity × face`` as the coach reads the table, the numbers its advice
    uses; ``None`` when no bid moves them away from :func:`cached_odds` (nothing read)."""
    situation = table.situation()
    beliefs = TableBeliefs(situation, _reading(table, read_bids))
    if not beliefs.reads_bids:
        return None
    bid = Bid(quantity, face)
    distribution = beliefs.distribution(face)
    own = beliefs.own_matches(face)
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
    return count_shift(table.situation(), face, _reading(table, True))


@lru_cache(maxsize=512)
def cached_raise_grid(table: Table, read_bids: bool) -> tuple[tuple[int, int, float], ...]:
    """``(face, quantity, P(true))`` of every legal raise (or opening) up to the table's dice,
    as the coach sees the table (reading the bids or not)."""
    situation = table.situation()
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
    quantity: int, face: int, palifico: bool, rules: tuple[tuple[str, object], ...],
    bidder_dice: int | None,
) -> tuple[Bid, ...]:
    """The lowest legal raise of each face after ``quantity × face`` under ``rules``
    (a :func:`rules_key`)."""
    raises = smallest_raises(Bid(quantity, face), palifico=palifico,
                             rules=Rules.from_dict(dict(rules)), bidder_dice=bidder_dice)
    return tuple(raises[f] for f in sorted(raises))


__all__ = [
    "Table",
    "cached_advice",
    "cached_count_shift",
    "cached_odds",
    "cached_raise_grid",
    "cached_read_odds",
    "cached_smallest_raises",
    "even_split",
    "rules_key",
]
