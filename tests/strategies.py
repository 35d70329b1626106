"""Hypothesis strategies shared by the tests."""

from __future__ import annotations

from hypothesis import strategies as st

from coach import Situation
from perudo_math import Bid, Hand, PalificoRule, RaiseRule, Rules


def rules(max_starting_dice: int = 5) -> st.SearchStrategy[Rules]:
    """Any table's rule settings, with up to ``max_starting_dice`` dice a player."""
    return st.builds(
        Rules,
        starting_dice=st.integers(1, max_starting_dice),
        raise_rule=st.sampled_from(RaiseRule),
        palifico=st.sampled_from(PalificoRule),
        palifico_one_die_may_change_face=st.booleans(),
        salsa=st.booleans(),
        calza=st.booleans(),
        calza_out_of_turn=st.booleans(),
        calza_heads_up=st.booleans(),
    )


@st.composite
def seated_table(draw: st.DrawFn) -> tuple[list[int], list[int], bool]:
    """2 to 6 players of 1 to 5 dice each, my hand (seat 0), and whether it is palifico."""
    players = draw(st.integers(2, 6))
    dice = [draw(st.integers(1, 5)) for _ in range(players)]
    hand = [draw(st.integers(1, 6)) for _ in range(dice[0])]
    return dice, hand, draw(st.booleans())


@st.composite
def read_rounds(draw: st.DrawFn) -> tuple[Situation, int]:
    """A table (me at seat 0), a round of up to five bids by any seats, and a face."""
    dice, hand, palifico = draw(seated_table())
    table = sum(dice)
    bids = draw(st.lists(st.tuples(st.integers(0, len(dice) - 1),
                                   st.builds(Bid, st.integers(1, table), st.integers(1, 6))),
                         max_size=5))
    spot = Situation(Rules(), tuple(dice), 0, Hand(hand), tuple(bids), palifico)
    return spot, draw(st.integers(1, 6))
