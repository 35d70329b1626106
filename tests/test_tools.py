"""The tools beside the app (``benchmarks/``, ``scripts/``) run as modules from the checkout's
root (``python -m benchmarks.league``): none moves ``sys.path``, none sets a thread count of
its own (``perudo_coach/blas.py`` is the one place, for them and for ``perudo-coach``), and
each program's parser is named as it is run."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_docs import repository_files

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("benchmarks", "scripts")
TOOLS = sorted(f"{path.parent.name}.{path.stem}" for folder in FOLDERS
               for path in (ROOT / folder).glob("*.py") if path.stem != "__init__")
BLAS_HOME = ROOT / "perudo_coach" / "blas.py"


def path_moves(source: str) -> list[int]:
    """The lines that reach for ``sys.path`` (to insert into it, append to it or replace it)."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr == "path"
            and isinstance(node.value, ast.Name) and node.value.id == "sys"]


def thread_settings(source: str) -> list[int]:
    """The lines that name a thread-count variable (``OPENBLAS_NUM_THREADS`` and the like)."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value.endswith("_NUM_THREADS")]


def test_the_readers_see_what_they_look_for() -> None:
    source = ("import os, sys\nsys.path.insert(0, '.')\n"
              "os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')\nprint(os.path.sep)\n")
    assert (path_moves(source), thread_settings(source)) == ([2], [3])


def test_the_tools_are_found() -> None:
    assert {"benchmarks.league", "benchmarks.solver_acceptance",
            "scripts.build_solver_tables", "scripts.make_icons"} <= set(TOOLS)


@pytest.mark.parametrize("module", TOOLS)
def test_a_tool_leaves_the_path_and_the_threads_alone(module: str) -> None:
    source = (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
    assert path_moves(source) == [], f"{module} moves sys.path: run it as python -m {module}"
    assert thread_settings(source) == [], f"{module} sets threads: perudo_coach/blas.py does"


def test_one_place_sets_the_blas_threads() -> None:
    setting = sorted(str(path.relative_to(ROOT)) for path in repository_files({".py"})
                     if not path.is_relative_to(ROOT / "tests")
                     and thread_settings(path.read_text(encoding="utf-8")))
    assert setting == [str(BLAS_HOME.relative_to(ROOT))]


@pytest.mark.parametrize("module", [tool for tool in TOOLS if tool != "scripts.make_icons"])
def test_a_tools_parser_is_named_as_it_runs(module: str) -> None:
    assert importlib.import_module(module).build_parser().prog == f"python -m {module}"


def test_a_tool_runs_as_a_module_from_the_root_with_one_blas_thread() -> None:
    """``python -m`` from the root finds the packages without help; a run sets one BLAS
    thread as the tool's package loads (``sys.argv[0]`` is ``-m`` then), an import does not."""
    env = {name: value for name, value in os.environ.items()
           if name != "PYTHONPATH" and not name.endswith("_NUM_THREADS")}
    run = subprocess.run([sys.executable, "-m", "benchmarks.league", "--help"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("usage: python -m benchmarks.league")
    report = ("import os, sys\nimport benchmarks\nimported = os.environ.get('OMP_NUM_THREADS')\n"
              "sys.argv[0] = '-m'\nimport scripts\n"
              "print(imported, os.environ.get('OPENBLAS_NUM_THREADS'))\n")
    told = subprocess.run([sys.executable, "-c", report], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert told.stdout.split() == ["None", "1"], told.stderr
