"""Bids: "at least `quantity` dice on the table show `face`"."""

from __future__ import annotations

import re
from dataclasses import dataclass

PACO = 1
FACES = (1, 2, 3, 4, 5, 6)
ORDINARY_FACES = (2, 3, 4, 5, 6)

_BID_PATTERN = re.compile(r"^\s*(\d+)\s*[x×*]\s*([1-6pP])\s*$")


def face_name(face: int) -> str:
    """The face in bid notation: ``P`` for the paco, the digit otherwise."""
    return "P" if face == PACO else str(face)


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
        if isinstance(self.quantity, bool) or not isinstance(self.quantity, int):
            raise ValueError(f"bid quantity must be a whole number, not {self.quantity!r}")
        if isinstance(self.face, bool) or not isinstance(self.face, int):
            raise ValueError(f"bid face must be a whole number from 1 to 6, not {self.face!r}")
        if self.quantity < 1:
            raise ValueError(f"bid quantity must be at least 1, not {self.quantity}")
        if self.face not in FACES:
            raise ValueError(f"bid face must be 1 (paco) to 6, not {self.face}")

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read a bid written ``5x4``, ``3xP``, ``3x1`` or ``3×P``."""
        if not isinstance(text, str):
            raise ValueError(f"a bid is written like 5x4 or 3xP, not {text!r}")
        match = _BID_PATTERN.match(text)
        if match is None:
            raise ValueError(f"cannot read bid {text!r}: write it like 5x4 or 3xP")
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
