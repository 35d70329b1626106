"""Tools that write files the project ships, each a module run from the checkout's root:
``python -m scripts.build_solver_tables`` (the heads-up tables), ``python -m
scripts.make_icons`` (the home-screen icons)."""

from __future__ import annotations

import sys

from perudo_coach.blas import one_thread

# As in benchmarks/__init__.py: a run (sys.argv[0] is "-m" while the module is located) sets
# one BLAS thread before numpy loads; an import leaves the environment alone.
if sys.argv[:1] == ["-m"]:
    one_thread()
