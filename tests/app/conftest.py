"""AppTest fixtures: the whole app from its entry script, as a browser would run it."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "streamlit_app.py"
FIRST_RUN_TIMEOUT_S = 60
"""The first run imports numpy, pandas and altair; later runs take milliseconds."""


@pytest.fixture
def app() -> AppTest:
    """The app for an English-speaking browser, not yet run."""
    at = AppTest.from_file(ENTRY, default_timeout=FIRST_RUN_TIMEOUT_S)
    at.context = {"locale": "en-US"}
    return at
