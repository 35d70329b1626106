"""The app's colours, in one place: the theme's and the charts'.

The theme colours repeat ``[theme]`` of ``.streamlit/config.toml`` and the web app manifest
(``static/manifest.webmanifest``); a test keeps the three in step. The charts speak one
colour language on every page: green is what is true or what the coach chooses, orange is
the learner's own move (or weak spot), grey is everything else.

Every eye (``tests/test_palette.py``, WCAG 2.2 AA): text at least 4.5:1 on what it is
printed on, marks at least 3:1 on the page. Green, orange and grey differ in lightness as
well as hue, so that they stay apart under protanopia, deuteranopia and tritanopia (a
CIEDE2000 difference of at least :data:`DISTINCT`, simulated); and no chart says anything by
colour alone (false counts are hatched, the coach's cell is framed, lines carry labels).
"""

from __future__ import annotations

# --- the theme ------------------------------------------------------------------------------

BRAND = "#b3261e"
"""``theme.primaryColor``: primary buttons, and the phone's status bar once installed."""
INK = "#1f1d1a"
"""``theme.textColor``: text, chart labels, outlines, the dark modules of the QR code."""
PAPER = "#ffffff"
"""``theme.backgroundColor``: the page, and text printed on a dark chart cell."""
CAPTION = "#6b6966"
"""A caption: the ink lightened as far as 4.5:1 on the paper allows (Streamlit's own, the
ink at 60 %, reaches 4.46:1)."""

# --- the charts -----------------------------------------------------------------------------

GREEN = "#065f46"
"""Dark: 7.6:1 on the paper."""
ORANGE = "#dd6a10"
"""Light beside the green (3.4:1 on the paper): the two differ in lightness, not only hue."""
GREY = "#858c94"
"""3.4:1 on the paper: a grey bar or line is seen as well as a coloured one."""
HEAT_RAMP = ("#d3eecd", "#c0e6ba", "#abdda5", "#94d391", "#7bc77d", "#60ba6c", "#46ab5e",
             "#329a51")
"""A chance from 0 (pale) to 1 (green), in even steps (the first eight of Vega's ``greens``
scheme): the heat map's cells, interpolated between the stops. It stops where the ink still
reads 4.5:1 on the cell (4.7:1 on the last): darker greens would need white text, and the
greens between read neither."""
DISTINCT = 20.0
"""The least CIEDE2000 difference between two colours that carry a meaning against each
other (true and false, the coach's and mine, mine and the rest), for normal sight and each
simulated colour-blindness: well past the 2.3 of a just-noticeable difference."""

TRUE = GREEN
"""A count that makes the bid true."""
FALSE = GREY
"""A count that makes the bid false."""
COACH = GREEN
"""The coach's choice."""
MINE = ORANGE
"""The learner's own move, answer or weak spot."""
OTHER = GREY
"""Every other move, theme or guide line."""

__all__ = [
    "BRAND",
    "CAPTION",
    "COACH",
    "DISTINCT",
    "FALSE",
    "GREEN",
    "GREY",
    "HEAT_RAMP",
    "INK",
    "MINE",
    "ORANGE",
    "OTHER",
    "PAPER",
    "TRUE",
]
