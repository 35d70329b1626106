"""The tracker's set-up: the players in their seats, which one is me, who opens, the raise
rule; then the game starts (``start_game``) with the table's rules on this phone."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from perudo_math import MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS, GameState, RaiseRule, clean_name
from views import live_table, url_state
from views import tracker_view as view
from views.i18n import current_language, t, tn, translate
from views.navigation import RULES_PAGE
from views.style import named_symbol
from views.tracker_actions import commit, fresh_row
from views.tracker_state import NOBODY, TrackerState


def row_label(row: int) -> str:
    state = TrackerState()
    seat = state.rows.index(row) + 1 if row in state.rows else 0
    return clean_name(state.row_name(row)) or t("tracker.setup.player", seat=seat)


def add_row() -> None:
    state = TrackerState()
    if len(state.rows) < MAX_PLAYERS:
        state.rows.append(fresh_row())


def remove_row(row: int) -> None:
    rows = TrackerState().rows
    if len(rows) > MIN_PLAYERS and row in rows:
        rows.remove(row)


def move_up(row: int) -> None:
    order = TrackerState().rows
    index = order.index(row)
    if index > 0:
        order[index - 1], order[index] = order[index], order[index - 1]


def start_game() -> None:
    state = TrackerState()
    rows = state.rows
    chosen = [rows.index(row) for row in (state.opener, state.me) if row in rows]
    names = view.seated_names([state.row_name(row) for row in rows], chosen)
    order = rows[:len(names)]
    problems = view.name_problems(names)
    state.errors = problems
    if problems:
        return
    rolled = state.opener not in order
    opener = view.roll_opener(len(order)) if rolled else order.index(state.opener)
    me_row = state.me
    game = GameState.new(names, url_state.current_rules(), opener)
    if not commit(game):
        return
    url_state.set_seat(order.index(me_row) if me_row in order else None)
    if rolled:
        state.flash("top", "info", t("tracker.setup.rolled", name=view.name_of(game, opener)))


def seat_choice(key: str, chosen: int, label: str, nobody: str) -> None:
    """A choice of one player of the set-up, or ``nobody``: the rows offered are the named
    ones, and the one chosen already (an empty row at the end is no seat until chosen)."""
    state = TrackerState()
    # Labels fixed at render time: a selectbox stores its choice by label.
    labels = {NOBODY: nobody, **{row: row_label(row) for row in state.rows}}
    offered = [row for row in state.rows if state.row_name(row) or row == chosen]
    st.selectbox(label, [NOBODY, *offered], key=key, format_func=labels.__getitem__,
                 persist_state="session")


def raise_rule_choice() -> None:
    """The raise rule, asked in one tap with the example that tells the two apart. The
    choice is the table's rules on this phone (``url_state``: the session and the link), so
    the next game's set-up asks with it already picked."""
    TrackerState().raise_rule = url_state.current_rules().raise_rule.value
    lang = current_language()  # bound: the labels may be formatted outside this run
    choices = [rule.value for rule in RaiseRule]
    st.radio(view.raise_question(), choices, key=TrackerState.raise_rule.key,
             on_change=raise_rule_chosen,
             format_func=lambda rule: translate(lang, f"tracker.setup.raise.{rule}"),
             captions=[t(f"tracker.setup.raise.{rule}.help") for rule in choices])


def raise_rule_chosen() -> None:
    rules, chosen = url_state.current_rules(), TrackerState().raise_rule
    if chosen is not None:
        url_state.set_rules(replace(rules, raise_rule=RaiseRule(chosen)))


def player_rows() -> None:
    """A name box per seat, each with its move-up and remove buttons; then "Add a player"."""
    order = TrackerState().rows
    for index, row in enumerate(order):
        seat = index + 1
        with st.container(horizontal=True, gap="xsmall", vertical_alignment="bottom",
                          key=f"tracker_row_{row}"):
            st.text_input(
                t("tracker.setup.player", seat=seat),
                key=TrackerState.names.key(row),
                max_chars=MAX_NAME_LENGTH,
                placeholder=t("tracker.setup.player", seat=seat),
                label_visibility="collapsed",
                persist_state="session",
            )
            st.button(named_symbol("↑", t("tracker.setup.move_up.name", seat=seat)),
                      key=f"tracker_up_{row}", on_click=move_up, args=(row,),
                      disabled=index == 0, help=t("tracker.setup.move_up"))
            st.button(named_symbol("✕", t("tracker.setup.remove.name", seat=seat)),
                      key=f"tracker_remove_{row}", on_click=remove_row, args=(row,),
                      disabled=len(order) <= MIN_PLAYERS, help=t("tracker.setup.remove"))
    full = len(order) >= MAX_PLAYERS
    st.button(t("tracker.setup.add"), key="tracker_add", icon=":material/person_add:",
              on_click=add_row, disabled=full)
    if full:
        st.caption(t("tracker.setup.full", max=MAX_PLAYERS))


def setup() -> None:
    """The set-up form, down to its Start button."""
    if live_table.setting_up_next():
        st.info(t("live.next_game.host"), icon=":material/share:")
    st.caption(t("tracker.setup.intro"))
    player_rows()
    state = TrackerState()
    seat_choice(TrackerState.me.key, state.me, t("tracker.setup.me"), t("tracker.setup.nobody"))
    seat_choice(TrackerState.opener.key, state.opener, t("tracker.setup.opener"),
                t("tracker.setup.roll"))
    raise_rule_choice()
    st.caption(tn("rules.setting.dice", url_state.current_rules().starting_dice))
    st.page_link(page=RULES_PAGE, label=t("tracker.setup.rules_link"),
                 icon=":material/menu_book:")
    for problem in state.errors:
        st.error(problem, icon=":material/block:")
    st.button(t("tracker.setup.start"), key="tracker_start", type="primary",
              icon=":material/play_arrow:", on_click=start_game, width="stretch")
