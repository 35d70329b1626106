"""One table, every phone: the session's side of a shared table (``storage.tables``).

A phone hosts or follows a table through the ``table`` parameter of its link
(:func:`views.url_state.current_table`): the host's link carries the host's token, the
followers' link (:func:`follow_url`, shown with its QR code) the followers' token. While
one is set, the tracked game is the table's:

* :func:`refresh` (every full run, from the entry script) reads the table into the session;
* :func:`record` writes a move over the version this phone last saw; when another phone
  recorded first, the table as it now stands is shown instead, with a message, and nothing
  is written twice;
* :func:`watch` (a fragment run every :data:`POLL_S` seconds) reruns the page when the
  table moved on, so a phone sees another's move within two seconds without a touch. Only a
  full run starts it (:func:`keep_watching`, from the entry script), so a fragment whose tap
  may start or stop sharing (the tracker's Share button) calls :func:`rerun_unless_watched`:
  the host's phone watches the table as every other does;
* a table's link opened while its store cannot be reached keeps its code in the address
  (``views.url_state`` writes it with or without a game); the page shows
  :func:`waiting_note` alone while :func:`waiting`, and opens the table once the watch
  reads it.

Only the public game is stored; this phone's dice stay in its session. Networking and
storage live in ``storage``: this module is the page's wiring.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from urllib.parse import urlencode

import streamlit as st

from perudo_math import GameState
from storage.sql import DatabaseError
from storage.tables import (
    Role,
    SharedTableError,
    SharedTables,
    TableNotFound,
    TableState,
    VersionConflict,
    WriteNotAllowed,
    follow_token_of,
)
from views import url_state
from views.i18n import current_language, t
from views.navigation import TRACKER_URL_PATH

POLL_S = 1.0
"""How often a phone at a shared table looks for a move made on another phone."""
_SEEN_KEY = "live_table_seen"
"""The table as this phone last read it (a :class:`storage.tables.TableState`)."""
_OFFLINE_KEY = "live_table_offline"
_NEXT_GAME_KEY = "live_table_next_game"
"""Set while the host sets up the next game: the table keeps the last one until it starts."""
_WATCHED_KEY = "live_table_watched"
"""The token of the table the last full run started the watch for (``None``: no watch)."""


class Outcome(Enum):
    """What became of a move this phone recorded at a shared table."""

    RECORDED = "recorded"
    CONFLICT = "conflict"  # another phone recorded first: the table as it stands is shown
    READ_ONLY = "read_only"  # a follower while only the host records moves
    GONE = "gone"  # the table expired: the game goes on, on this phone alone
    OFFLINE = "offline"  # the database cannot be reached: nothing recorded, try again


@dataclass(frozen=True, slots=True)
class Recorded:
    game: GameState
    outcome: Outcome


@st.cache_resource(show_spinner=False)
def tables() -> SharedTables:
    """The process's shared-table store (its migrations run once)."""
    return SharedTables()


def seen() -> TableState | None:
    """The table as this phone last read it; ``None`` when it shares none."""
    return st.session_state.get(_SEEN_KEY) if url_state.current_table() else None


_STATUS = {(Role.HOST, False): "live.status.host.host",
           (Role.HOST, True): "live.status.host.everyone",
           (Role.FOLLOWER, False): "live.status.follower.host",
           (Role.FOLLOWER, True): "live.status.follower.everyone"}
"""The status line's catalog key, by (this phone's role, every phone records moves)."""


def hosting() -> bool:
    """Whether this phone hosts a shared table."""
    shared = seen()
    return shared is not None and shared.role is Role.HOST


def following() -> bool:
    """Whether this phone follows a table another phone shares."""
    shared = seen()
    return shared is not None and shared.role is Role.FOLLOWER


def may_record() -> bool:
    """Whether this phone records moves: always, unless it follows a shared table whose host
    records them alone."""
    shared = seen()
    return shared is None or shared.may_write


def status_key() -> str | None:
    """The catalog key of the shared table's status line (who records the moves), or
    ``None`` when this phone shares no table."""
    shared = seen()
    return None if shared is None else _STATUS[shared.role, shared.everyone_writes]


def offline() -> bool:
    """Whether the last attempt to reach the table's database failed."""
    return bool(st.session_state.get(_OFFLINE_KEY))


def waiting() -> bool:
    """Whether this phone holds a table's link that its store has not answered yet: nothing
    of the table is known here, so no game is shown (a move would miss the table), only
    :func:`waiting_note`, until the watch reads the table."""
    return url_state.current_table() is not None and _SEEN_KEY not in st.session_state


def waiting_note() -> None:
    """The table cannot be reached yet: it opens by itself once it answers."""
    st.warning(t("live.waiting"), icon=":material/cloud_off:")


def status_line() -> None:
    """At a shared table: who records the moves, or that it is reconnecting."""
    status = status_key()
    if status is None:
        return
    if offline():
        st.warning(t("live.offline"), icon=":material/cloud_off:")
    else:
        st.caption(t(status))


def host(game: GameState, *, everyone_writes: bool = False) -> Outcome:
    """Share ``game`` as a new table hosted by this phone (:attr:`Outcome.OFFLINE` when the
    database cannot be reached: nothing is shared)."""
    try:
        hosted = tables().host(game.to_code(), everyone_writes=everyone_writes)
        state = tables().open(hosted.host_token)
    except (DatabaseError, SharedTableError):
        st.session_state[_OFFLINE_KEY] = True
        return Outcome.OFFLINE
    st.session_state[_OFFLINE_KEY] = False
    url_state.set_table(hosted.host_token)
    st.session_state[_SEEN_KEY] = state
    return Outcome.RECORDED


