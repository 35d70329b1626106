"""The argument checks of the public API, shared so that every entry point words them alike.

A wrong *type* raises :class:`WrongTypeError`, a wrong *value* a plain ``ValueError``; either
message names the argument and what it expects: ``check_bid: bid must be a Bid or text like
5x4, not int 3``. ``bool`` is never a whole number, and a probability or a strength is a
finite real number (no NaN, no infinity).

Where a bid is an *argument* (``odds``, ``check_bid``, ``GameState.bid``, ``settle_round``...)
its text is accepted too and read by :meth:`Bid.parse`; where a hand is an argument, a
:class:`Hand`, a list of faces or its text (``1 2 5``). Records (a :class:`Bid`'s fields,
the game's events, :class:`~perudo_math.Situation`) hold the checked types only.

Each check takes the argument's name as the message shows it (``"odds: dice"``) and returns
the value. The checks of bids and hands, which also read their text, live with their types:
:func:`perudo_math.bid.as_bid` and :func:`perudo_math.hand.as_hand`. Hot paths test the
common case inline (``bid.__class__ is Bid``) and call a check only when it fails.
"""

from __future__ import annotations

import math
import reprlib
from itertools import islice
from numbers import Real
from typing import Any, TypeGuard

from perudo_math.limits import MAX_TABLE_DICE

_SHORT = reprlib.Repr()
_SHORT.maxstring = 30
_SHORT.maxother = 30
_SHORT.maxlevel = 2
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = _SHORT.maxdict = 4
_LONGEST_INT_SHOWN = 10**30


class WrongTypeError(TypeError, ValueError):
    """An argument of the wrong type.

    A ``TypeError``, and a ``ValueError`` too, so that callers refusing bad input with
    ``except ValueError`` (the command lines, links, the progress store) still refuse it
    with its message rather than crash.
    """


def shown(value: object) -> str:
    """``value`` for an error message: its repr cut short, safe for any object."""
    if is_whole(value) and abs(value) > _LONGEST_INT_SHOWN:  # str() refuses 4,300 digits
        sign = "a negative" if value < 0 else "a"
        return f"{sign} whole number of {_digits(value)} digits"
    try:
        return _SHORT.repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        return f"a {type(value).__name__} object"


def _digits(value: int) -> int:
    return int(abs(value).bit_length() * math.log10(2)) + 1


def described(value: object) -> str:
    """``value`` with its type, for a type error: ``int 3``, ``str '5x4'``, ``None``."""
    if value is None or isinstance(value, bool):
        return repr(value)
    return f"{type(value).__name__} {shown(value)}"


def sample(value: object) -> str:
    """``repr(value)`` cut to 40 characters: what a JSON reader quotes of a value it refuses."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def wrong_type(name: str, expected: str, value: object) -> WrongTypeError:
    """The error for ``value`` given as ``name`` where ``expected`` was wanted."""
    return WrongTypeError(f"{name} must be {expected}, not {described(value)}")


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number: an ``int``, never a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_ascii_digits(text: object, most: int | None = None) -> bool:
    """Whether ``text`` is written in ASCII digits only: one at least, ``most`` at most.

    Every whole number read from text (a link, a command line, a record) is checked with this
    before ``int``: ``str.isdigit`` and ``int`` also take other scripts' digits (``"٣٣٣"``
    is 333, ``"３"`` is 3), ``isdigit`` superscripts (``"³"``, which ``int`` then refuses),
    and ``int`` underscores and spaces; and a bound on the digits keeps ``int`` quick.
    """
    return (isinstance(text, str) and text.isascii() and text.isdigit()
            and (most is None or len(text) <= most))


def require_int(name: str, value: object, low: int | None = None, high: int | None = None,
                ) -> int:
    """``value`` when it is a whole number from ``low`` to ``high`` (each optional)."""
    if not is_whole(value):
        raise wrong_type(name, "a whole number", value)
    assert isinstance(value, int)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must be {_span(low, high)}, not {shown(value)}")
    return value


def require_real(name: str, value: object, low: float, high: float) -> float:
    """``value`` when it is a finite real number from ``low`` to ``high`` (not a bool)."""
    if not _is_real(value):
        raise wrong_type(name, f"a number from {low:g} to {high:g}", value)
    if not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{name} must be a number from {low:g} to {high:g}, not {shown(value)}")
    return value


def _is_real(value: object) -> TypeGuard[float]:
    """Whether ``value`` is a real number (``numbers.Real``, not a bool), which the checks
    treat as a float: the typing of ``numbers`` has no comparisons for ``Real``."""
    return not isinstance(value, bool) and isinstance(value, Real)


def is_iterable(value: object) -> bool:
    """Whether ``iter(value)`` works."""
    try:
        iter(value)  # type: ignore[call-overload]  # any object: iter raises TypeError
    except TypeError:
        return False
    return True


def require_items(name: str, value: object, expected: str, most: int) -> tuple[Any, ...]:
    """The items of ``value``, a list, tuple or other iterable but not text, bytes or a dict;
    at most ``most + 1`` of them are read (an iterator may never end), so that the caller can
    refuse more than ``most``."""
    if isinstance(value, tuple | list):
        return tuple(value[: most + 1])
    if isinstance(value, str | bytes | bytearray | dict):
        raise wrong_type(name, expected, value)
    try:
        items = iter(value)  # type: ignore[call-overload]  # any object: TypeError below
    except TypeError:
        raise wrong_type(name, expected, value) from None
    return tuple(islice(items, most + 1))


def require_face(name: str, value: object) -> int:
    """A die's face, 1 (paco) to 6."""
    if not is_whole(value):
        raise wrong_type(name, "a face from 1 (paco) to 6", value)
    if not 1 <= value <= 6:
        raise ValueError(f"a die shows 1 (paco) to 6, not {shown(value)}")
    assert isinstance(value, int)
    return value


def require_table_dice(name: str, value: object) -> int:
    """The dice on the table, from 1 to :data:`~perudo_math.limits.MAX_TABLE_DICE`."""
    if not is_whole(value):
        raise wrong_type(name, "a whole number of dice", value)
    assert isinstance(value, int)
    if value < 1:
        raise ValueError(f"the table must hold at least one die, not {shown(value)}")
    if value > MAX_TABLE_DICE:
        raise ValueError(f"the table holds at most {MAX_TABLE_DICE} dice, not {shown(value)}")
    return value


def _span(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"at least {low}"
    return f"at most {high}"


__all__ = [
    "WrongTypeError",
    "described",
    "is_ascii_digits",
    "is_iterable",
    "is_whole",
    "require_face",
    "require_int",
    "require_items",
    "require_real",
    "require_table_dice",
    "shown",
    "wrong_type",
]
