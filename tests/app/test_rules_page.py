"""The rules and cheat sheet page through AppTest: settings in words, tables, the checker."""

from __future__ import annotations

import math

import pytest
from streamlit.testing.v1 import AppTest

from perudo_math import Bid, PalificoRule, RaiseRule, Refusal, Rules, check_bid, smallest_raises
from views import rules_view
from views.i18n import LANGUAGES, catalog, translate

RULES = "app_pages/rules.py"


def open_rules(at: AppTest, **params: str) -> AppTest:
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    at.switch_page(RULES).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def markdown(at: AppTest) -> list[str]:
    return [element.value for element in at.main.markdown]


def bullets(at: AppTest, index: int) -> list[str]:
    """The lines of the ``index``-th bullet list of the page."""
    lists = [text for text in markdown(at) if text.startswith("- ")]
    return [line.removeprefix("- ") for line in lists[index].splitlines()]


def check(at: AppTest, new: str, previous: str | None = None, *, palifico: bool = False,
          one_die: bool = False) -> str:
    """Ask the checker; its verdict as shown (success or error)."""
    at.toggle(key="rules_opening").set_value(previous is None).run()
    if previous is not None:
        quantity, face = previous.split("x")
        at.number_input(key="rules_prev_q").set_value(int(quantity))
        at.segmented_control(key="rules_prev_face").set_value(1 if face == "P" else int(face))
    quantity, face = new.split("x")
    at.number_input(key="rules_new_q").set_value(int(quantity))
    at.segmented_control(key="rules_new_face").set_value(1 if face == "P" else int(face))
    at.segmented_control(key="rules_round").set_value("palifico" if palifico else "normal")
    at.checkbox(key="rules_one_die").set_value(one_die)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    verdicts = [*at.main.success, *at.main.error]
    assert len(verdicts) == 1
    return verdicts[0].value


@pytest.fixture
def rules_page(app: AppTest) -> AppTest:
    return open_rules(app)


def test_default_rules_in_words(rules_page: AppTest) -> None:
    assert rules_page.title[0].value == "Rules & cheat sheet"
    assert bullets(rules_page, 0) == [
        "Everyone starts with 5 dice.",
        "Raising: a higher quantity keeps the face, a higher face keeps the quantity "
        "(after 5 × 3: 6 × 3 or 5 × 4).",
        "Palifico: the round right after a player drops to one die; that player opens it.",
        "In palifico, nobody changes the face: every raise keeps the opening face.",
        "Only the next player may call dudo.",
        "Calza: claim the bid is exact. Right, you regain a die (up to the starting dice); "
        "wrong, you lose one.",
        "Only the next player may call calza.",
        "No calza when only two players are left.",
    ]
    assert len(bullets(rules_page, 1)) == len(rules_view.BASIC_KEYS)
    assert [s.value for s in rules_page.subheader] == [
        "At this table", "Always", "How the coach grades a move", "Paco conversions",
        "Expected counts", "Is this bid legal?"]


