"""Dice as players see them: die faces, and faces in bid notation (the paco written P)."""

from __future__ import annotations

from collections.abc import Sequence

from perudo_math import face_name

FACE_GLYPHS: dict[int, str] = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}
"""Die faces as players see them (the paco is the one-pip face, written P in bids).

Plain Unicode die faces, not emoji: they render with the default fonts of phones and of a
bare Linux box alike (DejaVu), where the parrot emoji may be missing.
"""


def face_label(face: int) -> str:
    """A face as a button shows it: the die glyph and its bid notation, ``⚃ 4``, ``⚀ P``."""
    return f"{FACE_GLYPHS[face]} {face_name(face)}"


def hand_text(hand: Sequence[int]) -> str:
    """A hand in bid notation, pacos first: ``P 2 2 5 6``."""
    return " ".join(face_name(face) for face in sorted(hand))


def glyphs(faces: Sequence[int]) -> str:
    """Dice as die faces, in the order given: ``⚀ ⚃ ⚃ ⚄``."""
    return " ".join(FACE_GLYPHS[face] for face in faces)


__all__ = ["FACE_GLYPHS", "face_label", "glyphs", "hand_text"]
