"""The coach's move from a solved heads-up table in words (views.table_words) and on its card
(views.advice_view.card_markdown): the frequency scale at its boundaries, how a mix is said
in English, French and Spanish, and a card that says what the table plays."""

from __future__ import annotations

import pytest

import views.i18n
from coach import (
    CALZA,
    DUDO,
    Action,
    Advice,
    Option,
    Reason,
    Situation,
    advise_with_tables,
    heads_up_strategy,
)
from perudo_math import Bid, Hand, Rules
from views import advice_view
from views.i18n import LANGUAGES, catalog, format_percent
from views.table_words import (
    ALWAYS_FROM,
    FREQUENCY_SCALE,
    MixParts,
    frequency_key,
    frequency_text,
    mix_detail_text,
    mix_parts,
    mix_sentence,
)

NBSP, NNBSP = "\u00a0", "\u202f"


def raise_to(text: str) -> Action:
    return Action.raise_to(Bid.parse(text))


@pytest.fixture(params=LANGUAGES)
def lang(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Catalog lookups outside a Streamlit run, in each language."""
    monkeypatch.setattr(views.i18n, "current_language", lambda: request.param)
    return str(request.param)


def speak(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    monkeypatch.setattr(views.i18n, "current_language", lambda: lang)


# --- the frequency scale ------------------------------------------------------------------


@pytest.mark.parametrize(("share", "key"), [
    (1.0, "always"),
    (ALWAYS_FROM, "always"),
    (0.9999, "almost-always"),  # anything else played at all: not "always"
    (0.95, "almost-always"),
    (0.9499, "nine-in-ten"),
    (0.82, "nine-in-ten"),
    (0.8199, "three-in-four"),
    (0.71, "three-in-four"),
    (0.7099, "two-in-three"),
    (2 / 3, "two-in-three"),
    (0.58, "two-in-three"),
    (0.5799, "half"),
    (0.5, "half"),
    (0.42, "half"),
    (0.4199, "one-in-three"),
    (1 / 3, "one-in-three"),
    (0.29, "one-in-three"),
    (0.2899, "one-in-four"),
    (0.18, "one-in-four"),
    (0.1799, "one-in-ten"),
    (0.05, "one-in-ten"),
    (0.0499, "rarely"),
    (0.001, "rarely"),
])
def test_a_share_gets_the_word_of_its_step(share: float, key: str) -> None:
    assert frequency_key(share) == key


def test_each_named_fraction_gets_its_own_word() -> None:
    named = {0.9: "nine-in-ten", 0.75: "three-in-four", 2 / 3: "two-in-three", 0.5: "half",
             1 / 3: "one-in-three", 0.25: "one-in-four", 0.1: "one-in-ten"}
    assert {share: frequency_key(share) for share in named} == named


def test_the_scale_falls_step_by_step_and_covers_every_share() -> None:
    bounds = [bound for bound, _ in FREQUENCY_SCALE]
    assert bounds == sorted(bounds, reverse=True) and bounds[-1] == 0.0
    assert len({key for _, key in FREQUENCY_SCALE}) == len(FREQUENCY_SCALE)
    previous = None
    for step in range(1, 10001):  # the word never climbs back as the share grows
        key = frequency_key(step / 10000)
        order = [key for _, key in FREQUENCY_SCALE].index(key)
        assert previous is None or order <= previous
        previous = order


@pytest.mark.parametrize("share", [0.0, -0.1, 1.0001, float("nan")])
def test_a_move_never_played_has_no_word(share: float) -> None:
    with pytest.raises(ValueError, match="share"):
        frequency_key(share)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_of_the_scale_is_written_in_every_language(lang: str) -> None:
    texts = catalog(lang)
    for _, key in FREQUENCY_SCALE:
        assert texts[f"advice.often.{key}"].strip()


def test_the_words_in_three_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = {
        "en": ("always", "about nine times in ten", "about two times in three",
               "about half the time", "about one time in three", "rarely"),
        "fr": ("toujours", "environ neuf fois sur dix", "environ deux fois sur trois",
               "environ une fois sur deux", "environ une fois sur trois", "rarement"),
        "es": ("siempre", "más o menos nueve de cada diez veces",
               "más o menos dos de cada tres veces", "más o menos la mitad de las veces",
               "más o menos una de cada tres veces", "rara vez"),
    }
    for lang, words in expected.items():
        speak(monkeypatch, lang)
        assert tuple(frequency_text(share) for share in (1.0, 0.9, 0.67, 0.5, 0.33, 0.02)
                     ) == words, lang


# --- how a mix is said -----------------------------------------------------------------------


def test_two_moves_say_the_second_as_otherwise() -> None:
    parts = mix_parts([(raise_to("2x5"), 0.67), (DUDO, 0.33)])
    assert parts.named == ((raise_to("2x5"), "two-in-three"),)
    assert parts.otherwise == DUDO and parts.rarely == ()


def test_rare_moves_are_gathered_and_nothing_is_otherwise() -> None:
    mix = [(raise_to("1xP"), 0.54), (raise_to("1x5"), 0.31), (DUDO, 0.12),
           (raise_to("1x6"), 0.02), (raise_to("1x3"), 0.01)]
    parts = mix_parts(mix)
    assert [key for _, key in parts.named] == ["half", "one-in-three", "one-in-ten"]
    assert parts.otherwise is None
    assert parts.rarely == (raise_to("1x6"), raise_to("1x3"))


def test_one_move_is_always_and_a_lone_likely_move_keeps_its_word() -> None:
    assert mix_parts([(DUDO, 1.0)]) == MixParts(((DUDO, "always"),), None, ())
    parts = mix_parts([(raise_to("2x5"), 0.97), (DUDO, 0.03)])
    assert parts.named == ((raise_to("2x5"), "almost-always"),) and parts.rarely == (DUDO,)
    with pytest.raises(ValueError):
        mix_parts([])


SENTENCES = {
    "en": ("Raise to 2 × 5, about two times in three; otherwise dudo.",
           "Open with 1 × 6, about half the time; 1 × 5, about one time in three; "
           "otherwise 1 × 4.",
           "Dudo, always.",
           "Raise to 2 × 5, almost always; rarely 2 × 6 or calza."),
    "fr": (f"Annoncez 2 × 5, environ deux fois sur trois{NNBSP}; sinon dudo.",
           f"Ouvrez à 1 × 6, environ une fois sur deux{NNBSP}; 1 × 5, environ une fois sur "
           f"trois{NNBSP}; sinon 1 × 4.",
           "Dudo, toujours.",
           f"Annoncez 2 × 5, presque toujours{NNBSP}; rarement 2 × 6 ou calza."),
    "es": ("Sube a 2 × 5, más o menos dos de cada tres veces; si no, dudo.",
           "Abre con 1 × 6, más o menos la mitad de las veces; 1 × 5, más o menos una de "
           "cada tres veces; si no, 1 × 4.",
           "Dudo, siempre.",
           "Sube a 2 × 5, casi siempre; rara vez, 2 × 6 o calzo."),
}


def test_a_mix_in_one_sentence_in_every_language(lang: str) -> None:
    two, three, one, rare = SENTENCES[lang]
    assert mix_sentence([(raise_to("2x5"), 2 / 3), (DUDO, 1 / 3)], opening=False) == two
    assert mix_sentence([(raise_to("1x6"), 0.5), (raise_to("1x5"), 0.3),
                         (raise_to("1x4"), 0.2)], opening=True) == three
    assert mix_sentence([(DUDO, 1.0)], opening=False) == one
    assert mix_sentence([(raise_to("2x5"), 0.96), (raise_to("2x6"), 0.03), (CALZA, 0.01)],
                        opening=False) == rare


# --- the card where the coach plays a table ------------------------------------------------

TWO_AGAINST_ONE = Situation(Rules(), (1, 2), 0, Hand([5]), ((1, Bid(1, 2)),), False)
"""I hold one die (a 5); the other player, with two, opened 1 × 2: the 2v1 table mixes four
moves here."""
ONE_EACH_OPENING = Situation(Rules(), (1, 1), 0, Hand([6]), (), False)
PALIFICO_SURE = Situation(Rules(), (1, 1), 0, Hand([4]), ((1, Bid(1, 4)),), True)
"""Palifico, one die each, they opened 1 × 4 and I hold a 4: the table always raises."""


def paragraphs(card: str) -> list[str]:
    """The card's paragraphs as they read: captions unwrapped."""
    before, after = advice_view.small("\0").split("\0")
    return [text[len(before):-len(after)] if text.startswith(before) else text
            for text in card.split("\n\n")]


@pytest.mark.parametrize("spot", [TWO_AGAINST_ONE, ONE_EACH_OPENING, PALIFICO_SURE],
                         ids=["2v1-reply", "1v1-opening", "palifico-pure"])
def test_the_card_leads_with_the_tables_most_likely_move(lang: str, spot: Situation) -> None:
    mixed = heads_up_strategy(spot)
    assert mixed is not None
    advice = advise_with_tables(spot)
    top = mixed.choices[0][0]
    assert advice.action == top and advice.mix == mixed.choices
    lines = paragraphs(advice_view.card_markdown(advice, spot))
    opening = spot.last_bid is None
    assert lines[0] == f"## {advice_view.headline(advice, spot)}"
    assert top.bid is None or top.bid.pretty() in lines[0]
    assert lines[1] == f"**{mix_sentence(mixed.choices, opening)}**"
    # Every move of the mix with the coach's own chance of losing a die, as its table prints.
    for action, _ in mixed.choices:
        option = advice.option(action)
        assert option is not None
        assert format_percent(option.lose) in lines[2]
    # The exact shares agree with the words: one per move, in the mix's order.
    if len(mixed.choices) > 1:
        detail = lines[4]
        positions = [detail.index(format_percent(share)) for _, share in mixed.choices]
        assert positions == sorted(positions)
    assert mixed.win_chance is not None
    assert format_percent(mixed.win_chance) in "".join(lines[4:])


def test_the_card_in_english_word_for_word(monkeypatch: pytest.MonkeyPatch) -> None:
    speak(monkeypatch, "en")
    advice = advise_with_tables(TWO_AGAINST_ONE)
    lines = paragraphs(advice_view.card_markdown(advice, TWO_AGAINST_ONE))
    assert lines[0] == "## RAISE to 1 × P"
    assert lines[1] == ("**Raise to 1 × P, about half the time; 1 × 5, about one time in "
                        "three; dudo, about one time in ten; rarely 1 × 6.**")
    assert lines[2].startswith("Chance you lose a die — 1 × P: ")
    assert lines[3] == ("Pick at random at these rates: a move played every time here would "
                        "tell your opponent what you hold, even the one that risks least this "
                        "round.")
    assert lines[4].startswith("Heads-up equilibrium — 1 × P: 54.3% · 1 × 5: 30.8% · dudo: ")
    assert lines[5] == "Chances once the bids are read."


def test_the_card_in_french_word_for_word(monkeypatch: pytest.MonkeyPatch) -> None:
    speak(monkeypatch, "fr")
    advice = advise_with_tables(PALIFICO_SURE)
    lines = paragraphs(advice_view.card_markdown(advice, PALIFICO_SURE))
    lose = format_percent(advice.best.lose)
    assert lines == [
        "## ANNONCEZ 2 × 4",
        "**Annoncez 2 × 4, toujours.**",
        f"Risque de perdre un dé — 2 × 4{NBSP}: {lose}",
        f"En tête-à-tête, la stratégie d'équilibre joue toujours ce coup ici{NBSP}: face aux "
        "meilleures réponses, aucun autre coup ne fait mieux sur la partie.",
        f"Jouée ainsi, cette manche vous laisse {format_percent(1.0)} de chances de gagner la "
        "partie.",
        "Probabilités en tenant compte des annonces.",
    ]


def test_a_calza_in_the_mix_says_the_die_it_wins_back(monkeypatch: pytest.MonkeyPatch) -> None:
    speak(monkeypatch, "en")
    spot = Situation(Rules(), (2, 1), 0, Hand([3, 5]), ((1, Bid(1, 5)),), False)
    calza = Option(CALZA, lose=0.6, gain=0.4, p_true=0.7, p_exact=0.4)
    dudo = Option(DUDO, lose=0.3, gain=0.0, p_true=0.3, p_exact=0.1)
    advice = Advice((calza, dudo), Reason("table-mix", {"lose": 0.6, "table": "x"}), True,
                    mix=((CALZA, 0.6), (DUDO, 0.4)))
    lines = paragraphs(advice_view.card_markdown(advice, spot))
    assert lines[0] == "## CALZA"
    assert lines[1] == "**Calza, about two times in three; otherwise dudo.**"
    assert lines[2] == ("Chance you lose a die — calza: 60.0% (win one back: 40.0%) · "
                        "dudo: 30.0%")
    assert mix_detail_text(advice) == "Heads-up equilibrium — calza: 60.0% · dudo: 40.0%."


def test_a_table_reason_the_app_does_not_know_reads_as_the_fallback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    speak(monkeypatch, "en")
    advice = advise_with_tables(TWO_AGAINST_ONE)
    odd = Advice(advice.options, Reason("table-new", {}), True, mix=advice.mix)
    assert advice_view.reason_text(odd, TWO_AGAINST_ONE) == catalog("en")[
        "advice.reason.fallback"]


def test_no_table_no_mix_and_the_card_is_the_coachs_usual_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    speak(monkeypatch, "en")
    spot = Situation(Rules(), (2, 2), 0, Hand([3, 5]))  # a table fits, but four dice
    assert heads_up_strategy(spot) is not None
    advice = advise_with_tables(spot)
    assert advice.mix == ()
    card = advice_view.card_markdown(advice, spot)
    assert "about" not in card and "equilibrium" not in card
    assert paragraphs(card)[1] == f"**{advice_view.risk_text(advice.best)}**"
