"""How Streamlit runs the page scripts (``[runner]`` in ``.streamlit/config.toml``).

Magic is off: the pages call ``st.*`` for everything they show, and with magic on Streamlit
rewrote each page's syntax tree again whenever the last session had closed (tens of
milliseconds before a phone's first page) and showed the docstring of a constant as text.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "app_pages").glob("*.py"))


def constant_docstrings(script: Path) -> list[str]:
    """The strings standing alone after the first statement of ``script`` (the docstrings
    of its constants): what magic would have written on the page."""
    body = ast.parse(script.read_text(encoding="utf-8")).body
    return [statement.value.value for statement in body[1:]
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)]


def test_magic_is_off() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["runner"]["magicEnabled"] is False


def test_no_page_leaves_a_value_for_magic_to_show() -> None:
    """With magic off, a bare expression would show nothing: every page calls st.* instead."""
    for script in [ROOT / "streamlit_app.py", *PAGES]:
        for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Expr):
                shown = node.value
                assert isinstance(shown, ast.Call | ast.Await | ast.Yield | ast.YieldFrom) or (
                    isinstance(shown, ast.Constant) and isinstance(shown.value, str)
                ), f"{script.name}:{node.lineno} shows nothing without magic"


def test_a_constants_docstring_stays_off_the_page(app: AppTest) -> None:
    settings = ROOT / "app_pages" / "settings.py"
    docstrings = constant_docstrings(settings)
    assert docstrings  # the page documents its constants
    app.run()
    app.switch_page("app_pages/settings.py").run()
    shown = [element.value for element in [*app.markdown, *app.caption]]
    assert not [text for text in docstrings if text in shown]
