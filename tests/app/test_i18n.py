"""Catalogs: complete in every language, consistent placeholders, every key used exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from string import Formatter

import pytest

from perudo_math import FACES
from views.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    LOCALES_DIR,
    catalog,
    format_decimal,
    format_percent,
    language_from_locale,
    plural_category,
    translate,
    translate_plural,
)

ROOT = Path(__file__).resolve().parents[2]
UI_SOURCES = sorted(
    [ROOT / "streamlit_app.py", *(ROOT / "app_pages").glob("*.py"), *(ROOT / "views").glob("*.py")]
)
LOOKUPS = {"t": 0, "tn": 0, "translate": 1, "translate_plural": 1}
"""Catalog lookup functions and the position of their key argument."""


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


def used_keys() -> tuple[set[str], set[str]]:
    """Keys looked up with a literal (``tn`` keys get their plural forms) and f-string prefixes."""
    literal: set[str] = set()
    prefixes: set[str] = set()
    for path in UI_SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            position = LOOKUPS.get(node.func.id)
            if position is None or len(node.args) <= position:
                continue
            key = node.args[position]
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                if node.func.id in ("tn", "translate_plural"):
                    literal |= {f"{key.value}.one", f"{key.value}.other"}
                else:
                    literal.add(key.value)
            elif isinstance(key, ast.JoinedStr) and isinstance(key.values[0], ast.Constant):
                prefixes.add(key.values[0].value)
    return literal, prefixes


def test_every_language_has_a_catalog_file() -> None:
    assert sorted(path.stem for path in LOCALES_DIR.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE])
def test_catalogs_have_the_same_keys(lang: str) -> None:
    english, other = set(catalog(DEFAULT_LANGUAGE)), set(catalog(lang))
    assert not english - other, f"missing in {lang}.json: {sorted(english - other)}"
    assert not other - english, f"missing in en.json: {sorted(other - english)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_texts_are_non_empty_and_placeholders_match_english(lang: str) -> None:
    english = catalog(DEFAULT_LANGUAGE)
    for key, text in catalog(lang).items():
        assert isinstance(text, str) and text.strip(), f"{lang}: {key} is empty"
        assert placeholders(text) == placeholders(english[key]), f"{lang}: {key} placeholders"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_keys_come_in_pairs(lang: str) -> None:
    keys = set(catalog(lang))
    for key in keys:
        stem, _, form = key.rpartition(".")
        if form in {"one", "other"}:
            assert {f"{stem}.one", f"{stem}.other"} <= keys, key


def test_every_key_the_code_looks_up_exists() -> None:
    literal, _ = used_keys()
    assert literal, "the scan found no lookups: is it still reading the right files?"
    assert not literal - set(catalog(DEFAULT_LANGUAGE))


def test_dynamic_keys_exist() -> None:
    keys = set(catalog(DEFAULT_LANGUAGE))
    for face in FACES:
        assert f"face.plural.{face}" in keys
    for option in ("normal", "palifico"):
        assert f"round.{option}" in keys


def string_constants() -> set[str]:
    """Every string literal of the UI code: keys chosen first and looked up later count."""
    return {
        node.value
        for path in UI_SOURCES
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def test_no_catalog_key_is_unused() -> None:
    literal, prefixes = used_keys()
    mentioned = literal | string_constants()
    unused = {
        key
        for key in catalog(DEFAULT_LANGUAGE)
        if key not in mentioned and not any(key.startswith(prefix) for prefix in prefixes)
    }
    assert not unused


@pytest.mark.parametrize(
    ("locale", "lang"),
    [("fr-FR", "fr"), ("fr", "fr"), ("FR-ca", "fr"), ("en-US", "en"), ("de-DE", "en"),
     ("", "en"), (None, "en"), ("french", "fr"), ("es-ES", "es"), ("es-419", "es"),
     ("ES", "es"), ("eu-ES", "en")],
)
def test_language_from_locale(locale: str | None, lang: str) -> None:
    assert language_from_locale(locale) == lang


@pytest.mark.parametrize(
    ("probability", "en", "fr"),
    [
        (0.790760, "79.1%", "79,1\u00a0%"),
        (0.0, "0%", "0\u00a0%"),
        (1.0, "100%", "100\u00a0%"),
        (0.00001, "<0.1%", "<\u202f0,1\u00a0%"),
        (0.99999, ">99.9%", ">\u202f99,9\u00a0%"),
        (0.5, "50.0%", "50,0\u00a0%"),
    ],
)
def test_format_percent(probability: float, en: str, fr: str) -> None:
    assert format_percent(probability, "en") == en
    assert format_percent(probability, "fr") == fr
    assert format_percent(probability, "es") == fr.replace("\u202f", "")  # "<0,1 %"


def test_a_percent_never_rounds_to_nothing_or_to_certainty() -> None:
    """The float's own rounding, as before Babel: 0.05 % is a hair above 0.05 and shows
    0.1 %, never a misleading 0.0 % (Babel alone rounds the decimal 0.05 half to even)."""
    assert format_percent(0.0005, "en") == "0.1%"
    assert format_percent(0.0005, "es") == "0,1\u00a0%"
    assert format_percent(0.9994999, "en") == "99.9%"


def test_format_decimal() -> None:
    assert format_decimal(6.666, 1, "en") == "6.7"
    assert format_decimal(6.666, 1, "fr") == "6,7"
    assert format_decimal(6.666, 1, "es") == "6,7"
    assert format_decimal(12345.67, 1, "en") == "12,345.7"
    assert format_decimal(12345.67, 1, "es") == "12.345,7"
    assert format_decimal(12345.67, 1, "fr") == "12\u202f345,7"


@pytest.mark.parametrize(
    ("lang", "count", "form"),
    [("en", 1, "one"), ("en", 0, "other"), ("en", 2, "other"),
     ("fr", 0, "one"), ("fr", 1, "one"), ("fr", 2, "other"), ("fr", 1.5, "one"),
     ("es", 1, "one"), ("es", 0, "other"), ("es", 2, "other"), ("es", 1_000_000, "many")],
)
def test_plural_category(lang: str, count: float, form: str) -> None:
    assert plural_category(lang, count) == form


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_plural_form_the_catalog_does_not_write_reads_other(lang: str) -> None:
    """CLDR's ``many`` (a million dice, in French and Spanish) has no key of its own."""
    assert (translate_plural(lang, "common.dice_on_table", 1_000_000)
            == translate(lang, "common.dice_on_table.other", count=1_000_000))
    assert (translate_plural(lang, "common.dice_on_table", 1)
            == translate(lang, "common.dice_on_table.one", count=1))


def test_translate_formats_and_falls_back() -> None:
    assert translate("fr", "odds.result.heading", bid="5 × 4") == "Annonce 5 × 4"
    with pytest.raises(KeyError):
        translate("en", "no.such.key")
    with pytest.raises(KeyError):
        catalog("de")


def test_catalog_files_are_plain_utf8_json_without_stray_markup() -> None:
    for lang in LANGUAGES:
        raw = (LOCALES_DIR / f"{lang}.json").read_text(encoding="utf-8")
        assert not re.search(r"<[a-z]+[ >]", raw), f"{lang}.json holds HTML"
