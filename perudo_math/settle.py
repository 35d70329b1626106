"""How a called bid is settled: who loses a die, who wins one back, whether a calza was right.

:func:`settle_round` is the one place that knows the outcome of a dudo or a calza, the cap
included (a right calza wins a die back only below the starting dice): the game, the coach,
practice and the solver all ask it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from perudo_math.bid import Bid, as_bid
from perudo_math.checks import is_whole, require_items, shown, wrong_type
from perudo_math.limits import MAX_PLAYERS
from perudo_math.moves import CALL_KINDS, CallKind
from perudo_math.rules import Rules


@dataclass(frozen=True, slots=True)
class Settlement:
    """The outcome of a call on ``bid`` (made by ``bidder``) by ``caller``.

    ``count`` is the true count of dice matching the bid. ``loser`` loses a die, ``gainer``
    wins one back (a right calza below the starting dice); at most one of them is set, and
    neither after a right calza at the cap. ``calza_right`` is ``None`` after a dudo.
    ``dice`` holds every seat's dice once the round is settled.
    """

    kind: CallKind
    bid: Bid
    bidder: int
    caller: int
    count: int
    loser: int | None
    gainer: int | None
    calza_right: bool | None
    dice: tuple[int, ...]

    @property
    def eliminated(self) -> int | None:
        """The loser, when that die was their last."""
        return self.loser if self.loser is not None and self.dice[self.loser] == 0 else None


def settle_round(bid: Bid | str, *, bidder: int, caller: int, kind: CallKind, count: int,
                 dice: Sequence[int], rules: Rules) -> Settlement:
    """Settle ``caller``'s ``kind`` call on ``bidder``'s ``bid`` when ``count`` dice match.

    ``dice`` holds every seat's dice before the round is settled. A dudo costs the caller a
    die when the bid is true (``count`` at least its quantity), else the bidder. A calza is
    right when ``count`` equals the quantity: the caller then wins a die back if they hold
    fewer than ``rules.starting_dice``; a wrong calza costs the caller a die. Whether the
    call was allowed is :mod:`perudo_math.moves`' question, not this one. ``bid`` is a
    :class:`Bid` or its text (``5x4``).
    """
    held = _checked_dice(dice)
    if bid.__class__ is not Bid:
        bid = as_bid(bid, "settle_round: bid")
    _check_call(kind, count)
    if not isinstance(rules, Rules):
        raise wrong_type("settle_round: rules", "a Rules", rules)
    _check_seats(held, bidder, caller)
    loser, gainer, calza_right = _outcome(kind, bid, count, held, bidder, caller, rules)
    after = list(held)
    if loser is not None:
        after[loser] -= 1
    if gainer is not None:
        after[gainer] += 1
    return Settlement(kind, bid, bidder, caller, count, loser, gainer, calza_right, tuple(after))


def _check_call(kind: CallKind, count: int) -> None:
    if not isinstance(kind, str):
        raise wrong_type("settle_round: kind", "'dudo' or 'calza'", kind)
    if kind not in CALL_KINDS:
        raise ValueError(f"a call is dudo or calza, not {shown(kind)}")
    if not is_whole(count):
        raise wrong_type("settle_round: count", "a whole number of dice, 0 or more", count)
    if count < 0:
        raise ValueError(f"the count must be a whole number of dice, 0 or more, not {shown(count)}")


def _check_seats(held: tuple[int, ...], bidder: int, caller: int) -> None:
    for role, seat in (("bidder", bidder), ("caller", caller)):
        if not is_whole(seat):
            raise wrong_type(f"settle_round: {role}", f"a seat from 0 to {len(held) - 1}", seat)
        if not 0 <= seat < len(held):
            raise ValueError(f"the {role} must be a seat from 0 to {len(held) - 1}, "
                             f"not {shown(seat)}")
        if held[seat] == 0:
            raise ValueError(f"the {role} at seat {seat} holds no dice")
    if bidder == caller:
        raise ValueError(f"seat {caller} cannot call on their own bid")


def _outcome(kind: CallKind, bid: Bid, count: int, held: tuple[int, ...], bidder: int,
             caller: int, rules: Rules) -> tuple[int | None, int | None, bool | None]:
    """The loser, the gainer and whether a calza was right (see :func:`settle_round`)."""
    if kind == "dudo":
        return (caller if count >= bid.quantity else bidder), None, None
    if count != bid.quantity:
        return caller, None, False
    return None, (caller if held[caller] < rules.starting_dice else None), True


def _checked_dice(dice: Sequence[int]) -> tuple[int, ...]:
    held = require_items("settle_round: dice", dice, "a list of every seat's dice", MAX_PLAYERS)
    if len(held) < 2:
        raise ValueError(f"a round is played by at least two seats, not {len(held)}")
    if len(held) > MAX_PLAYERS:
        raise ValueError(f"a round is played by at most {MAX_PLAYERS} seats, not more")
    for count in held:
        if not is_whole(count):
            raise wrong_type("settle_round: dice", "whole numbers of dice", count)
        if count < 0:
            raise ValueError(f"every seat holds a whole number of dice, not {shown(count)}")
    return held


__all__ = ["Settlement", "settle_round"]
