"""The panels under the tracked game, one chip each: the round log, who bluffs, my moves,
sharing the table, its rules, and the game itself (which one is me, a new game).

A tap on a chip shows its panel, a second tap hides it; only the panel shown is drawn. One
row of chips rather than a stack of expanders: a tap redraws a page as long as it is.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from coach.review import Verdict, decision_rounds, move_outcomes, review, tracked_decisions
from perudo_math import GameState
from perudo_math.rules import SETTINGS, SettingKind
from views import live_table, my_dice, phone_link, practice_view, review_view, rules_view
from views import tracker_view as view
from views.i18n import current_language, t, tn, translate
from views.navigation import PRACTICE_PAGE, RULES_PAGE
from views.tracker_actions import (
    ask_new_game,
    change_rule,
    new_game,
    seat_changed,
    set_everyone_writes,
    share_table,
    show_earlier_rounds,
)
from views.tracker_state import NOBODY, TrackerState


def panel_chips(game: GameState, me: int | None) -> str | None:
    """The row of chips; returns the panel chosen, if any."""
    state = TrackerState()
    options = [name for name in PANELS if name != "review" or me is not None]
    if state.panel not in (None, *options):
        state.close_panel()  # "my moves" of a seat no longer mine
    close_share_once_played(game)
    rounds = len(game.results)
    lang = current_language()  # bound: the labels may be formatted outside this run
    with st.container(key="tracker_chips"):
        return st.pills(t("tracker.panel.label"), options, key=state.panel_key,
                        format_func=lambda name: f"{PANEL_ICONS[name]} "
                        + translate(lang, f"tracker.panel.{name}", count=rounds),
                        label_visibility="collapsed", persist_state="session")


def close_share_once_played(game: GameState) -> None:
    """The share panel (its QR code) closes when the game moves on after it opened: by then
    the phones at the table have joined, and the game needs the room."""
    state = TrackerState()
    if state.panel != "share":
        del state.share_opened_on
    elif state.share_opened_on is None:
        state.share_opened_on = game
    elif state.share_opened_on != game:
        state.close_panel()
        del state.share_opened_on


def log_panel(game: GameState, me: int | None) -> None:
    rounds = view.finished_rounds(game)
    if not rounds:
        st.caption(t("tracker.log.empty"))
    shown = TrackerState().log_shown
    for entry in rounds[:shown]:
        st.markdown(view.log_entry(game, entry))
    if len(rounds) > shown:
        st.button(tn("tracker.log.more", min(view.LOG_PAGE, len(rounds) - shown)),
                  key="tracker_log_more", icon=":material/expand_more:",
                  on_click=show_earlier_rounds)


def held_panel(game: GameState, me: int | None) -> None:
    lines = view.held_lines(game)
    st.markdown("  \n".join(lines) if lines else t("tracker.held.empty"))
    st.caption(t("tracker.held.help"))


def rules_panel(game: GameState, me: int | None) -> None:
    """The game's rules; where this phone records moves, the settings a table may change
    during a game are controls, and a change is recorded in the game (undo takes it back)."""
    if live_table.may_record() and not game.is_over:
        st.caption(t("tracker.rules.game"))
        rule_controls(game)
        TrackerState().show_flash("rules")
    st.markdown(rules_view.bullet_list(rules_view.setting_lines(game.rules)))


def option_labels(lang: str, name: str) -> Callable[[str], str]:
    """The labels of a choice setting's options, in ``lang``."""
    return lambda option: translate(lang, f"settings.{name}.{option}")


def rule_controls(game: GameState) -> None:
    """One control per setting that may change during a game, showing the rules in force."""
    state, lang = TrackerState(), current_language()  # bound: labels may be formatted later
    values = game.rules.to_dict()
    for setting in SETTINGS:
        if not setting.mid_game:
            continue
        key, label = TrackerState.rule_values.key(setting.name), t(f"settings.{setting.name}.label")
        state.put(TrackerState.rule_values, setting.name, values[setting.name])
        args = (setting.name, game)
        if setting.kind is SettingKind.SWITCH:
            off = setting.requires is not None and not values[setting.requires]
            st.toggle(label, key=key, on_change=change_rule, args=args, disabled=off)
            continue
        options, labels = setting.choices, option_labels(lang, setting.name)
        if len(options) <= 2:
            st.segmented_control(label, options, format_func=labels, required=True, key=key,
                                 on_change=change_rule, args=args, width="stretch")
        else:
            st.radio(label, options, format_func=labels, key=key, on_change=change_rule,
                     args=args)


def seat_picker(game: GameState, me: int | None) -> None:
    """Which player this phone is (its advice counts that player's dice)."""
    state = TrackerState()
    seats = [NOBODY, *range(len(game.players))]
    wanted = NOBODY if me is None else me
    if state.iam != wanted:
        state.iam = wanted
    nobody = t("tracker.me.watching" if live_table.following() else "tracker.setup.nobody")
    labels = {NOBODY: nobody, **{seat: player.name for seat, player in enumerate(game.players)}}
    st.selectbox(t("tracker.me"), seats, key=TrackerState.iam.key, on_change=seat_changed,
                 format_func=labels.__getitem__)


