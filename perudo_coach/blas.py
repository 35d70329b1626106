"""How many threads the maths libraries start, in one place.

OpenBLAS starts a thread per core as numpy loads, and the threads spin a while: that doubled
numpy's share of a cold ``advise`` on two cores, for matrices too small to gain from them.
numpy reads these settings once, as it loads, so :func:`one_thread` runs before it does: in
``perudo-coach`` before a subcommand's module is imported, in ``python -m benchmarks.…`` and
``python -m scripts.…`` as their package loads (their figures are one-core figures). Worker
processes inherit the setting. A value already in the environment wins.
"""

from __future__ import annotations

import os

ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


def one_thread() -> None:
    """One BLAS (and OpenMP) thread for this process and those it starts, unless set."""
    for name, value in ONE_THREAD.items():
        os.environ.setdefault(name, value)
