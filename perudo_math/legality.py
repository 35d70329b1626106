"""Which bids may be made: openings, raises and the reasons a bid is refused."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import islice

from perudo_math.bid import FACES, PACO, Bid, as_bid, as_optional_bid, face_name
from perudo_math.checks import is_iterable, is_whole, require_table_dice, shown, wrong_type
from perudo_math.limits import MAX_MOVES, MAX_TABLE_DICE
from perudo_math.rules import RaiseRule, Rules

DEFAULT_RULES = Rules()


class Refusal(StrEnum):
    """Why a bid is not legal; the app words each one in the player's language."""

    OPEN_ON_PACOS = "open-on-pacos"
    QUANTITY_TOO_LOW = "quantity-too-low"
    FACE_MUST_RISE = "face-must-rise"
    QUANTITY_MUST_STAY = "quantity-must-stay"
    PACOS_TOO_FEW = "pacos-too-few"
    ORDINARY_TOO_FEW = "ordinary-too-few"
    PALIFICO_FACE_FROZEN = "palifico-face-frozen"
    NOT_HIGHER = "not-higher"


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a bid is legal; when not, why, and the smallest fix where there is one.

    ``minimum`` is the smallest legal bid on the same face when one exists (for
    example 7 × 4 after 3 × P), else ``None``.
    """

    legal: bool
    refusal: Refusal | None = None
    bid: Bid | None = None
    previous: Bid | None = None
    minimum: Bid | None = None

    def __bool__(self) -> bool:
        return self.legal

    @property
    def offers_no_higher_face(self) -> bool:
        """A lower face was refused after the highest face (after 2 × 6): the only fixes are
        more of that face or pacos, never "a higher face"."""
        return (self.refusal is Refusal.FACE_MUST_RISE and self.previous is not None
                and self.previous.face == FACES[-1])

    @property
    def reason(self) -> str:
        """The verdict in plain English words a player understands."""
        if self.legal:
            if self.previous is None:
                return f"{_pretty(self.bid)} is a legal opening bid"
            return f"{_pretty(self.bid)} is a legal raise over {_pretty(self.previous)}"
        assert self.bid is not None
        if self.refusal is Refusal.OPEN_ON_PACOS:
            return "a normal round cannot be opened on pacos: open on a face from 2 to 6"
        previous, minimum = self.previous, self.minimum
        assert previous is not None  # every other refusal is of a raise over a bid
        match self.refusal:
            case Refusal.QUANTITY_TOO_LOW:
                return f"after {_pretty(previous)} you need at least {_pretty(minimum)}"
            case Refusal.FACE_MUST_RISE if self.offers_no_higher_face:
                return (f"after {_pretty(previous)} a lower face is not allowed, and "
                        f"{face_name(previous.face)} is the highest face: bid more "
                        f"{_face_words(previous.face)}, or go to pacos")
            case Refusal.FACE_MUST_RISE:
                return (f"after {_pretty(previous)} a lower face is not allowed: bid more "
                        f"{_face_words(previous.face)}, or {previous.quantity} of a higher face")
            case Refusal.QUANTITY_MUST_STAY:
                return (f"after {_pretty(previous)} a higher face keeps the quantity: "
                        f"bid {_pretty(minimum)}")
            case Refusal.PACOS_TOO_FEW:
                assert minimum is not None  # pacos always have a smallest legal quantity
                return (f"after {_pretty(previous)} you need at least "
                        f"{minimum.quantity} pacos (half of {previous.quantity}, rounded up)")
            case Refusal.ORDINARY_TOO_FEW:
                assert minimum is not None  # after pacos, every face has one
                return (f"after {_pretty(previous)} you need at least "
                        f"{minimum.quantity} of a face (twice the pacos plus one)")
            case Refusal.PALIFICO_FACE_FROZEN:
                return (f"in a palifico round bids stay on {_face_words(previous.face)}: "
                        f"bid at least {_pretty(minimum)}")
            case Refusal.NOT_HIGHER:
                return (f"with one die you may change the face, but the bid must be higher "
                        f"than {_pretty(previous)}: at least {_pretty(minimum)}")
        raise AssertionError(self.refusal)


def check_bid(
    bid: Bid | str,
    previous: Bid | str | None = None,
    *,
    palifico: bool = False,
    rules: Rules = DEFAULT_RULES,
    bidder_dice: int | None = None,
) -> Verdict:
    """Whether ``bid`` is a legal opening (no ``previous``) or raise over ``previous``.

    Bids are :class:`Bid` values or their text (``5x4``). ``bidder_dice`` matters only in
    palifico rounds under the ``palifico_one_die_may_change_face`` setting. A bid above the
    dice on the table breaks no rule (see :func:`exceeds_table`).
    """
    if bid.__class__ is not Bid:
        bid = as_bid(bid, "check_bid: bid")
    previous = _context("check_bid", previous, palifico, rules, bidder_dice)
    return _verdict(bid, previous, palifico, rules, bidder_dice)


def is_legal(
    bid: Bid | str,
    previous: Bid | str | None = None,
    *,
    palifico: bool = False,
    rules: Rules = DEFAULT_RULES,
    bidder_dice: int | None = None,
) -> bool:
    """Shorthand for ``check_bid(...).legal``."""
    if bid.__class__ is not Bid:
        bid = as_bid(bid, "is_legal: bid")
    previous = _context("is_legal", previous, palifico, rules, bidder_dice)
    return _verdict(bid, previous, palifico, rules, bidder_dice).legal


def smallest_raises(
    previous: Bid | str | None,
    *,
    palifico: bool = False,
    rules: Rules = DEFAULT_RULES,
    bidder_dice: int | None = None,
) -> dict[int, Bid]:
    """For each face with a legal bid, the bid with the lowest legal quantity."""
    previous = _context("smallest_raises", previous, palifico, rules, bidder_dice)
    return _smallest_raises(previous, palifico, rules, bidder_dice)


def legal_quantities(
    previous: Bid | str | None,
    table_dice: int,
    *,
    palifico: bool = False,
    rules: Rules = DEFAULT_RULES,
    bidder_dice: int | None = None,
) -> dict[int, range]:
    """For each face with a legal bid up to ``table_dice``, the legal quantities."""
    previous = _context("legal_quantities", previous, palifico, rules, bidder_dice)
    _check_table_dice("legal_quantities", table_dice)
    return _legal_quantities(previous, table_dice, palifico, rules, bidder_dice)


def legal_raises(
    previous: Bid | str | None,
    table_dice: int,
    *,
    palifico: bool = False,
    rules: Rules = DEFAULT_RULES,
    bidder_dice: int | None = None,
) -> list[Bid]:
    """Every legal bid with a quantity up to ``table_dice``, in the plain order."""
    previous = _context("legal_raises", previous, palifico, rules, bidder_dice)
    _check_table_dice("legal_raises", table_dice)
    quantities = _legal_quantities(previous, table_dice, palifico, rules, bidder_dice)
    return sorted(Bid(q, face) for face, span in quantities.items() for q in span)


def exceeds_table(bid: Bid | str, table_dice: int) -> bool:
    """Whether the bid claims more dice than the table holds: legal, but surely false."""
    if bid.__class__ is not Bid:
        bid = as_bid(bid, "exceeds_table: bid")
    _check_table_dice("exceeds_table", table_dice)
    return bid.quantity > table_dice


def useful_range(bids: Iterable[Bid | str], table_dice: int) -> int:
    """How many of a round's bids, from its opening, make its *useful range*: every bid
    before the first one above the dice on the table (all of them when none is).

    A bid above the table is certainly false whatever the cups hold, so a dudo on it wins
    for sure: the round is decided. That bid and every bid after it tell nothing of anyone's
    dice (docs/RULES.md, "A round's useful range"). When every bid is a legal raise, the
    useful range holds at most :func:`most_useful_bids` bids. Bids are :class:`Bid` values
    or their text; a round holds at most ``MAX_MOVES`` of them.
    """
    _check_table_dice("useful_range", table_dice)
    if isinstance(bids, str | bytes | bytearray | dict) or not is_iterable(bids):
        raise wrong_type("useful_range: bids", "a list of bids", bids)
    count = 0
    for bid in islice(bids, MAX_MOVES + 1):
        if bid.__class__ is not Bid:
            bid = as_bid(bid, f"useful_range: bids[{count}]")
        if bid.quantity > table_dice:
            return count
        count += 1
    if count > MAX_MOVES:
        raise ValueError(f"useful_range: a round holds at most {MAX_MOVES} bids, not more")
    return count


def most_useful_bids(table_dice: int) -> int:
    """The most bids a round's useful range can hold when every bid is a legal raise: six
    per die on the table.

    Every legal raise climbs one order of the bids: in a normal round, quantity then face,
    with ``q`` pacos just above ``2q`` of a six (after ``2q`` of any face the smallest paco
    bid is ``q``; after ``q`` pacos the smallest ordinary bid is ``2q + 1``); in a palifico
    round, the plain order. Within the table that order holds six bids per quantity, five
    faces and the pacos, so a round of legal raises cannot stay within the table longer.
    """
    return 6 * require_table_dice("most_useful_bids: table_dice", table_dice)


def _context(where: str, previous: object, palifico: object, rules: object,
             bidder_dice: object) -> Bid | None:
    """The previous bid, once it and the round's context are checked: the same four
    arguments for every function of this module."""
    if previous is not None and previous.__class__ is not Bid:
        previous = as_optional_bid(previous, f"{where}: previous")
    if palifico is not False and palifico is not True:
        raise wrong_type(f"{where}: palifico", "True or False", palifico)
    if not isinstance(rules, Rules):
        raise wrong_type(f"{where}: rules", "a Rules", rules)
    if bidder_dice is not None and (bidder_dice.__class__ is not int or bidder_dice < 1):
        if not is_whole(bidder_dice):
            raise wrong_type(f"{where}: bidder_dice", "None or a whole number", bidder_dice)
        raise ValueError(f"the bidder must hold at least one die, not {shown(bidder_dice)}")
    return previous


def _check_table_dice(where: str, table_dice: object) -> None:
    if table_dice.__class__ is not int or not 1 <= table_dice <= MAX_TABLE_DICE:
        require_table_dice(f"{where}: table_dice", table_dice)


def _smallest_raises(previous: Bid | None, palifico: bool, rules: Rules,
                     bidder_dice: int | None) -> dict[int, Bid]:
    result: dict[int, Bid] = {}
    for face in FACES:
        lowest = _lowest_quantity(face, previous, palifico, rules, bidder_dice)
        if lowest is not None:
            result[face] = Bid(lowest, face)
    return result


def _legal_quantities(previous: Bid | None, table_dice: int, palifico: bool, rules: Rules,
                      bidder_dice: int | None) -> dict[int, range]:
    ranges = {}
    for face, lowest in _smallest_raises(previous, palifico, rules, bidder_dice).items():
        highest = table_dice
        if _quantity_is_pinned(face, previous, palifico, rules):
            highest = min(highest, lowest.quantity)
        if lowest.quantity <= highest:
            ranges[face] = range(lowest.quantity, highest + 1)
    return ranges


def _verdict(bid: Bid, previous: Bid | None, palifico: bool, rules: Rules,
             bidder_dice: int | None) -> Verdict:
    if previous is None:
        if bid.is_paco and not palifico:
            return Verdict(False, Refusal.OPEN_ON_PACOS, bid)
        return Verdict(True, None, bid)
    if palifico:
        return _check_palifico_raise(bid, previous, rules, bidder_dice)
    return _check_normal_raise(bid, previous, rules)


def _check_normal_raise(bid: Bid, previous: Bid, rules: Rules) -> Verdict:
    lowest = _normal_lowest_quantity(bid.face, previous, rules)
    if lowest is not None and bid.quantity >= lowest and _normal_shape_ok(bid, previous, rules):
        return Verdict(True, None, bid, previous)
    minimum = None if lowest is None else Bid(lowest, bid.face)
    if bid.is_paco:
        refusal = Refusal.QUANTITY_TOO_LOW if previous.is_paco else Refusal.PACOS_TOO_FEW
    elif previous.is_paco:
        refusal = Refusal.ORDINARY_TOO_FEW
    elif lowest is None:
        refusal = Refusal.FACE_MUST_RISE
    elif bid.quantity < lowest:
        refusal = Refusal.QUANTITY_TOO_LOW
    else:
        refusal = Refusal.QUANTITY_MUST_STAY
    return Verdict(False, refusal, bid, previous, minimum)


def _normal_shape_ok(bid: Bid, previous: Bid, rules: Rules) -> bool:
    """Under ``same-face``, a higher ordinary face must keep the quantity exactly."""
    if _quantity_is_pinned(bid.face, previous, False, rules):
        return bid.quantity == previous.quantity
    return True


def _quantity_is_pinned(face: int, previous: Bid | None, palifico: bool, rules: Rules) -> bool:
    """Whether only the smallest quantity is legal on ``face`` (a higher face, same-face rule)."""
    return (
        previous is not None
        and not palifico
        and rules.raise_rule is RaiseRule.SAME_FACE
        and face != PACO
        and not previous.is_paco
        and face > previous.face
    )


def _normal_lowest_quantity(face: int, previous: Bid, rules: Rules) -> int | None:
    q = previous.quantity
    if face == PACO:
        return q + 1 if previous.is_paco else (q + 1) // 2
    if previous.is_paco:
        return 2 * q + 1
    if face == previous.face:
        return q + 1
    if face > previous.face:
        return q
    # A lower ordinary face needs a higher quantity, allowed only under any-face.
    return q + 1 if rules.raise_rule is RaiseRule.ANY_FACE else None


def _check_palifico_raise(
    bid: Bid, previous: Bid, rules: Rules, bidder_dice: int | None
) -> Verdict:
    if _may_change_face(rules, bidder_dice):
        if bid > previous:
            return Verdict(True, None, bid, previous)
        return Verdict(False, Refusal.NOT_HIGHER, bid, previous,
                       Bid(_plain_lowest_quantity(bid.face, previous), bid.face))
    minimum = Bid(previous.quantity + 1, previous.face)
    if bid.face != previous.face:
        return Verdict(False, Refusal.PALIFICO_FACE_FROZEN, bid, previous, minimum)
    if bid.quantity <= previous.quantity:
        return Verdict(False, Refusal.QUANTITY_TOO_LOW, bid, previous, minimum)
    return Verdict(True, None, bid, previous)


def _may_change_face(rules: Rules, bidder_dice: int | None) -> bool:
    return rules.palifico_one_die_may_change_face and bidder_dice == 1


def _plain_lowest_quantity(face: int, previous: Bid) -> int:
    return previous.quantity if face > previous.face else previous.quantity + 1


def _lowest_quantity(
    face: int, previous: Bid | None, palifico: bool, rules: Rules, bidder_dice: int | None
) -> int | None:
    if previous is None:
        return None if face == PACO and not palifico else 1
    if palifico:
        if _may_change_face(rules, bidder_dice):
            return _plain_lowest_quantity(face, previous)
        return previous.quantity + 1 if face == previous.face else None
    return _normal_lowest_quantity(face, previous, rules)


def _pretty(bid: Bid | None) -> str:
    assert bid is not None
    return bid.pretty()


def _face_words(face: int) -> str:
    return "pacos" if face == PACO else f"{face}s"


__all__ = [
    "Refusal",
    "Verdict",
    "check_bid",
    "exceeds_table",
    "is_legal",
    "legal_quantities",
    "legal_raises",
    "most_useful_bids",
    "smallest_raises",
    "useful_range",
]
