"""The wheel is the app (issue 29): a wheel built from a clean copy of the checkout, installed
into a virtualenv of its own, started with ``perudo-coach run --port N`` from a folder
outside the checkout, serves every page, the theme of its ``.streamlit/config.toml``, its
static files and the rules sheet, and writes nothing into site-packages.

The virtualenv gets the app's dependencies from this environment (``tests/wheels.py``); the
project itself comes from the wheel alone, which the test checks before it starts the app.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import _require_chromium
from tests.browser.kit import open_page, phone_context
from tests.servers import free_port, running_server
from tests.wheels import build_wheel, clean_copy, install_in_venv, require_build_tools
from views.i18n import translate

PAGES = {
    "": "odds.title",
    "game": "tracker.title",
    "cheat-sheet": "rules.title",
    "train": "practice.title",
    "drill": "drills.title",
    "vs-bots": "play.title",
    "my-progress": "progress.title",
    "rule-settings": "settings.title",
}
"""Each page's own address and its title's catalog key: odds, tracker, rules, practice,
drills, play, progress, settings."""
RULES_SHEET = ("rules.section.settings", "rules.section.basics", "rules.section.grades")
PRIMARY_RGB = "rgb(179, 38, 30)"
"""``primaryColor = "#b3261e"`` of ``.streamlit/config.toml``, as a computed style says it:
without that file the app draws nothing in it."""
THEMED_JS = """
(rgb) => [...document.querySelectorAll("*")].some(el => {
  const style = getComputedStyle(el);
  return [style.color, style.backgroundColor, style.borderTopColor].includes(rgb);
})
"""
FETCH_JS = """
(path) => fetch(path).then(async r => [r.status, r.headers.get("content-type"), await r.text()])
"""


def files_under(folder: Path) -> set[str]:
    """Every file below ``folder`` but Python's bytecode caches."""
    return {str(path.relative_to(folder)) for path in folder.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts}


def run_in_venv(venv: Path, code: str, cwd: Path, env: dict[str, str]) -> str:
    return subprocess.run([str(venv / "bin" / "python"), "-c", code], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=True).stdout


def assert_the_project_comes_from_the_wheel(venv: Path, site_packages: Path, cwd: Path,
                                            env: dict[str, str]) -> None:
    """The venv imports the project from its own site-packages (not from a checkout or an
    editable install), and ``perudo-coach run`` would start its copy of the app."""
    shown = run_in_venv(venv, "import views, serving.start as s; print(views.__file__); "
                        "print(s.app_root())", cwd, env).split()
    assert [Path(line) for line in shown] == [site_packages / "views" / "__init__.py",
                                              site_packages / "serving" / "app"]
    dry_run = subprocess.run([str(venv / "bin" / "perudo-coach"), "run", "--dry-run"],
                             cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
                             check=True).stdout
    assert f"{site_packages}/serving/app/streamlit_app.py" in dry_run


def assert_served_from_static(page: Page, url: str) -> None:
    """``app/static/`` is served (``enableStaticServing``): the manifest and its icons, not
    the app's HTML page that Streamlit answers for any unknown path."""
    status, kind, body = page.evaluate(FETCH_JS, f"{url}/app/static/manifest.webmanifest")
    assert (status, kind.split(";")[0]) == (200, "application/manifest+json")
    manifest = json.loads(body)
    assert manifest["name"] == "Perudo Coach"
    for icon in manifest["icons"]:
        status, kind, _ = page.evaluate(FETCH_JS, f"{url}/app/static/{icon['src']}")
        assert (status, kind) == (200, "image/png"), icon["src"]


def assert_page_renders(page: Page, url: str, path: str, title_key: str) -> None:
    open_page(page, f"{url}/{path}")
    expect(page.get_by_role("heading", level=1)).to_have_text(translate("en", title_key))
    assert page.get_by_test_id("stException").count() == 0, path
    assert page.get_by_text("Page not found").count() == 0, path


@pytest.mark.browser
def test_the_installed_wheel_serves_the_whole_app(tmp_path: Path,
                                                  chromium_browser: Browser) -> None:
    _require_chromium()
    require_build_tools()
    wheel = build_wheel(clean_copy(tmp_path / "source"), tmp_path / "dist")
    venv = tmp_path / "venv"
    site_packages = install_in_venv(wheel, venv)
    elsewhere = tmp_path / "elsewhere"  # the working directory: not the checkout
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PERUDO_COACH_DB"] = str(tmp_path / "progress.sqlite3")
    env.pop("PERUDO_COACH_PUBLIC_URL", None)
    assert_the_project_comes_from_the_wheel(venv, site_packages, elsewhere, env)
    installed = files_under(venv)

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [str(venv / "bin" / "perudo-coach"), "run", "--port", str(port)]
    with running_server(command, url, tmp_path / "server.log", env, cwd=elsewhere):
        context = phone_context(chromium_browser)
        try:
            page = context.new_page()
            for path, title_key in PAGES.items():
                assert_page_renders(page, url, path, title_key)
                if path == "cheat-sheet":  # the rules sheet itself, not only its title
                    for key in RULES_SHEET:
                        expect(page.get_by_role("heading", name=translate("en", key),
                                                exact=True)).to_be_visible()
            assert page.evaluate(THEMED_JS, PRIMARY_RGB), "the theme's primary colour is unused"
            assert_served_from_static(page, url)
        finally:
            context.close()
    assert files_under(venv) == installed, "the app wrote into its virtualenv"
    assert list(elsewhere.iterdir()) == []
