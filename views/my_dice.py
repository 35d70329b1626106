"""My dice belong to their round: the one owner of the dice this phone entered in a tracked
game.

The advice's keypad (``views.inputs.hand_keys`` with the prefix :data:`KEYPAD`) holds the
dice of the round being played. :func:`settle` runs on every run of the app, before any page
draws, and whenever the tracked round is not the one the keypad's dice were entered for
(another phone recorded a call, an undo, a new game, a new tab), it puts them aside as that
round's and shows this round's instead: the ones entered for it earlier (an undo that goes
back into a round brings its dice back), or none, with a one-line notice asking for as many
dice as this player now holds. No page ever advises from dice of another round.

The dice of each round are kept with the game on this device (``views.resume``, a record on
the server under the device's token, never in a link), so a reload or the home-screen icon
finds this round's dice again; :func:`keep` saves them after each tap on the keypad.

State keys (all ``my_dice_``): ``rounds`` (the dice by :func:`views.tracker_view.round_key`,
for the game in ``game``), ``round`` (the round the keypad's dice belong to), ``game`` (the
game they were entered in) and ``asked`` (the round whose dice were dropped and are asked for).
"""

from __future__ import annotations

import streamlit as st

from perudo_math import GameState
from views import resume, url_state
from views.inputs import entered_hand, set_hand
from views.tracker_view import round_key, round_keys

KEYPAD = "odds"
"""The prefix of the advice's keypad (``views.inputs.hand_keys``)."""

_ROUNDS_KEY = "my_dice_rounds"
_ROUND_KEY = "my_dice_round"
_GAME_KEY = "my_dice_game"
_ASKED_KEY = "my_dice_asked"

Rounds = dict[object, tuple[int, ...]]


def same_game(before: GameState, after: GameState) -> bool:
    """Whether ``after`` is ``before`` a few moves later or earlier (an undo), rather than
    another game: the same start, one history a prefix of the other, and not a game that was
    over followed by a game with no move yet (a new game between the same players)."""
    if before.restart() != after.restart():
        return False
    if before.is_over and not after.history:
        return False
    shorter, longer = sorted((before.history, after.history), key=len)
    return longer[:len(shorter)] == shorter


def _saved_rounds(game: GameState) -> Rounds:
    """The dice this device saved for ``game``'s rounds, by round key."""
    keys = round_keys(game)
    return {keys[number]: hand for number, hand in resume.saved_hands(game).items()
            if number in keys}


def _rounds_for(game: GameState | None) -> Rounds:
    """The dice kept for ``game``'s rounds: this session's while it tracks the same game,
    else the ones saved on this device (a new session, a new tab, a resumed game)."""
    state = st.session_state
    before: GameState | None = state.get(_GAME_KEY)
    state[_GAME_KEY] = game
    if game is None:
        return state.setdefault(_ROUNDS_KEY, {})
    if before is None or not same_game(before, game):
        state[_ROUNDS_KEY] = _saved_rounds(game)
    return state[_ROUNDS_KEY]


def settle(game: GameState | None) -> None:
    """Make the keypad hold the dice of ``game``'s round being played (none when no game is
    tracked, or none were entered for it): call once per run, before the page draws."""
    state = st.session_state
    first_run = _ROUND_KEY not in state
    previous = state.get(_ROUND_KEY)
    hand = entered_hand(KEYPAD)
    current = None if game is None or game.is_over else round_key(game)
    if not first_run and previous == current:
        return
    if previous is not None and hand:
        state.setdefault(_ROUNDS_KEY, {})[previous] = hand
    rounds = _rounds_for(game)
    state[_ROUND_KEY] = current
    if first_run and current is None:
        return  # dice typed for the odds alone, with no game tracked: they stay
    restored = rounds.get(current, ()) if current is not None else ()
    set_hand(KEYPAD, restored)
    state[_ASKED_KEY] = current if hand and not restored and current is not None else None
    _save(game, rounds)


def keep(game: GameState | None) -> None:
    """Note the keypad's dice as the round's being played, and save them on this device:
    call after the keypad, in the part of the page that draws it (a tap reruns that part)."""
    state = st.session_state
    current = state.get(_ROUND_KEY)
    if game is None or current is None:
        return
    rounds = state.setdefault(_ROUNDS_KEY, {})
    hand = entered_hand(KEYPAD)
    if rounds.get(current, ()) == hand:
        return
    if hand:
        rounds[current] = hand
        state[_ASKED_KEY] = None
    else:
        rounds.pop(current, None)
    _save(game, rounds)
    resume.remember()


def _save(game: GameState | None, rounds: Rounds) -> None:
    """Hand the dice of ``game``'s rounds to the device's resume record (by round number)."""
    if game is None:
        return
    numbers = {key: number for number, key in round_keys(game).items()}
    resume.keep_hands({numbers[key]: hand for key, hand in rounds.items() if key in numbers})


def kept(game: GameState) -> Rounds:
    """The dice entered for ``game``'s rounds on this phone, the round being played
    included, by round key (the review reads them)."""
    rounds = dict(st.session_state.get(_ROUNDS_KEY, {}))
    current = st.session_state.get(_ROUND_KEY)
    hand = entered_hand(KEYPAD)
    if current is not None and current == round_key(game) and hand:
        rounds[current] = hand
    return rounds


def asked_for(game: GameState | None) -> int | None:
    """How many dice to ask for in one line, when the round changed under dice entered for
    the last one and none are entered yet (``None``: nothing to say). With no seat said, the
    player to act's."""
    state = st.session_state
    if game is None or game.is_over or entered_hand(KEYPAD):
        return None
    if state.get(_ASKED_KEY) is None or state.get(_ASKED_KEY) != round_key(game):
        return None
    seat = url_state.current_seat()
    if seat is None:
        return 0
    return game.players[seat].dice


__all__ = ["KEYPAD", "asked_for", "keep", "kept", "same_game", "settle"]
