"""Where the coach plays the shipped heads-up equilibrium tables instead of its own advice.

One rule, kept as data, for everything that plays or explains the coach's move: the league's
``coach`` bot (:class:`coach.solver.tables.CoachTablesBot`) and the app's advice
(:func:`coach.solver.tables.advise_with_tables`) both ask :meth:`TablePlay.covers`. Whether a
table actually fits the spot (dice counts, round rules, the bids on its path) is the tables'
own question (:func:`coach.solver.tables.heads_up_strategy`); this module loads none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from coach.engine.situation import Situation
from perudo_math.checks import require_int


@dataclass(frozen=True, slots=True)
class TablePlay:
    """Play the tables heads-up while the table holds at most ``max_dice`` dice
    (``None``: wherever one fits)."""

    max_dice: int | None = None

    def __post_init__(self) -> None:
        if self.max_dice is not None:
            require_int("TablePlay: max_dice", self.max_dice, 2)

    def covers(self, situation: Situation) -> bool:
        """Whether the coach plays a table in ``situation`` when one fits: two players left,
        and no more dice on the table than :attr:`max_dice`."""
        return situation.heads_up and (self.max_dice is None
                                       or situation.table_dice <= self.max_dice)


COACH_TABLE_PLAY = TablePlay(max_dice=3)
"""The default coach plays the tables while the table holds at most three dice. Measured
against its own reading, heads-up over the league's eight bots (2,000 games a match, seed
50): playing them up to 4, 5 or 6 dice, or everywhere (the abstract tables included), its
win rates summed 0.06, 0.12, 0.10 and 1.02 lower. Up to six dice they gained against the
planner (+3.7 points) and the adaptive reader (+1.8) and lost against the odds player
(−7.6) and the tight player (−5.2); the smaller tables change nothing measurable."""

TABLES_ANYWHERE = TablePlay()
"""Wherever a table fits (the ``coach-tables`` bot)."""


__all__ = ["COACH_TABLE_PLAY", "TABLES_ANYWHERE", "TablePlay"]
