"""The Spanish catalog (views/locales/es.json) beside the English and French ones.

Plain JSON checks, no Streamlit: the three catalogs hold the same keys, every text keeps the
English text's placeholders, every Spanish text is translated (or on a short list of texts
that read the same in Spanish) and formats with sample values.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from string import Formatter

LOCALES = Path(__file__).resolve().parents[1] / "views" / "locales"


def load(lang: str) -> dict[str, str]:
    with (LOCALES / f"{lang}.json").open(encoding="utf-8") as handle:
        return json.load(handle)


EN, FR, ES = load("en"), load("fr"), load("es")

SAME_AS_ENGLISH = {
    "app.name": "the app's name",
    "advice.action.dudo": "the call itself, a Spanish word: what the player says",
    "advice.move.dudo": "the call, a Spanish word",
    "advice.mix.move.dudo": "the call inside a sentence, a Spanish word",
    "tracker.round.palifico": "the round's name, kept as the rules spell it",
    "tracker.call.dudo": "button named after the call, a Spanish word",
    "rules.paco.col.q": "the letter q of the notation q × f",
    "practice.theme.palifico": "the round's name, kept as the rules spell it",
    "practice.move.dudo": "the call, a Spanish word",
    "face.plural.1": "pacos: the Spanish word English players borrowed",
    "round.normal": "normal is spelt the same in Spanish",
    "round.palifico": "the round's name, kept as the rules spell it",
    "play.pace.normal": "normal is spelt the same in Spanish",
    "review.kind.dudo.one": "{count} dudo: the Spanish noun",
    "review.kind.dudo.other": "{count} dudos: its Spanish plural",
    "review.name.dudo": "the Spanish noun, inside sentences",
}
"""Spanish texts that may equal the English ones, each with its reason: the game's own
Spanish words, which English and French borrow, and a few words spelt alike."""

INT_FIELDS = frozenset({
    "answers", "count", "first", "hand", "judged", "level", "max", "min", "moves", "needed",
    "number", "own", "quantity", "round", "rounds", "seat", "unknown",
})
"""Placeholders the app fills with whole numbers (counts, quantities, seat and round numbers);
the others get text: names, bids, percentages, sentences."""


def fields(text: str) -> set[tuple[str, str, str | None]]:
    """The replacement fields of a ``str.format`` template: name, format spec, conversion."""
    return {(name, spec or "", conversion)
            for _, name, spec, conversion in Formatter().parse(text) if name is not None}


def field_names(text: str) -> set[str]:
    return {name for name, _, _ in fields(text)}


def words(text: str) -> str:
    """The letters of ``text`` outside its placeholders: what a translator translates."""
    literal = "".join(part for part, _, _, _ in Formatter().parse(text))
    return re.sub(r"[\W\d_]", "", literal)


def sample(name: str) -> int | str:
    return 3 if name in INT_FIELDS else f"<{name}>"


def test_the_three_catalogs_have_the_same_keys() -> None:
    english = set(EN)
    for lang, texts in (("fr", FR), ("es", ES)):
        assert not english - set(texts), f"missing in {lang}.json: {sorted(english - set(texts))}"
        assert not set(texts) - english, f"not in en.json: {sorted(set(texts) - english)}"


def test_spanish_keys_follow_the_english_order() -> None:
    assert list(ES) == list(EN)


def test_placeholder_names_match_across_languages() -> None:
    """Every key at once (one test, not one a key: 684 tests cost the suite a minute)."""
    wrong = []
    for key, text in EN.items():
        english = field_names(text)
        if field_names(FR.get(key, "")) != english:
            wrong.append(f"fr: {key}")
        if field_names(ES.get(key, "")) != english:
            wrong.append(f"es: {key}")
        elif fields(ES.get(key, "")) != fields(text):
            wrong.append(f"es: {key} changes a format spec")
    assert not wrong, wrong


def test_spanish_texts_are_written_and_translated() -> None:
    empty = [key for key, text in ES.items() if not text.strip()]
    assert not empty, f"empty in es.json: {empty}"
    untranslated = [key for key, text in ES.items()
                    if text == EN.get(key) and words(text) and key not in SAME_AS_ENGLISH]
    assert not untranslated, f"es.json repeats the English text: {untranslated}"


def test_the_allow_list_only_holds_texts_that_read_the_same() -> None:
    stale = [key for key in SAME_AS_ENGLISH if ES.get(key) != EN.get(key)]
    assert not stale, f"allowed as English but translated (drop them): {stale}"


def test_every_spanish_text_formats_with_sample_values() -> None:
    wrong = []
    for key, template in ES.items():
        values = {name: sample(name) for name in field_names(EN.get(key, ""))}
        try:
            text = template.format(**values)
        except (KeyError, IndexError, ValueError) as error:
            wrong.append(f"{key}: {error!r}")
            continue
        if "{" in text or "}" in text:
            wrong.append(f"{key}: a brace survived formatting")
    assert not wrong, wrong