def asks_for_seat(game: GameState, me: int | None) -> bool:
    """A phone that follows a table asks which player it is, up top, until told: its
    advice needs that player's dice."""
    return me is None and not game.is_over and live_table.following()


def game_panel(game: GameState, me: int | None) -> None:
    """Which one is me, and a new game (asked twice while this one is on); at a table
    another phone shares, the host starts the next game."""
    if not asks_for_seat(game, me):
        seat_picker(game, me)
    if live_table.following():
        st.caption(t("live.next_game"))
        return
    if game.is_over:
        return  # the new game is offered under the winner
    if TrackerState().confirm_new:
        st.warning(t("tracker.new.confirm"), icon=":material/warning:")
        with st.container(horizontal=True, gap="small", key="tracker_confirm"):
            st.button(t("tracker.new.yes"), key="tracker_new_yes", type="primary",
                      on_click=new_game)
            st.button(t("tracker.new.no"), key="tracker_new_no", on_click=ask_new_game,
                      args=(False,))
    else:
        st.button(t("tracker.new"), key="tracker_new", icon=":material/restart_alt:",
                  on_click=ask_new_game, args=(True,))


def review_my_moves(game: GameState, me: int | None) -> None:
    """My decisions in the rounds whose dice I entered, each beside the coach's best; a
    costly or doubtful one facing a bid, in a finished round, links to itself as a practice
    spot (its round's cups were lifted at the table: the link gives away no hidden dice)."""
    assert me is not None  # its chip shows only once I have a seat
    state = TrackerState()
    hands = view.hands_by_round(game, me, my_dice.kept(game))
    key = (game.to_code(), me, tuple(sorted((number, hand.faces)
                                            for number, hand in hands.items())))
    cached = state.review
    if cached is None or cached[0] != key:  # worked out again only when something changed
        cached = (key, review(tracked_decisions(game, me, hands),
                              outcomes=move_outcomes(game, me, hands)) if hands else None,
                  decision_rounds(game, me, set(hands)))
        state.review = cached
    reviewed, places = cached[1], cached[2]
    if reviewed is None or not reviewed.moves:
        st.caption(t("tracker.review.none"))
        return
    st.markdown(review_view.summary_text(reviewed))
    st.page_link(page=RULES_PAGE, label=t("review.grades_link"), icon=":material/menu_book:")
    for index, (move, (number, decision)) in enumerate(zip(reviewed.moves, places,
                                                            strict=True)):
        st.markdown(review_view.move_line(index + 1, move))
        if (move.verdict is not Verdict.GOOD and move.situation.bids
                and number <= len(game.results)):
            st.page_link(page=PRACTICE_PAGE, label=t("review.practise"),
                         icon=":material/fitness_center:",
                         query_params={practice_view.GAME_SPOT_PARAM: practice_view.tracked_spot(
                             game, me, number, hands[number], decision)})
    st.caption(tn("tracker.review.rounds", len(hands)))


def share_panel(game: GameState, me: int | None) -> None:
    """Share this game with every phone at the table, or the shared table's link and QR
    code, and who may record moves."""
    shared = live_table.seen()
    everyone = TrackerState.share_everyone.key
    if shared is None:
        st.caption(t("live.share.explain"))
        st.toggle(t("live.everyone"), key=everyone, help=t("live.everyone.help"))
        st.button(t("live.share"), key="tracker_share", icon=":material/share:", type="primary",
                  on_click=share_table)
        return
    if shared.role is live_table.Role.HOST:
        url = live_table.follow_url(phone_link.link_base())
        st.caption(t("live.host.scan"))
        st.image(phone_link.qr_png(url), width=220, alt=t("live.qr_alt"))
        st.code(url, language=None, wrap_lines=True)
        TrackerState().share_everyone = shared.everyone_writes
        st.toggle(t("live.everyone"), key=everyone, help=t("live.everyone.help"),
                  on_change=set_everyone_writes)
        st.button(t("live.stop"), key="tracker_share_stop", icon=":material/stop_circle:",
                  on_click=live_table.leave)
    else:
        st.caption(t("live.follower.explain"))
        st.button(t("live.leave"), key="tracker_share_leave", icon=":material/logout:",
                  on_click=live_table.leave)


def show_panel(game: GameState, me: int | None) -> None:
    """The chips, and under them the panel chosen."""
    panel = panel_chips(game, me)
    if panel is not None:
        with st.container(key="tracker_panel_shown"):
            PANELS[panel](game, me)


PANELS: dict[str, Callable[[GameState, int | None], None]] = {
    "log": log_panel, "held": held_panel, "review": review_my_moves,
    "share": share_panel, "rules": rules_panel, "game": game_panel}
"""The panels under the game, in the order of their chips."""
PANEL_ICONS = {"log": ":material/history:", "held": ":material/psychology:",
               "review": ":material/query_stats:", "share": ":material/share:",
               "rules": ":material/gavel:", "game": ":material/tune:"}
