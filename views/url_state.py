"""The URL: the one module that reads and writes ``st.query_params``.

A reload, a reconnect or a reopened tab finds everything in the URL; the session keeps a
copy, because a page switch drops the query parameters, and :func:`sync` writes the shared
ones back on every run. The shared parameters:

* ``lang``: the language (:func:`views.i18n.settle_language` weighs the link, the switch
  and the browser's locale);
* one short parameter per rule setting that differs from its default, as
  :data:`perudo_math.rules.SETTINGS` names and writes them (``dice=3``, ``raise=any-face``,
  ``salsa=1``);
* ``game`` (a :meth:`perudo_math.GameState.to_code` string) and ``me`` (the seat of the
  player holding this phone in that game);
* ``profile``: the learner's profile token (see ``storage.profiles``);
* ``share``: the token of the shared table this phone hosts or follows
  (``storage.tables``, ``views.live_table``); the game's code stays in ``game`` as this
  phone's last copy of it.

:func:`game_params` gives the tracked game as its link writes it (the game, my seat and
the table's rules) and :func:`restore_game` tracks such a game again, read by the same
parsers as a link (``views.resume`` keeps it for this device between tabs).

A page's own parameters (the practice page's ``seed``, ``theme`` and ``level``) are read
with :func:`read` and written with :func:`set_page_params`; no page touches another's.

Reading a link: one parse function per kind of value (:func:`whole_number`, :func:`choice`,
:func:`seat`, :func:`game_code`, :func:`token`; the rule settings parse themselves) raises
``ValueError`` on anything else, including Unicode digits (``²``), numbers thousands of
digits long and oversized values. :func:`read` never raises: a refused value leaves the URL
and its notice (a catalog key) waits in :func:`pop_notices` for the page to show.

Widgets are not bound with ``bind="query-params"`` (Streamlit 1.67): a bound choice widget
writes its translated label into the URL (``?lang=Français``, never ``?lang=fr``) and a
bound switch writes ``true`` rather than ``1``, so every link shared so far would be refused;
and a bound parameter leaves the URL at its default and cannot be written here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import streamlit as st

from perudo_math.checks import is_ascii_digits
from perudo_math.game import MAX_CODE_LENGTH, GameState
from perudo_math.rules import SETTINGS, Rules
from storage.profiles import parse_token
from storage.tables import parse_token as parse_table_token
from views import i18n

T = TypeVar("T")
Parse = Callable[[str], T]

LANG_PARAM = "lang"
GAME_PARAM = "game"
SEAT_PARAM = "me"
PROFILE_PARAM = "profile"
TABLE_PARAM = "share"

MAX_VALUE_LENGTH = MAX_CODE_LENGTH
"""No parameter of the app is longer than a game code: a longer value is refused unread."""

BAD_RULES_NOTICE = "notice.bad_rules_link"
BAD_GAME_NOTICE = "notice.bad_game_link"
BAD_SEAT_NOTICE = "notice.bad_seat_link"
BAD_TABLE_NOTICE = "notice.bad_table_link"

_RULES_KEY = "shared_rules"
_GAME_KEY = "shared_game"
_SEAT_KEY = "shared_seat"
_TOKEN_KEY = "shared_token"
_TABLE_KEY = "shared_table"
_TOKEN_REFUSED_KEY = "shared_token_refused"
_NOTICES_KEY = "shared_notices"


# --- one parse function per kind of value ---------------------------------------------------


def whole_number(low: int, high: int) -> Parse[int]:
    """The parser of a whole number from ``low`` to ``high`` (``low`` ≥ 0), in ASCII digits."""
    width = len(str(high))

    def parse(text: str) -> int:
        if not is_ascii_digits(text, width):
            raise ValueError(f"not a whole number from {low} to {high}: {text[:20]!r}")
        number = int(text)
        if not low <= number <= high:
            raise ValueError(f"{number} is not from {low} to {high}")
        return number

    return parse


def choice(options: Sequence[str]) -> Parse[str]:
    """The parser of one of ``options``, written exactly."""

    def parse(text: str) -> str:
        if text not in options:
            raise ValueError(f"not one of {', '.join(options)}: {text[:20]!r}")
        return text

    return parse


def seat(players: int) -> Parse[int]:
    """The parser of a seat at a table of ``players``: ``0`` for the first player."""
    return whole_number(0, players - 1)


def game_code(text: str) -> GameState:
    """A game from its code (:meth:`perudo_math.GameState.from_code`)."""
    if len(text) > MAX_CODE_LENGTH:
        raise ValueError(f"a game code is at most {MAX_CODE_LENGTH} characters, not {len(text)}")
    return GameState.from_code(text)


def token(text: str) -> str:
    """A profile token (:func:`storage.profiles.parse_token`), spaces around it ignored."""
    return parse_token(text.strip())


def table_token(text: str) -> str:
    """A shared table's token (:func:`storage.tables.parse_token`)."""
    return parse_table_token(text)


