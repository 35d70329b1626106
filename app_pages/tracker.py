"""Game tracker: follow a real game at the table, move by move, with the whole game in the URL.

Layout and wiring only: the state machine is ``perudo_math.GameState``, kept by
``views.url_state`` (``set_game`` after every move, so a reload loses nothing); it alone decides
whether a move is allowed, and ``views.tracker_view`` words its refusals and the texts. What the
page remembers between taps is ``views.tracker_state.TrackerState``; what its taps do is
``views.tracker_actions``; the set-up and the panels under the game are
``views.tracker_setup`` and ``views.tracker_panels``.

The hand belongs to its round (``views.my_dice``): my dice, entered on the advice's keypad,
are put aside as soon as the tracked round is another one (a call ends it, an undo reopens
the one before, a new game), so the advice never reads last round's dice.

Speed at the table: a game in play is one fragment (``game_in_play``), so a tap reruns the
game alone, not the entry script and its sidebar; it hands back to a full run when the game
is dropped. Inside it, the round's lines, the bid's face, its quantities, the call, the tools
and the players' table are keyed fragments of their own (``views.tracker_actions.PARTS``): a
face reruns the quantities, a count or a page of quantities its own part, a bid the three to
five parts that look otherwise after it (``views.tracker_actions.bid_landed``), a call, an
undo or a setting switched the whole game. The parts read the game themselves, as it stands
after the tap. The players' table, which every move changes, saves the game for resuming
(``views.resume.remember``). The round log, who bluffs, my moves, the table's rules and the
game's own controls are panels under one row of chips (``views.tracker_panels``), drawn only
while chosen: every element on the page costs each tap a little, whether or not it changed.
"""

from __future__ import annotations

import streamlit as st

from perudo_math import CALL_KINDS, FACES, GameState
from views import dice, live_table, my_dice, resume, url_state
from views import tracker_view as view
from views.i18n import t
from views.inputs import bid_numbers, entered_hand
from views.navigation import ODDS_PAGE
from views.tracker_actions import (
    CALL_PART,
    FACE_PART,
    GAME_PART,
    HEAD_PART,
    PLAYERS_PART,
    QUANTITY_PART,
    TOOLS_PART,
    allow_call,
    call,
    face_changed,
    make_bid,
    new_game,
    shift_quantities,
    undo,
)
from views.tracker_panels import asks_for_seat, seat_picker, show_panel
from views.tracker_setup import setup
from views.tracker_state import TrackerState

# --- playing ---------------------------------------------------------------------------------


def game_now() -> GameState:
    """The tracked game as it stands, read by a part that a tap reruns alone; back to the
    whole page when it is gone."""
    game = url_state.current_game()
    if game is None:
        st.rerun(scope="app")
    return game


@st.fragment(key=FACE_PART)
def face_part() -> None:
    """The bid's face; a tap on another reruns the quantities alone."""
    state = TrackerState()
    # Required: a tap on the face picked (the last bid's, ready for a one-tap raise) keeps it.
    state.settle(TrackerState.face)
    st.segmented_control(t("tracker.bid.face"), FACES, format_func=dice.face_label,
                         key=TrackerState.face.key, on_change=face_changed, required=True,
                         width="stretch", persist_state="session")


@st.fragment(key=QUANTITY_PART)
def quantity_part() -> None:
    """The bid's quantities, then what counts for a call on the bid on the table: which
    every bid changes, unlike the call's entry under it."""
    game = game_now()
    bid_entry(game)
    if game.bids:
        st.caption(view.count_label(game))


def bid_entry(game: GameState) -> None:
    """The quantities on the face picked, one tap a bid; on a face with no legal bid under
    this game's settings, why, and the bid under the setting that allows it."""
    state = TrackerState()
    face = state.face
    switch = None if face is None else view.face_switch(game, face)
    if face is None:
        st.caption(t("tracker.bid.pick_face"))
    elif switch is None:
        bid_numbers(game, face, key="tracker", offset=state.offset,
                    on_bid=make_bid, bid_args=lambda bid: (bid.face, bid.quantity, game),
                    on_shift=shift_quantities)
    else:  # no legal bid on this face, but under another setting: one tap switches and bids
        st.warning(view.refusal_text(game, view.face_refusal(game, face)),
                   icon=":material/block:")
        st.caption(" ".join([view.rule_cause(game, switch), t("tracker.rules.row")]))
        bid_numbers(game.apply(switch), face, key="tracker_switch",
                    offset=state.offset, on_bid=make_bid,
                    bid_args=lambda bid: (bid.face, bid.quantity, game, switch),
                    on_shift=shift_quantities)
    state.show_flash("bid")
    offer = state.offer
    if offer is not None and offer[0] == game:
        _, change, bid = offer
        st.button(view.switch_label(change, bid), key="tracker_offer_switch",
                  icon=":material/gavel:", on_click=make_bid,
                  args=(bid.face, bid.quantity, game, change))


