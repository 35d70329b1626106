"""A player's own dice."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from perudo_math.bid import FACES, PACO


@dataclass(frozen=True, slots=True)
class Hand:
    """The faces a player sees under their own cup, sorted, pacos first."""

    faces: tuple[int, ...]

    def __init__(self, faces: Iterable[int] = ()) -> None:
        values = tuple(faces)
        for face in values:
            if isinstance(face, bool) or not isinstance(face, int) or face not in FACES:
                raise ValueError(f"a die shows 1 (paco) to 6, not {face!r}")
        object.__setattr__(self, "faces", tuple(sorted(values)))

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read a hand written ``1 2 2 5 6``, ``12256`` or ``P,2,2,5,6``."""
        cleaned = text.replace(",", " ").replace("P", "1").replace("p", "1")
        tokens = cleaned.split()
        if len(tokens) == 1 and len(tokens[0]) > 1:
            tokens = list(tokens[0])
        faces = []
        for token in tokens:
            if not token.isdigit():
                raise ValueError(f"a die shows 1 (paco) to 6, not {token!r}")
            faces.append(int(token))
        return cls(faces)

    def __len__(self) -> int:
        return len(self.faces)

    def __iter__(self):
        return iter(self.faces)

    def count(self, face: int, *, palifico: bool = False) -> int:
        """How many of these dice count toward a bid on ``face``."""
        if face not in FACES:
            raise ValueError(f"a die shows 1 (paco) to 6, not {face!r}")
        exact = self.faces.count(face)
        if palifico or face == PACO:
            return exact
        return exact + self.faces.count(PACO)

    def __str__(self) -> str:
        return " ".join(str(face) for face in self.faces)


def as_hand(hand: Hand | Iterable[int]) -> Hand:
    """Accept a :class:`Hand` or any iterable of faces."""
    return hand if isinstance(hand, Hand) else Hand(hand)
