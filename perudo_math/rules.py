"""Rule settings, as named in docs/RULES.md, with their defaults and their own description.

:data:`SETTINGS` describes every setting as data (its kind, choices or range, default and
what it depends on): the settings page, the URL and the command lines derive from it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from functools import lru_cache
from typing import Any

from perudo_math.checks import is_ascii_digits, is_whole, shown, wrong_type
from perudo_math.limits import MAX_STARTING_DICE, MIN_STARTING_DICE


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
    """Every table setting of docs/RULES.md. The defaults are the seeds' rules."""

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
        if not is_whole(dice):
            raise wrong_type("starting_dice", "a whole number", dice)
        if not MIN_STARTING_DICE <= dice <= MAX_STARTING_DICE:
            raise ValueError(
                f"starting dice must be from {MIN_STARTING_DICE} to {MAX_STARTING_DICE}, "
                f"not {shown(dice)}"
            )
        object.__setattr__(self, "raise_rule", _choice(RaiseRule, self.raise_rule, "raise_rule"))
        object.__setattr__(self, "palifico", _choice(PalificoRule, self.palifico, "palifico"))
        for name in SWITCHES:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise wrong_type(name, "true or false", value)

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain JSON values."""
        return {key: (str(value) if isinstance(value, StrEnum) else value)
                for key, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Settings from :meth:`to_dict`; missing keys take their defaults."""
        if not isinstance(data, dict):
            raise wrong_type("rule settings", "a mapping of names to values", data)
        known = {field.name for field in fields(cls)}
        unknown = sorted((key for key in data if key not in known), key=shown)
        if unknown:
            raise ValueError(f"unknown rule setting {shown(unknown[0])}")
        return cls(**data)

    def changed(self) -> dict[str, Any]:
        """Only the settings that differ from the defaults, as JSON values."""
        return dict(_changed(self))


@lru_cache(maxsize=256)
def _changed(rules: Rules) -> dict[str, Any]:
    """:meth:`Rules.changed`, worked out once per rules (a situation's seed asks often)."""
    default = Rules().to_dict()
    return {key: value for key, value in rules.to_dict().items() if default[key] != value}


class SettingKind(StrEnum):
    """How a setting is chosen."""

    NUMBER = "number"
    """A whole number from ``minimum`` to ``maximum``."""
    CHOICE = "choice"
    """One of ``choices``."""
    SWITCH = "switch"
    """On or off."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One rule setting described as data.

    ``short`` is its name in links and on command lines (``raise`` for ``raise_rule``);
    ``requires`` names the switch it only matters under (calza out of turn needs calza).
    ``mid_game``: whether a table may change it during a game
    (:class:`~perudo_math.game.RulesChanged`). Every setting may, but the starting dice:
    the players already hold theirs, and the starting count is the ceiling a right calza
    climbs back to, so changing it would deal the game anew. The others only say which
    moves are legal, or whether the next round is palifico, from the change on.
    """

    name: str
    short: str
    kind: SettingKind
    default: int | str | bool
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    requires: str | None = None
    mid_game: bool = True

    def parse(self, text: str) -> int | str | bool:
        """The setting's value written as in a link (``1``/``0`` for a switch); ValueError."""
        if not isinstance(text, str):
            raise ValueError(f"{self.short} must be written as text, not {text!r}")
        match self.kind:
            case SettingKind.SWITCH:
                if text not in ("0", "1"):
                    raise ValueError(f"{self.short} must be 0 or 1, not {text[:20]!r}")
                return text == "1"
            case SettingKind.NUMBER:
                if not is_ascii_digits(text, 4):
                    raise ValueError(f"{self.short} must be a whole number from {self.minimum} "
                                     f"to {self.maximum}, not {text[:20]!r}")
                return int(text)
        if text not in self.choices:
            raise ValueError(f"{self.short} must be one of {', '.join(self.choices)}, "
                             f"not {text[:20]!r}")
        return text

    def format(self, value: int | str | bool) -> str:
        """``value`` written as :meth:`parse` reads it."""
        if self.kind is SettingKind.SWITCH:
            return "1" if value else "0"
        return str(value)


SWITCHES = (
    "palifico_one_die_may_change_face",
    "salsa",
    "calza",
    "calza_out_of_turn",
    "calza_heads_up",
)
"""The on/off settings, in the order the settings page shows them."""

SETTINGS: tuple[Setting, ...] = (
    Setting("starting_dice", "dice", SettingKind.NUMBER, 5,
            minimum=MIN_STARTING_DICE, maximum=MAX_STARTING_DICE, mid_game=False),
    Setting("raise_rule", "raise", SettingKind.CHOICE, RaiseRule.SAME_FACE.value,
            choices=tuple(rule.value for rule in RaiseRule)),
    Setting("palifico", "palifico", SettingKind.CHOICE, PalificoRule.ON_DROP.value,
            choices=tuple(rule.value for rule in PalificoRule)),
    Setting("palifico_one_die_may_change_face", "onedie", SettingKind.SWITCH, False),
    Setting("salsa", "salsa", SettingKind.SWITCH, False),
    Setting("calza", "calza", SettingKind.SWITCH, True),
    Setting("calza_out_of_turn", "calzaany", SettingKind.SWITCH, False, requires="calza"),
    Setting("calza_heads_up", "calza2", SettingKind.SWITCH, False, requires="calza"),
)
"""Every setting of :class:`Rules`, in its field order."""

SETTING_BY_NAME = {setting.name: setting for setting in SETTINGS}
SETTING_BY_SHORT = {setting.short: setting for setting in SETTINGS}


def _choice(kind: type[StrEnum], value: object, name: str) -> StrEnum:
    if isinstance(value, str):
        try:
            return kind(value)
        except ValueError:
            pass
    options = ", ".join(member.value for member in kind)
    if not isinstance(value, str):
        raise wrong_type(name, f"one of {options}", value)
    raise ValueError(f"{name} must be one of {options}, not {shown(value)}")


__all__ = [
    "SETTINGS",
    "SETTING_BY_NAME",
    "SETTING_BY_SHORT",
    "SWITCHES",
    "PalificoRule",
    "RaiseRule",
    "Rules",
    "Setting",
    "SettingKind",
]
