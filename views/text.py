"""User-supplied text inside Streamlit markdown, shown exactly as typed: the one escaping helper.

Player names come from the tracker's set-up and from game links anyone can craft; the pages
show them inside markdown (alerts, headings, tables, captions, button labels). Every such
string goes through :func:`literal` (or :func:`player_name`), so a name such as ``**Bob**``,
``<b>x</b>``, ``[Tap here](http://e.com)``, ``![](http://host/px.png)`` or
``:red[RED] $x^2$`` shows as typed: no link, no image, no colour, no maths. Selectbox options
are plain text in Streamlit and take the name through :func:`isolated` only.

A name is also drawn *isolated* (:func:`isolated`): between the Unicode bidi isolates FSI
(U+2068) and PDI (U+2069), the text-level ``<bdi>`` (Streamlit's markdown allows no HTML), so
a name in a right-to-left script, "דני", keeps the numbers after it in their place
("Eve 2 × 3 → דני 9 × 3"). The names themselves hold no bidi controls
(:mod:`perudo_math.names` drops them), so no name can reorder a line.

:func:`unbroken` keeps a short run such as the bid ``6 × 4`` on one line of a heading.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from typing import TypeVar

from perudo_math import GameState
from views import palette

_PUNCTUATION = frozenset(string.punctuation)
_WORD_JOINER = "\u2060"
_NO_BREAK_SPACE = "\u00a0"
FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
_AUTOLINK = re.compile(r"(?i)(?<=:)(?=//)|(?<=www)(?=\.)|(?=@)")
"""Where GFM would start an autolink (``http://``, ``www.``, ``a@b.c``): a word joiner there
keeps the text as it is but stops the link."""


def literal(text: str) -> str:
    """``text`` as Streamlit markdown that shows it literally, never as markup or a link.

    Every ASCII punctuation mark gets a backslash (CommonMark's escape, which also covers
    Streamlit's ``:color[...]``, ``:emoji:`` and ``$math$`` forms), and an invisible word
    joiner breaks the spots GFM would turn into a link.
    """
    defused = _AUTOLINK.sub(_WORD_JOINER, text)
    return "".join("\\" + char if char in _PUNCTUATION else char for char in defused)


def shown(text: str) -> str:
    """What :func:`literal` markdown displays: the text back, minus the invisible joiners
    and isolates."""
    invisible = (_WORD_JOINER, FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE)
    return "".join(char for char in re.sub(r"\\(.)", r"\1", text) if char not in invisible)


def isolated(text: str) -> str:
    """``text`` drawn in its own direction, whatever surrounds it: between FSI and PDI."""
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"


def name_markdown(name: str) -> str:
    """A player's name as markdown: literal, and isolated."""
    return isolated(literal(name))


def unbroken(text: str) -> str:
    """``text`` with no-break spaces: a phone wraps a heading around it, never inside it
    (``6 × 4`` never ends a line on ``6 ×``)."""
    return text.replace(" ", _NO_BREAK_SPACE)


def player_name(game: GameState, seat: int) -> str:
    """The name at ``seat`` as markdown: literal, and isolated."""
    return name_markdown(game.name(seat))


__all__ = ["elided", "isolated", "literal", "name_markdown", "player_name", "shown", "small",
           "unbroken"]


def small(text: str) -> str:
    """``text`` as a caption inside a larger markdown block: small and grey. A page draws
    one block faster than several elements (each element costs a tap about a millisecond)."""
    return f':small[:color[{text}]{{foreground="{palette.CAPTION}"}}]'


LISTED_BIDS = 40
"""A round's bids shown in full up to this many (every real round); a longer one shows its
first :data:`HEAD_BIDS` and last :data:`TAIL_BIDS`, the bids between counted, not drawn (a
round typed with thousands of bids would make a page of thousands of lines)."""
HEAD_BIDS, TAIL_BIDS = 10, 20
Item = TypeVar("Item")


def elided(items: Sequence[Item]) -> tuple[Sequence[Item], int, Sequence[Item]]:
    """``items`` (a round's bids) as shown: the first ones, how many are left out after them,
    and the last ones; all of them and none left out up to :data:`LISTED_BIDS`."""
    if len(items) <= LISTED_BIDS:
        return items, 0, ()
    return items[:HEAD_BIDS], len(items) - HEAD_BIDS - TAIL_BIDS, items[-TAIL_BIDS:]
