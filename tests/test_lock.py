"""The lock `make install` installs from (issue 29, point 7): every package of the tree, with
hashes, agreeing with the top-level pins of pyproject.toml and requirements/tools.in. After a
pin changes, `make lock` rewrites it; these tests say when that was forgotten."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "lock.txt"
TOOLS = ROOT / "requirements" / "tools.in"
ENTRY = re.compile(r"(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;\\]+)")


def locked() -> dict[str, tuple[str, list[str]]]:
    """Each package of the lock: its version and the hashes of its files."""
    packages: dict[str, tuple[str, list[str]]] = {}
    hashes: list[str] = []
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if line.startswith(("#", " ")) or not line:
            hashes.extend(re.findall(r"--hash=(sha256:[0-9a-f]{64})", line))
            continue
        entry = ENTRY.match(line)
        assert entry, f"not a pinned package: {line!r}"
        hashes = []
        packages[canonicalize_name(entry["name"])] = (entry["version"], hashes)
    return packages


def top_level_pins() -> dict[str, str]:
    """The exact pins of pyproject.toml (the `test` extra included) and tools.in."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    lines += [line for line in TOOLS.read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    pins = {}
    for line in lines:
        requirement = Requirement(line)
        (spec,) = requirement.specifier
        assert spec.operator == "==", f"not pinned exactly: {line!r}"
        pins[canonicalize_name(requirement.name)] = spec.version
    return pins


def test_every_top_level_pin_is_locked_at_its_version() -> None:
    packages = locked()
    pins = top_level_pins()
    assert {"streamlit", "pytest", "platformdirs", "cryptography", "setuptools"} <= set(pins)
    stale = {name: (version, packages.get(name, ("missing",))[0])
             for name, version in pins.items()
             if packages.get(name, ("missing",))[0] != version}
    assert not stale, f"run `make lock`: pinned vs locked {stale}"


def test_every_locked_package_has_hashes() -> None:
    packages = locked()
    assert len(packages) > 40  # the whole tree, not the top level alone
    assert not [name for name, (_, hashes) in packages.items() if not hashes]


def test_the_lock_holds_what_builds_the_project() -> None:
    """`make install` builds the project with the lock's packages (no build isolation): each
    of ``[build-system] requires`` is locked at a version it allows."""
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    requirements = [Requirement(line) for line in build["requires"]]
    assert "setuptools" in {requirement.name for requirement in requirements}
    packages = locked()
    assert [str(requirement) for requirement in requirements
            if requirement.name not in packages
            or not requirement.specifier.contains(packages[requirement.name][0])] == []