def rules_to_params(rules: Rules) -> dict[str, str]:
    """The URL parameters of the settings that differ from the defaults."""
    changed = rules.changed()
    return {setting.short: setting.format(changed[setting.name])
            for setting in SETTINGS if setting.name in changed}


def rules_from_params(params: Mapping[str, str]) -> Rules:
    """The rule settings written in URL parameters; ``ValueError`` on a value that is not valid."""
    return Rules.from_dict({setting.name: setting.parse(params[setting.short])
                            for setting in SETTINGS if setting.short in params})


# --- reading and writing the URL -----------------------------------------------------------


def in_link(name: str) -> bool:
    """Whether the URL holds parameter ``name`` (read it with :func:`read`)."""
    return name in st.query_params


def read(name: str, parse: Parse[T], *, notice: str | None = None) -> T | None:
    """The value of parameter ``name``, or ``None`` when the URL has none or it is refused.

    Never raises: a value ``parse`` refuses leaves the URL, and ``notice`` (a catalog key, if
    any) is queued for :func:`pop_notices`.
    """
    text = st.query_params.get(name)
    if text is None:
        return None
    try:
        if len(text) > MAX_VALUE_LENGTH:
            raise ValueError(f"{name} is {len(text)} characters long")
        return parse(text)
    except ValueError:
        _write(name, None)
        if notice is not None:
            _add_notice(notice)
        return None


def set_page_params(params: Mapping[str, str | None]) -> None:
    """Write the current page's own parameters (``None`` removes one)."""
    for name, value in params.items():
        if name in _shared_names():
            raise ValueError(f"{name} is a shared parameter, not a page's own")
        _write(name, value)


def sync() -> None:
    """Once per run, from the entry script before any page: settle the language, take the
    shared state from the URL on a fresh session, and write it back."""
    i18n.settle_language(read(LANG_PARAM, _language))
    state = st.session_state
    if _RULES_KEY not in state:
        state[_RULES_KEY] = _rules_from_link()
    if _GAME_KEY not in state:
        state[_GAME_KEY] = read(GAME_PARAM, game_code, notice=BAD_GAME_NOTICE)
    if _SEAT_KEY not in state:
        game = state[_GAME_KEY]
        state[_SEAT_KEY] = None if game is None else read(
            SEAT_PARAM, seat(len(game.players)), notice=BAD_SEAT_NOTICE)
    if _TOKEN_KEY not in state:
        given = bool(st.query_params.get(PROFILE_PARAM, "").strip())
        state[_TOKEN_KEY] = read(PROFILE_PARAM, token) if given else None
        state[_TOKEN_REFUSED_KEY] = given and state[_TOKEN_KEY] is None
    if _TABLE_KEY not in state:
        state[_TABLE_KEY] = read(TABLE_PARAM, table_token, notice=BAD_TABLE_NOTICE)
    _write_url()


def _language(text: str) -> str:
    return choice(i18n.LANGUAGES)(text.lower())


def _rules_from_link() -> Rules:
    """The link's rules; the defaults, with a notice, when one of them is not valid."""
    given = {setting.short: st.query_params[setting.short]
             for setting in SETTINGS if setting.short in st.query_params}
    try:
        if any(len(text) > MAX_VALUE_LENGTH for text in given.values()):
            raise ValueError("an oversized rule setting")
        return rules_from_params(given)
    except ValueError:
        _add_notice(BAD_RULES_NOTICE)
        return Rules()


def _shared_names() -> tuple[str, ...]:
    return (LANG_PARAM, *(setting.short for setting in SETTINGS), GAME_PARAM, SEAT_PARAM,
            PROFILE_PARAM, TABLE_PARAM)


def _write(name: str, value: str | None) -> None:
    params = st.query_params
    if value is None:
        if name in params:
            del params[name]
    elif params.get(name) != value:
        params[name] = value


def _write_url() -> None:
    wanted = {LANG_PARAM: i18n.current_language(), **rules_to_params(current_rules())}
    wanted |= game_params() or {}
    # a table not read yet (its store away) has no game, but its code stays in the address
    if (table := current_table()) is not None:
        wanted[TABLE_PARAM] = table
    if (token := current_token()) is not None:
        wanted[PROFILE_PARAM] = token
    for name in _shared_names():
        _write(name, wanted.get(name))


# --- the shared state ----------------------------------------------------------------------


def current_rules() -> Rules:
    """The table's rule settings."""
    return st.session_state.get(_RULES_KEY) or Rules()


def set_rules(rules: Rules) -> None:
    """Change the rule settings (a game in progress keeps the rules it started with)."""
    st.session_state[_RULES_KEY] = rules
    _write_url()


def current_game() -> GameState | None:
    """The tracked game, or ``None`` when no game is being tracked."""
    return st.session_state.get(_GAME_KEY)


def set_game(game: GameState | None) -> None:
    """Track ``game`` (``None``: stop tracking) and put it in the URL."""
    st.session_state[_GAME_KEY] = game
    if game is None or not 0 <= (current_seat() or 0) < len(game.players):
        st.session_state[_SEAT_KEY] = None
    _write_url()


