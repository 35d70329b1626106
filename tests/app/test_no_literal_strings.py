"""No user-facing text in the UI code: every label and message goes through the catalogs.

The scan reads the entry script, the pages and ``views/`` with ``ast`` and reports a string
literal (or an f-string, concatenation or module constant built from one) passed as the text
of a display call: ``st.title("Hi")``, ``st.sidebar.button("Go")``, ``col.metric(label="x")``,
``st.Page(..., title="Odds")``. A literal counts as text when it holds a letter; markdown
marks, die glyphs and emoji do not. Icons, keys and option values are not text.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI_SOURCES = sorted(
    [ROOT / "streamlit_app.py", *(ROOT / "app_pages").glob("*.py"), *(ROOT / "views").glob("*.py")]
)

TEXT_KEYWORDS = frozenset(
    {"label", "body", "help", "placeholder", "title", "caption", "captions", "page_title",
     "alt", "text", "delta_description", "tooltip"}
)
"""Keyword arguments that are shown to the user."""

ALL_POSITIONAL = frozenset({"write", "text", "tabs", "toast"})
"""Calls whose every positional argument is shown."""
FIRST_POSITIONAL = frozenset(
    {"title", "header", "subheader", "markdown", "caption", "code", "latex",
     "error", "warning", "info", "success", "exception", "badge",
     "button", "download_button", "link_button", "form_submit_button", "page_link",
     "metric", "number_input", "text_input", "text_area", "slider", "select_slider",
     "selectbox", "multiselect", "radio", "checkbox", "toggle", "segmented_control", "pills",
     "date_input", "time_input", "color_picker", "file_uploader", "camera_input",
     "chat_input", "expander", "popover", "status", "spinner", "dialog", "feedback"}
)
"""Calls whose first positional argument is shown (the label or body)."""
KEYWORDS_ONLY = frozenset({"Page", "set_page_config", "altair_chart", "navigation"})
"""Calls whose positional arguments are not text (paths, charts) but some keywords are."""
DISPLAY_CALLS = ALL_POSITIONAL | FIRST_POSITIONAL | KEYWORDS_ONLY


def _has_letters(text: str) -> bool:
    return any(char.isalpha() for char in text)


class LiteralTextFinder(ast.NodeVisitor):
    """Collects ``(line, call, snippet)`` for each literal text passed to a display call."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.findings: list[tuple[int, str, str]] = []
        self.constants: dict[str, bool] = {}

    def visit_Module(self, node: ast.Module) -> None:
        for statement in node.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = statement.targets[0]
                if isinstance(target, ast.Name):
                    self.constants[target.id] = self._is_text(statement.value)
        self.generic_visit(node)

    def _is_text(self, node: ast.AST | None) -> bool:
        match node:
            case ast.Constant(value=str() as value):
                return _has_letters(value)
            case ast.JoinedStr(values=values):
                return any(self._is_text(part) for part in values)
            case ast.FormattedValue():
                return False
            case ast.BinOp(left=left, right=right):
                return self._is_text(left) or self._is_text(right)
            case ast.List(elts=items) | ast.Tuple(elts=items):
                return any(self._is_text(item) for item in items)
            case ast.IfExp(body=body, orelse=orelse):
                return self._is_text(body) or self._is_text(orelse)
            case ast.Name(id=name):
                return self.constants.get(name, False)
            case ast.Lambda(body=body):
                return self._is_text(body)
        return False

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Attribute) and node.func.attr in DISPLAY_CALLS:
            name = node.func.attr
            if name in ALL_POSITIONAL:
                shown = list(node.args)
            elif name in FIRST_POSITIONAL:
                shown = node.args[:1]
            else:
                shown = []
            shown += [
                keyword.value
                for keyword in node.keywords
                if keyword.arg in TEXT_KEYWORDS or keyword.arg == "format_func"
            ]
            for argument in shown:
                if self._is_text(argument):
                    snippet = ast.get_source_segment(self.source, argument) or ""
                    self.findings.append((argument.lineno, name, snippet))
        self.generic_visit(node)


def find_literal_text(source: str) -> list[tuple[int, str, str]]:
    finder = LiteralTextFinder(source)
    finder.visit(ast.parse(source))
    return finder.findings


@pytest.mark.parametrize(
    "snippet",
    [
        'st.button("Roll")',
        'st.title("Perudo odds")',
        'st.sidebar.warning("Careful")',
        'column.metric(label="Odds", value=value)',
        'st.number_input("Dice", min_value=1)',
        'st.markdown(f"**Total**: {total}")',
        'st.caption(t("odds.intro") + " more words")',
        'st.error("Oops" if bad else t("ok"))',
        'LABEL = "Go"\nst.button(LABEL)',
        'st.radio(t("k"), ["a", "b"], format_func=lambda option: "Yes")',
        'st.Page("app_pages/odds.py", title="Odds")',
        'st.set_page_config(page_title="Perudo Coach")',
        'st.write("Hello", value)',
        'st.tabs(["One", "Two"])',
        'st.segmented_control(t("k"), OPTIONS, help="Pick one")',
    ],
)
def test_the_scan_catches_literal_text(snippet: str) -> None:
    assert find_literal_text(snippet), snippet


@pytest.mark.parametrize(
    "snippet",
    [
        'st.button(t("hand.undo"), key="odds_undo", icon=":material/backspace:")',
        'st.markdown(f"**{t(\'hand.label\')}**")',
        'st.markdown(f"### {glyphs}")',
        'st.button(face_label(face), key=f"odds_add_{face}")',
        'st.Page("app_pages/odds.py", title=t("nav.odds"), icon="🎲", url_path="bid-odds")',
        'st.segmented_control(t("round.label"), ("normal", "palifico"),'
        ' format_func=lambda o: t(f"round.{o}"))',
        'st.warning(t("odds.warn"), icon="⚠️")',
        'name.title()',
        'st.metric(t("k"), format_percent(p))',
    ],
)
def test_the_scan_accepts_catalog_lookups(snippet: str) -> None:
    assert find_literal_text(snippet) == [], snippet


def test_the_scan_covers_the_entry_script_and_pages() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in UI_SOURCES}
    assert {"streamlit_app.py", "app_pages/odds.py", "views/inputs.py"} <= names


@pytest.mark.parametrize("path", UI_SOURCES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_literal_user_facing_text(path: Path) -> None:
    findings = find_literal_text(path.read_text(encoding="utf-8"))
    assert findings == [], "\n".join(
        f"{path.relative_to(ROOT)}:{line}: st.{call}(... {snippet} ...) is not a catalog lookup"
        for line, call, snippet in findings
    )
