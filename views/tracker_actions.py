"""What the tracker's taps do: each callback turns a tap into a move of the tracked game.

``perudo_math.GameState`` alone decides whether a move is allowed; a refusal comes back as
data and is worded by ``views.tracker_view``. A move lands on the shared table first (when
this phone shares one), then in the URL (``views.url_state``), so a reload loses nothing.

The game in play is a fragment (:data:`GAME_PART`) holding keyed fragments (:data:`PARTS`):
a tap reruns the part that holds it, unless its callback names others. A bid that lands
reruns the parts that look otherwise after it (:func:`bid_landed`); a call, an undo or a
setting switched reruns the whole game, as does a move the shared table turned away. A bid
or a call the rules refuse is said in its own part, which the tap reruns.

The buttons of a part a bid may leave as it was (the call's, undo) act on the game the entry
was last reset for (:func:`drawn`), not on a game passed in their arguments, which would be
the one their part was last drawn for.
"""

from __future__ import annotations

from dataclasses import replace

from perudo_math import Bid, BidMade, CallKind, GameState, IllegalMove, RulesChanged, exceeds_table
from views import live_table, parts, rules_view, url_state
from views import tracker_view as view
from views.i18n import t
from views.tracker_state import NOBODY, Slot, TrackerState

GAME_PART = "tracker_game_part"
"""The game in play, the panels under it included."""
HEAD_PART = "tracker_head_part"
"""The round's lines: the last result, the round, whose turn, the bids so far."""
FACE_PART = "tracker_face_part"
"""The bid's face (the last bid's after each move: a raise on it takes one tap)."""
QUANTITY_PART = "tracker_quantity_part"
"""The bid's quantities on the face picked, one tap a bid, and what became of the last."""
CALL_PART = "tracker_call_part"
TOOLS_PART = "tracker_tools_part"
"""Undo and the advice's link, and the note on my dice."""
PLAYERS_PART = "tracker_players_part"
PARTS = (GAME_PART, HEAD_PART, FACE_PART, QUANTITY_PART, CALL_PART, TOOLS_PART, PLAYERS_PART)


def whole_game() -> None:
    """From a tap's callback: rerun the whole game, not only the part the tap is in."""
    parts.rerun_parts(GAME_PART)


def bid_landed(before: GameState, after: GameState, typed: bool, status_changed: bool) -> None:
    """From a bid's callback, the bid recorded on ``before`` (``typed``: a count was typed
    for it): rerun only the parts that look otherwise after it. The whole game when
    something else on screen would go stale: a message above the game, a panel open, the
    shared table's status line (``status_changed``: its database stopped or started
    answering)."""
    state = TrackerState()
    if state.flashes.get("top") or state.panel is not None or status_changed:
        whole_game()
        return
    redraw = [HEAD_PART, QUANTITY_PART, PLAYERS_PART]  # whose turn, the next bid
    if typed or state.call_drawn != view.call_look(after, after.turn):
        redraw.append(CALL_PART)
    if not before.history:  # the game's first move: undo becomes possible
        redraw.append(TOOLS_PART)
    parts.rerun_parts(*redraw)


def drawn() -> GameState | None:
    """The game the entry was last reset for: the last move's made on this phone, or the
    one the whole game was last drawn with (a reload, another phone's move read in). A tap
    on a part a bid left as it was acts on it; another game tracked by then is a conflict
    (:func:`still_shown`)."""
    return TrackerState().spot


def commit(game: GameState | None) -> bool:
    """Track ``game`` after a move: onto the shared table (if this phone shares one), into
    the URL, and the bid entry ready for the next. When another phone recorded first, the
    table as it stands is shown instead, and said so; a next game the table did not take
    leaves its set-up on screen to try again. Returns whether ``game`` is the one tracked."""
    state = TrackerState()
    landed = True
    if game is not None and live_table.seen() is not None:
        starting = live_table.setting_up_next()
        recorded = live_table.record(game)
        landed = recorded.outcome is live_table.Outcome.RECORDED
        if not landed:
            state.flash("top", "warning", t(f"live.outcome.{recorded.outcome.value}"))
            if starting:
                return False
        game = recorded.game
    url_state.set_game(game)
    state.reset_entry(game)
    return landed


def still_shown(shown: GameState | None) -> GameState | None:
    """The tracked game, if it is still the one on screen when the tap was made; else
    ``None``, and said so: another phone moved the shared table in between (its move was
    read in before this tap's callback), and a tap meant for the game on screen must not
    land on another one."""
    game = url_state.current_game()
    if game is not None and game != shown:
        TrackerState().flash("top", "warning",
                             t(f"live.outcome.{live_table.Outcome.CONFLICT.value}"))
        return None
    return game


def make_bid(face: int, quantity: int, shown: GameState,
             change: RulesChanged | None = None) -> None:
    """Record the bid; ``change`` first, when the tap also switches a setting for the game.
    A bid refused only by a setting offers that switch (``TrackerState.offer``)."""
    game = still_shown(shown)
    if game is None or game.is_over:
        whole_game()
        return
    state, bid = TrackerState(), Bid(quantity, face)
    typed, offline = state.count is not None, live_table.offline()
    try:
        after = game.bid(bid) if change is None else game.apply(change).bid(bid)
    except IllegalMove as refused:  # said in the bid's part, which the tap reruns
        state.flash("bid", "error", view.refusal_text(game, refused.refusal))
        changes = game.changes_allowing(BidMade(None, bid))
        if changes:
            state.flash("bid", "info", view.rule_cause(game, changes[0]))
            state.offer = (game, changes[0], bid)
        return
    if not commit(after):
        whole_game()
        return
    if change is not None:
        follow_rules(after, change.setting)
        state.flash("bid", "info", view.change_text(change))
    if exceeds_table(bid, after.table_dice):
        state.flash("bid", "warning", t("tracker.bid.exceeds", bid=bid.pretty(),
                                        dice=after.table_dice))
    if change is None:
        bid_landed(game, after, typed, live_table.offline() != offline)
    else:
        whole_game()


