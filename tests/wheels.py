"""Building the wheel and the sdist as a user would, offline, and installing a wheel into a
virtualenv of its own.

Builds start from a clean copy of the tracked files (``git ls-files``), never from the
working directory, so no stray ``build/`` or ``*.egg-info`` of a developer's takes part. They
run without build isolation on this environment's setuptools (pinned in the test extras as
in ``[build-system]``) and nothing is downloaded: pip runs with ``--no-index``, and
setuptools checks the classifiers against the installed ``trove-classifiers`` instead of
fetching PyPI's list.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
BUILD_TIMEOUT_S = 300
OFFLINE = {"VALIDATE_PYPROJECT_NO_NETWORK": "1", "PIP_NO_INDEX": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
"""Belt and braces: neither pip nor setuptools' pyproject validation goes to the network."""


def build_pins() -> dict[str, str]:
    """``[build-system] requires`` as name → pinned version."""
    pins = {}
    for line in PYPROJECT["build-system"]["requires"]:
        requirement = Requirement(line)
        (spec,) = requirement.specifier
        pins[requirement.name] = spec.version
    return pins


def require_build_tools() -> None:
    """Skip (fail under CI) unless the build requirements are installed at their pins:
    ``make install`` installs them with the test extras."""
    wrong = []
    for name, version in build_pins().items():
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            installed = "missing"
        if installed != version:
            wrong.append(f"{name} {installed} (the build needs {version})")
    if not wrong:
        return
    message = f"{', '.join(wrong)}: run `make install`"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set: the packaging tests must run)", pytrace=False)
    pytest.skip(message)


def tracked_files() -> list[str]:
    """The files git tracks in the checkout (as they are in the working tree)."""
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode()
    return [name for name in listing.split("\0") if name and (ROOT / name).is_file()]


def clean_copy(destination: Path) -> Path:
    """A copy of the tracked files in ``destination``, as a fresh clone would have them."""
    for name in tracked_files():
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    return destination


def _run(command: list[str], cwd: Path) -> str:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                            env={**os.environ, **OFFLINE}, timeout=BUILD_TIMEOUT_S, check=False)
    assert result.returncode == 0, f"{' '.join(command)}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def _backend(hook: str, source: Path, out: Path) -> Path:
    """Call the PEP 517 ``hook`` of setuptools in ``source``, as a build frontend would."""
    out.mkdir(parents=True, exist_ok=True)
    code = ("import sys\nfrom setuptools import build_meta\n"
            f"print(build_meta.{hook}(sys.argv[1]))")
    name = _run([sys.executable, "-c", code, str(out)], source).strip().splitlines()[-1]
    return out / name


def build_wheel(source: Path, out: Path) -> Path:
    """``pip wheel`` of the project in ``source`` (what ``pip install .`` builds)."""
    _run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
          "--no-index", "--wheel-dir", str(out), str(source)], out.parent)
    (wheel,) = out.glob("perudo_coach-*.whl")
    return wheel


def build_sdist(source: Path, out: Path) -> Path:
    return _backend("build_sdist", source, out)


def build_editable(source: Path, out: Path) -> Path:
    """The wheel ``pip install -e`` (``make install``) builds and installs."""
    return _backend("build_editable", source, out)


def unpack_sdist(sdist: Path, destination: Path) -> Path:
    """The sdist's files in ``destination``; returns its one top folder."""
    with tarfile.open(sdist) as archive:
        archive.extractall(destination, filter="data")
    (top,) = destination.iterdir()
    return top


def wheel_contents(wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def dependency_dirs() -> list[str]:
    """The site-packages folders this interpreter imports the app's dependencies from."""
    return [entry for entry in sys.path if Path(entry).name == "site-packages"]


def install_in_venv(wheel: Path, venv: Path) -> Path:
    """A new virtualenv at ``venv`` with ``wheel`` installed (no download); the app's
    dependencies come from this environment through a ``.pth`` file, added after the install
    so that pip sees no other copy of the project. Returns the venv's site-packages.

    The ``.pth`` file only appends folders: the ``.pth`` files inside them (the editable
    install of a checkout among them) are not run, so the project is imported from the
    wheel's copy alone.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=BUILD_TIMEOUT_S)
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
          "--no-index", str(wheel)], venv)
    site_packages = Path(_run([str(python), "-c", "import sysconfig; "
                               "print(sysconfig.get_path('purelib'))"], venv).strip())
    (site_packages / "_perudo_test_dependencies.pth").write_text(
        "".join(f"{entry}\n" for entry in dependency_dirs()), encoding="utf-8")
    return site_packages
