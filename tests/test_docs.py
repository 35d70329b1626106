"""The documents hold: the repository stands alone (its Markdown links, the rules reference the
code cites and the seed texts that reference quotes are all inside it), and the README's map
of the code is true (imports run one way)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES = DOCS / "RULES.md"
SKIPPED_DIRS = {".git", ".venv", "build", "dist", "node_modules", "test-output", "__pycache__",
                ".ruff_cache", ".mypy_cache", ".pytest_cache", ".hypothesis", ".benchmarks"}

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_INLINE_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//|#)", re.IGNORECASE)


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def relative_links(markdown: str) -> list[str]:
    """The targets of the links and images that point into the repository (fragments cut),
    outside code blocks and code spans."""
    prose = _CODE_SPAN.sub("", _FENCE.sub("", markdown))
    targets = _INLINE_LINK.findall(prose) + _REFERENCE_LINK.findall(prose)
    return [target.split("#", 1)[0] for target in targets if not _EXTERNAL.match(target)]


def repository_files(suffixes: set[str]) -> list[Path]:
    """The project's own files with these suffixes (no virtual environment, no caches)."""
    found = []
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders
                         if name not in SKIPPED_DIRS and not name.endswith(".egg-info")]
        found += [Path(folder, name) for name in names if Path(name).suffix in suffixes]
    return found


def test_the_link_reader_finds_links_and_skips_the_rest() -> None:
    text = """[a](docs/RULES.md) ![icon](static/icon.png "title") [web](https://x.org/a.md)
[top](#set-up) [part](docs/RULES.md#calza) `[not](code.md)`
```sh
[no](fenced.md)
```
[ref]: seeds/000.txt
"""
    assert relative_links(text) == ["docs/RULES.md", "static/icon.png", "docs/RULES.md",
                                    "seeds/000.txt"]


@pytest.mark.parametrize("document", markdown_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_points_at_a_file(document: Path) -> None:
    links = relative_links(document.read_text(encoding="utf-8"))
    broken = [link for link in links if not (document.parent / link).exists()]
    assert broken == [], f"{document.relative_to(ROOT)} links to missing files"


def test_the_readme_links_the_rules_reference() -> None:
    assert "docs/RULES.md" in relative_links((ROOT / "README.md").read_text(encoding="utf-8"))


def test_nothing_cites_a_file_outside_the_repository() -> None:
    outside = re.compile(r"\.\./shared[/\\]|/work/shared\b")
    citing = [
        str(path.relative_to(ROOT))
        for path in repository_files({".py", ".md", ".json", ".toml", ".txt", ".cfg"})
        if path != Path(__file__).resolve()  # this file names the pattern
        and outside.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert citing == []


def test_every_docs_path_the_code_cites_exists() -> None:
    cited = re.compile(r"\bdocs/[\w./-]*\w")
    missing = {
        f"{path.relative_to(ROOT)}: {match}"
        for path in repository_files({".py"})
        for match in cited.findall(path.read_text(encoding="utf-8"))
        if not (ROOT / match).exists()
    }
    assert missing == set()


def test_the_rules_reference_names_its_four_sources_without_their_text() -> None:
    """RULES.md names its sources by number (000 to 003) and says what each is; their text is
    not redistributed: no line of the seeds beside the project (``../shared/seeds``, where a
    checkout has it) stands word for word in a tracked file."""
    text = RULES.read_text(encoding="utf-8")
    numbers = set(re.findall(r"\b(0\d\d)\b", text))
    assert numbers == {"000", "001", "002", "003"}
    for number in sorted(numbers):
        assert re.search(rf"^- {number}: ", text, re.MULTILINE), f"source {number} is not described"
    assert not (DOCS / "seeds").exists()
    seeds = ROOT.parent / "shared" / "seeds"
    lines = {line.strip() for path in sorted(seeds.glob("*.txt"))
             for line in path.read_text(encoding="utf-8").splitlines() if len(line.strip()) > 60}
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=False).stdout.split()
    copied = [name for name in tracked if (ROOT / name).is_file()
              and (ROOT / name).suffix in {".md", ".py", ".txt", ".json", ".toml"}
              and any(line in (ROOT / name).read_text(encoding="utf-8", errors="ignore")
                      for line in lines)]
    assert copied == []


# --- The README's map: imports run one way ----------------------------------------------------

MAY_IMPORT: dict[str, set[str]] = {
    "perudo_math": set(),
    "serving": set(),
    "coach": {"perudo_math"},
    "practice": {"coach", "perudo_math"},
    "storage": {"practice", "coach", "perudo_math"},
    "views": {"storage", "practice", "coach", "perudo_math", "serving"},
    "app_pages": {"views", "storage", "practice", "coach", "perudo_math", "serving"},
    "streamlit_app": {"views"},
    "perudo_coach": {"serving", "practice", "coach", "perudo_math"},
    "benchmarks": {"perudo_coach", "coach", "perudo_math"},
    "scripts": {"perudo_coach", "coach", "perudo_math"},
}
"""Each part of the app and the parts below it that it may import (itself aside). The tools
(``benchmarks/``, ``scripts/``, run as modules) sit on top: no part of the app imports them."""
DRAWS_WITH_STREAMLIT = {"views", "app_pages", "streamlit_app"}
STARTS_STREAMLIT = {"serving/streamlit_cli.py"}
"""Modules outside the drawing parts that run Streamlit's server and command line (its
``streamlit.web`` modules only), never a page."""


def top_level_imports(path: Path) -> set[str]:
    """The top-level packages a module imports, at its top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_the_import_reader_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import a.b\nfrom c import d\ndef f():\n    import streamlit as st\n")
    assert top_level_imports(module) == {"a", "c", "streamlit"}


def part_files(part: str) -> list[Path]:
    """The modules of a package, or the one module of that name."""
    if (ROOT / f"{part}.py").is_file():
        return [ROOT / f"{part}.py"]
    return [path for path in repository_files({".py"}) if path.is_relative_to(ROOT / part)]


@pytest.mark.parametrize("part", sorted(MAY_IMPORT))
def test_imports_run_one_way(part: str) -> None:
    paths = part_files(part)
    assert paths, f"{part} is gone: update the README's map and MAY_IMPORT"
    allowed = MAY_IMPORT[part] | {part} | ({"streamlit"} if part in DRAWS_WITH_STREAMLIT else set())
    forbidden = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in paths
        for name in top_level_imports(path) & (set(MAY_IMPORT) | {"streamlit"})
        if name not in allowed
        and not (name == "streamlit" and str(path.relative_to(ROOT)) in STARTS_STREAMLIT)
    }
    assert forbidden == set()


@pytest.mark.parametrize("module", sorted(STARTS_STREAMLIT))
def test_what_starts_streamlit_imports_its_server_and_never_draws(module: str) -> None:
    imported = {
        name
        for node in ast.walk(ast.parse((ROOT / module).read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom | ast.Import)
        for name in ([node.module] if isinstance(node, ast.ImportFrom) else
                     [alias.name for alias in node.names])
        if name and name.split(".")[0] == "streamlit"
    }
    assert imported and all(name.startswith("streamlit.web.") for name in imported)
