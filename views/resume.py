"""Resume the game in progress on this phone: a new tab or the home-screen icon offers it.

Why a cookie naming a server-side record: Streamlit 1.67 has no browser-storage API, and
``st.context.cookies`` only reads the cookies the browser sent when the page connected. A
game can be longer than a cookie holds (a game code may be 16 kB, a cookie 4 kB), so the
browser keeps only a random device token (:data:`COOKIE`), and the server keeps the game under
the token's hash (``storage.resume``: SQLite beside the progress file, so a record survives a
server restart and expires a week after its last move). The token is the only key: another
phone on the same server has another token, or none, and never sees this phone's game. A
cookie value that is not a token is ignored before the file is touched.

The cookie is written by a one-line script (``st.html`` with ``unsafe_allow_javascript``, as
``views.phone_link`` does for the home-screen tags) once this session has saved a game; it is
first-party, ``SameSite=Strict`` and ``Secure`` on https. Nothing but the token goes into it.

Each run, after ``views.url_state.sync``: :func:`remember` saves the tracked game when it
changed since this session's last save, with the dice I entered in its rounds
(:func:`keep_hands`, for its review). A game dropped for a new one is forgotten, and so is a
game that is over, unless it holds such dice. :func:`resume_prompt` offers, on a session
that tracks no game, the game this device last tracked (never one that is over), until it is
resumed or put aside ("Not now"). A store that cannot be used costs nothing but the offer:
the game is still in its link.

State keys (all ``resume_``): ``device`` (the token in use), ``saved`` (the state last
saved, tried or resumed), ``offer`` (the state on offer and its game, read once; ``None``
when nothing is, or it was put aside).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode

import streamlit as st

from perudo_math import GameState
from perudo_math.checks import is_ascii_digits
from perudo_math.rules import SETTINGS
from storage.profiles import STORE_ERRORS
from storage.resume import (
    KEEP_FOR_S,
    TOKEN_PATTERN,
    ResumeStore,
    is_device_token,
    new_device_token,
    resume_location,
    seal,
    unseal,
)
from views import url_state
from views.i18n import t
from views.navigation import TRACKER_PAGE
from views.text import name_markdown

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

COOKIE = "perudo_coach_device"
"""The cookie that holds this browser's device token, and nothing else."""
MAX_FIELDS = len(SETTINGS) + 3
"""A saved state holds at most every rule setting, the game, the seat and my hands."""
HANDS_FIELD = "hands"
"""My dice in the rounds I entered them in (``1:12446.3:2235``, round: dice), saved with the
game on this device for its review: never in the game's link."""
_HANDS_KEY = "resume_hands"

_DEVICE_KEY = "resume_device"
_SAVED_KEY = "resume_saved"
_OFFER_KEY = "resume_offer"
_LOAD_ERRORS: tuple[type[Exception], ...] = (*STORE_ERRORS, ValueError)
"""What loading a saved game raises: the store's errors, and a damaged save's."""


# --- the store and the token ---------------------------------------------------------------


@st.cache_resource(show_spinner=False, max_entries=8)
def _store_at(location: str) -> ResumeStore:
    """The resume store at ``location``, opened once per server (failures are not cached)."""
    return ResumeStore(location)


def open_store() -> ResumeStore | None:
    """The resume store, or ``None`` when its file cannot be used."""
    try:
        return _store_at(resume_location().url)
    except STORE_ERRORS:
        return None


def sent_cookies() -> Mapping[str, str]:
    """The cookies the browser sent when this page connected."""
    return st.context.cookies


def cookie_token() -> str | None:
    """The device token the browser sent, or ``None`` (none, or not a token)."""
    value = sent_cookies().get(COOKIE)
    return value if is_device_token(value) else None


def device_token() -> str | None:
    """This browser's device token: the session's, else the one its cookie sent."""
    token = st.session_state.get(_DEVICE_KEY) or cookie_token()
    if token is not None:
        st.session_state[_DEVICE_KEY] = token
    return token


