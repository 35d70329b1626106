"""The state every page shares, kept in the URL: the rule settings and the tracked game.

A reload, a reconnect or a reopened tab finds everything in the URL; the session keeps a
copy so that switching pages (which may drop query parameters) loses nothing. Bad values in
a URL fall back to a fresh start, and the page shows a notice in the user's language.

URL parameters: ``game`` (a :meth:`perudo_math.GameState.to_code` string), ``me`` (the
seat of the player holding this phone in that game) and one short parameter per rule
setting that differs from its default (see :data:`RULE_PARAMS`).
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from perudo_math.game import GameState
from perudo_math.rules import Rules

GAME_PARAM = "game"
SEAT_PARAM = "me"
RULE_PARAMS: dict[str, str] = {
    "starting_dice": "dice",
    "raise_rule": "raise",
    "palifico": "palifico",
    "palifico_one_die_may_change_face": "onedie",
    "salsa": "salsa",
    "calza": "calza",
    "calza_out_of_turn": "calzaany",
    "calza_heads_up": "calza2",
}
_RULES_KEY = "shared_rules"
_GAME_KEY = "shared_game"
_SEAT_KEY = "shared_seat"
_NOTICES_KEY = "shared_notices"
_BOOLEAN_SETTINGS = {"palifico_one_die_may_change_face", "salsa", "calza", "calza_out_of_turn",
                     "calza_heads_up"}


def rules_to_params(rules: Rules) -> dict[str, str]:
    """The URL parameters of the settings that differ from the defaults."""
    params = {}
    for name, value in rules.changed().items():
        if isinstance(value, bool):
            params[RULE_PARAMS[name]] = "1" if value else "0"
        else:
            params[RULE_PARAMS[name]] = str(value)
    return params


def rules_from_params(params: Mapping[str, str]) -> Rules:
    """The rule settings written in URL parameters; ValueError on a value that is not valid."""
    settings: dict[str, object] = {}
    for name, param in RULE_PARAMS.items():
        if param not in params:
            continue
        text = params[param]
        if name in _BOOLEAN_SETTINGS:
            if text not in ("0", "1"):
                raise ValueError(f"{param} must be 0 or 1, not {text!r}")
            settings[name] = text == "1"
        elif name == "starting_dice":
            if not text.isdigit():
                raise ValueError(f"{param} must be a whole number, not {text!r}")
            settings[name] = int(text)
        else:
            settings[name] = text
    return Rules.from_dict(settings)


def sync() -> None:
    """Load the shared state from the URL on a fresh session, and write it back on every run.

    Call once per run from the entry script, before the page runs.
    """
    state = st.session_state
    params = st.query_params
    if _RULES_KEY not in state:
        try:
            state[_RULES_KEY] = rules_from_params(params.to_dict())
        except ValueError:
            state[_RULES_KEY] = Rules()
            _add_notice("notice.bad_rules_link")
    if _GAME_KEY not in state:
        state[_GAME_KEY] = None
        code = params.get(GAME_PARAM)
        if code:
            try:
                state[_GAME_KEY] = GameState.from_code(code)
            except ValueError:
                _add_notice("notice.bad_game_link")
    if _SEAT_KEY not in state:
        state[_SEAT_KEY] = _seat_from_text(params.get(SEAT_PARAM), state[_GAME_KEY])
    _write_url()


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


def _seat_from_text(text: str | None, game: GameState | None) -> int | None:
    if text is None or game is None or not text.isdigit():
        return None
    seat = int(text)
    return seat if seat < len(game.players) else None


def pop_notices() -> list[str]:
    """Catalog keys of the notices to show once (a damaged link, for instance)."""
    return st.session_state.pop(_NOTICES_KEY, [])


def _add_notice(key: str) -> None:
    st.session_state.setdefault(_NOTICES_KEY, []).append(key)


def _write_url() -> None:
    wanted = rules_to_params(current_rules())
    game = current_game()
    if game is not None:
        wanted[GAME_PARAM] = game.to_code()
        if current_seat() is not None:
            wanted[SEAT_PARAM] = str(current_seat())
    params = st.query_params
    for param in [*RULE_PARAMS.values(), GAME_PARAM, SEAT_PARAM]:
        if param in wanted:
            if params.get(param) != wanted[param]:
                params[param] = wanted[param]
        elif param in params:
            del params[param]