@st.fragment(key=CALL_PART)
def call_part() -> None:
    """The count and the calls on the bid on the table, once there is one."""
    game = game_now()
    if game.bids:
        call_entry(game)
    else:
        TrackerState().call_drawn = None


def call_entry(game: GameState) -> None:
    move = len(game.history)
    choices = view.callers(game)
    caller = game.turn
    if len(choices) > 1:
        caller = st.selectbox(t("tracker.call.caller"), choices, key=TrackerState.callers.key(move),
                              format_func=game.name)
    state = TrackerState()
    look = view.call_look(game, caller)
    state.settle(TrackerState.count)
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom",
                      key="tracker_calls"):
        count = st.number_input(  # empty until typed: never a count nobody counted
            t("tracker.call.count"),
            min_value=0,
            value=None,
            step=1,
            key=TrackerState.count.key,
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
                      args=(kind,), disabled=bool(refusals[kind] or problem),
                      width="stretch")
    if problem:
        st.error(view.refusal_text(game, problem), icon=":material/block:")
    for kind, refused in refusals.items():
        if refused and (kind == "dudo" or game.rules.calza):
            st.caption(view.refusal_text(game, refused))
            change = view.call_switch(game, kind, caller)
            if change is not None:  # refused by a setting alone: switch it in one tap
                st.button(view.allow_label(change), key=f"tracker_allow_{kind}",
                          icon=":material/gavel:", on_click=allow_call, args=(change,))
    flashed = bool(state.flashes.get("call"))
    state.show_flash("call")
    state.call_drawn = None if count is not None or problem or flashed else look


@st.fragment(key=HEAD_PART)
def head_part() -> None:
    """Where the round stands: the last result while no bid is made, the round, whose
    turn, the bids so far."""
    game, me = game_now(), url_state.current_seat()
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


def round_in_play(game: GameState, me: int | None) -> None:
    """The round under way: where it stands, then the bid and the call to record."""
    head_part()
    if live_table.may_record():
        face_part()
        quantity_part()
        call_part()
    else:
        st.caption(t("live.read_only"))
    if asks_for_seat(game, me):
        seat_picker(game, me)


@st.fragment(key=TOOLS_PART)
def tools_part() -> None:
    """Undo and the advice's link; the note on my dice for this round."""
    game, me = game_now(), url_state.current_seat()
    tools(game)
    hand = view.hand_note(game, me, entered_hand(my_dice.KEYPAD))
    if hand is not None:
        st.caption(hand)


@st.fragment(key=PLAYERS_PART)
def players_part() -> None:
    """Every seat's dice and whose turn; the game saved for resuming, as every move
    changes this part."""
    game = game_now()
    st.markdown(view.players_table(game, url_state.current_seat()))
    resume.remember()


def tools(game: GameState) -> None:
    """Undo, and the advice for this spot, in one row."""
    with st.container(horizontal=True, gap="small", vertical_alignment="center",
                      key="tracker_tools"):
        if live_table.may_record():  # a follower whose host records alone: nothing to undo
            st.button(t("tracker.undo"), key="tracker_undo", icon=":material/undo:",
                      on_click=undo, disabled=not game.history)
        if not game.is_over:
            st.page_link(page=ODDS_PAGE, label=t("tracker.advice"), icon=":material/lightbulb:")


def play(game: GameState) -> None:
    me = url_state.current_seat()
    if game.is_over:
        st.success(view.winner_text(game), icon=":material/emoji_events:")
        st.markdown(view.result_text(game, game.results[-1]))
    else:
        round_in_play(game, me)
    tools_part()
    players_part()
    if game.is_over and live_table.following():
        st.caption(t("live.next_game"))
    elif game.is_over:
        st.button(t("tracker.new"), key="tracker_new", icon=":material/restart_alt:",
                  on_click=new_game, type="primary")
    show_panel(game, me)


@st.fragment(key=GAME_PART)
def game_in_play() -> None:
    """The tracked game, rerun alone on a tap (or only its parts, see the module's text):
    the sidebar and the title stay as they are. Back to a full run when the game is dropped
    for a new one."""
    live_table.rerun_unless_watched()  # the Share button starts the page's watch this way
    game = url_state.current_game()
    if game is None:
        st.rerun()  # the set-up is outside this fragment
    state = TrackerState()
    if state.spot != game:
        state.reset_entry(game)  # a reloaded or reopened game, or a move read in
    state.show_flash("top", game)
    live_table.status_line()
    my_dice.settle(game)  # a move reruns this fragment alone: the entry script's did not run
    play(game)


st.title(t("tracker.title"), anchor=False)
if live_table.waiting():  # a table's link whose store is away: it opens once it answers
    live_table.waiting_note()
elif url_state.current_game() is None:
    TrackerState().show_flash("top")
    setup()
else:
    game_in_play()
