"""Rule settings, as named in RULES.md, with their defaults."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any

MIN_PLAYERS = 2
MAX_PLAYERS = 10
MIN_STARTING_DICE = 1
MAX_STARTING_DICE = 10


class RaiseRule(StrEnum):
    """How an ordinary bid may be raised in a normal round."""

    SAME_FACE = "same-face"
    """A higher quantity keeps the face; a higher face keeps the quantity."""
    ANY_FACE = "any-face"
    """A higher quantity with any face, or the same quantity with a higher face."""


class PalificoRule(StrEnum):
    """Which rounds are palifico."""

    ON_DROP = "on-drop"
    """The round right after a player drops from two dice to one."""
    ONCE_PER_PLAYER = "once-per-player"
    """Only the first time each player drops to one die."""
    WHILE_ONE_DIE = "while-one-die"
    """Every round opened by a player holding exactly one die."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every table setting of RULES.md. The defaults are the seeds' rules."""

    starting_dice: int = 5
    raise_rule: RaiseRule = RaiseRule.SAME_FACE
    palifico: PalificoRule = PalificoRule.ON_DROP
    palifico_one_die_may_change_face: bool = False
    salsa: bool = False
    calza: bool = True
    calza_out_of_turn: bool = False
    calza_heads_up: bool = False

    def __post_init__(self) -> None:
        dice = self.starting_dice
        if isinstance(dice, bool) or not isinstance(dice, int):
            raise ValueError(f"starting dice must be a whole number, not {dice!r}")
        if not MIN_STARTING_DICE <= dice <= MAX_STARTING_DICE:
            raise ValueError(
                f"starting dice must be from {MIN_STARTING_DICE} to {MAX_STARTING_DICE}, "
                f"not {dice}"
            )
        object.__setattr__(self, "raise_rule", _choice(RaiseRule, self.raise_rule, "raise_rule"))
        object.__setattr__(self, "palifico", _choice(PalificoRule, self.palifico, "palifico"))
        for name in _SWITCHES:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, not {value!r}")

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain JSON values."""
        return {key: (str(value) if isinstance(value, StrEnum) else value)
                for key, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Settings from :meth:`to_dict`; missing keys take their defaults."""
        if not isinstance(data, dict):
            raise ValueError("rule settings must be a mapping of names to values")
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule setting {unknown[0]!r}")
        return cls(**data)

    def changed(self) -> dict[str, Any]:
        """Only the settings that differ from the defaults, as JSON values."""
        default = Rules().to_dict()
        return {key: value for key, value in self.to_dict().items() if default[key] != value}


_SWITCHES = (
    "palifico_one_die_may_change_face",
    "salsa",
    "calza",
    "calza_out_of_turn",
    "calza_heads_up",
)


def _choice(kind: type[StrEnum], value: object, name: str) -> StrEnum:
    try:
        return kind(value)
    except ValueError:
        options = ", ".join(member.value for member in kind)
        raise ValueError(f"{name} must be one of {options}, not {value!r}") from None