def game_params() -> dict[str, str] | None:
    """The tracked game as its link writes it: the game, my seat and the table's rules
    (:func:`restore_game` reads it back); ``None`` when no game is tracked."""
    game = current_game()
    if game is None:
        return None
    params = {**rules_to_params(current_rules()), GAME_PARAM: game.to_code()}
    if current_seat() is not None:
        params[SEAT_PARAM] = str(current_seat())
    if (table := current_table()) is not None:
        params[TABLE_PARAM] = table
    return params


def read_game(params: Mapping[str, str]) -> tuple[GameState, int | None, Rules]:
    """The game, my seat and the table's rules that ``params`` describe (as
    :func:`game_params` wrote them), read by the parsers a link goes through; ``ValueError``
    when one is refused or a parameter is not a game's."""
    rule_names = {setting.short for setting in SETTINGS}
    unknown = set(params) - rule_names - {GAME_PARAM, SEAT_PARAM, TABLE_PARAM}
    if unknown:
        raise ValueError(f"not a game's parameter: {sorted(unknown)[0][:20]!r}")
    if any(len(text) > MAX_VALUE_LENGTH for text in params.values()):
        raise ValueError("an oversized parameter")
    if GAME_PARAM not in params:
        raise ValueError("no game")
    game = game_code(params[GAME_PARAM])
    if TABLE_PARAM in params:
        table_token(params[TABLE_PARAM])
    me = seat(len(game.players))(params[SEAT_PARAM]) if SEAT_PARAM in params else None
    rules = rules_from_params({name: params[name] for name in rule_names if name in params})
    return game, me, rules


def restore_game(params: Mapping[str, str]) -> GameState:
    """Track the game ``params`` describe (:func:`read_game`); ``ValueError``, and nothing
    changed, when one of them is refused."""
    game, me, rules = read_game(params)
    st.session_state[_RULES_KEY] = rules
    st.session_state[_GAME_KEY] = game
    st.session_state[_SEAT_KEY] = me
    st.session_state[_TABLE_KEY] = params.get(TABLE_PARAM)
    _write_url()
    return game


def current_seat() -> int | None:
    """My seat in the tracked game, or ``None`` when I have not said which player I am."""
    return st.session_state.get(_SEAT_KEY)


def set_seat(seat: int | None) -> None:
    """Say which player of the tracked game holds this phone."""
    game = current_game()
    if seat is not None and (game is None or not 0 <= seat < len(game.players)):
        raise ValueError(f"there is no seat {seat} in the tracked game")
    st.session_state[_SEAT_KEY] = seat
    _write_url()


def current_table() -> str | None:
    """The token of the shared table this phone hosts or follows, or ``None``."""
    return st.session_state.get(_TABLE_KEY)


def set_table(token: str | None) -> None:
    """Host or follow the shared table ``token`` (``None``: none) and put it in the URL."""
    st.session_state[_TABLE_KEY] = None if token is None else table_token(token)
    _write_url()


def current_token() -> str | None:
    """The learner's profile token (well formed; the store may not know it)."""
    return st.session_state.get(_TOKEN_KEY)


def token_refused() -> bool:
    """Whether the link's ``profile`` was not a token at all (until :func:`set_token`)."""
    return bool(st.session_state.get(_TOKEN_REFUSED_KEY))


def set_token(value: str | None) -> None:
    """Use profile ``value`` (``None``: none) and put it in the URL."""
    st.session_state[_TOKEN_KEY] = None if value is None else parse_token(value)
    st.session_state[_TOKEN_REFUSED_KEY] = False
    _write_url()


def notify(key: str) -> None:
    """Queue the notice ``key`` (a catalog key) to show once, as a refused value does."""
    _add_notice(key)


def pop_notices() -> list[str]:
    """Catalog keys of the notices to show once (a damaged link, for instance)."""
    return st.session_state.pop(_NOTICES_KEY, [])


def _add_notice(key: str) -> None:
    notices = st.session_state.setdefault(_NOTICES_KEY, [])
    if key not in notices:
        notices.append(key)


__all__ = [
    "GAME_PARAM",
    "LANG_PARAM",
    "MAX_CODE_LENGTH",
    "MAX_VALUE_LENGTH",
    "PROFILE_PARAM",
    "SEAT_PARAM",
    "TABLE_PARAM",
    "choice",
    "current_game",
    "current_rules",
    "current_seat",
    "current_table",
    "current_token",
    "game_code",
    "game_params",
    "in_link",
    "notify",
    "pop_notices",
    "read",
    "read_game",
    "restore_game",
    "rules_from_params",
    "rules_to_params",
    "seat",
    "set_game",
    "set_page_params",
    "set_rules",
    "set_seat",
    "set_table",
    "set_token",
    "sync",
    "token",
    "token_refused",
    "whole_number",
]
