"""French as a French table speaks it: elision before names, the words of the table, typography.

The elision is a function of ``views.i18n`` (``de {name}`` → ``d'Élodie``), applied by
``translate`` to every French text; the catalog checks pin the wording issue 11 asked for.
"""

from __future__ import annotations

import re
from string import Formatter

import pytest
from streamlit.testing.v1 import AppTest

from views.i18n import (
    catalog,
    elide,
    elide_before_values,
    starts_with_vowel_sound,
    translate,
)

NBSP, NNBSP = "\u00a0", "\u202f"
FRENCH = catalog("fr")


# --- the elision function --------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["Élodie", "Alice", "Ève", "Inès", "Îlona", "Océane", "Ugo", "Émile", "Œdipe", "Ysé", "Yves",
     "Hélène", "Hugo", "Hervé", "élodie", "ÉLODIE", "Anne-Sophie"],
)
def test_names_with_a_vowel_sound_elide(name: str) -> None:
    assert starts_with_vowel_sound(name)
    assert elide("de", name) == f"d'{name}"


@pytest.mark.parametrize(
    "name",
    ["Bob", "Maëlle", "Yann", "Yolande", "Hugues", "Harry", "Hans", "H", "Y", "8 ans", "2",
     "", "-Élodie", "\\*Anne", "\u2060@Anne", "Ωmega", "李", "🎲Anne"],
)
def test_names_without_a_vowel_sound_keep_de(name: str) -> None:
    assert not starts_with_vowel_sound(name)
    assert elide("de", name) == f"de {name}"


def test_elision_keeps_the_capital_of_the_word() -> None:
    assert elide("Que", "Yves") == "Qu'Yves"
    assert elide("De", "Inès") == "D'Inès"
    assert elide("jusque", "Anne") == "jusqu'Anne"


def test_a_template_elides_before_a_value_not_before_its_own_words() -> None:
    template = "Au tour de **{name}**, après que {other} a dit {what}: de {count:d} dés"
    values = {"name": "Élodie", "other": "Yves", "what": "dudo", "count": 8}
    assert elide_before_values(template, values) == (
        "Au tour d'**{name}**, après qu'{other} a dit {what}: de {count:d} dés")
    assert elide_before_values(template, {**values, "name": "Bob", "other": "Yann"}) == (
        template)
    assert elide_before_values("mode {name} · à {name} · de {missing}",
                               {"name": "Élodie"}) == "mode {name} · à {name} · de {missing}"


def test_translate_elides_in_french_only() -> None:
    assert translate("fr", "tracker.turn.player", name="Élodie") == "Au tour d'**Élodie**"
    assert translate("fr", "tracker.turn.player", name="Hélène") == "Au tour d'**Hélène**"
    assert translate("fr", "tracker.turn.player", name="Bob") == "Au tour de **Bob**"
    assert translate("en", "tracker.turn.player", name="Élodie") == "**Élodie** to play"


def test_every_french_text_with_de_before_a_name_elides() -> None:
    """No catalog text can dodge the function: each ``de {x}`` elides before ``Élodie``."""
    formatter = Formatter()
    for key, text in FRENCH.items():
        names = {name for _, name, _, _ in formatter.parse(text) if name}
        for name in names:
            if re.search(rf"(?<!\w)(de|que) \**\{{{name}[}}:!]", text, re.IGNORECASE):
                shown = translate("fr", key, **{other: "Élodie" for other in names})
                assert not re.search(r"(?<!\w)(de|que) \**Élodie", shown, re.IGNORECASE), key


# --- the tracker in French: a turn announced with elision ----------------------------------


def test_the_tracker_announces_a_turn_with_elision(app: AppTest) -> None:
    app.query_params["lang"] = "fr"
    app.run()
    app.switch_page("app_pages/tracker.py").run()
    rows = list(app.session_state["tracker_rows"])
    for row, name in zip(rows[:3], ["Bob", "Élodie", "Yann"], strict=True):  # others stay empty
        app.text_input(key=f"tracker_name_{row}").set_value(name)
    app.run()
    app.selectbox(key="tracker_opener").set_value(rows[1]).run()
    app.button(key="tracker_start").click().run()
    assert not app.exception
    shown = "\n".join(element.value for element in app.markdown)
    shown = shown.replace("\u2068", "").replace("\u2069", "")  # the isolates around names
    assert "Au tour d'**Élodie**" in shown
    assert "Au tour de **Élodie**" not in shown


# --- the words of a French table -------------------------------------------------------------


def fr(key: str, **params: object) -> str:
    return translate("fr", key, **params)


