"""The wheel is the app (issue 29): built from a clean copy of the tracked files, it carries
the packages with their data and type hints, the app itself in ``serving/app/`` (entry
script, pages, static files, Streamlit's config, the rules), the licence and the project's
metadata; the sdist builds the very same wheel; an editable install (``make install``) still
runs the app from the checkout. All offline (see ``tests/wheels.py``).

The installed wheel serving every page in a browser is ``tests/browser/test_installed_wheel``.
"""

from __future__ import annotations

import subprocess
from email.message import Message
from email.parser import HeaderParser
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from tests.wheels import (
    PYPROJECT,
    ROOT,
    build_editable,
    build_pins,
    build_sdist,
    build_wheel,
    clean_copy,
    install_in_venv,
    require_build_tools,
    tracked_files,
    unpack_sdist,
    wheel_contents,
)

APP_IN_WHEEL = "serving/app/"
APP_TOP_FILES = ("streamlit_app.py", ".streamlit/config.toml", "docs/RULES.md")
APP_FOLDERS = ("app_pages/", "static/")
PACKAGES = sorted(pattern.rstrip("*")
                  for pattern in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"])
DIST_INFO = "perudo_coach-0.1.0.dist-info/"


@pytest.fixture(scope="module")
def tree_wheel(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files of the wheel built from a clean copy of the checkout."""
    require_build_tools()
    work = tmp_path_factory.mktemp("tree-wheel")
    return wheel_contents(build_wheel(clean_copy(work / "source"), work / "dist"))


def metadata(files: dict[str, bytes]) -> Message:
    return HeaderParser().parsestr(files[DIST_INFO + "METADATA"].decode("utf-8"))


def expected_app_files() -> set[str]:
    """The checkout's files the wheel must carry in ``serving/app/``."""
    return {name for name in tracked_files()
            if name in APP_TOP_FILES or name.startswith(APP_FOLDERS)}


# --- The wheel -------------------------------------------------------------------------------


def test_the_wheel_carries_the_app(tree_wheel: dict[str, bytes]) -> None:
    """Everything ``streamlit run`` needs, byte for byte as in the checkout."""
    app = {name.removeprefix(APP_IN_WHEEL) for name in tree_wheel
           if name.startswith(APP_IN_WHEEL)}
    assert app == expected_app_files()
    assert {"streamlit_app.py", "app_pages/rules.py", "static/manifest.webmanifest"} <= app
    for name in app:
        assert tree_wheel[APP_IN_WHEEL + name] == (ROOT / name).read_bytes(), name


def test_the_wheel_holds_every_package_file_and_no_other_top_level(
        tree_wheel: dict[str, bytes]) -> None:
    """Each tracked file of each package (modules, catalogs, solver tables) is in the wheel;
    beside the packages there is only the dist-info: a ``streamlit_app.py`` at the top would
    make ``serving.start.app_root`` take site-packages for a checkout."""
    tops = {name.split("/", 1)[0] + "/" for name in tree_wheel}
    assert tops == {f"{package}/" for package in PACKAGES} | {DIST_INFO}
    for name in tracked_files():
        if name.split("/", 1)[0] in PACKAGES:
            assert tree_wheel.get(name) == (ROOT / name).read_bytes(), name


def test_every_package_is_typed(tree_wheel: dict[str, bytes]) -> None:
    """PEP 561: a ``py.typed`` marker in each top-level package, in the checkout and wheel."""
    for package in PACKAGES:
        assert (ROOT / package / "py.typed").is_file(), package
        assert f"{package}/py.typed" in tree_wheel, package


def test_the_licence_is_in_the_repository_and_the_wheel(tree_wheel: dict[str, bytes]) -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n")
    assert "Copyright (c) 2026 the Perudo Coach authors" in licence
    assert tree_wheel[DIST_INFO + "licenses/LICENSE"] == (ROOT / "LICENSE").read_bytes()
    meta = metadata(tree_wheel)
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]


def test_the_metadata_describes_the_project(tree_wheel: dict[str, bytes]) -> None:
    """Valid trove classifiers (PyPI refuses others), each Python version named one that
    Requires-Python allows, and keywords."""
    from trove_classifiers import classifiers as known

    meta = metadata(tree_wheel)
    classifiers = meta.get_all("Classifier")
    assert [c for c in classifiers if c not in known] == []
    assert {"Typing :: Typed", "Topic :: Games/Entertainment",
            "Environment :: Web Environment", "Intended Audience :: End Users/Desktop",
            "Operating System :: OS Independent"} <= set(classifiers)
    allowed = SpecifierSet(meta["Requires-Python"])
    versions = [c.rsplit(" :: ", 1)[1] for c in classifiers
                if c.startswith("Programming Language :: Python :: 3.")]
    assert versions == ["3.11", "3.12", "3.13"]
    assert all(allowed.contains(f"{version}.0") for version in versions)
    assert {"perudo", "dudo", "odds"} <= set(meta["Keywords"].split(","))
    assert meta["Name"] == "perudo-coach" and meta["Summary"]


def test_the_build_requirements_are_the_pinned_test_extras() -> None:
    """The packaging tests build offline with the test extras' setuptools: the same versions
    a user's isolated build downloads from ``[build-system]``."""
    extras = {Requirement(line).name: str(Requirement(line).specifier)
              for line in PYPROJECT["project"]["optional-dependencies"]["test"]}
    assert build_pins()
    for name, version in build_pins().items():
        assert extras.get(name) == f"=={version}", name


# --- The sdist -------------------------------------------------------------------------------


def test_the_sdist_builds_the_same_wheel(tree_wheel: dict[str, bytes],
                                         tmp_path: Path) -> None:
    """The wheel built from the unpacked sdist has the same files with the same bytes."""
    sdist = build_sdist(clean_copy(tmp_path / "source"), tmp_path / "sdist")
    unpacked = unpack_sdist(sdist, tmp_path / "unpacked")
    assert (unpacked / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    assert (unpacked / "README.md").is_file()
    assert not (unpacked / "tests").exists()
    from_sdist = wheel_contents(build_wheel(unpacked, tmp_path / "dist"))
    assert sorted(from_sdist) == sorted(tree_wheel)
    assert [name for name in tree_wheel if from_sdist[name] != tree_wheel[name]] == []


# --- make install ----------------------------------------------------------------------------


def test_an_editable_install_runs_the_app_from_the_checkout(tmp_path: Path) -> None:
    """``make install`` (``pip install -e``) copies no app into the wheel nor the checkout:
    ``perudo-coach run`` serves the checkout's own files."""
    require_build_tools()
    source = clean_copy(tmp_path / "source")
    editable = build_editable(source, tmp_path / "dist")
    assert not [name for name in wheel_contents(editable) if APP_IN_WHEEL in name]
    assert not (source / "serving" / "app").exists()
    install_in_venv(editable, tmp_path / "venv")
    shown = subprocess.run(
        [str(tmp_path / "venv" / "bin" / "python"), "-c",
         "import serving.start as s, views; print(s.app_root()); print(views.__file__)"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    ).stdout.split()
    checkout = source.resolve()
    assert [Path(line) for line in shown] == [checkout, checkout / "views" / "__init__.py"]