GRADES = {
    "en": ["**Good**: the coach's move, or less than {good} points more than it.",
           "**Doubtful**: from {good} points to less than {costly} points more.",
           "**Costly**: {costly} points more or above.",
           "In practice: **Best move** is the coach's own move; **Good enough**, at most "
           "{close} points more; any other answer is marked wrong, with the coach's move "
           "beside it."],
    "fr": ["**Bon**\u00a0: le coup du coach, ou moins de {good} points de plus que lui.",
           "**Douteux**\u00a0: de {good} points à moins de {costly} points de plus.",
           "**Coûteux**\u00a0: {costly} points de plus ou davantage.",
           "À l'entraînement\u00a0: **Meilleur coup**, c'est le coup du coach\u202f; **Bien "
           "joué**, au plus {close} points de plus\u202f; toute autre réponse est comptée "
           "fausse, avec le coup du coach à côté."],
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_grade_is_defined_once_with_its_points(app: AppTest, lang: str) -> None:
    """Issue 28: good, doubtful and costly (and the practice grades) with the thresholds
    the review and practice grade by, and what a grade weighs."""
    from coach.review import COSTLY_FROM, GOOD_BELOW
    from practice.scenarios import CORRECT_REGRET
    rules_page = open_rules(app, lang=lang)
    assert translate(lang, "rules.section.grades") in [s.value for s in rules_page.subheader]
    numbers = {"good": GOOD_BELOW, "costly": COSTLY_FROM, "close": CORRECT_REGRET * 100}
    assert all(float(value).is_integer() for value in numbers.values())
    expected = [line.format(**{name: int(value) for name, value in numbers.items()})
                for line in GRADES[lang]]
    assert bullets(rules_page, 2) == expected
    assert translate(lang, "rules.grades.caption") in [c.value for c in rules_page.caption]
    for verdict in ("good", "doubtful", "costly"):  # the words the review shows
        assert translate(lang, f"review.verdict.{verdict}").capitalize() in expected[
            ("good", "doubtful", "costly").index(verdict)]


def test_every_setting_changed_from_the_url(app: AppTest) -> None:
    open_rules(app, dice="1", palifico="while-one-die", onedie="1", salsa="1", calzaany="1",
               calza2="1", **{"raise": "any-face"})
    assert bullets(app, 0) == [
        "Everyone starts with 1 die.",
        "Raising: a higher quantity with any face 2–6, or the same quantity with a higher face "
        "(after 5 × 3: 6 × 2 or 5 × 4).",
        "Palifico: every round opened by a player holding one die.",
        "In palifico, a bidder who also holds one die may change the face, with a higher bid.",
        "Salsa: anyone but the bidder may call dudo, not only the next player.",
        "Calza: claim the bid is exact. Right, you regain a die (up to the starting dice); "
        "wrong, you lose one.",
        "Anyone but the bidder may call calza, at any time.",
        "Calza is allowed even with two players left.",
    ]


def test_no_calza_hides_the_calza_details(app: AppTest) -> None:
    open_rules(app, calza="0", palifico="once-per-player")
    lines = bullets(app, 0)
    assert "No calza at this table." in lines
    assert ("Palifico: only the first time each player drops to one die; that player opens it."
            in lines)
    assert not any("calza" in line.lower() for line in lines if line != "No calza at this table.")


def test_paco_conversions_follow_the_engine(rules_page: AppTest) -> None:
    rows = rules_view.paco_conversions()
    assert rows == [(q, math.ceil(q / 2), 2 * q + 1) for q in rules_view.PACO_TABLE_QUANTITIES]
    table = next(text for text in markdown(rules_page) if "after q × face" in text)
    assert "| 3 | 2 | 7 |" in table and "| 12 | 6 | 25 |" in table


def test_expected_counts_for_5_to_30_dice(rules_page: AppTest) -> None:
    counts = rules_view.expected_counts()
    assert [n for n, _, _ in counts] == list(range(5, 31))
    assert all(third == n / 3 and sixth == n / 6 for n, third, sixth in counts)
    table = next(text for text in markdown(rules_page) if "n/3" in text)
    assert "| 5 | 1.7 | 0.8 | 18 | 6.0 | 3.0 |" in table
    assert "| 17 | 5.7 | 2.8 | 30 | 10.0 | 5.0 |" in table
    assert len(table.splitlines()) == 2 + 13


def test_checker_default_is_a_legal_raise(rules_page: AppTest) -> None:
    assert [s.value for s in rules_page.main.success] == ["6 × 4 is a legal raise over 5 × 4."]


@pytest.mark.parametrize(
    ("new", "previous", "palifico", "verdict"),
    [
        ("2xP", None, False,
         "A normal round cannot be opened on pacos: open on a face from 2 to 6."),
        ("2xP", None, True, "2 × P is a legal opening bid."),
        ("6x4", "5x3", False, "After 5 × 3 a higher face keeps the quantity: bid 5 × 4."),
        ("6x3", "5x3", False, "6 × 3 is a legal raise over 5 × 3."),
        ("5x4", "5x4", False, "After 5 × 4 you need at least 6 × 4."),
        ("6x3", "5x4", False,
         "After 5 × 4 a lower face is not allowed: bid more fours, or 5 of a higher face."),
        ("2x4", "2x6", False,
         "After 2 × 6 a lower face is not allowed, and 6 is the highest face: bid more sixes, "
         "or go to pacos."),
        ("3xP", "7x4", False, "After 7 × 4 you need at least 4 × P (half of 7, rounded up)."),
        ("4xP", "8x4", False, "4 × P is a legal raise over 8 × 4."),
        ("6x4", "3xP", False,
         "After 3 × P you need at least 7 of a face (twice the pacos plus one)."),
        ("3x6", "2x5", True, "In a palifico round bids stay on fives: bid at least 3 × 5."),
        ("3x5", "2x5", True, "3 × 5 is a legal raise over 2 × 5."),
    ],
)
def test_checker_verdicts(rules_page: AppTest, new: str, previous: str | None, palifico: bool,
                          verdict: str) -> None:
    assert check(rules_page, new, previous, palifico=palifico) == verdict


def test_checker_follows_the_table_rules(app: AppTest) -> None:
    open_rules(app, onedie="1", **{"raise": "any-face"})
    assert check(app, "6x4", "5x3") == "6 × 4 is a legal raise over 5 × 3."
    assert check(app, "3x6", "2x5", palifico=True) == (
        "In a palifico round bids stay on fives: bid at least 3 × 5.")
    assert check(app, "3x6", "2x5", palifico=True, one_die=True) == (
        "3 × 6 is a legal raise over 2 × 5.")
    assert check(app, "2x4", "2x5", palifico=True, one_die=True) == (
        "With one die you may change the face, but the bid must be higher than 2 × 5: "
        "at least 3 × 4.")


def test_the_cheat_sheet_in_french(app: AppTest) -> None:
    open_rules(app, lang="fr")
    assert app.title[0].value == "Règles et aide-mémoire"
    assert bullets(app, 0)[0] == "Chacun commence avec 5 dés."
    table = next(text for text in markdown(app) if "n/3" in text)
    assert "| 5 | 1,7 | 0,8 | 18 | 6,0 | 3,0 |" in table
    assert check(app, "6x4", "5x3") == (
        "Après 5 × 3, une face plus haute garde la quantité\u00a0: annoncez 5 × 4.")
    assert check(app, "2xP", None) == (
        "Une manche normale ne s'ouvre pas sur les pacos\u00a0: ouvrez sur une face de 2 à 6.")
    assert check(app, "6x3", "5x4") == (
        "Après 5 × 4, une face plus basse est interdite\u00a0: restez sur les 4 avec plus de "
        "dés, ou annoncez 5 dés d'une face plus haute.")
    assert check(app, "2x4", "2x6") == (
        "Après 2 × 6, une face plus basse est interdite, et il n'y a pas de face au-dessus du "
        "6\u00a0: restez sur les 6 avec plus de dés, ou passez aux pacos.")
    assert check(app, "3x6", "2xP", palifico=True) == (
        "En manche palifico, on reste sur les pacos\u00a0: annoncez au moins 3 × P.")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_and_setting_is_worded(lang: str) -> None:
    keys = set(catalog(lang))
    assert {f"legal.refusal.{refusal.value}" for refusal in Refusal} <= keys
    assert {f"rules.setting.raise.{rule.value}" for rule in RaiseRule} <= keys
    assert {f"rules.setting.palifico.{rule.value}" for rule in PalificoRule} <= keys
    switches = ("onedie", "salsa", "calza", "calzaany", "calza2")
    assert {f"rules.setting.{name}.{state}" for name in switches for state in ("on", "off")} <= keys
    assert set(rules_view.BASIC_KEYS) <= keys


HIGHER_FACE = {"en": "of a higher face", "fr": "d'une face plus haute",
               "es": "de una cara más alta"}
GO_TO_PACOS = {"en": "go to pacos", "fr": "passez aux pacos", "es": "pasa a pacos"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_refusal_offers_what_is_not_there(monkeypatch: pytest.MonkeyPatch,
                                             lang: str) -> None:
    """Every refusal in both catalogs: a higher face is offered only below 6, pacos only when
    legal, every placeholder filled, and a frozen palifico face said as a face, not "P"."""
    monkeypatch.setattr(rules_view, "t", lambda key, **params: translate(lang, key, **params))
    bids = [Bid(quantity, face) for quantity in range(1, 6) for face in range(1, 7)]
    for palifico in (False, True):
        for rules in (Rules(), Rules(raise_rule="any-face"),
                      Rules(palifico_one_die_may_change_face=True)):
            for previous in bids:
                smallest = smallest_raises(previous, palifico=palifico, rules=rules,
                                           bidder_dice=1)
                for bid in bids:
                    verdict = check_bid(bid, previous, palifico=palifico, rules=rules,
                                        bidder_dice=1)
                    if verdict.legal:
                        continue
                    text = rules_view.refusal_text(verdict)
                    if HIGHER_FACE[lang] in text:
                        assert any(face > previous.face for face in smallest if face != 1), text
                    if GO_TO_PACOS[lang] in text:
                        assert 1 in smallest, text
                    assert "{" not in text and "  " not in text, text
                    assert not any(frozen in text for frozen in ("stays P", "reste P")), text