def _token_to_keep() -> str:
    """This browser's device token, a new one if it has none (:func:`keep_the_token` then
    hands it to the browser)."""
    token = device_token() or new_device_token()
    st.session_state[_DEVICE_KEY] = token
    return token


def cookie_script(token: str) -> str:
    """The script that keeps ``token`` in this browser for :data:`KEEP_FOR_S` seconds."""
    if not TOKEN_PATTERN.fullmatch(token):
        raise ValueError("not a device token")
    return (
        "<script>document.cookie = "
        f'"{COOKIE}={token}; Max-Age={KEEP_FOR_S}; Path=/; SameSite=Strict"'
        ' + (location.protocol === "https:" ? "; Secure" : "");</script>'
    )


# --- the state saved -----------------------------------------------------------------------


def encode(params: Mapping[str, str]) -> str:
    """A game's parameters (``url_state.game_params``) as the text the store keeps."""
    return urlencode(sorted(params.items()))


def decode(text: str) -> dict[str, str]:
    """The parameters :func:`encode` wrote; ``ValueError`` on anything else."""
    pairs = parse_qsl(text, strict_parsing=True, max_num_fields=MAX_FIELDS)
    params = dict(pairs)
    if len(params) != len(pairs):
        raise ValueError("a parameter is given twice")
    return params


def _resumable(params: Mapping[str, str] | None, game: GameState | None) -> str | None:
    """What to save for the tracked game: the game with my dice, if any, and the shared
    table's code sealed with this device's token (``storage.resume.seal``). A game that is over is
    kept only for the dice its review needs (it is never offered again)."""
    if params is None or game is None:
        return None
    hands = st.session_state.get(_HANDS_KEY)
    if game.is_over and not hands:
        return None
    kept = dict(params)
    if url_state.TABLE_PARAM in kept:
        kept[url_state.TABLE_PARAM] = seal(kept[url_state.TABLE_PARAM], _token_to_keep())
    return encode({**kept, HANDS_FIELD: hands} if hands else kept)


def game_params(saved: Mapping[str, str]) -> dict[str, str]:
    """A saved state's game parameters, as its link holds them (my hands left out, the
    table's code unsealed with this device's token: none, none shared). ``ValueError`` when
    the code does not open (an altered record): the state is refused like any other that
    does not read."""
    params = {name: value for name, value in saved.items() if name != HANDS_FIELD}
    if url_state.TABLE_PARAM in params:
        device = device_token()
        sealed = params.pop(url_state.TABLE_PARAM)
        if device is not None:
            params[url_state.TABLE_PARAM] = unseal(sealed, device)
    return params


def keep_hands(hands: Mapping[int, tuple[int, ...]]) -> None:
    """The dice I entered, by round number, to be saved with the tracked game."""
    st.session_state[_HANDS_KEY] = ".".join(
        f"{number}:{''.join(map(str, faces))}" for number, faces in sorted(hands.items()))


def saved_hands(game: GameState) -> dict[int, tuple[int, ...]]:
    """The dice this device saved for ``game``'s rounds (by round number): those of the
    record of this very game, or of it some moves earlier; none for any other game."""
    token = cookie_token()
    store = open_store() if token is not None else None
    if store is None:
        return {}
    try:
        text = store.load(token)
        if text is None:
            return {}
        params = decode(text)
        saved, _, _ = url_state.read_game(game_params(params))
        return _read_hands(params.get(HANDS_FIELD, "")) if _same_game(saved, game) else {}
    except _LOAD_ERRORS:
        return {}


def _same_game(saved: GameState, game: GameState) -> bool:
    """Whether ``saved`` is ``game``, or the same game a few moves before or after."""
    shorter, longer = sorted((saved.history, game.history), key=len)
    return (saved.restart() == game.restart()
            and longer[:len(shorter)] == shorter)


def _read_hands(text: str) -> dict[int, tuple[int, ...]]:
    hands: dict[int, tuple[int, ...]] = {}
    for item in filter(None, text.split(".")):
        number, colon, faces = item.partition(":")
        if not (colon and is_ascii_digits(number, 4) and is_ascii_digits(faces, 10)
                and set(faces) <= set("123456")):
            raise ValueError("not a hand")
        hands[int(number)] = tuple(int(face) for face in faces)
    return hands


