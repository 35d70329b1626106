"""The practice table: the players who deal the scenarios, frozen so that links keep their spot.

A scenario link (seed, theme, level) is replayed by simulating games, so every choice of the
simulated players is part of what the link shows. They must not follow the coach: the coach
is tuned from release to release, and a shared link would then show another spot. The table
is played by the arena's two plain baselines (:class:`~coach.play.bots.ProbabilityBot`,
:class:`~coach.play.bots.N3Bot`), whose rules are fixed by their definition, and by
:class:`TableRegular`, a player of this module with rules of its own, written out below and
never tuned. Changing any of them changes every scenario: ``tests/test_scenarios.py`` pins
a deal so that such a change is seen.
"""

from __future__ import annotations

import random

from coach.engine.situation import CALZA, DUDO, Action, ActionKind, Situation
from perudo_math import Bid, legal_quantities, odds_table

CALL_BELOW = (0.35, 0.4, 0.45, 0.5)
"""A regular calls dudo on a bid whose chance of being true, from their own dice, is below
their threshold: one of these, drawn for each game (some players are quicker to call)."""

CALZA_FROM = 0.3
"""A regular calls calza, where allowed, when the bid is exactly right with at least this
chance from their own dice."""

BLUFF = 0.15
"""How often a regular bids on another face than their most likely one."""

OPENING_SURE = 0.65
"""A regular opens with the largest quantity they believe true with at least this chance."""

JUMP = 0.2
"""How often a regular raises one more than the smallest raise, when it still looks true."""


class TableRegular:
    """A regular of the practice table: calls by their own dice, bids what they hold and
    bluffs now and then.

    Facing a bid: calza when allowed and the bid is exactly right with at least
    :data:`CALZA_FROM` from their own dice; dudo when it is true with less than their
    threshold (:data:`CALL_BELOW`). Otherwise they bid. They open on the face they hold
    most of, at the largest quantity they believe with :data:`OPENING_SURE`; they raise
    with the smallest legal raise most likely true (ties: the face they hold most of). With
    chance :data:`BLUFF` they bid instead on the face they hold fewest of among those still
    above their threshold, and with chance :data:`JUMP` one more, if that still looks true.
    When every raise is above the table, they call dudo.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        self.call_below = self.rng.choice(CALL_BELOW)

    def __call__(self, situation: Situation) -> Action:
        dice, palifico, last = situation.table_dice, situation.palifico, situation.last_bid
        table = odds_table(situation.hand, dice, palifico)

        def p_true(bid: Bid) -> float:
            return float(table[bid.face - 1, bid.quantity]) if bid.quantity <= dice else 0.0

        if last is not None:
            p_exact = p_true(last) - p_true(Bid(last.quantity + 1, last.face))
            if situation.may_calza() and p_exact >= CALZA_FROM:
                return CALZA
            if p_true(last) < self.call_below:
                return DUDO
        spans = legal_quantities(last, dice, palifico=palifico, rules=situation.rules,
                                 bidder_dice=situation.dice[situation.me])
        if not spans:  # every raise is above the table
            return DUDO
        held = {face: situation.hand.count(face, palifico=palifico) for face in spans}
        if last is None:
            bids = [Bid(max((q for q in span if p_true(Bid(q, face)) >= OPENING_SURE),
                            default=span.start), face) for face, span in spans.items()]
            bid = max(bids, key=lambda b: (held[b.face], b.quantity, b.face))
        else:
            bids = [Bid(span.start, face) for face, span in spans.items()]
            bid = max(bids, key=lambda b: (p_true(b), held[b.face], b.face))
        if self.rng.random() < BLUFF:
            plausible = [b for b in bids if p_true(b) >= self.call_below]
            if plausible:
                bid = min(plausible, key=lambda b: (held[b.face], b.face))
        higher = Bid(bid.quantity + 1, bid.face)
        if (self.rng.random() < JUMP and higher.quantity in spans[bid.face]
                and p_true(higher) >= self.call_below):
            bid = higher
        return Action(ActionKind.RAISE, bid)
