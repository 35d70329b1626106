"""Bids: "at least `quantity` dice on the table show `face`"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from perudo_math.checks import is_whole, shown, wrong_type

PACO = 1
FACES = (1, 2, 3, 4, 5, 6)
ORDINARY_FACES = (2, 3, 4, 5, 6)

_BID_PATTERN = re.compile(r"^\s*([0-9]+)\s*[x×*]\s*([1-6pP])\s*$")
_MOST_DIGITS = 1000
"""The most digits of a bid's quantity: far above any table, and below the 4,300 digits past
which ``str()`` refuses a number, so that every bid can be written and read back."""
_QUANTITY_LIMIT = 10**_MOST_DIGITS


def face_name(face: int) -> str:
    """The face in bid notation: ``P`` for the paco, the digit otherwise."""
    return "P" if face == PACO else str(face)


FACE_PLURALS = ("pacos", "twos", "threes", "fours", "fives", "sixes")


def face_plural(face: int) -> str:
    """The face counted, in English words: ``pacos``, ``fours``."""
    return FACE_PLURALS[face - 1]


@dataclass(frozen=True, order=True, slots=True)
class Bid:
    """A claim that at least ``quantity`` dice on the whole table show ``face``.

    Face 1 is the paco. Bids compare in the plain order: by quantity, then by
    face with pacos lowest. Whether one bid is a legal raise over another
    depends on the round and the rules: see :func:`perudo_math.check_bid`.
    """

    quantity: int
    face: int

    def __post_init__(self) -> None:
        quantity, face = self.quantity, self.face
        if (quantity.__class__ is int and face.__class__ is int
                and 1 <= quantity < _QUANTITY_LIMIT and 1 <= face <= 6):
            return  # the engine builds many bids: the common case costs one test
        if not is_whole(self.quantity):
            raise wrong_type("bid quantity", "a whole number", self.quantity)
        if not is_whole(self.face):
            raise wrong_type("bid face", "a whole number from 1 (paco) to 6", self.face)
        if self.quantity < 1:
            raise ValueError(f"bid quantity must be at least 1, not {shown(self.quantity)}")
        if self.quantity >= _QUANTITY_LIMIT:
            raise ValueError(f"bid quantity must have at most {_MOST_DIGITS} digits, "
                             f"not {shown(self.quantity)}")
        if self.face not in FACES:
            raise ValueError(f"bid face must be 1 (paco) to 6, not {shown(self.face)}")

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read a bid written ``5x4``, ``3xP``, ``3x1`` or ``3×P``."""
        if not isinstance(text, str):
            raise wrong_type("Bid.parse: text", "a bid written like 5x4 or 3xP", text)
        match = _BID_PATTERN.match(text)
        if match is None or len(match[1]) > _MOST_DIGITS:
            raise ValueError(f"cannot read bid {shown(text)}: write it like 5x4 or 3xP")
        quantity_text, face_text = match.groups()
        face = PACO if face_text in "pP" else int(face_text)
        return cls(int(quantity_text), face)

    @property
    def is_paco(self) -> bool:
        """Whether the bid is on pacos."""
        return self.face == PACO

    def __str__(self) -> str:
        return f"{self.quantity}x{face_name(self.face)}"

    def pretty(self) -> str:
        """The bid as players write it: ``5 × 4``, ``3 × P``."""
        return f"{self.quantity} × {face_name(self.face)}"


def as_bid(value: object, name: str) -> Bid:
    """The bid given as the argument ``name``: a :class:`Bid`, or its text (``5x4``)."""
    if isinstance(value, Bid):
        return value
    if isinstance(value, str):
        return _parsed(value, name)
    raise wrong_type(name, "a Bid or text like 5x4 or 3xP", value)


def as_optional_bid(value: object, name: str) -> Bid | None:
    """``None`` (no bid yet), or the bid given as the argument ``name``."""
    if value is None or isinstance(value, Bid):
        return value
    if isinstance(value, str):
        return _parsed(value, name)
    raise wrong_type(name, "None, a Bid or text like 5x4 or 3xP", value)


def _parsed(text: str, name: str) -> Bid:
    try:
        return Bid.parse(text)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
