"""Heads-up endgames: a generic CFR+/LP solver (``cfr``) over small games (``games``), and the
shipped equilibrium tables the coach plays from (``tables``, read from ``data/``);
``python -m coach solve`` (``cli``)."""

from coach.solver.tables import (
    CoachTablesBot,
    MixedAdvice,
    advise_with_tables,
    heads_up_strategy,
    phrase_mixed_advice,
    table_strategy,
)

__all__ = ["CoachTablesBot", "MixedAdvice", "advise_with_tables", "heads_up_strategy",
           "phrase_mixed_advice", "table_strategy"]
