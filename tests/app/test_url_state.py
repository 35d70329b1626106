"""The URL and its one owner, ``views.url_state``: each kind of value parsed strictly, hostile
links refused with a notice and never an exception, the shared state kept across page switches,
and no other module touching ``st.query_params``."""

from __future__ import annotations

import ast
import contextlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from perudo_math import GameState, PalificoRule, RaiseRule, Rules
from perudo_math.rules import SETTINGS
from views import url_state
from views.i18n import translate
from views.url_state import (
    choice,
    game_code,
    rules_from_params,
    rules_to_params,
    seat,
    token,
    whole_number,
)

ROOT = Path(__file__).resolve().parents[2]
UI_SOURCES = sorted(
    [ROOT / "streamlit_app.py", *(ROOT / "app_pages").glob("*.py"), *(ROOT / "views").glob("*.py")]
)
PRACTICE = "app_pages/practice.py"
DRILLS = "app_pages/drills.py"
SETTINGS_PAGE = "app_pages/settings.py"
TRACKER = "app_pages/tracker.py"

SUPERSCRIPT_TWO = "²"
"""A Unicode digit: ``"²".isdigit()`` is true, ``int("²")`` raises."""
THOUSANDS_OF_DIGITS = "7" * 5_000
"""Longer than Python's limit for turning text into an int (4,300 digits)."""
HUNDRED_KB = "1" * 100_000
HOSTILE = (SUPERSCRIPT_TWO, THOUSANDS_OF_DIGITS, HUNDRED_KB)
HOSTILE_IDS = ("unicode-digit", "5000-digits", "100kB")

rules_strategy = st.builds(
    Rules,
    starting_dice=st.integers(1, 10),
    raise_rule=st.sampled_from(list(RaiseRule)),
    palifico=st.sampled_from(list(PalificoRule)),
    palifico_one_die_may_change_face=st.booleans(),
    salsa=st.booleans(),
    calza=st.booleans(),
    calza_out_of_turn=st.booleans(),
    calza_heads_up=st.booleans(),
)


def a_game(players: int = 3) -> GameState:
    return GameState.new(["Ann", "Bob", "Cid", "Dan"][:players]).bid("3x4")


# --- one parse function per kind ------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["", "-1", "+1", " 1", "1 ", "1.0", "0x1", "٣", SUPERSCRIPT_TWO, "11", "0011",
             THOUSANDS_OF_DIGITS, HUNDRED_KB])
def test_a_whole_number_is_ascii_digits_in_range(text: str) -> None:
    with pytest.raises(ValueError):
        whole_number(1, 10)(text)


def test_a_whole_number_takes_its_bounds() -> None:
    parse = whole_number(1, 10)
    assert [parse(text) for text in ("1", "01", "10")] == [1, 1, 10]
    with pytest.raises(ValueError, match="0 is not from 1 to 10"):
        parse("0")


@given(st.text())
def test_parsing_any_text_gives_a_value_or_value_error(text: str) -> None:
    for parse in (whole_number(0, 10**12), choice(("a", "b")), seat(4), game_code, token):
        with contextlib.suppress(ValueError):
            parse(text)


@given(st.integers(0, 10**12))
def test_every_whole_number_in_range_reads_back(number: int) -> None:
    assert whole_number(0, 10**12)(str(number)) == number


def test_a_seat_is_one_of_the_players() -> None:
    assert [seat(3)(text) for text in ("0", "1", "2")] == [0, 1, 2]
    for text in ("3", "-1", SUPERSCRIPT_TWO, "٠"):
        with pytest.raises(ValueError):
            seat(3)(text)


def test_a_choice_is_written_exactly() -> None:
    assert choice(("same-face", "any-face"))("any-face") == "any-face"
    for text in ("Any-face", "any-face ", "", HUNDRED_KB):
        with pytest.raises(ValueError):
            choice(("same-face", "any-face"))(text)


def test_a_game_code_round_trips_and_an_oversized_one_is_refused_unread() -> None:
    game = a_game()
    assert game_code(game.to_code()) == game
    with pytest.raises(ValueError, match="at most"):
        game_code("g1." + "A" * url_state.MAX_CODE_LENGTH)


def test_a_token_is_a_token() -> None:
    assert token(" " + "A" * 22 + " ") == "A" * 22
    for text in ("short", "<script>", "A" * 65, HUNDRED_KB):
        with pytest.raises(ValueError):
            token(text)


# --- the rules, from SETTINGS ---------------------------------------------------------------


@given(rules_strategy)
def test_rules_round_trip_through_the_url(rules: Rules) -> None:
    assert rules_from_params(rules_to_params(rules)) == rules


def test_defaults_write_nothing() -> None:
    assert rules_to_params(Rules()) == {}


def test_only_changed_settings_are_written() -> None:
    assert rules_to_params(Rules(raise_rule="any-face", calza=False)) == {
        "raise": "any-face", "calza": "0"}


