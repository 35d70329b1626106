"""The longest rounds the limits allow, shared by the tests and the benchmarks (issue 31).

The issue's round: ten players holding ten dice each, the any-face raise rule, and one round of
smallest legal raises as long as a game may be (``MAX_MOVES``). Bids may pass the dice on the
table (no rule forbids it), so the round climbs to 600 × 5; its useful range is its first
500 bids (every quantity up to the table on each ordinary face) (``perudo_math.useful_range``).
"""

from __future__ import annotations

from perudo_math import MAX_MOVES, Bid, BidMade, DudoCalled, GameState, Rules, smallest_raises

PLAYERS = 10
DICE = 10
ANY_FACE = Rules(starting_dice=DICE, raise_rule="any-face")
NAMES = tuple(f"P{seat}" for seat in range(PLAYERS))


def smallest_raise(previous: Bid | None, rules: Rules) -> Bid:
    """The smallest legal raise on an ordinary face (2 to 6): quantity first, then face."""
    if previous is None:
        return Bid(1, 2)
    raises = smallest_raises(previous, rules=rules)
    return min((bid for face, bid in raises.items() if face != 1),
               key=lambda bid: (bid.quantity, bid.face))


def long_round(bids: int = MAX_MOVES - 1, rules: Rules = ANY_FACE,
               players: int = PLAYERS) -> GameState:
    """A game whose first round holds ``bids`` smallest legal raises, still going."""
    events, previous = [], None
    for _ in range(bids):
        previous = smallest_raise(previous, rules)
        events.append(BidMade(None, previous))
    return GameState.new(NAMES[:players], rules).replay(events)


def finished_long_round(bids: int = MAX_MOVES - 1, count: int = 30) -> GameState:
    """:func:`long_round` ended by a dudo (``count`` dice matched): the longest game a code
    may hold when ``bids`` is ``MAX_MOVES - 1``."""
    return long_round(bids).replay([DudoCalled(None, count)])
