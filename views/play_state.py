"""The play page's session state (``app_pages/play.py``): every entry it keeps, typed, with
its key and default (``views.session``). The practice page reads :attr:`PlayState.table` to
offer the way back to a game's review."""

from __future__ import annotations

from coach.play.bot_game import BotTable
from coach.review import GameReview
from views.play_view import DEFAULT_PACE
from views.session import Field, Keyed, PageState

GameKey = tuple[int, tuple[str, ...]]
"""A game of the play page: its seed and its opponents' styles."""
ReviewKey = tuple[int, tuple[str, ...], int]
"""A game and how many moves it had when it was reviewed."""

DEFAULT_COUNT = 3
DEFAULT_STYLES = ("reader", "odds", "liar", "tight", "mix")
"""The opponents' styles in the set-up, by seat, until another is chosen."""


class PlayState(PageState):
    table: Field[BotTable | None] = Field("play_table", None)
    """The game on screen (its review, once over); ``None`` for the set-up."""
    revealed: Field[int | None] = Field("play_revealed", None)
    """How many of the game's moves were shown (``None``: all of them)."""
    count = Field("play_count", DEFAULT_COUNT)
    styles: Keyed[str | None] = Keyed("play_style_", None)
    pace = Field("play_pace", DEFAULT_PACE)
    face: Field[int | None] = Field("play_face", None)
    offset = Field("play_offset", 0)
    flash: Field[str | None] = Field("play_flash", None)
    """Why the player's last move was refused, shown once."""
    finished_here: Field[GameKey | None] = Field("play_finished_here", None)
    review: Field[tuple[ReviewKey, GameReview] | None] = Field("play_review", None)
    kept: Field[GameKey | None] = Field("play_kept", None)
    kept_saved = Field("play_kept_saved", False)

    def has_table(self) -> bool:
        """Whether this session has set the game yet: a fresh session takes the link's."""
        return PlayState.table.key in self.store

    def style(self, seat: int) -> str:
        """The style chosen for the ``seat``-th opponent, or its default."""
        chosen = self.get(PlayState.styles, seat)
        return DEFAULT_STYLES[seat] if chosen is None else chosen

    def keep_style(self, seat: int) -> None:
        """Before the ``seat``-th opponent's selector: its style as last chosen, or its
        default."""
        self.store.setdefault(PlayState.styles.key(seat), DEFAULT_STYLES[seat])

    def take_flash(self) -> str | None:
        """The refusal to show, forgotten once read."""
        flash = self.flash
        del self.flash
        return flash
