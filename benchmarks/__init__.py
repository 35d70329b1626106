"""The acceptance figures, each a module run from the checkout's root:
``python -m benchmarks.league``, ``python -m benchmarks.solver_acceptance`` and so on.

Nothing here asserts: the figures are measured (the timed pytest benchmarks are in
``tests/benchmarks/``).
"""

from __future__ import annotations

import sys

from perudo_coach.blas import one_thread

# While `python -m` locates the module it runs, it has loaded this package and sys.argv[0]
# is "-m": a run sets one BLAS thread before numpy loads, an import (the README's test reads
# the parsers) leaves the importer's environment alone.
if sys.argv[:1] == ["-m"]:
    one_thread()
