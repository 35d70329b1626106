"""The app's colours, in one place: the theme's and the charts'.

The theme colours repeat ``[theme]`` of ``.streamlit/config.toml`` and the web app manifest
(``static/manifest.webmanifest``); a test keeps the three in step. The charts speak one
colour language on every page: green is what is true or what the coach chooses, orange is
the learner's own move (or weak spot), grey is everything else.
"""

from __future__ import annotations

# --- the theme ------------------------------------------------------------------------------

BRAND = "#b3261e"
"""``theme.primaryColor``: primary buttons, and the phone's status bar once installed."""
INK = "#1f1d1a"
"""``theme.textColor``: text, chart labels, outlines, the dark modules of the QR code."""
PAPER = "#ffffff"
"""``theme.backgroundColor``: the page, and text printed on a dark chart cell."""
CAPTION = "#797776"
"""The ink at 60 % on the paper, as Streamlit draws a caption: a caption inside a block."""

# --- the charts -----------------------------------------------------------------------------

GREEN = "#1b7f4b"
ORANGE = "#c2410c"
GREY = "#b9c0c8"
HEAT_RAMP = ("#d3eecd", "#c0e6ba", "#abdda5", "#94d391", "#7bc77d", "#60ba6c", "#46ab5e",
             "#329a51", "#208943", "#0e7735", "#036429")
"""A chance from 0 (pale) to 1 (dark green), in even steps (Vega's ``greens`` scheme): the
heat map's cells, interpolated between the stops."""

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
