"""A page's keyed fragments rerun by name from a tap's callback, the rest of the page left
as it is.

A page drawn as keyed fragments (``@st.fragment(key=…)``) lets a tap resend only the parts
that look otherwise once the tap is made: every element resent costs the phone's browser
a few milliseconds, changed or not (``make bench-speed``'s account). A callback names the
parts to rerun with :func:`rerun_parts`; the parts' keys are the pages' own
(``views.odds_inputs.PARTS``, ``views.tracker_actions.PARTS``).
"""

from __future__ import annotations

import streamlit as st


def rerun_parts(*parts: str) -> None:
    """From a tap's callback, once its change is made: rerun the keyed fragments ``parts``
    of the page, nothing else (``st.rerun`` with fragment keys)."""
    st.rerun(list(parts))


__all__ = ["rerun_parts"]
