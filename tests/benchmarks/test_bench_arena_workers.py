"""The cost of playing ``--jobs 1`` in a worker process (issue 31, point 6), side by side
with the games played in the process itself, as ``--jobs 1`` played them before
(``make bench``).

A normal five-player match: the coach against the odds player, and the odds player alone
(the cheapest reasonable bots, where the arena's own cost shows most). Each round is a fresh
Python process that plays the whole match, its caches cold as a command's are: the worker's
start, its pipe and its end are counted in. Both ways give the same tally. The plain
suite plays the odds players' match once each way, untimed.
"""

from __future__ import annotations

import functools
import subprocess
import sys

import pytest

from coach.play.arena import ArenaSpec, _factories, _hero_won, play_match

MATCHES = {"coach-vs-probability": ArenaSpec("coach", "probability", 5, 12, seed=7),
           "probability-only": ArenaSpec("probability", "probability", 5, 60, seed=7)}


def in_this_process(spec: ArenaSpec) -> int:
    """The hero's wins, the games played one by one here (``--jobs 1`` before issue 31)."""
    factories = _factories(spec)
    return sum(_hero_won(spec, factories, index) for index in range(spec.games))


def in_a_worker(spec: ArenaSpec) -> int:
    return play_match(spec, jobs=1).hero_wins


WAYS = {"in_this_process": in_this_process, "in_a_worker": in_a_worker}


def in_a_fresh_process(match: str, way: str) -> int:
    """``WAYS[way](MATCHES[match])`` in a Python process of its own."""
    code = (f"from tests.benchmarks.test_bench_arena_workers import MATCHES, WAYS; "
            f"print(WAYS[{way!r}](MATCHES[{match!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=600)
    return int(done.stdout)


@functools.cache
def expected(match: str) -> int:
    return in_this_process(MATCHES[match])


@pytest.mark.parametrize("way", sorted(WAYS))
@pytest.mark.parametrize("match", sorted(MATCHES))
def test_a_five_player_match_on_one_job(benchmark, match, way):
    if benchmark.disabled and match != "probability-only":
        pytest.skip("the coach's match runs under make bench")
    benchmark.group = f"arena-jobs-1-{match}"
    wins = benchmark.pedantic(in_a_fresh_process, args=(match, way), rounds=5, iterations=1)
    assert wins == expected(match)
