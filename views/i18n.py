"""Translations: one JSON catalog per language in ``views/locales/``, looked up by key.

Every user-facing string of the app comes from a catalog::

    t("odds.title")                       # in the current language
    t("odds.result.at_least", quantity=5) # str.format parameters
    tn("common.dice_on_table", 20)        # plural: key + ".one" / ".other", {count} given

The current language is settled once per run by :func:`settle_language`, which
``views.url_state.sync`` calls from the entry script before any page runs. Priority: a choice
just made on the language switch, then the link's ``lang`` parameter (so a reload or a shared
link keeps the choice), then the switch's session state, then the browser's
``st.context.locale`` (``fr*`` gives French, ``es*`` Spanish, anything else English). The
result goes to the switch state (``STATE_KEY``); ``views.url_state`` writes it to the URL.

Plural forms, numbers and percentages follow CLDR's rules for each language through Babel
(:func:`plural_category`, :func:`format_decimal`, :func:`format_percent`): ``55.7%`` in
English, ``55,7 %`` in French and Spanish; a catalog holds the ``one`` and ``other`` forms of a
plural, and any other form CLDR names (French and Spanish ``many``, for millions) reads
``other``.

French elides: a template writes ``Au tour de {name}`` and :func:`translate` gives
``Au tour d'Élodie`` but ``Au tour de Bob`` (:func:`elide_before_values`), so no catalog
needs a second wording for names that start with a vowel sound.

This module must stay light: the entry script imports it on every rerun (no numpy, no altair).
"""

from __future__ import annotations

import copy
import json
import re
import unicodedata
from collections.abc import Mapping
from decimal import Decimal
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

import streamlit as st
from babel import Locale
from babel.numbers import NumberPattern, parse_pattern

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

LANGUAGES: tuple[str, ...] = ("en", "fr", "es")
DEFAULT_LANGUAGE = "en"
STATE_KEY = "ui_lang"
"""The session-state key of the language switch widget."""
_PICKED_KEY = "ui_lang_picked"
"""Session state: the switch was just used, so its choice beats the link's ``lang``."""
LOCALES_DIR = Path(__file__).with_name("locales")


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """The read-only catalog of ``lang``, loaded from ``views/locales/<lang>.json``."""
    if lang not in LANGUAGES:
        raise KeyError(f"no catalog for language {lang!r}; known: {', '.join(LANGUAGES)}")
    with (LOCALES_DIR / f"{lang}.json").open(encoding="utf-8") as handle:
        data = json.load(handle)
    return MappingProxyType(data)


def translate(lang: str, key: str, /, **params: object) -> str:
    """The text of ``key`` in ``lang``, formatted with ``params``.

    A key missing from a non-default catalog falls back to English (the completeness test
    keeps this from happening); a key missing from English too is a bug: ``KeyError``.
    In French, ``de {name}`` becomes ``d'Élodie`` when the value calls for it.
    """
    texts = catalog(lang)
    if key not in texts:
        texts = catalog(DEFAULT_LANGUAGE)
    template = texts[key]
    if not params:
        return template
    if lang == "fr":
        template = elide_before_values(template, params)
    return template.format(**params)


# --- French elision --------------------------------------------------------------------------

_VOWELS = frozenset("aeiouæœ")
_ASPIRATED_H = frozenset({"hannah", "hans", "harold", "harry", "heidi", "hilda", "hugues"})
"""First names whose h is aspirated at a French table (``de Hugues``); any other name in
h + vowel takes the mute h of ``d'Hélène``, ``d'Hugo``."""
_ELIDING_SLOT = re.compile(
    r"(?<!\w)(de|que|jusque|lorsque|puisque) (\*{0,2}|_?)(\{(\w+)(?:[!:][^{}]*)?\})",
    re.IGNORECASE)
"""A word that elides, a space, optional markdown emphasis, then a placeholder."""


def _base_letter(char: str) -> str:
    """``é`` → ``e``, ``Î`` → ``i``: the letter under its accents, in lower case."""
    return unicodedata.normalize("NFD", char)[0].lower()


def starts_with_vowel_sound(word: str) -> bool:
    """Whether French elides *de* or *que* before ``word`` (a name, as typed).

    A vowel, accented or not (Élodie, Ines, Œlle); a mute h before a vowel (Hélène, Hugo,
    but not the aspirated Hugues or Harry); a y sounding like i, before a consonant (Yves,
    Ysé, but not Yann or Yolande). Digits, punctuation and other scripts never elide. Format
    characters in front (the isolate around a drawn name) are not sounded.
    """
    while word and unicodedata.category(word[0]) == "Cf":
        word = word[1:]
    if not word:
        return False
    first = _base_letter(word[0])
    second = _base_letter(word[1]) if len(word) > 1 else ""
    if first in _VOWELS:
        return True
    if first == "y":
        return second.isalpha() and second not in _VOWELS and second != "y"
    if first == "h":
        name = re.split(r"[^\w]", word, maxsplit=1)[0].lower()
        return second in _VOWELS and name not in _ASPIRATED_H
    return False


def elide(word: str, following: str) -> str:
    """``de`` + ``Élodie`` → ``d'Élodie``, ``de`` + ``Bob`` → ``de Bob``; ``Que`` keeps its
    capital (``Qu'Yves``)."""
    if starts_with_vowel_sound(following):
        return f"{word[:-1]}'{following}"
    return f"{word} {following}"


