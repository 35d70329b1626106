"""A cold command's CPU time (issue 29, point 5), beside a bare ``python -c pass``, in one run.

``make bench`` runs it in full and prints, for each command, the median and the least CPU
seconds (user + system, of the process alone: ``os.wait4``) over :data:`ROUNDS` fresh
processes, and the command's median less the bare interpreter's; they are kept in the
benchmark's ``extra_info`` too. ``make test`` runs one round, which only checks that each
command still answers. No timed assertion. Target: ``perudo-coach advise`` for a spot of
four players within 0.3 s of CPU on a two-core machine.

The commands run as ``python -m perudo_coach`` from the checkout, each in turn, the order
rotated every round, so a busy machine slows all alike. Their bytecode is cached (in a
folder of their own, after one untimed run of each) as an installed package's would be, and
no ``OPENBLAS_*`` setting is passed on: the command's own defaults are measured.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 15
TARGET_CPU_S = 0.3
COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "advise, 4 players": ["-m", "perudo_coach", "advise", "--hand", "2", "3", "5", "--dice",
                          "10", "--bid", "4x2", "--players", "4"],
    "check": ["-m", "perudo_coach", "check", "--bid", "4x2", "--previous", "3x2"],
}


def child_env(pycache: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items()
           if name != "PYTHONDONTWRITEBYTECODE" and not name.startswith("OPENBLAS_")}
    return {**env, "PYTHONPYCACHEPREFIX": str(pycache)}


def cpu_seconds(argv: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Run ``python argv`` from the checkout to its end: its CPU seconds, and its output."""
    process = subprocess.Popen([sys.executable, *argv], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = process.stdout.read() if process.stdout else b""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0, argv
    return usage.ru_utime + usage.ru_stime, out.decode()


def summary(samples: dict[str, list[float]]) -> dict[str, float]:
    bare = statistics.median(samples["python -c pass"])
    figures: dict[str, float] = {}
    for name, seconds in samples.items():
        figures[f"{name}: median cpu s"] = round(statistics.median(seconds), 3)
        figures[f"{name}: least cpu s"] = round(min(seconds), 3)
        if name != "python -c pass":
            figures[f"{name}: median less bare"] = round(statistics.median(seconds) - bare, 3)
    return figures


def test_cold_command_cpu_beside_bare_python(benchmark, capsys, tmp_path) -> None:
    benchmark.group = "cold-start"
    rounds = ROUNDS if not benchmark.disabled else 1
    env = child_env(tmp_path / "pycache")
    samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
    outputs: dict[str, str] = {}

    def measure() -> None:
        for argv in COMMANDS.values():  # untimed: fills the bytecode cache
            cpu_seconds(argv, env)
        names = list(COMMANDS)
        for index in range(rounds):
            shift = index % len(names)
            for name in names[shift:] + names[:shift]:
                seconds, outputs[name] = cpu_seconds(COMMANDS[name], env)
                samples[name].append(seconds)

    benchmark.pedantic(measure, rounds=1, iterations=1)
    figures = summary(samples)
    benchmark.extra_info.update(figures)
    if not benchmark.disabled:
        with capsys.disabled():
            print(f"\ncold start, CPU seconds over {rounds} rounds (target: advise within "
                  f"{TARGET_CPU_S} s):")
            for name, value in figures.items():
                print(f"  {name:<36} {value:.3f}")
    assert json.loads(outputs["advise, 4 players"])["options"]
    assert json.loads(outputs["check"])["legal"] is True
