"""The learner's profile on the practice pages: where the answers go, and the banner that says so.

A profile is known only by its token (``?profile=<token>``): the link is the key, so the
learner bookmarks the page to keep the progress. No page lists or names other profiles.
The token is created on the first answer (or by "start saving my progress") and kept by
``views.url_state`` in the session and the URL. The token format, the store and its
failures are ``storage.profiles``; this module is the Streamlit side: the store opened once
per path (``st.cache_resource``), the ratings kept in the session when nothing can be saved
(:data:`_RATINGS_KEY`, so the next level still follows the learner), and the banner.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

import streamlit as st

from practice.rating import Rating, ratings_after
from practice.rating import next_level as level_for
from storage import profiles
from storage.progress import Answer, GameRecord, ProgressStore
from views import url_state
from views.i18n import t, tn

_CREATED_KEY = "profile_created"
"""Session state: a profile was just created (the page says where the progress is kept)."""
_RATINGS_KEY = "profile_ratings"
"""Session state: ratings by theme when nothing can be saved (no profile, no store)."""


class Status(StrEnum):
    """Where the learner's progress goes."""

    NONE = "none"
    """No profile yet: the first answer creates one."""
    ACTIVE = "active"
    """A known profile: every answer is saved."""
    UNKNOWN = "unknown"
    """The URL's token is well formed but no profile has it."""
    MALFORMED = "malformed"
    """The URL's ``profile`` is not a token at all."""
    UNAVAILABLE = "unavailable"
    """The progress file cannot be used: nothing is saved (see :func:`store_problem`)."""


class Saved(StrEnum):
    """What :func:`record` did with an answer."""

    SAVED = "saved"
    CREATED = "created"
    """Saved in a profile created for it."""
    REPEAT = "repeat"
    """Kept already: the profile had answered this spot (or kept this game) before."""
    NOT_SAVED = "not-saved"


# --- the store ----------------------------------------------------------------------------


@st.cache_resource(show_spinner=False, max_entries=8)
def _store_at(location: str) -> ProgressStore:
    """The store at ``location``, opened once per server (failures are not cached)."""
    return profiles.open_store(location)


def open_store() -> tuple[ProgressStore | None, profiles.StoreProblem | None]:
    """The progress store, or ``None`` and the reason it cannot be used."""
    try:
        return _store_at(profiles.store_location()), None
    except profiles.STORE_ERRORS as error:
        return None, profiles.problem_of(error)


def store_problem() -> str | None:
    """Why nothing can be saved, in the user's language, or ``None`` when saving works."""
    _, problem = open_store()
    return None if problem is None else t(f"profile.error.{problem}")


def status() -> Status:
    """Where answers go now."""
    store, _ = open_store()
    if store is None:
        return Status.UNAVAILABLE
    if url_state.token_refused():
        return Status.MALFORMED
    token = url_state.current_token()
    if token is None:
        return Status.NONE
    try:
        return Status.ACTIVE if store.has_profile(token) else Status.UNKNOWN
    except profiles.STORE_ERRORS:  # the file was replaced or damaged while the app ran
        return Status.UNAVAILABLE


def active_store() -> tuple[ProgressStore, str] | None:
    """The store and the token when the profile is known, else ``None``."""
    if status() is not Status.ACTIVE:
        return None
    store, _ = open_store()
    token = url_state.current_token()
    assert store is not None and token is not None
    return store, token


def start_new_profile() -> bool:
    """Create a profile and put its token in the URL; ``False`` when nothing can be saved."""
    store, _ = open_store()
    if store is None:
        return False
    try:
        token = store.create_profile()
    except profiles.STORE_ERRORS:
        return False
    url_state.set_token(token)
    st.session_state[_CREATED_KEY] = True
    return True


def _start_new_profile() -> None:
    """:func:`start_new_profile` as a button's callback, which returns nothing."""
    start_new_profile()


def forget_link() -> None:
    """Drop the token from the session and the URL: go on without saving."""
    url_state.set_token(None)


