"""The Odds page through AppTest: inputs, published odds, languages and inline errors."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from perudo_math import Bid, odds
from ui.i18n import format_percent
from ui.widgets import MAX_HAND_DICE

PUBLISHED_HAND = [1, 2, 2, 5, 6]


def tap(at: AppTest, faces: list[int]) -> AppTest:
    for face in faces:
        at.button(key=f"odds_add_{face}").click().run()
    return at


def set_inputs(
    at: AppTest, *, dice: int = 20, quantity: int = 5, face: int = 4, palifico: bool = False
) -> AppTest:
    at.number_input(key="odds_dice").set_value(dice)
    at.number_input(key="odds_qty").set_value(quantity)
    at.segmented_control(key="odds_face").set_value(face)
    at.segmented_control(key="odds_round").set_value("palifico" if palifico else "normal")
    return at.run()


def metrics(at: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


def texts(at: AppTest) -> list[str]:
    return [element.value for element in (*at.markdown, *at.caption)]


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]


def test_default_render(app: AppTest) -> None:
    app.run()
    assert_clean(app)
    assert app.title[0].value == "Odds of a bid"
    assert app.number_input(key="odds_dice").value == 20
    assert app.segmented_control(key="odds_face").value == 4
    assert app.segmented_control(key="odds_round").value == "normal"
    assert len(app.metric) == 2
    assert not app.error
    assert app.query_params["lang"] == "en"


def test_published_odds_of_five_fours(app: AppTest) -> None:
    app.run()
    tap(app, PUBLISHED_HAND)
    set_inputs(app, dice=20, quantity=5, face=4)
    assert_clean(app)
    assert metrics(app)["True: at least 5"] == "79.1%"
    assert metrics(app)["Exactly 5 (calza)"] == format_percent(
        odds(Bid(5, 4), PUBLISHED_HAND, 20).exactly, "en"
    )
    assert "5 dice: P 2 2 5 6" in texts(app)
    assert "20 dice on the table: about 6.0 fours, pacos included." in texts(app)
    assert app.subheader[0].value == "Bid 5 × 4"


def test_palifico_changes_the_odds(app: AppTest) -> None:
    app.run()
    tap(app, PUBLISHED_HAND)
    set_inputs(app, palifico=True)
    assert_clean(app)
    expected = format_percent(odds(Bid(5, 4), PUBLISHED_HAND, 20, palifico=True).at_least, "en")
    assert metrics(app)["True: at least 5"] == expected != "79.1%"
    assert any("pacos are not jokers" in text for text in texts(app))


def test_hand_larger_than_the_table_is_an_inline_error(app: AppTest) -> None:
    app.run()
    tap(app, PUBLISHED_HAND)
    set_inputs(app, dice=3)
    assert_clean(app)
    assert len(app.error) == 1
    assert app.error[0].value.startswith("You entered 5 dice, but there are only 3 dice on")
    assert not app.metric


def test_a_single_die_table_reads_in_the_singular(app: AppTest) -> None:
    app.run()
    tap(app, [3, 3])
    set_inputs(app, dice=1)
    assert "only 1 die on the table" in app.error[0].value


def test_bid_above_the_table_is_certainly_false(app: AppTest) -> None:
    app.run()
    set_inputs(app, dice=4, quantity=6, face=3)
    assert_clean(app)
    assert app.warning[0].value == (
        "6 × 3 claims more dice than there are on the table (4): it is certainly false."
    )
    assert metrics(app)["True: at least 6"] == "0%"
    assert metrics(app)["Exactly 6 (calza)"] == "0%"


@pytest.mark.parametrize(("palifico", "noted"), [(False, True), (True, False)])
def test_opening_on_pacos_is_noted_in_a_normal_round(
    app: AppTest, palifico: bool, noted: bool
) -> None:
    app.run()
    set_inputs(app, quantity=3, face=1, palifico=palifico)
    assert_clean(app)
    assert bool(app.info) is noted
    assert metrics(app)["True: at least 3"] == format_percent(
        odds(Bid(3, 1), [], 20, palifico=palifico).at_least, "en"
    )
    assert any("about 3.3 pacos." in text for text in texts(app))


def test_remove_last_and_clear(app: AppTest) -> None:
    app.run()
    tap(app, [6, 5, 4])
    app.button(key="odds_undo").click().run()
    assert "2 dice: 5 6" in texts(app)
    app.button(key="odds_clear").click().run()
    assert app.session_state["odds_hand"] == []
    assert app.button(key="odds_undo").disabled


def test_the_cup_is_capped(app: AppTest) -> None:
    app.run()
    tap(app, [2] * MAX_HAND_DICE)
    assert app.session_state["odds_hand"] == [2] * MAX_HAND_DICE
    assert all(app.button(key=f"odds_add_{face}").disabled for face in range(1, 7))
    assert not app.button(key="odds_undo").disabled


def test_french_from_the_query_parameter(app: AppTest) -> None:
    app.query_params["lang"] = "fr"
    app.run()
    assert_clean(app)
    assert app.title[0].value == "Probabilité d'une annonce"
    tap(app, PUBLISHED_HAND)
    set_inputs(app)
    assert metrics(app)["Vraie\u00a0: au moins 5"] == "79,1\u202f%"
    assert "20 dés sur la table\u00a0: environ 6,0 quatre, pacos compris." in texts(app)
    assert app.query_params["lang"] == "fr"


@pytest.mark.parametrize(
    ("locale", "title"),
    [
        ("fr-FR", "Probabilité d'une annonce"),
        ("fr", "Probabilité d'une annonce"),
        ("fr-CA", "Probabilité d'une annonce"),
        ("en-GB", "Odds of a bid"),
        ("de-DE", "Odds of a bid"),
        (None, "Odds of a bid"),
    ],
)
def test_language_follows_the_browser_locale(app: AppTest, locale: str | None, title: str) -> None:
    app.context = {"locale": locale}
    app.run()
    assert app.title[0].value == title


def test_the_query_parameter_beats_the_locale(app: AppTest) -> None:
    app.context = {"locale": "fr-FR"}
    app.query_params["lang"] = "en"
    app.run()
    assert app.title[0].value == "Odds of a bid"


def test_an_unknown_language_falls_back_to_the_locale(app: AppTest) -> None:
    app.context = {"locale": "fr-BE"}
    app.query_params["lang"] = "xx"
    app.run()
    assert app.title[0].value == "Probabilité d'une annonce"
    assert app.query_params["lang"] == "fr"


def test_the_switch_changes_language_and_keeps_the_inputs(app: AppTest) -> None:
    app.run()
    tap(app, PUBLISHED_HAND)
    set_inputs(app, quantity=6, face=5)
    app.segmented_control(key="ui_lang").set_value("fr").run()
    assert_clean(app)
    assert app.title[0].value == "Probabilité d'une annonce"
    assert app.query_params["lang"] == "fr"
    assert app.session_state["odds_hand"] == PUBLISHED_HAND
    assert app.number_input(key="odds_qty").value == 6
    assert app.segmented_control(key="odds_face").value == 5
    app.segmented_control(key="ui_lang").set_value("en").run()
    assert app.title[0].value == "Odds of a bid"
    assert app.query_params["lang"] == "en"
