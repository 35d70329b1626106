"""Build hook: a wheel carries the app itself, not only its packages.

The checkout keeps the app at its root (``streamlit_app.py``, ``app_pages/``, ``static/``,
``.streamlit/config.toml``; ``docs/RULES.md`` beside them), where ``streamlit run`` and
Streamlit Community Cloud expect it. A wheel has no root of its own, so ``build_py`` copies
those files into ``serving/app/``, where ``serving.start.app_root`` finds them when no
checkout sits next to the packages (``perudo-coach run`` from an installed copy).
An editable install (``make install``) runs the app from the checkout, which
``app_root`` looks at first.
Everything else about the project is in ``pyproject.toml``; ``MANIFEST.in`` puts the same
files in the sdist, so the sdist builds the same wheel.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
APP_FILES = ("streamlit_app.py", "app_pages/*.py", "static/*", ".streamlit/config.toml",
             "docs/RULES.md")
"""What ``serving/app/`` holds, as patterns relative to the project root."""
APP_DIR = Path("serving", "app")


def app_files() -> list[Path]:
    """The app's files, relative to the root, sorted (a missing one fails the build)."""
    found: list[Path] = []
    for pattern in APP_FILES:
        matches = sorted(path.relative_to(ROOT) for path in ROOT.glob(pattern) if path.is_file())
        if not matches:
            raise FileNotFoundError(f"the app's {pattern} is missing from {ROOT}")
        found += matches
    return found


class BuildPyWithApp(build_py):
    """``build_py``, plus a copy of the app in ``serving/app/``."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / APP_DIR
        shutil.rmtree(target, ignore_errors=True)  # no file left over from an older build
        for relative in app_files():
            destination = target / relative
            self.mkpath(str(destination.parent))
            self.copy_file(str(ROOT / relative), str(destination), preserve_mode=False)


setup(cmdclass={"build_py": BuildPyWithApp})
