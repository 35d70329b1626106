"""AppTest fixtures: the whole app from its entry script, as a browser would run it."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from views import parts

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


@pytest.fixture(autouse=True)
def whole_runs_after_taps(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tap on the odds page or the tracker reruns the parts it changed (``st.rerun`` with
    fragment keys, :func:`views.parts.rerun_parts`). A browser merges those parts into the
    page it shows; AppTest builds its tree from one run's messages alone, and its click is a
    full run. So here the tap's run goes on as the full run it started as: the tree holds the
    whole page. The browser tests play the real partial reruns."""
    monkeypatch.setattr(parts, "rerun_parts", lambda *keys: None)