def elide_before_values(template: str, params: Mapping[str, object]) -> str:
    """``template`` with ``de {name}`` written ``d'{name}`` where the value of ``name``
    starts with a vowel sound (markdown emphasis between is kept: ``d'**{name}**``)."""

    def slot(match: re.Match[str]) -> str:
        word, emphasis, placeholder, name = match.groups()
        if name not in params or not starts_with_vowel_sound(str(params[name])):
            return match.group(0)
        return f"{word[:-1]}'{emphasis}{placeholder}"

    return _ELIDING_SLOT.sub(slot, template)


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@lru_cache(maxsize=1024)
def plural_category(lang: str, count: float) -> str:
    """CLDR's plural form of ``count`` in ``lang`` (``"one"``, ``"many"``, ``"other"``…):
    English and Spanish say one die only for 1, French for 0 and 1 (and 1,5)."""
    form: str = _locale(lang).plural_form(count)
    return form


def language_from_locale(locale: str | None) -> str:
    """The app language for a browser locale such as ``fr-FR``, ``es-419`` or ``en-US``."""
    prefix = (locale or "").strip().lower()[:2]
    return prefix if prefix in LANGUAGES else DEFAULT_LANGUAGE


def _known(value: object) -> str | None:
    if isinstance(value, str) and value.lower() in LANGUAGES:
        return value.lower()
    return None


def settle_language(link: str | None) -> str:
    """This run's language, from the switch just used, ``link`` (the URL's ``lang``), the
    switch's state or the browser's locale, in that order; kept in the switch state."""
    state = st.session_state
    switch = _known(state.get(STATE_KEY))
    picked = switch if state.pop(_PICKED_KEY, False) else None
    lang = picked or _known(link) or switch or language_from_locale(st.context.locale)
    if state.get(STATE_KEY) != lang:
        state[STATE_KEY] = lang
    return lang


def current_language() -> str:
    """The language of the current run (the switch state once :func:`settle_language` ran)."""
    return _known(st.session_state.get(STATE_KEY)) or language_from_locale(st.context.locale)


def t(key: str, /, **params: object) -> str:
    """The text of ``key`` in the current language."""
    return translate(current_language(), key, **params)


def tn(key: str, count: float, /, **params: object) -> str:
    """The plural form of ``key`` for ``count`` (:func:`plural_category`; ``key.other`` for a
    form the catalog does not write), given ``{count}``."""
    return translate_plural(current_language(), key, count, **params)


def translate_plural(lang: str, key: str, count: float, /, **params: object) -> str:
    """:func:`tn` in ``lang``."""
    form = plural_category(lang, count)
    if form != "one":
        form = "other"
    return translate(lang, f"{key}.{form}", count=count, **params)


@cache
def _number_pattern(lang: str, percent: bool, digits: int) -> NumberPattern:
    """``lang``'s pattern for a decimal number or a percentage, with ``digits`` decimals."""
    locale = _locale(lang)
    formats = locale.percent_formats if percent else locale.decimal_formats
    pattern = copy.copy(parse_pattern(formats[None].pattern))
    pattern.frac_prec = (digits, digits)
    return pattern


def _rounded(value: float, digits: int) -> Decimal:
    """``value`` rounded to ``digits`` decimals as Python rounds a float (to its nearest
    binary value: 0.05 is a hair above 0.05 and gives 0.1), then written by the locale."""
    return Decimal(f"{value:.{digits}f}")


@lru_cache(maxsize=4096)
def _written(number: Decimal, lang: str, percent: bool, digits: int) -> str:
    """``number`` (a percentage as its fraction) written as ``lang`` writes it; kept, as a
    tap writes some seventy numbers, most of them written before."""
    text: str = _number_pattern(lang, percent, digits).apply(number, _locale(lang))
    return text


def format_decimal(value: float, digits: int = 1, lang: str | None = None) -> str:
    """``6.7`` in English, ``6,7`` in French and Spanish; thousands grouped by the locale."""
    return _written(_rounded(value, digits), lang or current_language(), False, digits)


def _percent(points: float, lang: str, digits: int) -> str:
    """``points`` percent, rounded to ``digits`` decimals, as ``lang`` writes a percentage."""
    return _written(_rounded(points, digits) / 100, lang, True, digits)


def format_whole_percent(probability: float, lang: str | None = None) -> str:
    """A probability in whole percent, for a chart's axis: ``40%``, ``40 %``."""
    return _percent(probability * 100, lang or current_language(), 0)


def format_percent(probability: float, lang: str | None = None) -> str:
    """A probability as players read it: ``79.1%``, ``0%`` when impossible, ``<0.1%`` when tiny.

    Exactly 0 and exactly 1 show without decimals; anything else keeps one decimal and never
    rounds to a misleading ``0.0%`` or ``100.0%``.
    """
    lang = lang or current_language()
    if probability <= 0:
        return _percent(0, lang, 0)
    if probability >= 1:
        return _percent(100, lang, 0)
    if probability < 0.0005:
        return translate(lang, "format.below", value=_percent(0.1, lang, 1))
    if probability >= 0.9995:
        return translate(lang, "format.above", value=_percent(99.9, lang, 1))
    return _percent(probability * 100, lang, 1)


def language_switch(container: DeltaGenerator | None = None) -> str:
    """The language switch (English, Français, Español), bound to ``STATE_KEY``; call after
    :func:`settle_language`."""
    target = container if container is not None else st.sidebar
    lang = current_language()
    target.segmented_control(
        translate(lang, "lang.switch"),
        LANGUAGES,
        format_func=lambda code: translate(code, "lang.name"),
        key=STATE_KEY,
        required=True,
        on_change=_language_switched,
    )
    return current_language()


def _language_switched() -> None:
    """Runs before the rerun: the new choice must beat the link's ``lang``, still the old one."""
    st.session_state[_PICKED_KEY] = True