def test_every_setting_has_its_own_parameter() -> None:
    shorts = [setting.short for setting in SETTINGS]
    assert len(set(shorts)) == len(shorts)
    shared = {url_state.LANG_PARAM, url_state.GAME_PARAM, url_state.SEAT_PARAM,
              url_state.PROFILE_PARAM}
    assert not shared & set(shorts)


@pytest.mark.parametrize("params", [{"dice": "0"}, {"dice": "x"}, {"dice": SUPERSCRIPT_TWO},
                                    {"dice": THOUSANDS_OF_DIGITS}, {"raise": "up"},
                                    {"salsa": "yes"}, {"palifico": "never"}])
def test_bad_values_raise_value_error(params: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        rules_from_params(params)


def test_unrelated_parameters_are_ignored() -> None:
    assert rules_from_params({"lang": "fr", "game": "g1.x"}) == Rules()


# --- a tracked game as its link writes it (what views.resume keeps) -------------------------


@given(rules_strategy, st.integers(2, 4), st.one_of(st.none(), st.integers(0, 3)))
def test_a_game_reads_back_from_its_parameters(rules: Rules, players: int,
                                                me: int | None) -> None:
    game = a_game(players)
    params = {**rules_to_params(rules), "game": game.to_code()}
    if me is not None and me < players:
        params["me"] = str(me)
    assert url_state.read_game(params) == (
        game, me if me is not None and me < players else None, rules)


@pytest.mark.parametrize("params", [
    {}, {"me": "1"}, {"game": "g1.damaged"}, {"game": HUNDRED_KB},
    {"game": a_game().to_code(), "me": "3"}, {"game": a_game().to_code(), "me": SUPERSCRIPT_TWO},
    {"game": a_game().to_code(), "dice": "0"}, {"game": a_game().to_code(), "lang": "fr"},
    {"game": a_game().to_code(), "profile": "A" * 22}, {"game": a_game().to_code(), "x": "1"},
    {"game": a_game().to_code(), "raise": THOUSANDS_OF_DIGITS},
])
def test_a_game_that_does_not_read_is_refused(params: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        url_state.read_game(params)


# --- links in the app: hostile values get a notice, never an exception -----------------------


def notices(at: AppTest) -> list[str]:
    return [warning.value for warning in at.warning]


def assert_no_exception(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]


def open_with(at: AppTest, page: str | None = None, **params: str) -> list[str]:
    """Open a link with ``params`` (then ``page``); the notices of the link's first run."""
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert_no_exception(at)
    shown = notices(at)
    if page is not None:
        at.switch_page(page).run()
        assert_no_exception(at)
    return shown


@pytest.mark.parametrize("value", HOSTILE, ids=HOSTILE_IDS)
def test_a_hostile_seat_is_refused_with_a_notice(app: AppTest, value: str) -> None:
    game = a_game()
    shown = open_with(app, TRACKER, game=game.to_code(), me=value)
    assert shown == [translate("en", "notice.bad_seat_link")]
    assert "me" not in app.query_params
    assert app.query_params["game"] == game.to_code()  # the game itself is fine
    app.pills(key="tracker_panel").set_value("game").run()
    assert app.selectbox(key="tracker_iam").value == -1  # nobody: choose again


def test_a_seat_beyond_the_table_is_refused_with_a_notice(app: AppTest) -> None:
    shown = open_with(app, game=a_game(players=3).to_code(), me="3")
    assert shown == [translate("en", "notice.bad_seat_link")]
    assert "me" not in app.query_params


@pytest.mark.parametrize("value", HOSTILE, ids=HOSTILE_IDS)
def test_a_hostile_whole_number_is_refused_with_a_notice(app: AppTest, value: str) -> None:
    shown = open_with(app, dice=value, salsa="1")
    assert shown == [translate("en", "notice.bad_rules_link")]
    assert "dice" not in app.query_params and "salsa" not in app.query_params  # the defaults


@pytest.mark.parametrize("param", ["seed", "level"])
@pytest.mark.parametrize("value", HOSTILE, ids=HOSTILE_IDS)
def test_a_hostile_scenario_number_is_refused_with_a_notice(
    app: AppTest, param: str, value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERUDO_COACH_DB", str(tmp_path / "progress.sqlite3"))
    params = {"seed": "123", "theme": "palifico", "level": "2", param: value}
    open_with(app, PRACTICE, **params)
    assert notices(app)[0] == translate("en", "practice.notice.bad_link")
    assert app.query_params[param] != value  # a new scenario, written back
    assert app.query_params["seed"] != "123"


@pytest.mark.parametrize("value", ["up", HUNDRED_KB], ids=["unknown", "100kB"])
def test_a_hostile_choice_is_refused_with_a_notice(app: AppTest, value: str) -> None:
    shown = open_with(app, SETTINGS_PAGE, **{"raise": value})
    assert shown == [translate("en", "notice.bad_rules_link")]
    assert app.segmented_control(key="settings_raise_rule").value == "same-face"


@pytest.mark.parametrize("value", ["g1.not-a-game", HUNDRED_KB], ids=["damaged", "100kB"])
def test_a_hostile_game_code_is_refused_with_a_notice(app: AppTest, value: str) -> None:
    shown = open_with(app, TRACKER, game=value, me="1")
    assert shown == [translate("en", "notice.bad_game_link")]
    assert "game" not in app.query_params and "me" not in app.query_params
    assert app.title[0].value == "Game tracker"


@pytest.mark.parametrize("value", ["<script>", HUNDRED_KB], ids=["markup", "100kB"])
def test_a_hostile_token_is_refused_with_the_profile_banner(
    app: AppTest, value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERUDO_COACH_DB", str(tmp_path / "progress.sqlite3"))
    open_with(app, DRILLS, profile=value)
    assert notices(app) == [translate("en", "profile.malformed")]
    assert "profile" not in app.query_params
    app.button(key="profile_continue").click().run()
    assert_no_exception(app)
    assert not notices(app) and "profile_start" in {button.key for button in app.button}


def test_a_hostile_language_falls_back_to_the_browser_quietly(app: AppTest) -> None:
    app.context = {"locale": "fr-FR"}
    assert open_with(app, lang=HUNDRED_KB) == []
    assert app.query_params["lang"] == "fr"


def test_a_tampered_game_link_gives_a_notice_and_a_fresh_start(app: AppTest) -> None:
    code = a_game(players=2).to_code()
    app.query_params["game"] = code[:-2] + ("A" if code[-2] != "A" else "B") + code[-1]
    app.run()
    assert_no_exception(app)
    assert any("damaged" in warning for warning in notices(app))
    assert "game" not in app.query_params


def test_a_good_game_link_is_kept(app: AppTest) -> None:
    code = a_game(players=2).to_code()
    assert open_with(app, game=code, **{"raise": "any-face"}) == []
    assert app.query_params["game"] == code
    assert app.query_params["raise"] == "any-face"


def test_a_bad_rules_link_falls_back_to_the_defaults_in_french(app: AppTest) -> None:
    shown = open_with(app, lang="fr", **{"raise": "up"})
    assert shown == [translate("fr", "notice.bad_rules_link")]
    assert "règles par défaut" in shown[0]
    assert "raise" not in app.query_params


def test_my_seat_is_kept_with_the_game_and_dropped_without_it(app: AppTest) -> None:
    open_with(app, game=a_game().to_code(), me="2")
    assert app.query_params["me"] == "2"
    alone = AppTest.from_file(app._script_path, default_timeout=60)
    assert open_with(alone, me="1") == []  # no game, so no seat to read
    assert "me" not in alone.query_params


# --- page switches ----------------------------------------------------------------------------


def switch_as_a_browser_does(at: AppTest, page: str) -> AppTest:
    """A page switch from the sidebar: the browser drops every query parameter first."""
    at.query_params.clear()
    at.switch_page(page).run()
    assert_no_exception(at)
    return at


def test_page_switches_keep_the_shared_parameters_and_each_page_its_own(
    app: AppTest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERUDO_COACH_DB", str(tmp_path / "progress.sqlite3"))
    game = a_game()
    open_with(app, PRACTICE, lang="fr", game=game.to_code(), me="1", seed="123",
              theme="palifico", level="2", **{"raise": "any-face", "salsa": "1"})
    app.button(key="profile_start").click().run()
    shared = {name: app.query_params[name]
              for name in ("lang", "game", "me", "raise", "salsa", "profile")}
    scenario = {name: app.query_params[name] for name in ("seed", "theme", "level")}
    assert scenario == {"seed": "123", "theme": "palifico", "level": "2"}
    for page in (DRILLS, SETTINGS_PAGE, TRACKER, "app_pages/odds.py", "app_pages/rules.py",
                 "app_pages/progress.py"):
        switch_as_a_browser_does(app, page)
        assert {name: app.query_params.get(name) for name in shared} == shared, page
        assert not set(scenario) & set(app.query_params), page  # the practice page's own
    switch_as_a_browser_does(app, PRACTICE)
    assert {name: app.query_params[name] for name in shared} == shared
    assert {name: app.query_params[name] for name in scenario} == scenario
    assert not app.warning


def test_a_page_cannot_write_a_shared_parameter_as_its_own() -> None:
    with pytest.raises(ValueError, match="shared"):
        url_state.set_page_params({"lang": "fr"})


# --- one owner ---------------------------------------------------------------------------------


def touches_query_params(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, ast.Attribute) and node.attr == "query_params"
               for node in ast.walk(tree))


def test_only_url_state_touches_the_query_parameters() -> None:
    touching = {path.relative_to(ROOT).as_posix() for path in UI_SOURCES
                if touches_query_params(path)}
    assert touching == {"views/url_state.py"}


def sync_calls(path: Path) -> int:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sum(1 for node in ast.walk(tree)
               if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr in {"sync", "sync_language"})


def test_the_url_is_synced_once_per_run_by_the_entry_script() -> None:
    counts = {path.relative_to(ROOT).as_posix(): sync_calls(path) for path in UI_SOURCES}
    assert {path: count for path, count in counts.items() if count} == {"streamlit_app.py": 1}