def call(kind: CallKind) -> None:
    """Dudo or calza on the bid of the game on screen (:func:`drawn`), with the count
    typed; the whole game follows (a refusal is said in the call's part alone)."""
    game = still_shown(drawn())
    if game is None:
        whole_game()
        return
    state = TrackerState()
    count = state.count
    if count is None:  # never a count the player did not type; said in the call's part
        state.flash("call", "error",
                    t("tracker.call.count_first", call=t(f"tracker.call.{kind}")))
        return
    caller = state.get(TrackerState.callers, len(game.history))
    action = game.dudo if kind == "dudo" else game.calza
    try:
        game = action(count, game.turn if caller is None else caller)
    except IllegalMove as refused:
        state.flash("call", "error", view.refusal_text(game, refused.refusal))
        return
    commit(game)
    whole_game()


def undo() -> None:
    """Take back the last move of the game on screen (:func:`drawn`); the whole game
    follows."""
    _undo(drawn())
    whole_game()  # last: it ends the callback


def _undo(shown: GameState | None) -> None:
    game = still_shown(shown)
    if game is None or not game.history:
        return
    last, before = game.history[-1], game.undo()
    if not commit(before):
        return
    if isinstance(last, RulesChanged):
        follow_rules(before, last.setting)
        line = rules_view.setting_line(last.setting, before.rules.to_dict()[last.setting])
        TrackerState().flash("top", "info", t("tracker.undone.rules", rule=line))
    else:
        TrackerState().flash("top", "info", t("tracker.undone"))


def follow_rules(game: GameState, setting: str) -> None:
    """The table's rules on this phone follow a setting changed (or put back) in the game,
    so that the next game starts with it (the settings page's rules are these)."""
    value = game.rules.to_dict()[setting]
    url_state.set_rules(replace(url_state.current_rules(), **{setting: value}))


def record_change(change: RulesChanged, shown: GameState | None, slot: Slot) -> None:
    """Record ``change`` in the game, and say so in the messages of ``slot``; the whole game
    follows."""
    _record_change(change, shown, slot)
    whole_game()  # last: it ends the callback


def _record_change(change: RulesChanged, shown: GameState | None, slot: Slot) -> None:
    game = still_shown(shown)
    if game is None:
        return
    try:
        after = game.apply(change)
    except IllegalMove as refused:
        TrackerState().flash(slot, "error", view.refusal_text(game, refused.refusal))
        return
    if commit(after):
        follow_rules(after, change.setting)
        TrackerState().flash(slot, "info", view.change_text(change))


def allow_call(change: RulesChanged) -> None:
    """The setting that lets a refused call be made, switched from the call's entry."""
    record_change(change, drawn(), "call")


def change_rule(setting: str, shown: GameState) -> None:
    """The rules panel's control of ``setting`` changed: record the change in the game."""
    value = TrackerState().get(TrackerState.rule_values, setting)
    if value is not None:
        record_change(RulesChanged(setting, value), shown, "rules")


def shift_quantities(step: int) -> None:
    state = TrackerState()
    state.offset = max(0, state.offset + step)


def face_changed() -> None:
    """Another face picked: its quantities from the smallest, in their part alone."""
    TrackerState().offset = 0
    parts.rerun_parts(QUANTITY_PART)


def ask_new_game(ask: bool) -> None:
    TrackerState().confirm_new = ask


def fresh_row() -> int:
    """A row id never used in this session (a removed row's name may still be stored)."""
    state = TrackerState()
    row = state.row_seq
    state.row_seq = row + 1
    state.put(TrackerState.names, row, "")
    return row


def new_game() -> None:
    """Back to the set-up, with the same players in the same seats."""
    state, game = TrackerState(), url_state.current_game()
    if game is not None:
        me = url_state.current_seat()
        order = []
        for player in game.players:
            order.append(fresh_row())
            state.put(TrackerState.names, order[-1], player.name)
        state.rows = order
        state.me = order[me] if me is not None else NOBODY
        state.opener = NOBODY
    state.confirm_new = False
    state.errors = []
    if live_table.hosting():
        live_table.next_game()  # the table follows on to the next game once it starts
    url_state.set_game(None)


def seat_changed() -> None:
    seat = TrackerState().iam
    url_state.set_seat(None if seat == NOBODY else seat)


def show_earlier_rounds() -> None:
    state = TrackerState()
    state.log_shown += view.LOG_PAGE


def share_table() -> None:
    game = url_state.current_game()
    if game is not None:
        said(live_table.host(game, everyone_writes=TrackerState().share_everyone))


def set_everyone_writes() -> None:
    said(live_table.let_everyone_write(TrackerState().share_everyone))


def said(outcome: live_table.Outcome) -> None:
    """What became of the host's choice, when it did not land."""
    if outcome is live_table.Outcome.OFFLINE:
        TrackerState().flash("top", "warning", t("live.outcome.offline"))
