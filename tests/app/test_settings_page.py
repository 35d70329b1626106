"""The Settings page through AppTest: every rule of docs/RULES.md, written to the URL, used by the
Odds & advice page, explained in both languages, and reset to the defaults."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from perudo_math import GameState, PalificoRule, RaiseRule, Rules
from perudo_math.rules import SETTINGS, SettingKind
from tests.app.steppers import set_stepper
from views.i18n import LANGUAGES, catalog

SETTINGS_PAGE = "app_pages/settings.py"
ODDS = "app_pages/odds.py"
SWITCHES = tuple(setting.name for setting in SETTINGS if setting.kind is SettingKind.SWITCH)
RULE_PARAMS = {setting.short for setting in SETTINGS}
WIDGETS_OF_KIND = {
    SettingKind.NUMBER: {"NumberInput"},
    SettingKind.CHOICE: {"ButtonGroup", "Radio"},  # a segmented control is a ButtonGroup
    SettingKind.SWITCH: {"Toggle"},
}


def open_settings(at: AppTest) -> AppTest:
    at.run()
    return at.switch_page(SETTINGS_PAGE).run()


def captions(at: AppTest) -> list[str]:
    return [caption.value for caption in at.caption]


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert not at.warning, [w.value for w in at.warning]


def rule_params(at: AppTest) -> dict[str, str]:
    return {name: value for name, value in at.query_params.items()
            if name in RULE_PARAMS}


def test_every_setting_shows_its_default_and_a_one_line_explanation(app: AppTest) -> None:
    open_settings(app)
    assert_clean(app)
    assert app.title[0].value == "Settings"
    assert app.number_input(key="settings_starting_dice").value == 5
    assert app.segmented_control(key="settings_raise_rule").value == "same-face"
    assert app.radio(key="settings_palifico").value == "on-drop"
    for name in SWITCHES:
        assert app.toggle(key=f"settings_{name}").value is getattr(Rules(), name)
    english = catalog("en")
    for name in ("starting_dice", "raise_rule", "palifico", *SWITCHES):
        assert english[f"settings.{name}.help"] in captions(app), name
    assert "These are the default rules." in captions(app)
    assert app.button(key="settings_reset").disabled
    assert rule_params(app) == {}


def test_the_page_is_drawn_from_settings(app: AppTest) -> None:
    """Every entry of ``perudo_math.rules.SETTINGS`` has a widget of its kind, in its order,
    with its label and explanation: a setting added there shows up here."""
    open_settings(app)
    assert_clean(app)
    drawn = [(node.key.removeprefix("settings_"), type(node).__name__) for node in app.main
             if (getattr(node, "key", None) or "").startswith("settings_")
             and node.key != "settings_reset"]
    assert [name for name, _ in drawn] == [setting.name for setting in SETTINGS]
    english = catalog("en")
    for setting, (_, widget) in zip(SETTINGS, drawn, strict=True):
        assert widget in WIDGETS_OF_KIND[setting.kind], setting.name
        element = app.main.get(
            {"NumberInput": "number_input", "ButtonGroup": "button_group", "Radio": "radio",
             "Toggle": "toggle"}[widget])
        [shown] = [e for e in element if e.key == f"settings_{setting.name}"]
        assert shown.label == english[f"settings.{setting.name}.label"]
        assert english[f"settings.{setting.name}.help"] in captions(app)
        if setting.kind is SettingKind.CHOICE:
            assert list(shown.options) == [english[f"settings.{setting.name}.{choice}"]
                                           for choice in setting.choices]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_setting_has_its_texts(lang: str) -> None:
    texts = catalog(lang)
    for setting in SETTINGS:
        keys = [f"settings.{setting.name}.{part}" for part in ("label", "help", *setting.choices)]
        assert all(key in texts for key in keys), setting.name


def test_a_switch_is_disabled_while_the_one_it_requires_is_off(app: AppTest) -> None:
    open_settings(app)
    dependants = [setting for setting in SETTINGS if setting.requires is not None]
    assert dependants  # calza out of turn and heads-up need calza
    for setting in dependants:
        assert not app.toggle(key=f"settings_{setting.name}").disabled
        app.toggle(key=f"settings_{setting.requires}").set_value(False).run()
        assert app.toggle(key=f"settings_{setting.name}").disabled
        app.toggle(key=f"settings_{setting.requires}").set_value(True).run()


@pytest.mark.parametrize(
    ("widget", "name", "value", "param", "text"),
    [
        ("number_input", "starting_dice", 3, "dice", "3"),
        ("segmented_control", "raise_rule", "any-face", "raise", "any-face"),
        ("radio", "palifico", "once-per-player", "palifico", "once-per-player"),
        ("radio", "palifico", "while-one-die", "palifico", "while-one-die"),
        ("toggle", "palifico_one_die_may_change_face", True, "onedie", "1"),
        ("toggle", "salsa", True, "salsa", "1"),
        ("toggle", "calza", False, "calza", "0"),
        ("toggle", "calza_out_of_turn", True, "calzaany", "1"),
        ("toggle", "calza_heads_up", True, "calza2", "1"),
    ],
)
def test_each_setting_goes_to_the_url(
    app: AppTest, widget: str, name: str, value: object, param: str, text: str
) -> None:
    open_settings(app)
    getattr(app, widget)(key=f"settings_{name}").set_value(value).run()
    assert_clean(app)
    assert rule_params(app) == {param: text}
    assert getattr(app, widget)(key=f"settings_{name}").value == value
    assert "1 setting differs from the defaults." in captions(app)
    assert not app.button(key="settings_reset").disabled


def test_the_options_are_the_rules_enums() -> None:
    english = catalog("en")
    for rule in RaiseRule:
        assert f"settings.raise_rule.{rule.value}" in english
    for rule in PalificoRule:
        assert f"settings.palifico.{rule.value}" in english


def test_calza_variants_are_disabled_without_calza(app: AppTest) -> None:
    open_settings(app)
    assert not app.toggle(key="settings_calza_out_of_turn").disabled
    app.toggle(key="settings_calza").set_value(False).run()
    assert app.toggle(key="settings_calza_out_of_turn").disabled
    assert app.toggle(key="settings_calza_heads_up").disabled
    assert not app.toggle(key="settings_salsa").disabled


def test_reset_to_defaults(app: AppTest) -> None:
    open_settings(app)
    app.segmented_control(key="settings_raise_rule").set_value("any-face").run()
    app.toggle(key="settings_salsa").set_value(True).run()
    app.number_input(key="settings_starting_dice").set_value(7).run()
    assert rule_params(app) == {"raise": "any-face", "salsa": "1", "dice": "7"}
    assert "3 settings differ from the defaults." in captions(app)
    app.button(key="settings_reset").click().run()
    assert_clean(app)
    assert rule_params(app) == {}
    assert app.segmented_control(key="settings_raise_rule").value == "same-face"
    assert app.toggle(key="settings_salsa").value is False
    assert app.number_input(key="settings_starting_dice").value == 5
    assert app.button(key="settings_reset").disabled


def test_a_rules_link_fills_the_settings(app: AppTest) -> None:
    app.query_params.update({"raise": "any-face", "calza": "0", "palifico": "while-one-die",
                             "dice": "3"})
    open_settings(app)
    assert_clean(app)
    assert app.segmented_control(key="settings_raise_rule").value == "any-face"
    assert app.toggle(key="settings_calza").value is False
    assert app.radio(key="settings_palifico").value == "while-one-die"
    assert app.number_input(key="settings_starting_dice").value == 3
    assert "4 settings differ from the defaults." in captions(app)


def test_a_setting_changes_the_legality_note_of_the_odds_page(app: AppTest) -> None:
    app.run()
    app.button(key="odds_add_4").click().run()
    app.segmented_control(key="odds_face").set_value(4).run()
    app.segmented_control(key="odds_qty").set_value(5).run()
    note = "Smallest legal raises after 5 × 4: 3 × P · 6 × 4 · 5 × 5 · 5 × 6."
    assert note in captions(app)
    app.switch_page(SETTINGS_PAGE).run()
    app.segmented_control(key="settings_raise_rule").set_value("any-face").run()
    app.switch_page(ODDS).run()
    assert_clean(app)
    assert app.query_params["raise"] == "any-face"  # the page switch keeps the rules
    assert ("Smallest legal raises after 5 × 4: 3 × P · 6 × 2 · 6 × 3 · 6 × 4 · 5 × 5 · 5 × 6."
            in captions(app))
    assert app.session_state["odds_hand"] == [4]  # and the odds page keeps its inputs


def test_turning_calza_off_changes_the_advice(app: AppTest) -> None:
    app.run()
    for face in (5, 5, 1):
        app.button(key=f"odds_add_{face}").click().run()
    set_stepper(app, "odds_dice", 6)
    set_stepper(app, "odds_players", 3)
    app.segmented_control(key="odds_face").set_value(5).run()
    app.segmented_control(key="odds_qty").set_value(4).run()
    assert any(m.value.startswith("## CALZA\n") for m in app.markdown)
    app.switch_page(SETTINGS_PAGE).run()
    app.toggle(key="settings_calza").set_value(False).run()
    app.switch_page(ODDS).run()
    assert_clean(app)
    shown = [m.value for m in app.markdown]
    assert not any(text.startswith("## CALZA\n") for text in shown)
    assert any(text.startswith("## ") for text in shown)
    assert not any("| Calza |" in text for text in shown)


def test_a_tracked_game_keeps_its_rules(app: AppTest) -> None:
    app.query_params["game"] = GameState.new(["Ann", "Bob"]).to_code()
    open_settings(app)
    assert app.info[0].value == (
        "Changes here apply to the next new game. To change a rule during the tracked game, "
        "use the Rules chip under it: the change is recorded in the game."
    )


def test_french(app: AppTest) -> None:
    app.query_params["lang"] = "fr"
    open_settings(app)
    assert_clean(app)
    assert app.title[0].value == "Réglages"
    assert app.segmented_control(key="settings_raise_rule").label == (
        "Surenchère sur une face ordinaire")
    french = catalog("fr")
    for name in ("starting_dice", "raise_rule", "palifico", *SWITCHES):
        assert french[f"settings.{name}.help"] in captions(app), name
        assert french[f"settings.{name}.help"] != catalog("en")[f"settings.{name}.help"]
    app.toggle(key="settings_salsa").set_value(True).run()
    assert "1 réglage diffère des règles par défaut." in captions(app)
    assert app.button(key="settings_reset").label == "Revenir aux règles par défaut"
