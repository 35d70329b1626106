"""The tests' own rules, read from their source: a test bounds work by counting it, not by
timing it, and waits for a sign that the app is done, not for a while.

Outside ``tests/benchmarks/`` (where speed is measured, never asserted):

* no comparison with a clock reading (``time.monotonic``, ``perf_counter``, ``time.time`` and
  the like, a name computed from one, or what a helper returns that holds one): a run that
  is correct but slow on a loaded machine must not fail. A ``while`` loop that polls until a
  deadline may compare: it guards a hang.
* no fixed sleep in a test or a fixture (``time.sleep`` outside a polling loop), and no
  ``wait_for_timeout`` in a browser: wait for a positive signal instead.
* no Playwright assertion with a timeout of its own (``expect(...).to_…(timeout=…)``): the
  browser kit's generous default only guards against a hang.

And anywhere but ``tests/browser/`` (the benchmarks too), no fixture named ``page``:
pytest-playwright owns that name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
MEASURED = TESTS / "benchmarks"
BROWSER = TESTS / "browser"
CLOCKS = {"monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "time", "time_ns",
          "process_time", "process_time_ns", "thread_time", "thread_time_ns"}
PASSING_ON = {"abs", "round", "float", "int", "min", "max", "sum"}
"""Calls whose result is still a time when given one."""


def checked_files() -> list[Path]:
    return sorted(path for path in TESTS.rglob("*.py") if "__pycache__" not in path.parts)


class Reader(ast.NodeVisitor):
    """Finds the breaches of the rules above in one module."""

    def __init__(self, browser: bool, measured: bool) -> None:
        self.browser = browser
        self.measured = measured
        self.time_modules = {"time"}
        self.clock_functions: set[str] = set()
        self.sleep_functions: set[str] = set()
        self.timed: set[str] = set()
        self.timing_helpers: set[str] = set()  # functions that return a clock reading
        self.functions: list[str] = []
        self.loops: list[ast.AST] = []
        self.in_test = 0
        self.found: list[str] = []

    # What is a clock.

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "time":
                self.time_modules.add(alias.asname or "time")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module == "time":
            for alias in node.names:
                if alias.name in CLOCKS:
                    self.clock_functions.add(alias.asname or alias.name)
                elif alias.name == "sleep":
                    self.sleep_functions.add(alias.asname or alias.name)

    def is_time_call(self, node: ast.AST, names: set[str], functions: set[str]) -> bool:
        if not isinstance(node, ast.Call):
            return False
        called = node.func
        if isinstance(called, ast.Attribute):
            return (called.attr in names and isinstance(called.value, ast.Name)
                    and called.value.id in self.time_modules)
        return isinstance(called, ast.Name) and called.id in functions

    def reads_a_clock(self, node: ast.AST | None) -> bool:
        """Whether ``node`` is a clock reading, or arithmetic on one."""
        match node:
            case ast.Call(func=ast.Name(id=name), args=args) if name in PASSING_ON:
                return any(self.reads_a_clock(arg) for arg in args)
            case ast.Call(func=ast.Name(id=name)) if name in self.timing_helpers:
                return True
            case ast.Call():
                return self.is_time_call(node, CLOCKS, self.clock_functions)
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                return any(map(self.reads_a_clock, elements))
            case ast.Name(id=name):
                return name in self.timed
            case ast.BinOp(left=left, right=right):
                return self.reads_a_clock(left) or self.reads_a_clock(right)
            case ast.UnaryOp(operand=operand):
                return self.reads_a_clock(operand)
            case ast.IfExp(body=body, orelse=orelse):
                return self.reads_a_clock(body) or self.reads_a_clock(orelse)
        return False

    # Where we are.

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        fixture = fixture_name(node)
        if fixture == "page" and not self.browser:
            self.found.append(f"line {node.lineno}: a fixture named page")
        testing = node.name.startswith("test_") or fixture is not None
        timed, self.timed = self.timed, set(self.timed)
        self.in_test += testing
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()
        self.in_test -= testing
        self.timed = timed

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_While(self, node: ast.While) -> None:
        self.loops.append(node)
        self.generic_visit(node)
        self.loops.pop()

    def visit_For(self, node: ast.For) -> None:
        self.loops.append(node)
        self.generic_visit(node)
        self.loops.pop()

    # The rules.

    def visit_Assign(self, node: ast.Assign) -> None:
        if self.reads_a_clock(node.value):  # every name it unpacks to, to be safe
            self.timed |= {name.id for target in node.targets for name in ast.walk(target)
                           if isinstance(name, ast.Name)}
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        if self.functions and self.reads_a_clock(node.value):
            self.timing_helpers.add(self.functions[-1])
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name) and self.reads_a_clock(node.value):
            self.timed.add(node.target.id)
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        polling = any(isinstance(loop, ast.While) for loop in self.loops)
        timed = any(map(self.reads_a_clock, [node.left, *node.comparators]))
        if timed and not polling and not self.measured:
            self.found.append(f"line {node.lineno}: compares a clock reading")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        called = node.func
        name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
        if self.measured:  # the benchmarks may wait and time: they assert no speed
            pass
        elif name == "wait_for_timeout":
            self.found.append(f"line {node.lineno}: waits a fixed time (wait_for_timeout)")
        elif (self.in_test and not self.loops
              and self.is_time_call(node, {"sleep"}, self.sleep_functions)):
            self.found.append(f"line {node.lineno}: sleeps a fixed time in a test")
        elif name.startswith("to_") and any(word.arg == "timeout" for word in node.keywords):
            self.found.append(f"line {node.lineno}: an assertion with a timeout of its own")
        self.generic_visit(node)


def fixture_name(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The name of the fixture ``node`` defines (its own, or ``name=``); None if it is none."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (isinstance(target, ast.Attribute) and target.attr == "fixture") or (
                isinstance(target, ast.Name) and target.id == "fixture"):
            named = [word.value for word in getattr(decorator, "keywords", ())
                     if word.arg == "name" and isinstance(word.value, ast.Constant)]
            return str(named[0].value) if named else node.name
    return None


def breaches(source: str, browser: bool = False, measured: bool = False) -> list[str]:
    reader = Reader(browser, measured)
    reader.visit(ast.parse(source))
    return reader.found


def every_breach() -> Iterator[str]:
    for path in checked_files():
        for found in breaches(path.read_text(encoding="utf-8"), path.is_relative_to(BROWSER),
                              path.is_relative_to(MEASURED)):
            yield f"{path.relative_to(ROOT)} {found}"


def test_no_test_times_what_it_checks() -> None:
    assert list(every_breach()) == []


# --- the reader itself ----------------------------------------------------------------------

BREACHES = {
    "import time\ndef test_a():\n    began = time.monotonic()\n    work()\n"
    "    assert time.monotonic() - began < 1.5\n": ["line 5: compares a clock reading"],
    "import time as clock\ndef test_a():\n    began = clock.perf_counter()\n"
    "    stopped_in = round(clock.perf_counter() - began, 2)\n    assert stopped_in < 10\n":
        ["line 5: compares a clock reading"],
    "from time import time as now\ndef test_a():\n    start: float = now()\n"
    "    assert 5 > -start + now()\n": ["line 4: compares a clock reading"],
    # through a helper that returns the time with the result
    "import time\ndef _timed(run):\n    start = time.perf_counter()\n    code = run()\n"
    "    return code, time.perf_counter() - start\n"
    "def test_a():\n    code, seconds = _timed(main)\n    assert seconds < 0.5\n":
        ["line 8: compares a clock reading"],
    "import time\ndef test_a():\n    run()\n    time.sleep(0.5)\n    assert count() == 2\n":
        ["line 4: sleeps a fixed time in a test"],
    "from time import sleep\nimport pytest\n@pytest.fixture\ndef ready():\n    sleep(1)\n":
        ["line 5: sleeps a fixed time in a test"],
    "def test_a(page):\n    page.wait_for_timeout(300)\n":
        ["line 2: waits a fixed time (wait_for_timeout)"],
    "def test_a(page):\n    expect(page.get_by_text('x')).to_be_visible(timeout=3000)\n":
        ["line 2: an assertion with a timeout of its own"],
    "import pytest\n@pytest.fixture(scope='module')\ndef page():\n    return 1\n":
        ["line 3: a fixture named page"],
    "from pytest import fixture\n@fixture(name='page')\ndef rules():\n    return 1\n":
        ["line 3: a fixture named page"],
}
FINE = [
    # a deadline given to the code under test, and counts asserted
    "import time\ndef test_a():\n    result = play(deadline=time.monotonic() + 1.5)\n"
    "    assert result.played > 0\n",
    # polling until a deadline: the comparison guards a hang
    "import time\ndef test_a():\n    deadline = time.monotonic() + 30\n"
    "    while done() < 40 and time.monotonic() < deadline:\n        time.sleep(0.1)\n"
    "        if time.monotonic() > deadline:\n            raise TimeoutError\n",
    "import time\ndef test_a():\n    for _ in range(600):\n        if ready():\n"
    "            break\n        time.sleep(0.05)\n",
    # a bot that hangs is not a test that waits
    "import time\nclass Sleeper:\n    def turn(self):\n        time.sleep(86_400)\n",
    # a name reused after its clock reading went out of scope
    "import time\ndef helper():\n    began = time.monotonic()\n    return began\n"
    "def test_a():\n    began = 3\n    assert began < 5\n",
    "def test_a(page):\n    expect(page.get_by_text('x')).to_be_visible()\n",
]


@pytest.mark.parametrize(("source", "found"), BREACHES.items())
def test_the_reader_finds_each_breach(source: str, found: list[str]) -> None:
    assert breaches(source) == found


@pytest.mark.parametrize("source", FINE)
def test_the_reader_leaves_waiting_for_a_sign_alone(source: str) -> None:
    assert breaches(source) == []


def test_a_page_fixture_is_the_browser_tests_own() -> None:
    source = "import pytest\n@pytest.fixture\ndef page():\n    return 1\n"
    assert breaches(source, browser=True) == []
    assert breaches(source, measured=True) == ["line 3: a fixture named page"]


def test_the_benchmarks_measure_time() -> None:
    source = ("import time\ndef test_a(page):\n    began = time.perf_counter()\n"
              "    page.wait_for_timeout(300)\n    assert time.perf_counter() - began > 0\n")
    assert breaches(source, measured=True) == []