def remember() -> None:
    """Save the tracked game under this device when it changed since the last save; forget
    it when it is over or was dropped. Call once per run, after ``url_state.sync``."""
    state = st.session_state
    game = url_state.current_game()
    if _HANDS_KEY not in state and game is not None:  # a new session keeps the dice saved
        keep_hands(saved_hands(game))
    wanted = _resumable(url_state.game_params(), game)
    saved = state.get(_SAVED_KEY)
    if wanted == saved:
        return
    state[_SAVED_KEY] = wanted  # tried once per change: a store that fails costs one try
    store = open_store()
    if store is None:
        return
    try:
        if wanted is not None:
            state[_OFFER_KEY] = None  # this tab's game replaces the one on offer
            store.save(_token_to_keep(), wanted)
        elif (token := device_token()) is not None:
            store.forget(token)
    except STORE_ERRORS:
        return


def keep_the_token(container: DeltaGenerator | None = None) -> None:
    """Hand the device token to the browser (refreshing its lifetime) once this session has
    saved a game; an empty element: put it at the end of the sidebar."""
    token = st.session_state.get(_DEVICE_KEY)
    if token is None or st.session_state.get(_SAVED_KEY) is None:
        return
    target = container if container is not None else st.sidebar
    target.html(cookie_script(token), unsafe_allow_javascript=True)


# --- the offer -----------------------------------------------------------------------------


def _look_up() -> tuple[str, GameState] | None:
    """The state this device last tracked and its game, if that is a game in progress."""
    token = cookie_token()
    store = open_store() if token is not None else None
    if store is None:
        return None
    try:
        text = store.load(token)
        if text is None:
            return None
        game, _, _ = url_state.read_game(game_params(decode(text)))
    except _LOAD_ERRORS:
        return None
    return None if game.is_over else (text, game)


def offered() -> GameState | None:
    """The game this device can resume, when this session tracks none."""
    state = st.session_state
    if _OFFER_KEY not in state:  # the session's first run: one look-up, no more
        state[_OFFER_KEY] = None if url_state.current_game() is not None else _look_up()
    if state[_OFFER_KEY] is None or url_state.current_game() is not None:
        return None
    return state[_OFFER_KEY][1]


def resume() -> bool:
    """Track the game on offer; ``False`` when there is none, or it no longer reads."""
    state = st.session_state
    offer = state.get(_OFFER_KEY)
    state[_OFFER_KEY] = None
    if offer is None:
        return False
    try:
        url_state.restore_game(game_params(decode(offer[0])))
    except ValueError:  # it read when looked up: only a newer session's change gets here
        return False
    state[_SAVED_KEY] = _resumable(url_state.game_params(), url_state.current_game())
    return True


def put_aside() -> None:
    """"Not now": no offer for the rest of the session; the game stays resumable."""
    st.session_state[_OFFER_KEY] = None


def summary(game: GameState) -> str:
    """``Ann, Bob, Cid — round 3``, names shown as typed."""
    names = ", ".join(name_markdown(player.name) for player in game.players)
    return t("resume.summary", players=names, round=game.round_number)


def resume_prompt() -> None:
    """The offer to resume this device's game in progress, when there is one: one tap takes
    the game back to the tracker."""
    game = offered()
    if game is None:
        return
    with st.container(border=True, key="resume_offer"):
        st.markdown(f"**{t('resume.title')}**")
        st.caption(summary(game))
        with st.container(horizontal=True, gap="small", key="resume_choices"):
            if st.button(t("resume.yes"), key="resume_yes", type="primary",
                         icon=":material/play_arrow:") and resume():
                st.switch_page(TRACKER_PAGE)
            st.button(t("resume.no"), key="resume_no", on_click=put_aside)


__all__ = [
    "COOKIE",
    "cookie_script",
    "cookie_token",
    "decode",
    "device_token",
    "encode",
    "keep_the_token",
    "offered",
    "open_store",
    "put_aside",
    "remember",
    "resume",
    "resume_prompt",
    "sent_cookies",
    "summary",
]
