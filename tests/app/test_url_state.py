"""Rule settings to and from URL parameters."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo_math import PalificoRule, RaiseRule, Rules
from views.url_state import rules_from_params, rules_to_params

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


@given(rules_strategy)
def test_rules_round_trip_through_the_url(rules: Rules):
    assert rules_from_params(rules_to_params(rules)) == rules


def test_defaults_write_nothing():
    assert rules_to_params(Rules()) == {}


def test_only_changed_settings_are_written():
    assert rules_to_params(Rules(raise_rule="any-face", calza=False)) == {
        "raise": "any-face", "calza": "0"}


@pytest.mark.parametrize("params", [{"dice": "0"}, {"dice": "x"}, {"raise": "up"},
                                    {"salsa": "yes"}, {"palifico": "never"}])
def test_bad_values_raise_value_error(params):
    with pytest.raises(ValueError):
        rules_from_params(params)


def test_unrelated_parameters_are_ignored():
    assert rules_from_params({"lang": "fr", "game": "g1.x"}) == Rules()


def test_a_tampered_game_link_gives_a_notice_and_a_fresh_start(app):
    from perudo_math import GameState

    code = GameState.new(["Ann", "Bob"]).bid("3x4").to_code()
    app.query_params["game"] = code[:-2] + ("A" if code[-2] != "A" else "B") + code[-1]
    app.run()
    assert not app.exception
    assert any("damaged" in warning.value for warning in app.warning)
    assert "game" not in app.query_params


def test_a_good_game_link_is_kept(app):
    from perudo_math import GameState

    code = GameState.new(["Ann", "Bob"]).bid("3x4").to_code()
    app.query_params["game"] = code
    app.query_params["raise"] = "any-face"
    app.run()
    assert not app.exception and not app.warning
    assert app.query_params["game"] == code
    assert app.query_params["raise"] == "any-face"


def test_a_bad_rules_link_falls_back_to_the_defaults_in_french(app):
    app.query_params["lang"] = "fr"
    app.query_params["raise"] = "up"
    app.run()
    assert not app.exception
    assert any("règles par défaut" in warning.value for warning in app.warning)
    assert "raise" not in app.query_params


def test_my_seat_is_kept_with_the_game_and_dropped_without_it(app):
    from perudo_math import GameState

    app.query_params["game"] = GameState.new(["Ann", "Bob", "Cid"]).to_code()
    app.query_params["me"] = "2"
    app.run()
    assert app.query_params["me"] == "2"
    alone = app.__class__.from_file(app._script_path, default_timeout=60)
    alone.query_params["me"] = "1"
    alone.run()
    assert "me" not in alone.query_params
