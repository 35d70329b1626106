"""A cold command loads only what it needs (issue 29, point 5), told by the modules a fresh
process has loaded, not by a clock (``tests/benchmarks/test_bench_startup.py`` times it):
advice for a spot of three or more players loads neither scipy nor the solver, nor the
arena, the league or the review; a legality check loads no numpy; a heads-up table loads
the solver, scipy included. Every name the packages offer still resolves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import coach
import coach.play
import perudo_math
from coach.play.bots import BUILTIN_BOTS
from coach.play.names import BOT_NAMES

ROOT = Path(__file__).resolve().parents[1]
WATCHED = ("numpy", "scipy", "scipy.sparse", "coach.solver", "coach.solver.tables",
           "coach.play.arena", "coach.play.bots", "coach.play.league", "coach.play.bot_game",
           "coach.review", "multiprocessing", "multiprocessing.connection")
REPORT = f"""
import json, os, sys
print(json.dumps({{"loaded": [name for name in {WATCHED!r} if name in sys.modules],
                  "blas": os.environ.get("OPENBLAS_NUM_THREADS")}}))
"""
FOUR_PLAYERS = ["advise", "--hand", "2", "3", "5", "--dice", "10", "--bid", "4x2",
                "--players", "4"]


def fresh_process(code: str, env: dict[str, str] | None = None) -> dict[str, object]:
    """Run ``code`` in a new interpreter from the checkout; what it loaded, and its BLAS
    threads setting. Its last line of output is the report."""
    base = {name: value for name, value in os.environ.items()
            if not name.startswith("OPENBLAS_")}
    done = subprocess.run([sys.executable, "-c", code + REPORT], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**base, **(env or {})})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def perudo_coach(argv: list[str]) -> str:
    return f"from perudo_coach.cli import main\nassert main({argv!r}) == 0\n"


def test_advice_for_four_players_loads_no_solver_scipy_or_arena():
    report = fresh_process(perudo_coach(FOUR_PLAYERS))
    assert report["loaded"] == ["numpy"]


def test_the_coach_command_alone_loads_no_solver_either():
    report = fresh_process(f"from coach.cli import main\nassert main({FOUR_PLAYERS!r}) == 0\n")
    assert report["loaded"] == ["numpy"]


def test_a_legality_check_loads_no_numpy():
    report = fresh_process(perudo_coach(["check", "--bid", "4x2", "--previous", "3x2"]))
    assert report["loaded"] == []


def test_a_heads_up_table_loads_the_solver_and_scipy():
    report = fresh_process(
        "import coach\n"
        "from perudo_math import Hand, Rules\n"
        "spot = coach.Situation(Rules(), (1, 1), 0, Hand([4]), (), palifico=True)\n"
        "assert coach.heads_up_strategy(spot) is not None\n")
    assert {"scipy.sparse", "coach.solver.tables"} <= set(report["loaded"])


def test_the_arena_loads_when_a_match_runs():
    report = fresh_process(perudo_coach(["arena", "--hero", "random", "--opponents", "random",
                                         "--players", "2", "--games", "2", "--quiet"]))
    assert {"coach.play.arena", "multiprocessing.connection"} <= set(report["loaded"])


def test_the_commands_run_numpy_on_one_blas_thread_unless_told():
    assert fresh_process(perudo_coach(FOUR_PLAYERS))["blas"] == "1"
    told = fresh_process(perudo_coach(FOUR_PLAYERS), env={"OPENBLAS_NUM_THREADS": "2"})
    assert told["blas"] == "2"


@pytest.mark.parametrize("package", [coach, coach.play, perudo_math],
                         ids=lambda package: package.__name__)
def test_every_name_a_package_offers_resolves(package):
    for name in package.__all__:
        assert getattr(package, name) is not None, name
    assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        package.nothing  # noqa: B018


def test_the_lazy_names_are_the_defining_modules_own():
    from coach.play.arena import ArenaSpec
    from coach.solver.tables import heads_up_strategy
    from perudo_math.probability import odds

    assert coach.ArenaSpec is coach.play.ArenaSpec is ArenaSpec
    assert coach.heads_up_strategy is heads_up_strategy
    assert perudo_math.odds is odds


def test_the_parser_names_every_built_in_bot_in_order():
    assert tuple(BUILTIN_BOTS) == BOT_NAMES


def test_the_version_is_read_on_first_use(capsys):
    import perudo_coach
    from perudo_coach.cli import main

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"perudo-coach {perudo_coach.__version__}\n"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        perudo_coach.nothing  # noqa: B018