# --- answers and levels -------------------------------------------------------------------


def _session_ratings() -> dict[str, Rating]:
    return st.session_state.setdefault(_RATINGS_KEY, {})


def record(answer: Answer) -> Saved:
    """Save ``answer``: in the profile, in a new profile on the first answer, or nowhere.

    The session ratings move unless the profile had answered this spot already, so the
    next level follows the learner even when nothing can be saved.
    """
    saved = _save(lambda store, token: store.record(token, answer) is not None)
    if saved is not Saved.REPEAT:
        ratings = _session_ratings()
        ratings.update(ratings_after(ratings, answer.kind, answer.theme, answer.level,
                                     answer.correct))
    return saved


def record_game(game: GameRecord) -> Saved:
    """Keep a finished game against the bots in the profile (created for it when there is
    none yet), once however many times its end is shown."""
    return _save(lambda store, token: store.record_game(token, game))


def _save(write: Callable[[ProgressStore, str], bool]) -> Saved:
    """``write`` into the profile, created for it when there is none yet (``write``
    returns ``False`` when the profile kept the same record already)."""
    created = False
    if status() is Status.NONE:
        created = start_new_profile()
    target = active_store()
    if target is None:
        return Saved.NOT_SAVED
    store, token = target
    try:
        stored = write(store, token)
    except profiles.STORE_ERRORS:
        return Saved.NOT_SAVED
    if not stored:
        return Saved.REPEAT
    return Saved.CREATED if created else Saved.SAVED


def next_level(theme: str) -> int:
    """The level to offer next on ``theme``, from the saved rating or the session's."""
    target = active_store()
    if target is not None:
        store, token = target
        try:
            return store.next_level(token, theme)
        except profiles.STORE_ERRORS:
            pass
    return level_for(_session_ratings().get(theme, Rating()))


def answer_count() -> int | None:
    """How many answers the profile holds (``None`` without an active profile)."""
    target = active_store()
    if target is None:
        return None
    store, token = target
    try:
        return sum(row.answers for row in store.theme_stats(token))
    except profiles.STORE_ERRORS:
        return None


# --- what the pages show ------------------------------------------------------------------


def banner(*, offer_start: bool = True) -> Status:
    """The profile's state in words, with the buttons that fix a broken link.

    Unknown or malformed link: a message and "start a new profile" / "continue without
    saving". No profile: "start saving my progress" (when ``offer_start``). A file that
    cannot be used: a warning, and practice goes on. Returns the status.
    """
    current = status()
    if current is Status.UNAVAILABLE:
        st.warning(store_problem() or t("profile.error.unavailable"), icon=":material/warning:")
    elif current in (Status.UNKNOWN, Status.MALFORMED):
        key = "profile.unknown" if current is Status.UNKNOWN else "profile.malformed"
        st.warning(t(key), icon=":material/link_off:")
        with st.container(horizontal=True, gap="small", key="profile_fix"):
            st.button(t("profile.start_new"), key="profile_start_new", type="primary",
                      on_click=_start_new_profile, width="stretch")
            st.button(t("profile.continue_without"), key="profile_continue",
                      on_click=forget_link, width="stretch")
    elif current is Status.NONE and offer_start:
        with st.container(horizontal=True, vertical_alignment="center", gap="small",
                          key="profile_start_line"):
            st.caption(t("profile.none"), width="stretch")
            st.button(t("profile.start"), key="profile_start", icon=":material/bookmark_add:",
                      on_click=_start_new_profile)
    elif current is Status.ACTIVE:
        if st.session_state.pop(_CREATED_KEY, False):
            st.success(t("profile.created"), icon=":material/bookmark_added:")
        else:
            count = answer_count()
            if count:
                st.caption(tn("profile.saved", count))
            else:
                st.caption(t("profile.bookmark"))
    return current


__all__ = [
    "Saved",
    "Status",
    "active_store",
    "answer_count",
    "banner",
    "forget_link",
    "next_level",
    "open_store",
    "record",
    "start_new_profile",
    "status",
    "store_problem",
]
