"""The learner's profile: an unguessable token kept in the URL, and the progress store.

A profile is known only by its token (``?profile=<token>``): the link is the key, so the
learner bookmarks the page to keep the progress. No page lists or names other profiles.
The token is created on the first answer (or by "start saving my progress"), kept in the
session and written back to the URL on every run of a practice page, so a page switch that
drops query parameters loses nothing.

The store is ``storage.progress.ProgressStore`` at ``$PERUDO_COACH_DB`` (its default
otherwise), opened once per path with ``st.cache_resource``. A file from a newer version of
the app or a damaged file is refused by the store and never written to: the pages say so in
the user's language and practice goes on without saving. Ratings then live in the session
(:data:`_RATINGS_KEY`) so the next level still follows the learner.

This module stays light (streamlit and the catalogs only): the store, the ratings and numpy
are imported when first needed, so the entry script may call :func:`sync` cheaply.
"""

from __future__ import annotations

import re
import sqlite3
from enum import StrEnum
from typing import TYPE_CHECKING

import streamlit as st

from views.i18n import t, tn

if TYPE_CHECKING:
    from practice.rating import Rating
    from storage.progress import Answer, ProgressStore

PARAM = "profile"
"""The URL query parameter that holds the profile token."""

TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What a token looks like (``secrets.token_urlsafe(16)`` gives 22 such characters)."""

_TOKEN_KEY = "profile_token"
"""Session state: the token text from the URL or from a new profile, or ``None``."""
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
    NOT_SAVED = "not-saved"


# --- the token in the URL -----------------------------------------------------------------


def sync() -> None:
    """Read the token from the URL on a fresh session; write it back on every run."""
    state = st.session_state
    if _TOKEN_KEY not in state:
        text = st.query_params.get(PARAM)
        state[_TOKEN_KEY] = text.strip() if isinstance(text, str) and text.strip() else None
    _write_url()


def token() -> str | None:
    """The token in use (it may be unknown or malformed: see :func:`status`)."""
    return st.session_state.get(_TOKEN_KEY)


def is_well_formed(text: str | None) -> bool:
    """Whether ``text`` looks like a profile token."""
    return isinstance(text, str) and TOKEN_PATTERN.fullmatch(text) is not None


def _set_token(value: str | None) -> None:
    st.session_state[_TOKEN_KEY] = value
    _write_url()


def _write_url() -> None:
    value = token()
    params = st.query_params
    if value is None:
        if PARAM in params:
            del params[PARAM]
    elif params.get(PARAM) != value:
        params[PARAM] = value


# --- the store ----------------------------------------------------------------------------


@st.cache_resource(show_spinner=False, max_entries=8)
def _store_at(path: str) -> ProgressStore:
    """The store of ``path``, opened once per server (failures are not cached)."""
    from storage.progress import ProgressStore

    return ProgressStore(path)


def open_store() -> tuple[ProgressStore | None, str | None]:
    """The progress store, or ``None`` and the catalog key of the reason it cannot be used."""
    from storage.progress import (
        CorruptDatabaseError,
        FutureVersionError,
        ProgressStoreError,
        database_path,
    )

    try:
        return _store_at(str(database_path())), None
    except FutureVersionError:
        return None, "profile.error.future"
    except CorruptDatabaseError:
        return None, "profile.error.corrupt"
    except (ProgressStoreError, OSError, sqlite3.Error):
        return None, "profile.error.unavailable"


def store_problem() -> str | None:
    """Why nothing can be saved, in the user's language, or ``None`` when saving works."""
    _, problem = open_store()
    return None if problem is None else t(problem)


def status() -> Status:
    """Where answers go now."""
    store, problem = open_store()
    if store is None or problem is not None:
        return Status.UNAVAILABLE
    value = token()
    if value is None:
        return Status.NONE
    if not is_well_formed(value):
        return Status.MALFORMED
    try:
        return Status.ACTIVE if store.has_profile(value) else Status.UNKNOWN
    except _store_errors():  # the file was replaced or damaged while the app ran
        return Status.UNAVAILABLE


def _store_errors() -> tuple[type[Exception], ...]:
    """What a store call raises when the file cannot be used (not a bug of ours)."""
    from storage.progress import ProgressStoreError

    return (ProgressStoreError, OSError, sqlite3.Error)


def active_store() -> tuple[ProgressStore, str] | None:
    """The store and the token when the profile is known, else ``None``."""
    if status() is not Status.ACTIVE:
        return None
    store, _ = open_store()
    value = token()
    assert store is not None and value is not None
    return store, value


def start_new_profile() -> bool:
    """Create a profile and put its token in the URL; ``False`` when nothing can be saved."""
    store, _ = open_store()
    if store is None:
        return False
    try:
        value = store.create_profile()
    except _store_errors():
        return False
    _set_token(value)
    st.session_state[_CREATED_KEY] = True
    return True


def forget_link() -> None:
    """Drop the token from the session and the URL: go on without saving."""
    _set_token(None)


# --- answers and levels -------------------------------------------------------------------


def _session_ratings() -> dict[str, Rating]:
    return st.session_state.setdefault(_RATINGS_KEY, {})


def record(answer: Answer) -> Saved:
    """Save ``answer``: in the profile, in a new profile on the first answer, or nowhere.

    The session ratings move in every case, so the next level follows the learner even
    when nothing can be saved.
    """
    from practice.rating import Rating, rate_answer

    if answer.level is not None:
        ratings = _session_ratings()
        themes = [answer.theme] + (["overall"] if answer.kind == "scenario" else [])
        for theme in themes:
            ratings[theme] = rate_answer(ratings.get(theme, Rating()), answer.level,
                                         answer.correct)
    created = False
    if status() is Status.NONE:
        created = start_new_profile()
    target = active_store()
    if target is None:
        return Saved.NOT_SAVED
    store, value = target
    try:
        store.record(value, answer)
    except _store_errors():
        return Saved.NOT_SAVED
    return Saved.CREATED if created else Saved.SAVED


def next_level(theme: str) -> int:
    """The level to offer next on ``theme``, from the saved rating or the session's."""
    from practice.rating import Rating
    from practice.rating import next_level as level_for

    target = active_store()
    if target is not None:
        store, value = target
        try:
            return store.next_level(value, theme)
        except _store_errors():
            pass
    return level_for(_session_ratings().get(theme, Rating()))


def answer_count() -> int | None:
    """How many answers the profile holds (``None`` without an active profile)."""
    target = active_store()
    if target is None:
        return None
    store, value = target
    try:
        return sum(row.answers for row in store.theme_stats(value))
    except _store_errors():
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
                      on_click=start_new_profile, width="stretch")
            st.button(t("profile.continue_without"), key="profile_continue",
                      on_click=forget_link, width="stretch")
    elif current is Status.NONE and offer_start:
        with st.container(horizontal=True, vertical_alignment="center", gap="small",
                          key="profile_start_line"):
            st.caption(t("profile.none"), width="stretch")
            st.button(t("profile.start"), key="profile_start", icon=":material/bookmark_add:",
                      on_click=start_new_profile)
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
    "PARAM",
    "TOKEN_PATTERN",
    "Saved",
    "Status",
    "active_store",
    "answer_count",
    "banner",
    "forget_link",
    "is_well_formed",
    "next_level",
    "open_store",
    "record",
    "start_new_profile",
    "status",
    "store_problem",
    "sync",
    "token",
]
