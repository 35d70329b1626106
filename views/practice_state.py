"""The practice page's session state (``app_pages/practice.py``): every entry it keeps,
typed, with its key and default (``views.session``)."""

from __future__ import annotations

from typing import Any

from perudo_math import Verdict
from views.practice_view import ANY_THEME, Spot
from views.session import Field, PageState

DEFAULT_ESTIMATE = 50
"""The estimate slider's percent until moved."""


class PracticeState(PageState):
    spot: Field[Spot | None] = Field("practice_spot", None)
    """The scenario on screen."""
    answer: Field[dict[str, Any] | None] = Field("practice_answer", None)
    """Its graded answer: ``spot``, ``grade``, ``estimate``, ``saved``."""
    refusal: Field[tuple[Spot, Verdict] | None] = Field("practice_refusal", None)
    """The last illegal raise, and the spot it was tried on."""
    inputs_for: Field[Spot | None] = Field("practice_inputs_for", None)
    """The spot the raise and estimate inputs were reset for."""
    theme: Field[str | None] = Field("practice_theme", None)
    """The filter's theme (:data:`ANY_THEME` for any); ``None`` before the filter is drawn."""
    face: Field[int | None] = Field("practice_face", None)
    """The raise's face."""
    offset: Field[tuple[int | None, int]] = Field("practice_offset", (None, 0))
    """The face whose quantities are paged, and how far."""
    estimate_on = Field("practice_estimate_on", False)
    estimate = Field("practice_estimate", DEFAULT_ESTIMATE)

    def chosen_theme(self) -> str:
        return ANY_THEME if self.theme is None else self.theme

    def reset_inputs(self, face: int, spot: Spot) -> None:
        """Fresh raise and estimate inputs (``face`` picked) when ``spot`` is new; those a
        page switch dropped (the state of widgets not drawn) come back fresh too."""
        fresh = {PracticeState.face.key: face, PracticeState.estimate_on.key: False,
                 PracticeState.estimate.key: DEFAULT_ESTIMATE}
        if self.inputs_for != spot:
            self.store.update(fresh)
            del self.offset
            self.inputs_for = spot
        for key, value in fresh.items():
            self.store.setdefault(key, value)