def follow_token() -> str | None:
    """The followers' token of the table this phone hosts; ``None`` on a follower's."""
    token = url_state.current_table()
    return follow_token_of(token) if token is not None and hosting() else None


def follow_url(base: str) -> str:
    """The followers' link of the hosted table, on the app at ``base``."""
    token = follow_token()
    if token is None:
        raise ValueError("this phone hosts no table")
    query = urlencode({url_state.TABLE_PARAM: token, url_state.LANG_PARAM: current_language()})
    return f"{base.rstrip('/')}/{TRACKER_URL_PATH}?{query}"


def refresh() -> bool:
    """Read the shared table into the session; returns whether it moved on since this phone
    last read it. A table gone (expired) leaves this phone's copy as a game of its own."""
    token = url_state.current_table()
    if token is None:
        return False
    try:
        state = tables().open(token)
    except TableNotFound:
        leave(notice="notice.table_gone")
        return False
    except DatabaseError:
        st.session_state[_OFFLINE_KEY] = True
        return False
    st.session_state[_OFFLINE_KEY] = False
    before = st.session_state.get(_SEEN_KEY)
    st.session_state[_SEEN_KEY] = state
    moved = before is None or before.version != state.version
    changed = moved or (before is not None  # who may write
                        and before.everyone_writes != state.everyone_writes)
    if setting_up_next():
        return changed
    shown = url_state.current_game()
    if moved or shown is None:
        game = GameState.from_code(state.game)
        if shown is not None and _names(shown) != _names(game):
            url_state.set_seat(None)  # a new game at this table: which player am I, again?
        url_state.set_game(game)
    return changed


def _names(game: GameState) -> tuple[str, ...]:
    return tuple(player.name for player in game.players)


def next_game() -> None:
    """The host goes back to the set-up: the table keeps showing the last game until the
    next one starts (:func:`record` writes it), and every phone at the table follows on."""
    st.session_state[_NEXT_GAME_KEY] = True


def setting_up_next() -> bool:
    """Whether the host is setting up the table's next game."""
    return bool(st.session_state.get(_NEXT_GAME_KEY)) and url_state.current_game() is None


def record(game: GameState) -> Recorded:
    """Write ``game`` (the game after this phone's move) to the shared table."""
    state, token = seen(), url_state.current_table()
    if state is None or token is None:
        return Recorded(game, Outcome.RECORDED)
    try:
        now = tables().record(token, state.version, game.to_code())
    except VersionConflict as conflict:
        if setting_up_next():  # the host's next game replaces the last one, moved or not
            st.session_state[_SEEN_KEY] = conflict.table
            return record(game)
        st.session_state[_SEEN_KEY] = conflict.table
        return Recorded(GameState.from_code(conflict.table.game), Outcome.CONFLICT)
    except WriteNotAllowed:
        return Recorded(GameState.from_code(state.game), Outcome.READ_ONLY)
    except TableNotFound:
        leave(notice="notice.table_gone")
        return Recorded(game, Outcome.GONE)
    except DatabaseError:
        st.session_state[_OFFLINE_KEY] = True
        return Recorded(GameState.from_code(state.game), Outcome.OFFLINE)
    st.session_state[_OFFLINE_KEY] = False
    st.session_state[_SEEN_KEY] = now
    st.session_state.pop(_NEXT_GAME_KEY, None)
    return Recorded(game, Outcome.RECORDED)


def let_everyone_write(everyone: bool) -> Outcome:
    """The host's choice: every phone at the table records moves, or the host's alone."""
    token = url_state.current_table()
    if token is None:
        return Outcome.RECORDED
    try:
        st.session_state[_SEEN_KEY] = tables().let_everyone_write(token, everyone)
    except TableNotFound:
        leave(notice="notice.table_gone")
        return Outcome.GONE
    except (DatabaseError, SharedTableError):
        st.session_state[_OFFLINE_KEY] = True
        return Outcome.OFFLINE
    st.session_state[_OFFLINE_KEY] = False
    return Outcome.RECORDED


def leave(notice: str | None = None) -> None:
    """Stop sharing (or following) the table; this phone keeps its copy of the game."""
    url_state.set_table(None)
    st.session_state.pop(_SEEN_KEY, None)
    st.session_state.pop(_NEXT_GAME_KEY, None)
    if notice is not None:
        url_state.notify(notice)


def keep_watching() -> None:
    """Every full run, from the entry script: watch the table this phone shares, if any."""
    token = url_state.current_table()
    st.session_state[_WATCHED_KEY] = token
    if token is not None:
        watch()


def rerun_unless_watched() -> None:
    """From a fragment a tap reruns alone: when this phone began (or stopped) sharing a
    table since the last full run, run the whole page, whose watch follows the table."""
    if st.session_state.get(_WATCHED_KEY) != url_state.current_table():
        st.rerun(scope="app")


@st.fragment(run_every=POLL_S)
def watch() -> None:
    """Rerun the page when another phone moved the shared table, when it expired, and when
    its database stops or starts answering (the page says it is reconnecting)."""
    if url_state.current_table() is None:
        return
    was_offline = offline()
    if refresh() or url_state.current_table() is None or offline() != was_offline:
        st.rerun()


__all__ = [
    "POLL_S",
    "Outcome",
    "Recorded",
    "Role",
    "follow_token",
    "follow_url",
    "following",
    "host",
    "hosting",
    "keep_watching",
    "leave",
    "let_everyone_write",
    "may_record",
    "next_game",
    "offline",
    "record",
    "refresh",
    "rerun_unless_watched",
    "seen",
    "setting_up_next",
    "status_key",
    "status_line",
    "tables",
    "waiting",
    "waiting_note",
    "watch",
]
