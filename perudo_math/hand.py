"""A player's own dice."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from perudo_math.bid import FACES, PACO
from perudo_math.checks import (
    is_ascii_digits,
    is_iterable,
    is_whole,
    require_items,
    shown,
    wrong_type,
)
from perudo_math.limits import MAX_TABLE_DICE


@dataclass(frozen=True, slots=True)
class Hand:
    """The faces a player sees under their own cup, sorted, pacos first."""

    faces: tuple[int, ...]

    def __init__(self, faces: Iterable[int] = ()) -> None:
        values = require_items("Hand: faces", faces, "a list of faces 1 (paco) to 6",
                               MAX_TABLE_DICE)
        if len(values) > MAX_TABLE_DICE:
            raise ValueError(f"a hand holds at most {MAX_TABLE_DICE} dice, this one more")
        for face in values:
            if face.__class__ is int and 1 <= face <= 6:
                continue
            if not is_whole(face):
                raise wrong_type("a die of the hand", "a whole number from 1 (paco) to 6", face)
            if face not in FACES:
                raise ValueError(f"a die shows 1 (paco) to 6, not {shown(face)}")
        object.__setattr__(self, "faces", tuple(sorted(values)))

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read a hand written ``1 2 2 5 6``, ``12256`` or ``P,2,2,5,6``."""
        if not isinstance(text, str):
            raise wrong_type("Hand.parse: text", "a hand written like 1 2 2 5 6", text)
        cleaned = text.replace(",", " ").replace("P", "1").replace("p", "1")
        tokens = cleaned.split()
        if len(tokens) == 1 and len(tokens[0]) > 1:
            tokens = list(tokens[0])
        faces = []
        for token in tokens:
            if not is_ascii_digits(token, 4):
                raise ValueError(f"a die shows 1 (paco) to 6, not {shown(token)}")
            faces.append(int(token))
        return cls(faces)

    def __len__(self) -> int:
        return len(self.faces)

    def __iter__(self) -> Iterator[int]:
        return iter(self.faces)

    def count(self, face: int, *, palifico: bool = False) -> int:
        """How many of these dice count toward a bid on ``face``."""
        if face not in FACES:
            raise ValueError(f"a die shows 1 (paco) to 6, not {shown(face)}")
        exact = self.faces.count(face)
        if palifico or face == PACO:
            return exact
        return exact + self.faces.count(PACO)

    def __str__(self) -> str:
        return " ".join(str(face) for face in self.faces)


def as_hand(hand: object, name: str = "hand") -> Hand:
    """The hand given as the argument ``name``: a :class:`Hand`, its text (``1 2 5``, read by
    :meth:`Hand.parse`) or an iterable of faces."""
    if isinstance(hand, Hand):
        return hand
    if not isinstance(hand, list | tuple | str) and (
            isinstance(hand, bytes | bytearray | dict) or not is_iterable(hand)):
        raise wrong_type(name, "a Hand, text like 1 2 5 or a list of faces", hand)
    try:
        if isinstance(hand, str):
            return Hand.parse(hand)
        return Hand(hand)  # type: ignore[arg-type]  # items of any type: Hand refuses them
    except ValueError as error:  # a die's own message, said of this argument
        raise type(error)(f"{name}: {error}") from None
