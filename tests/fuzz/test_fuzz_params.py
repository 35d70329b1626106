"""Arbitrary query parameters on every page (AppTest): the page draws, with no exception
element; a bad shared parameter (rules, game, seat) shows its notice.

Each example runs the whole app, so the default run is small; ``FUZZ_EXAMPLES=200 pytest
tests/fuzz`` searches longer.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from perudo_math import SETTINGS, GameState
from tests.app.conftest import ENTRY
from views import url_state

pytestmark = pytest.mark.fuzz

PAGES = ["app_pages/odds.py", "app_pages/tracker.py", "app_pages/rules.py",
         "app_pages/practice.py", "app_pages/drills.py", "app_pages/progress.py",
         "app_pages/settings.py"]
NAMES = [url_state.LANG_PARAM, url_state.GAME_PARAM, url_state.SEAT_PARAM,
         url_state.PROFILE_PARAM, "seed", "theme", "level",
         *(setting.short for setting in SETTINGS)]
GAME = GameState.new(["Ann", "Bob", "Cid"]).bid("3x4").to_code()
VALUES = st.one_of(
    st.sampled_from(["", "²", "٣", "-1", "1", "0", "2", "fr", "en", "1e9", "nan",
                     "9223372036854775807x4", "7" * 5000, "x" * 100_000, GAME, GAME[:-3],
                     "any-face", "calza", "palifico", "%00", "<b>", "[x](http://e.com)"]),
    st.integers(-10**30, 10**30).map(str),
    st.text(max_size=20),
)
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "4"))


@pytest.mark.parametrize("page", PAGES)
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow,
                                                        HealthCheck.function_scoped_fixture])
@given(params=st.dictionaries(st.sampled_from(NAMES) | st.text(max_size=8), VALUES,
                              max_size=5))
def test_any_parameters_on_any_page(page, params):
    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.context = {"locale": "fr-FR"}
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception, (params, [e.message for e in at.exception])
    assert at.title, params  # the page drew


def test_a_bad_shared_parameter_says_so():
    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.query_params.update(game=GAME, me="²", dice="٣")
    at.run()
    notices = " ".join(warning.value for warning in at.warning)
    assert not at.exception
    assert "player number" in notices and "rules link" in notices, notices
