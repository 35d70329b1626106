"""The type hints are checked: mypy runs in ``make lint`` over every package, and each
``# type: ignore`` left in the code names its error code (and, in the checked code, why)."""

from __future__ import annotations

import io
import os
import re
import tokenize
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {".git", ".venv", "build", "dist", "node_modules", "test-output", "__pycache__",
                ".ruff_cache", ".mypy_cache", ".pytest_cache", ".hypothesis", ".benchmarks"}
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
MYPY_FILES: list[str] = PYPROJECT["tool"]["mypy"]["files"]

_IGNORE = re.compile(r"#\s*type:\s*ignore\b(?P<codes>\[[a-z0-9-]+(?:,\s*[a-z0-9-]+)*\])?"
                     r"(?P<rest>.*)")
_WHY = re.compile(r"\s+#\s*\S")


def ignores(source: str) -> list[tuple[int, str, bool]]:
    """Each ``type: ignore`` comment of ``source`` (not in strings): its line, its codes
    (``""`` when bare) and whether a comment after it says why."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and (match := _IGNORE.search(token.string)):
            found.append((token.start[0], match["codes"] or "",
                          _WHY.match(match["rest"]) is not None))
    return found


def python_files() -> list[Path]:
    """The project's own Python files (no virtual environment, no caches)."""
    found = []
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders
                         if name not in SKIPPED_DIRS and not name.endswith(".egg-info")]
        found += [Path(folder, name) for name in names if name.endswith(".py")]
    return sorted(found)


def checked(path: Path) -> bool:
    """Whether mypy checks ``path`` (one of ``[tool.mypy] files``, or inside one)."""
    relative = path.relative_to(ROOT)
    return any(relative == Path(entry) or Path(entry) in relative.parents
               for entry in MYPY_FILES)


def test_the_ignore_reader_finds_bare_coded_and_explained_ignores() -> None:
    source = '''x = f(1)  # type: ignore
y = g(2)  # type: ignore[arg-type]
z = h(3)  # type: ignore[arg-type, misc]  # a stub that lags behind the library
text = "# type: ignore"  # a string is not a comment
w = k(4)  # type:ignore[union-attr]#why
'''
    assert ignores(source) == [(1, "", False), (2, "[arg-type]", False),
                               (3, "[arg-type, misc]", True), (5, "[union-attr]", False)]


def test_every_type_ignore_names_its_error_code() -> None:
    bare = [f"{path.relative_to(ROOT)}:{line}" for path in python_files()
            for line, codes, _ in ignores(path.read_text(encoding="utf-8")) if not codes]
    assert bare == [], "a `# type: ignore` without [code] hides every error of its line"


def test_each_ignore_in_the_checked_code_says_why() -> None:
    unexplained = [f"{path.relative_to(ROOT)}:{line}" for path in python_files()
                   if checked(path)
                   for line, _, why in ignores(path.read_text(encoding="utf-8")) if not why]
    assert unexplained == [], "write why after the ignore: `# type: ignore[code]  # why`"


def test_mypy_checks_every_package_the_pages_and_the_entry_script() -> None:
    packages = {name.rstrip("*") for name in
                PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert set(MYPY_FILES) == packages | {"app_pages", "streamlit_app.py"}
    assert all((ROOT / entry).exists() for entry in MYPY_FILES)


@pytest.mark.parametrize("setting", ["check_untyped_defs", "no_implicit_optional",
                                     "warn_unused_ignores", "warn_redundant_casts"])
def test_mypy_is_strict_enough(setting: str) -> None:
    assert PYPROJECT["tool"]["mypy"][setting] is True


def test_make_lint_runs_ruff_and_mypy() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe is not None
    assert "$(BIN)/ruff check ." in recipe[1]
    assert "$(BIN)/mypy" in recipe[1]
    assert re.search(r"^test: lint\b", makefile, re.MULTILINE)  # so CI (make test) runs it


def test_mypy_and_its_stubs_are_pinned() -> None:
    pins = PYPROJECT["project"]["optional-dependencies"]["test"]
    assert any(re.fullmatch(r"mypy==[0-9.]+", pin) for pin in pins)
    assert all("==" in pin for pin in pins if pin.startswith(("mypy", "types-", "scipy-stubs")))
