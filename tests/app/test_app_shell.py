"""The entry script and the server config: light imports, safe page paths, no external calls."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

from views import navigation

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "streamlit_app.py"
HEAVY = {"numpy", "pandas", "altair", "scipy", "perudo_math", "coach", "views.charts",
         "views.engine_cache"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_entry_script_keeps_heavy_imports_out() -> None:
    for path in (ENTRY, ROOT / "views" / "i18n.py", ROOT / "views" / "__init__.py"):
        modules = imported_modules(path)
        heavy = {m for m in modules if m in HEAVY or m.split(".")[0] in HEAVY}
        assert not heavy, f"{path.name} imports {heavy}"


def test_importing_the_translations_loads_neither_numpy_nor_altair() -> None:
    code = (
        "import sys; import views.i18n; "
        "print(','.join(m for m in ('altair', 'perudo_math', 'views.url_state')"
        " if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


def test_no_legacy_pages_folder() -> None:
    """A folder named pages/ beside the entry script switches on Streamlit's legacy multipage
    mode: the first deep link after a server start then shows "Page not found"."""
    assert not (ROOT / "pages").exists()


def test_page_url_paths_differ_from_their_file_names() -> None:
    """Belt and braces for the same legacy mode: a url_path equal to a page file's stem."""
    tree = ast.parse(ENTRY.read_text(encoding="utf-8"))
    pages = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "Page"
    ]
    assert pages
    for page in pages:
        path = page.args[0].value
        url_path = next(k.value.value for k in page.keywords if k.arg == "url_path")
        assert url_path != Path(path).stem, path


def test_server_config() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["browser"]["gatherUsageStats"] is False
    assert config["server"]["headless"] is True
    assert config["client"]["toolbarMode"] == "minimal"
    assert config["client"]["showErrorDetails"] == "none"
    assert config["client"]["showErrorLinks"] is False
    assert config["theme"]["base"] == "light"


def test_links_to_the_tracker_use_the_address_the_entry_script_gives_it() -> None:
    tree = ast.parse(ENTRY.read_text(encoding="utf-8"))
    paths = {node.args[0].value: next(k.value.value for k in node.keywords
                                      if k.arg == "url_path")
             for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr == "Page"}
    assert paths[navigation.TRACKER_PAGE] == navigation.TRACKER_URL_PATH
