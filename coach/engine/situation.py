"""The moves a player may take (:class:`Action`), and what a player knows when it is their turn:
:class:`Situation`, defined in :mod:`perudo_math.situation` (the game gives each player's view,
:meth:`perudo_math.GameState.situation`) and named here too, as the coach's vocabulary."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from perudo_math import Bid, Situation
from perudo_math.checks import sample


class ActionKind(StrEnum):
    """What a move does."""

    RAISE = "raise"
    """Bid higher (or open the round)."""
    DUDO = "dudo"
    """Challenge the last bid."""
    CALZA = "calza"
    """Claim the last bid is exactly right."""


_KIND_BY_WORD = {kind.value: kind for kind in ActionKind}


class InvalidActionError(ValueError):
    """An action that cannot be read or built: an unknown kind, a raise without a bid..."""


@dataclass(frozen=True, slots=True)
class Action:
    """A move: raise to ``bid`` (an opening when there is no bid yet), dudo or calza.

    Written as text, an action is ``dudo``, ``calza`` or its bid (``5x4``): :meth:`parse`
    reads what ``str`` writes. As JSON it is ``{"action": "raise", "bid": "5x4"}`` or
    ``{"action": "dudo"}``: :meth:`from_dict` reads what :meth:`to_dict` writes.
    """

    kind: ActionKind
    bid: Bid | None = None

    def __post_init__(self) -> None:
        kind: ActionKind | None = self.kind
        if kind.__class__ is not ActionKind:  # bots build many actions: keep the check cheap
            kind = _KIND_BY_WORD.get(kind) if isinstance(kind, str) else None
            if kind is None:
                raise InvalidActionError(
                    f"an action is raise, dudo or calza, not {sample(self.kind)}")
            object.__setattr__(self, "kind", kind)
        if kind is ActionKind.RAISE:
            if not isinstance(self.bid, Bid):
                raise InvalidActionError(f"a raise needs a bid, not {sample(self.bid)}")
        elif self.bid is not None:
            raise InvalidActionError(f"{kind} takes no bid, not {sample(self.bid)}")

    @classmethod
    def raise_to(cls, bid: Bid | str) -> Action:
        """A raise to ``bid`` (a :class:`Bid` or its text, ``5x4``)."""
        if isinstance(bid, str):
            try:
                bid = Bid.parse(bid)
            except ValueError as error:
                raise InvalidActionError(str(error)) from None
        return cls(ActionKind.RAISE, bid)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action written ``dudo``, ``calza`` (any case) or a bid, ``5x4`` or ``3xP``."""
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is written dudo, calza or like 5x4, not {text!r}")
        word = text.strip().lower()
        if word in (ActionKind.DUDO, ActionKind.CALZA):
            return cls(ActionKind(word))
        try:
            bid = Bid.parse(text)
        except ValueError as error:
            raise InvalidActionError(
                f"{sample(text)} is not dudo, calza or a bid: {error}") from None
        return cls(ActionKind.RAISE, bid)

    def __str__(self) -> str:
        return str(self.bid) if self.bid is not None else self.kind.value

    def to_dict(self) -> dict[str, str]:
        """``{"action": "raise", "bid": "5x4"}``, ``{"action": "dudo"}`` or
        ``{"action": "calza"}``: the one JSON form of an action."""
        if self.bid is None:
            return {"action": self.kind.value}
        return {"action": self.kind.value, "bid": str(self.bid)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """Read the form :meth:`to_dict` writes, and nothing else."""
        if not isinstance(data, dict):
            raise InvalidActionError(f"an action is a JSON object, not {sample(data)}")
        unknown = sorted(str(key) for key in set(data) - {"action", "bid"})
        if unknown:
            raise InvalidActionError(f"an action has no field {unknown[0][:40]!r}")
        if "action" not in data:
            raise InvalidActionError("an action needs its kind: raise, dudo or calza")
        word = data["action"]
        kind = _KIND_BY_WORD.get(word) if isinstance(word, str) else None
        if kind is None:
            raise InvalidActionError(f"an action is raise, dudo or calza, not {sample(word)}")
        if "bid" not in data:
            return cls(kind)
        bid = data["bid"]
        if not isinstance(bid, str):
            raise InvalidActionError(f"a bid is written like 5x4, not {sample(bid)}")
        try:
            parsed = Bid.parse(bid)
        except ValueError as error:
            raise InvalidActionError(str(error)) from None
        return cls(kind, parsed)


DUDO = Action(ActionKind.DUDO)
CALZA = Action(ActionKind.CALZA)


__all__ = ["CALZA", "DUDO", "Action", "ActionKind", "InvalidActionError", "Situation"]
