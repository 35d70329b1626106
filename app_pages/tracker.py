"""Game tracker: follow a real game at the table, move by move, with the whole game in the URL.

Layout and wiring only: the state machine is ``perudo_math.GameState``, kept by
``views.url_state`` (``set_game`` after every move, so a reload loses nothing); it alone decides
whether a move is allowed, and ``views.tracker_view`` words its refusals and the texts. State
keys (all ``tracker_``): ``rows``/``row_seq`` and ``name_{row}`` (the set-up list), ``me``,
``opener``, ``errors``, ``face`` (the bid face), ``offset`` (the quantity row),
``count``/``caller_{move}`` (a call), ``flash`` (one-shot messages), ``confirm_new``,
``iam``, ``raise`` (the set-up's raise rule), ``offer`` (a bid refused only by a setting,
and the switch offered), ``rule_{setting}`` (the rules panel's controls).

The hand belongs to its round (``views.my_dice``): my dice, entered on the advice's keypad,
are put aside as soon as the tracked round is another one (a call ends it, an undo reopens
the one before, a new game), so the advice never reads last round's dice.

Speed at the table: a game in play is one fragment (``game_in_play``), so a tap reruns the
game alone, not the entry script and its sidebar; it saves the game for resuming itself
(``views.resume.remember``), and hands back to a full run when the game is dropped. The
round log, who bluffs, my moves, the table's rules and the game's own controls are panels
under one row of chips (``tracker_panel``), drawn only while chosen: every element on the
page costs each tap a little, whether or not it changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st

from coach.review import Verdict, decision_rounds, move_outcomes, review, tracked_decisions
from perudo_math import (
    CALL_KINDS,
    FACES,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Bid,
    BidMade,
    CallKind,
    GameState,
    IllegalMove,
    RaiseRule,
    RulesChanged,
    clean_name,
    exceeds_table,
)
from perudo_math.rules import SETTINGS, SettingKind
from views import (
    dice,
    live_table,
    my_dice,
    phone_link,
    practice_view,
    resume,
    review_view,
    rules_view,
    url_state,
)
from views import tracker_view as view
from views.i18n import current_language, t, tn, translate
from views.inputs import bid_numbers, entered_hand
from views.style import named_symbol

ODDS_PAGE = "app_pages/odds.py"
RULES_PAGE = "app_pages/rules.py"
PRACTICE_PAGE = "app_pages/practice.py"
# Four players, the usual table (and the odds page's): a fifth is one tap on "Add a player",
# and rows left empty at the end are no seats. Six rows made every smaller table scroll.
FIRST_ROWS = 4
NOBODY = -1  # the set-up choice "nobody" (which one is me) and "roll for it" (who opens)
COUNT_KEY = "tracker_count"
"""The count typed for a call: one widget for the whole game, emptied after every move
(``reset_entry``). A widget keyed by the move was drawn anew after each bid, which cost every
bid tap about 8 ms on a phone."""
CALLER_PREFIX = "tracker_caller_"

state = st.session_state


# --- one-shot messages -----------------------------------------------------------------------


def flash(slot: str, level: str, text: str) -> None:
    state.setdefault("tracker_flash", {}).setdefault(slot, []).append((level, text))


def show_flash(slot: str) -> None:
    for level, text in state.get("tracker_flash", {}).pop(slot, []):
        if level == "error":
            st.error(text, icon=":material/block:")
        elif level == "warning":
            st.warning(text, icon=":material/warning:")
        else:
            st.info(text, icon=":material/casino:")


def reset_entry(game: GameState | None) -> None:
    """After a move (or on a reload): the face of the bid on the table is picked for the next
    bid (a raise on it takes one tap), the quantity row rewinds, and no count or caller typed
    for another bid is left to be reused."""
    state["tracker_face"] = game.last_bid.face if game and game.last_bid else None
    state["tracker_offset"] = 0
    state["tracker_spot"] = game
    state[COUNT_KEY] = None  # set, not deleted: the box on the phone empties too
    state.pop("tracker_offer", None)
    for key in [key for key in state if str(key).startswith(CALLER_PREFIX)]:
        del state[key]


def commit(game: GameState | None) -> bool:
    """Track ``game`` after a move: onto the shared table (if this phone shares one), into
    the URL, and the bid entry ready for the next. When another phone recorded first, the
    table as it stands is shown instead, and said so; a next game the table did not take
    leaves its set-up on screen to try again. Returns whether ``game`` is the one tracked."""
    landed = True
    if game is not None and live_table.seen() is not None:
        starting = live_table.setting_up_next()
        recorded = live_table.record(game)
        landed = recorded.outcome is live_table.Outcome.RECORDED
        if not landed:
            flash("top", "warning", t(f"live.outcome.{recorded.outcome.value}"))
            if starting:
                return False
        game = recorded.game
    url_state.set_game(game)
    reset_entry(game)
    return landed


# --- set-up ----------------------------------------------------------------------------------


def rows() -> list[int]:
    if "tracker_rows" not in state:
        state["tracker_rows"] = list(range(FIRST_ROWS))
        state["tracker_row_seq"] = FIRST_ROWS
    return state["tracker_rows"]


def row_name(row: int) -> str:
    return str(state.get(f"tracker_name_{row}") or "").strip()


def row_label(row: int) -> str:
    seat = rows().index(row) + 1 if row in rows() else 0
    return clean_name(row_name(row)) or t("tracker.setup.player", seat=seat)


def fresh_row() -> int:
    """A row id never used in this session (a removed row's name may still be stored)."""
    row = state["tracker_row_seq"]
    state["tracker_row_seq"] = row + 1
    state[f"tracker_name_{row}"] = ""
    return row


def add_row() -> None:
    if len(rows()) < MAX_PLAYERS:
        state["tracker_rows"].append(fresh_row())


def remove_row(row: int) -> None:
    if len(rows()) > MIN_PLAYERS and row in rows():
        state["tracker_rows"].remove(row)


def move_up(row: int) -> None:
    order = rows()
    index = order.index(row)
    if index > 0:
        order[index - 1], order[index] = order[index], order[index - 1]


def start_game() -> None:
    opener_row = state.get("tracker_opener", NOBODY)
    me_row = state.get("tracker_me", NOBODY)
    chosen = [rows().index(row) for row in (opener_row, me_row) if row in rows()]
    names = view.seated_names([row_name(row) for row in rows()], chosen)
    order = rows()[:len(names)]
    problems = view.name_problems(names)
    state["tracker_errors"] = problems
    if problems:
        return
    rolled = opener_row not in order
    opener = view.roll_opener(len(order)) if rolled else order.index(opener_row)
    game = GameState.new(names, url_state.current_rules(), opener)
    if not commit(game):
        return
    url_state.set_seat(order.index(me_row) if me_row in order else None)
    if rolled:
        flash("top", "info", t("tracker.setup.rolled", name=view.name_of(game, opener)))


def seat_choice(key: str, label: str, nobody: str) -> None:
    """A choice of one player of the set-up, or ``nobody``: the rows offered are the named
    ones, and the one chosen already (an empty row at the end is no seat until chosen)."""
    # Labels fixed at render time: a selectbox stores its choice by label.
    labels = {NOBODY: nobody, **{row: row_label(row) for row in rows()}}
    offered = [row for row in rows() if row_name(row) or row == state.get(key)]
    st.selectbox(label, [NOBODY, *offered], key=key, format_func=labels.__getitem__,
                 persist_state="session")


def raise_rule_choice() -> None:
    """The raise rule, asked in one tap with the example that tells the two apart. The
    choice is the table's rules on this phone (``url_state``: the session and the link), so
    the next game's set-up asks with it already picked."""
    state["tracker_raise"] = url_state.current_rules().raise_rule.value
    lang = current_language()  # bound: the labels may be formatted outside this run
    choices = [rule.value for rule in RaiseRule]
    st.radio(view.raise_question(), choices, key="tracker_raise", on_change=raise_rule_chosen,
             format_func=lambda rule: translate(lang, f"tracker.setup.raise.{rule}"),
             captions=[t(f"tracker.setup.raise.{rule}.help") for rule in choices])


def raise_rule_chosen() -> None:
    rules = url_state.current_rules()
    url_state.set_rules(replace(rules, raise_rule=RaiseRule(state["tracker_raise"])))


def setup() -> None:
    if live_table.setting_up_next():
        st.info(t("live.next_game.host"), icon=":material/share:")
    st.caption(t("tracker.setup.intro"))
    order = rows()
    for index, row in enumerate(order):
        seat = index + 1
        with st.container(horizontal=True, gap="xsmall", vertical_alignment="bottom",
                          key=f"tracker_row_{row}"):
            st.text_input(
                t("tracker.setup.player", seat=seat),
                key=f"tracker_name_{row}",
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

    seat_choice("tracker_me", t("tracker.setup.me"), t("tracker.setup.nobody"))
    seat_choice("tracker_opener", t("tracker.setup.opener"), t("tracker.setup.roll"))
    raise_rule_choice()
    rules = url_state.current_rules()
    st.caption(tn("rules.setting.dice", rules.starting_dice))
    st.page_link(page=RULES_PAGE, label=t("tracker.setup.rules_link"),
                 icon=":material/menu_book:")
    for problem in state.get("tracker_errors", []):
        st.error(problem, icon=":material/block:")
    st.button(t("tracker.setup.start"), key="tracker_start", type="primary",
              icon=":material/play_arrow:", on_click=start_game, width="stretch")


# --- moves -----------------------------------------------------------------------------------


def still_shown(shown: GameState) -> GameState | None:
    """The tracked game, if it is still the one on screen when the tap was made; else
    ``None``, and said so: another phone moved the shared table in between (its move was
    read in before this tap's callback), and a tap meant for the game on screen must not
    land on another one."""
    game = url_state.current_game()
    if game is not None and game != shown:
        flash("top", "warning", t(f"live.outcome.{live_table.Outcome.CONFLICT.value}"))
        return None
    return game


def make_bid(face: int, quantity: int, shown: GameState,
             change: RulesChanged | None = None) -> None:
    """Record the bid; ``change`` first, when the tap also switches a setting for the game.
    A bid refused only by a setting offers that switch (``tracker_offer``)."""
    game = still_shown(shown)
    if game is None or game.is_over:
        return
    bid = Bid(quantity, face)
    try:
        after = game.bid(bid) if change is None else game.apply(change).bid(bid)
    except IllegalMove as refused:
        flash("bid", "error", view.refusal_text(game, refused.refusal))
        changes = game.changes_allowing(BidMade(None, bid))
        if changes:
            flash("bid", "info", view.rule_cause(game, changes[0]))
            state["tracker_offer"] = (game, changes[0], bid)
        return
    if not commit(after):
        return
    if change is not None:
        follow_rules(after, change.setting)
        flash("bid", "info", view.change_text(change))
    if exceeds_table(bid, after.table_dice):
        flash("bid", "warning", t("tracker.bid.exceeds", bid=bid.pretty(),
                                  dice=after.table_dice))


def call(kind: CallKind, shown: GameState) -> None:
    game = still_shown(shown)
    if game is None:
        return
    move = len(game.history)
    count = state.get(COUNT_KEY)
    if count is None:  # never a count the player did not type
        flash("call", "error", t("tracker.call.count_first", call=t(f"tracker.call.{kind}")))
        return
    caller = state.get(f"{CALLER_PREFIX}{move}", game.turn)
    action = game.dudo if kind == "dudo" else game.calza
    try:
        game = action(count, caller)
    except IllegalMove as refused:
        flash("call", "error", view.refusal_text(game, refused.refusal))
        return
    commit(game)


def show_earlier_rounds() -> None:
    state["tracker_log_shown"] = state.get("tracker_log_shown", view.LOG_PAGE) + view.LOG_PAGE


def undo(shown: GameState) -> None:
    game = still_shown(shown)
    if game is None or not game.history:
        return
    last, before = game.history[-1], game.undo()
    if not commit(before):
        return
    if isinstance(last, RulesChanged):
        follow_rules(before, last.setting)
        line = rules_view.setting_line(last.setting, before.rules.to_dict()[last.setting])
        flash("top", "info", t("tracker.undone.rules", rule=line))
    else:
        flash("top", "info", t("tracker.undone"))


def follow_rules(game: GameState, setting: str) -> None:
    """The table's rules on this phone follow a setting changed (or put back) in the game,
    so that the next game starts with it (the settings page's rules are these)."""
    value = game.rules.to_dict()[setting]
    url_state.set_rules(replace(url_state.current_rules(), **{setting: value}))


def record_change(change: RulesChanged, shown: GameState, slot: str) -> None:
    """Record ``change`` in the game, and say so in the messages of ``slot``."""
    game = still_shown(shown)
    if game is None:
        return
    try:
        after = game.apply(change)
    except IllegalMove as refused:
        flash(slot, "error", view.refusal_text(game, refused.refusal))
        return
    if commit(after):
        follow_rules(after, change.setting)
        flash(slot, "info", view.change_text(change))


def change_rule(setting: str, shown: GameState) -> None:
    """The rules panel's control of ``setting`` changed: record the change in the game."""
    value = state.get(f"tracker_rule_{setting}")
    if value is not None:
        record_change(RulesChanged(setting, value), shown, "rules")


def shift_quantities(step: int) -> None:
    state["tracker_offset"] = max(0, state.get("tracker_offset", 0) + step)


def face_changed() -> None:
    state["tracker_offset"] = 0


def ask_new_game(ask: bool) -> None:
    state["tracker_confirm_new"] = ask


def new_game() -> None:
    """Back to the set-up, with the same players in the same seats."""
    game = url_state.current_game()
    if game is not None:
        rows()
        me = url_state.current_seat()
        order = []
        for player in game.players:
            order.append(fresh_row())
            state[f"tracker_name_{order[-1]}"] = player.name
        state["tracker_rows"] = order
        state["tracker_me"] = order[me] if me is not None else NOBODY
        state["tracker_opener"] = NOBODY
    state["tracker_confirm_new"] = False
    state["tracker_errors"] = []
    if live_table.hosting():
        live_table.next_game()  # the table follows on to the next game once it starts
    url_state.set_game(None)


def seat_changed() -> None:
    seat = state.get("tracker_iam", NOBODY)
    url_state.set_seat(None if seat == NOBODY else seat)


# --- playing ---------------------------------------------------------------------------------


def bid_entry(game: GameState) -> None:
    if state.get("tracker_spot") != game:
        reset_entry(game)  # a reloaded or reopened game
    # Required: a tap on the face picked (the last bid's, ready for a one-tap raise) keeps it.
    face = st.segmented_control(t("tracker.bid.face"), FACES, format_func=dice.face_label,
                                key="tracker_face", on_change=face_changed, required=True,
                                width="stretch", persist_state="session")
    switch = None if face is None else view.face_switch(game, face)
    if face is None:
        st.caption(t("tracker.bid.pick_face"))
    elif switch is None:
        bid_numbers(game, face, key="tracker", offset=state.get("tracker_offset", 0),
                    on_bid=make_bid, bid_args=lambda bid: (bid.face, bid.quantity, game),
                    on_shift=shift_quantities)
    else:  # no legal bid on this face, but under another setting: one tap switches and bids
        st.warning(view.refusal_text(game, view.face_refusal(game, face)),
                   icon=":material/block:")
        st.caption(" ".join([view.rule_cause(game, switch), t("tracker.rules.row")]))
        bid_numbers(game.apply(switch), face, key="tracker_switch",
                    offset=state.get("tracker_offset", 0), on_bid=make_bid,
                    bid_args=lambda bid: (bid.face, bid.quantity, game, switch),
                    on_shift=shift_quantities)
    show_flash("bid")
    offer = state.get("tracker_offer")
    if offer is not None and offer[0] == game:
        _, change, bid = offer
        st.button(view.switch_label(change, bid), key="tracker_offer_switch",
                  icon=":material/gavel:", on_click=make_bid,
                  args=(bid.face, bid.quantity, game, change))


def call_entry(game: GameState) -> None:
    move = len(game.history)
    choices = view.callers(game)
    caller = game.turn
    if len(choices) > 1:
        caller = st.selectbox(t("tracker.call.caller"), choices, key=f"{CALLER_PREFIX}{move}",
                              format_func=game.name)
    st.caption(view.count_label(game))
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom",
                      key="tracker_calls"):
        count = st.number_input(  # empty until typed: never a count nobody counted
            t("tracker.call.count"),
            min_value=0,
            value=None,
            step=1,
            key=COUNT_KEY,
            placeholder=t("tracker.call.count.placeholder"),
            label_visibility="collapsed",
            width=160,  # the placeholder in full beside its steppers, at 390 px
        )
        problem = None if count is None else game.count_refusal(count)
        refusals = {kind: game.call_refusal(kind, caller) for kind in CALL_KINDS}
        for kind in CALL_KINDS:
            if kind == "calza" and not game.rules.calza:
                continue
            st.button(t(f"tracker.call.{kind}"), key=f"tracker_{kind}", on_click=call,
                      args=(kind, game), disabled=bool(refusals[kind] or problem),
                      width="stretch")
    if problem:
        st.error(view.refusal_text(game, problem), icon=":material/block:")
    for kind, refused in refusals.items():
        if refused and (kind == "dudo" or game.rules.calza):
            st.caption(view.refusal_text(game, refused))
            change = view.call_switch(game, kind, caller)
            if change is not None:  # refused by a setting alone: switch it in one tap
                st.button(view.allow_label(change), key=f"tracker_allow_{kind}",
                          icon=":material/gavel:", on_click=record_change,
                          args=(change, game, "call"))
    show_flash("call")


def play(game: GameState) -> None:
    me = url_state.current_seat()
    if game.is_over:
        st.success(view.winner_text(game), icon=":material/emoji_events:")
        st.markdown(view.result_text(game, game.results[-1]))
    else:
        if game.results and not game.bids:
            st.info(view.result_text(game, game.results[-1]), icon=":material/casino:")
        st.subheader(view.round_header(game), anchor=False)
        banner = view.palifico_banner(game)
        if banner is not None:
            with st.container(key="tracker_palifico"):
                st.warning(banner, icon=":material/priority_high:")
        st.markdown(view.turn_line(game, me))
        if len(game.bids) > 1:
            st.caption(view.bids_line(game, game.bids))
        if live_table.may_record():
            bid_entry(game)
            if game.bids:
                call_entry(game)
        else:
            st.caption(t("live.read_only"))
        if asks_for_seat(game, me):
            seat_picker(game, me)
    with st.container(horizontal=True, gap="small", vertical_alignment="center",
                      key="tracker_tools"):
        if live_table.may_record():  # a follower whose host records alone: nothing to undo
            st.button(t("tracker.undo"), key="tracker_undo", icon=":material/undo:",
                      on_click=undo, args=(game,), disabled=not game.history)
        if not game.is_over:
            st.page_link(page=ODDS_PAGE, label=t("tracker.advice"), icon=":material/lightbulb:")
    hand = view.hand_note(game, me, entered_hand(my_dice.KEYPAD))
    if hand is not None:
        st.caption(hand)

    st.markdown(view.players_table(game, me))
    if game.is_over and live_table.following():
        st.caption(t("live.next_game"))
    elif game.is_over:
        st.button(t("tracker.new"), key="tracker_new", icon=":material/restart_alt:",
                  on_click=new_game, type="primary")
    panel = panel_chips(game, me)
    if panel is not None:
        with st.container(key="tracker_panel_shown"):
            PANELS[panel](game, me)


def panel_chips(game: GameState, me: int | None) -> str | None:
    """What the table looks up now and then, one chip each under the game: the round log,
    who bluffs, my moves, the rules, and the game itself (which one is me, a new game). A tap
    on a chip shows its panel, a second tap hides it; only the panel shown is drawn. One row
    of chips rather than a stack of expanders: a tap redraws a page as long as it is."""
    options = [name for name in PANELS if name != "review" or me is not None]
    if state.get("tracker_panel") not in (None, *options):
        state["tracker_panel"] = None  # "my moves" of a seat no longer mine
    close_share_once_played(game)
    rounds = len(game.results)
    lang = current_language()  # bound: the labels may be formatted outside this run
    return st.pills(t("tracker.panel.label"), options, key="tracker_panel",
                    format_func=lambda name: f"{PANEL_ICONS[name]} "
                    + translate(lang, f"tracker.panel.{name}", count=rounds),
                    label_visibility="collapsed", persist_state="session")


def close_share_once_played(game: GameState) -> None:
    """The share panel (its QR code) closes when the game moves on after it opened: by then
    the phones at the table have joined, and the game needs the room."""
    if state.get("tracker_panel") != "share":
        state.pop("tracker_share_opened_on", None)
    elif state.setdefault("tracker_share_opened_on", game) != game:
        state["tracker_panel"] = None
        del state["tracker_share_opened_on"]


def log_panel(game: GameState, me: int | None) -> None:
    rounds = view.finished_rounds(game)
    if not rounds:
        st.caption(t("tracker.log.empty"))
    shown = state.get("tracker_log_shown", view.LOG_PAGE)
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
        show_flash("rules")
    st.markdown(rules_view.bullet_list(rules_view.setting_lines(game.rules)))


def option_labels(lang: str, name: str) -> Callable[[str], str]:
    """The labels of a choice setting's options, in ``lang``."""
    return lambda option: translate(lang, f"settings.{name}.{option}")


def rule_controls(game: GameState) -> None:
    """One control per setting that may change during a game, showing the rules in force."""
    lang = current_language()  # bound: the labels may be formatted outside this run
    values = game.rules.to_dict()
    for setting in SETTINGS:
        if not setting.mid_game:
            continue
        key, label = f"tracker_rule_{setting.name}", t(f"settings.{setting.name}.label")
        state[key] = values[setting.name]
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
    seats = [NOBODY, *range(len(game.players))]
    wanted = NOBODY if me is None else me
    if state.get("tracker_iam") != wanted:
        state["tracker_iam"] = wanted
    nobody = t("tracker.me.watching" if live_table.following() else "tracker.setup.nobody")
    labels = {NOBODY: nobody, **{seat: player.name for seat, player in enumerate(game.players)}}
    st.selectbox(t("tracker.me"), seats, key="tracker_iam", on_change=seat_changed,
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
    if state.get("tracker_confirm_new"):
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
    hands = view.hands_by_round(game, me, my_dice.kept(game))
    key = (game.to_code(), me, tuple(sorted((number, hand.faces)
                                            for number, hand in hands.items())))
    cached = state.get("tracker_review")
    if cached is None or cached[0] != key:  # worked out again only when something changed
        cached = (key, review(tracked_decisions(game, me, hands),
                              outcomes=move_outcomes(game, me, hands)) if hands else None,
                  decision_places(game, me, hands))
        state["tracker_review"] = cached
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


def decision_places(game: GameState, me: int, hands: dict) -> list[tuple[int, int]]:
    """Where each of my reviewed decisions was taken: its round, and its rank among my
    decisions of that round (from 0), in the review's order (one pass over the moves)."""
    return decision_rounds(game, me, set(hands))


def share_table() -> None:
    game = url_state.current_game()
    if game is not None:
        said(live_table.host(game, everyone_writes=bool(state.get("tracker_share_everyone"))))


def set_everyone_writes() -> None:
    said(live_table.let_everyone_write(bool(state.get("tracker_share_everyone"))))


def said(outcome: live_table.Outcome) -> None:
    """What became of the host's choice, when it did not land."""
    if outcome is live_table.Outcome.OFFLINE:
        flash("top", "warning", t("live.outcome.offline"))


def share_panel(game: GameState, me: int | None) -> None:
    """Share this game with every phone at the table, or the shared table's link and QR
    code, and who may record moves."""
    shared = live_table.seen()
    if shared is None:
        st.caption(t("live.share.explain"))
        st.toggle(t("live.everyone"), key="tracker_share_everyone", help=t("live.everyone.help"))
        st.button(t("live.share"), key="tracker_share", icon=":material/share:", type="primary",
                  on_click=share_table)
        return
    if shared.role is live_table.Role.HOST:
        url = live_table.follow_url(phone_link.link_base())
        st.caption(t("live.host.scan"))
        st.image(phone_link.qr_png(url), width=220, alt=t("live.qr_alt"))
        st.code(url, language=None, wrap_lines=True)
        state["tracker_share_everyone"] = shared.everyone_writes
        st.toggle(t("live.everyone"), key="tracker_share_everyone", help=t("live.everyone.help"),
                  on_change=set_everyone_writes)
        st.button(t("live.stop"), key="tracker_share_stop", icon=":material/stop_circle:",
                  on_click=live_table.leave)
    else:
        st.caption(t("live.follower.explain"))
        st.button(t("live.leave"), key="tracker_share_leave", icon=":material/logout:",
                  on_click=live_table.leave)


PANELS = {"log": log_panel, "held": held_panel, "review": review_my_moves,
          "share": share_panel, "rules": rules_panel, "game": game_panel}
"""The panels under the game, in the order of their chips."""
PANEL_ICONS = {"log": ":material/history:", "held": ":material/psychology:",
               "review": ":material/query_stats:", "share": ":material/share:",
               "rules": ":material/gavel:", "game": ":material/tune:"}


@st.fragment
def game_in_play() -> None:
    """The tracked game, rerun alone on each tap (a move, a face, a count): the sidebar and
    the title stay as they are. Back to a full run when the game is dropped for a new one."""
    live_table.rerun_unless_watched()  # the Share button starts the page's watch this way
    game = url_state.current_game()
    if game is None:
        st.rerun()  # the set-up is outside this fragment
    show_flash("top")
    live_table.status_line()
    my_dice.settle(game)  # a move reruns this fragment alone: the entry script's did not run
    play(game)
    resume.remember()  # the entry script, which remembers a move, does not run for a fragment


st.title(t("tracker.title"), anchor=False)
if live_table.waiting():  # a table's link whose store is away: it opens once it answers
    live_table.waiting_note()
elif url_state.current_game() is None:
    show_flash("top")
    setup()
else:
    game_in_play()