def test_the_words_issue_11_asked_for() -> None:
    assert fr("advice.action.raise", bid="7 × 5") == "ANNONCEZ 7 × 5"
    assert fr("advice.mix.raise", bid="7 × 5") == "Annoncez 7 × 5"
    assert fr("advice.mix.open", bid="3 × 4") == "Ouvrez à 3 × 4"
    assert "n'a que 21 % de chances d'être vraie" in fr(
        "advice.reason.dudo-unlikely", bid="7 × 2", p_true="21 %", expected="4,3", faces="2")
    assert fr("odds.result.expected.jokers", table="24 dés sur la table", expected="8,7",
              faces=fr("face.plural.2")) == (
        f"24 dés sur la table{NBSP}: environ 8,7 dés qui comptent pour les 2 (pacos compris).")
    assert fr("tracker.call.caller") == f"Qui dit dudo{NNBSP}?"
    for key in ("tracker.players.out", "practice.seat.out", "rules.basic.next"):
        assert "éliminé" in fr(key, name="Ann"), key
    # « éliminé » as everywhere else (tracker.players.out, practice.seat.out): issue 28
    assert fr("tracker.result.out", name="Ann") == "Ann perd son dernier dé et est éliminé"
    assert fr("settings.palifico.on-drop") == "Chaque fois qu'un joueur tombe à un dé"
    assert "pas d'identifiant" in fr("phone.open_network")
    assert fr("progress.calibration.y") == "Fréquence des annonces vraies"
    for key in ("rules.basic.pacos", "rules.paco.caption", "legal.refusal.pacos-too-few",
                "drills.smallest.why.pacos"):
        assert "arrondie au supérieur" in FRENCH[key], key
    assert fr("advice.chart.heading").startswith("Probabilité")


def test_the_words_issue_28_asked_for() -> None:
    assert "les annonces, les dudos et les calzas" in fr("live.share.explain")
    assert "les annonces, les dudos et les calzas" in fr("live.everyone.help")
    assert fr("tracker.held.other", name="Ann", count=3, judged=4) == (
        f"Ann{NBSP}: 3 annonces sur 4 se sont vérifiées.")
    assert fr("tracker.held.help").startswith("Chaque fois qu'on soulève les gobelets, ")
    for key in ("odds.result.expected.jokers", "odds.result.expected.palifico"):
        assert fr(key, table="24 dés sur la table", expected="8,8", faces=fr("face.plural.3")
                  ).startswith(f"24 dés sur la table{NBSP}: environ 8,8 dés qui comptent pour "
                               "les 3 ("), key
    assert fr("advice.read_bids") == "Tenir compte des annonces"
    assert fr("advice.basis.read") == "Probabilités en tenant compte des annonces."
    assert fr("progress.rating") == fr("progress.ratings.x") == "Cote"
    assert fr("advice.table.true") == "Annonce vraie"


@pytest.mark.parametrize(
    "phrase",
    ["les annonces et les appels", "les appels", "ont tenu", "a tenu", "n'a pas tenu",
     "levée des gobelets", "se fait éliminer", "dés à {faces}", "une fois les annonces lues",
     "Lire les annonces", "lit les annonces", "Classement", "classement"],
)
def test_no_french_text_says_it_the_way_issue_28_replaced(phrase: str) -> None:
    assert not [key for key, text in FRENCH.items() if phrase in text]
    assert FRENCH["advice.table.true"] != "Vraie"


@pytest.mark.parametrize(
    "phrase",
    ["MONTEZ", "Montez", "Monter à", "} du temps", "au-dessus,", "au-dessus.", "hors jeu",
     "quitte la partie", "Qui annonce", "connexion", "Chance", "chance qu", "équitable",
     "regret"],
)
def test_no_french_text_says_it_the_old_way(phrase: str) -> None:
    assert not [key for key, text in FRENCH.items() if phrase in text]


def test_dudo_is_glossed_once_as_the_french_rules_do() -> None:
    glossed = [key for key, text in FRENCH.items() if "menteur" in text]
    assert glossed == ["rules.basic.dudo"]
    assert FRENCH["rules.basic.dudo"].startswith(f"Dudo («{NBSP}menteur{NNBSP}!{NBSP}»)")


def test_french_punctuation_has_its_no_break_space() -> None:
    """A colon takes a no-break space before it, ; ? ! a (narrow) no-break space, « » one
    inside; never a plain space that lets the mark start a line on a phone."""
    loose = []
    for key, text in FRENCH.items():
        if key.startswith("format."):
            continue
        for match in re.finditer(r"(.)([:;?!»])", text):
            before, mark = match.groups()
            if mark == ":" and text[match.end():match.end() + 2] == "//":
                continue  # a URL
            if before not in (NBSP, NNBSP):
                loose.append(f"{key}: …{text[max(0, match.start() - 12):match.end()]}")
        if re.search(rf"«(?![{NBSP}{NNBSP}])", text):
            loose.append(f"{key}: «")
    assert not loose


def test_french_apostrophes_are_one_kind() -> None:
    assert not [key for key, text in FRENCH.items() if "’" in text]
