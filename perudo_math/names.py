"""A player's name: printable text on one line. The one rule for every way a name comes in.

Names come from the tracker's set-up, from game links anyone can write and from the stores
(shared tables, resume records, reviews), all through :class:`perudo_math.game.Player`, which
keeps a name as :func:`clean_name` writes it and refuses it as :func:`name_refusal` says. The
pages draw names on a line with other words ("Eve 2 × 3 → Bob 9 × 3"), in Markdown tables,
and the command lines print them, so a name is kept as printable text only:

- every run of white space (a newline, a tab, a line or paragraph separator included) is one
  space, and there is none at either end: a newline cannot end a table row or a log line;
- control and format characters (Unicode categories Cc and Cf: zero-width spaces and
  joiners, the bidi marks, embeddings, overrides and isolates, the soft hyphen, the tag
  characters), lone surrogates and the letters drawn as nothing (Hangul fillers, the blank
  braille cell, the combining grapheme joiner: :data:`DRAWN_AS_NOTHING`) are dropped. No
  name can then reverse the rest of a line (U+202E) or be invisible. The price: an emoji
  joined by U+200D (a family) shows as its separate emoji;
- the name is in Unicode's composed form (NFC): ``e`` + U+0301 is ``é``.

A name is refused (:class:`NameRefusal`) when nothing visible is left (``EMPTY`` when nothing
but spaces was given, ``INVISIBLE`` when only invisible characters were), when it is longer
than :data:`~perudo_math.limits.MAX_NAME_LENGTH` characters, or, at one table, when it is
the same as an earlier player's (``SAME``): names are compared by :func:`name_key`, so
"Ann", "ANN", "Ａｎｎ" (full width) and "Ann" with a variation selector are one name.

Refusals are data (:class:`RefusedName`; :class:`InvalidName` carries one), so each user
interface words them in its own language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from perudo_math.checks import shown, wrong_type
from perudo_math.limits import MAX_NAME_LENGTH

DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
"""Control characters, format characters (zero-width, bidi, soft hyphen, tags) and lone
surrogates: never part of a name."""
DRAWN_AS_NOTHING = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u2800"  # braille pattern blank
)
"""Characters of other categories that draw nothing: never part of a name either."""
_VARIATION_SELECTOR = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
"""Variation selectors: kept in a name (they choose an emoji's look), ignored when comparing."""
_SPACES = re.compile(r"\s+")


class NameRefusal(StrEnum):
    """Why a name is refused."""

    EMPTY = "empty"
    """No name at all: nothing, or spaces only."""
    INVISIBLE = "invisible"
    """Only characters that draw nothing (zero-width spaces, controls...)."""
    TOO_LONG = "too-long"
    """Longer than :data:`MAX_NAME_LENGTH` characters (once cleaned)."""
    SAME = "same"
    """The same name as an earlier player's at the table (:func:`name_key`)."""


@dataclass(frozen=True, slots=True)
class RefusedName:
    """A refused name: why, the name as cleaned, the seat (from 0) when known, and for
    ``SAME`` the earlier seat with that name."""

    refusal: NameRefusal
    name: str
    seat: int | None = None
    same_as: int | None = None

    def __str__(self) -> str:
        if self.refusal is NameRefusal.SAME:
            return f"two players are called {self.name!r}: names must differ"
        if self.refusal is NameRefusal.TOO_LONG:
            return (f"a name may have at most {MAX_NAME_LENGTH} characters, {shown(self.name)} "
                    f"has {len(self.name)}")
        if self.refusal is NameRefusal.INVISIBLE:
            return "a player's name cannot be empty: it has no visible character"
        return "a player's name cannot be empty"


class InvalidName(ValueError):
    """A name refused by :func:`checked_name` or :func:`check_table`; ``refused`` says why."""

    def __init__(self, refused: RefusedName) -> None:
        super().__init__(str(refused))
        self.refused = refused


def _kept(char: str) -> bool:
    return unicodedata.category(char) not in DROPPED_CATEGORIES and char not in DRAWN_AS_NOTHING


def clean_name(text: object) -> str:
    """``text`` as a name is kept (see the module's rule): white space runs made one space,
    invisible and control characters dropped, composed (NFC). ``WrongTypeError`` unless
    ``text`` is a ``str``; no other check (:func:`name_refusal` says if the name is fine)."""
    if not isinstance(text, str):
        raise wrong_type("a player's name", "text", text)
    if text.isascii() and text.isprintable():  # the usual name: only its spaces to tidy
        return " ".join(text.split())
    if (text.isprintable() and DRAWN_AS_NOTHING.isdisjoint(text)
            and unicodedata.is_normalized("NFC", text)):  # no control, format or odd space
        return " ".join(text.split())
    spaced = _SPACES.sub(" ", text)  # before dropping controls: a newline becomes a space
    kept = "".join(char for char in spaced if _kept(char))
    return unicodedata.normalize("NFC", " ".join(kept.split()))


def name_key(name: str) -> str:
    """What two names of one table are compared by: the cleaned name without its variation
    selectors, in compatibility form (NFKC: full-width letters are letters) and case-folded.
    Empty for a name with nothing visible."""
    return _key(clean_name(name))


def _key(name: str) -> str:
    """:func:`name_key` of a name already cleaned."""
    if name.isascii():
        return name.casefold()
    plain = _VARIATION_SELECTOR.sub("", name)
    return " ".join(unicodedata.normalize("NFKC", plain).casefold().split())


def name_refusal(text: object, seat: int | None = None) -> RefusedName | None:
    """Why ``text`` cannot be a player's name, or ``None`` when it can (``seat`` is only
    recorded in the refusal). ``WrongTypeError`` unless ``text`` is a ``str``."""
    return _refusal(text, clean_name(text), seat)


def _refusal(text: object, name: str, seat: int | None) -> RefusedName | None:
    if not _key(name):
        blank = not str(text).strip()
        return RefusedName(NameRefusal.EMPTY if blank else NameRefusal.INVISIBLE, name, seat)
    if len(name) > MAX_NAME_LENGTH:
        return RefusedName(NameRefusal.TOO_LONG, name, seat)
    return None


def checked_name(text: object, seat: int | None = None) -> str:
    """``text`` as a name is kept (:func:`clean_name`); :class:`InvalidName` when refused."""
    name = clean_name(text)
    if name.isascii() and 0 < len(name) <= MAX_NAME_LENGTH:  # the usual name: fine as it is
        return name
    refused = _refusal(text, name, seat)
    if refused is not None:
        raise InvalidName(refused)
    return name


def table_refusals(names: Sequence[object]) -> list[RefusedName]:
    """Every refusal of the names of one table, in seat order: each name's own
    (:func:`name_refusal`), and ``SAME`` for a name an earlier seat already has."""
    refusals: list[RefusedName] = []
    first_seat: dict[str, int] = {}
    for seat, text in enumerate(names):
        name = clean_name(text)
        refused = _refusal(text, name, seat)
        if refused is None:
            key = _key(name)
            if key not in first_seat:
                first_seat[key] = seat
                continue
            refused = RefusedName(NameRefusal.SAME, name, seat, first_seat[key])
        refusals.append(refused)
    return refusals


def check_table(names: Sequence[object]) -> tuple[str, ...]:
    """The names of one table as kept; :class:`InvalidName` for the first refusal."""
    refusals = table_refusals(names)
    if refusals:
        raise InvalidName(refusals[0])
    return tuple(clean_name(text) for text in names)


__all__ = [
    "DRAWN_AS_NOTHING",
    "DROPPED_CATEGORIES",
    "InvalidName",
    "NameRefusal",
    "RefusedName",
    "check_table",
    "checked_name",
    "clean_name",
    "name_key",
    "name_refusal",
    "table_refusals",
]
