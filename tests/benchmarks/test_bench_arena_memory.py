"""Memory of a long match (issue 16): the arena's peak resident memory at 10³, 10⁴ and 10⁵
games (``make bench``; no timed assertion, and only the 10³ match runs in the plain suite).

Random bots with one die each, heads-up: a game takes well under a millisecond, so the
matches are long in games and short in time, which is what memory growth needs. Each match
runs as ``python -m coach arena`` in its own process, on one process and on two workers.
Figures, printed and kept in the benchmark's ``extra_info``:

- ``process_peak_mib``: the kernel's peak resident memory of the arena process and the
  workers it waited for (``wait4``'s ``ru_maxrss``: the largest single process);
- ``tree_peak_mib``: the largest sum over the process and its workers, sampled every 50 ms.

Target: flat, the 10⁵-game match within 10 MiB (plus a quarter) of the 10³-game one. Before
issue 16 the arena listed every chunk of games up front and submitted them all at once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import psutil
import pytest

SIZES = (10**3, 10**4, 10**5)
MIB = 2**20
SMALLEST: dict[int, float] = {}
"""The tree peak of the 10³-game match, by jobs: the larger matches are held to it."""


def arena(games: int, jobs: int) -> list[str]:
    return [sys.executable, "-m", "coach", "arena", "--games", str(games), "--hero", "random",
            "--opponents", "random", "--players", "2", "--starting-dice", "1", "--jobs",
            str(jobs), "--quiet"]


def peak_memory(argv: list[str]) -> dict[str, float]:
    """Run ``argv`` to its end; its peak memory in MiB, and its seconds."""
    began = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    tree_peak = 0
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        try:
            parent = psutil.Process(process.pid)
            members = [parent, *parent.children(recursive=True)]
            tree_peak = max(tree_peak, sum(member.memory_info().rss for member in members))
        except psutil.NoSuchProcess:
            pass
        time.sleep(0.05)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0
    return {"process_peak_mib": round(usage.ru_maxrss * 1024 / MIB, 1),
            "tree_peak_mib": round(tree_peak / MIB, 1),
            "seconds": round(time.perf_counter() - began, 1)}


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("games", SIZES)
def test_arena_memory(benchmark, capsys, games: int, jobs: int) -> None:
    if benchmark.disabled and games > SIZES[0]:
        pytest.skip("the longer matches run under make bench")
    benchmark.group = f"arena-memory-jobs-{jobs}"
    figures: dict[str, float] = {}
    benchmark.pedantic(lambda: figures.update(peak_memory(arena(games, jobs))),
                       rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    with capsys.disabled():
        print(f"\narena {games:>7,} games, --jobs {jobs}: {figures}")
    if games == SIZES[0]:
        SMALLEST[jobs] = figures["tree_peak_mib"]
    elif jobs in SMALLEST:
        assert figures["tree_peak_mib"] <= SMALLEST[jobs] * 1.25 + 10
