"""The drills page's session state (``app_pages/drills.py``): every entry it keeps, typed,
with its key and default (``views.session``)."""

from __future__ import annotations

from typing import Any

from views.session import Field, PageState

DrillSpot = tuple[int, str, int]
"""What picks a drill: its seed, kind and level."""

DEFAULT_ESTIMATE = 50
"""The odds slider's percent until moved."""


class DrillsState(PageState):
    kind: Field[str | None] = Field("drills_kind", None)
    """The kind chosen (``practice.drills.DRILL_KINDS``)."""
    spot: Field[DrillSpot | None] = Field("drills_spot", None)
    """The drill on screen."""
    answer: Field[dict[str, Any] | None] = Field("drills_answer", None)
    """Its grade: ``spot``, ``grade``, ``saved``."""
    estimate = Field("drills_estimate", DEFAULT_ESTIMATE)
    """The odds slider's percent."""

