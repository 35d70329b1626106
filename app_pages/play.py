"""Play page: a whole game against the league's bots, phone-first, then its review.

The link holds the game (``?seed=…&vs=reader,liar&moves=3x4.dudo``, the table's rules being
the shared rule settings): a reload or the link resumes it, and the same seed and moves replay
the same game (``coach.play.bot_game``). The bots' moves since the player's last one appear
one at a time at the pace chosen; a round's end lifts every cup. An optional hint shows the
coach's advice before the player moves. When the game is over, its review: each decision
beside the coach's best (``coach.review``).

Layout and wiring only: the game is ``coach.play.bot_game``, its words ``views.play_view``,
what the session keeps ``views.play_state.PlayState`` (keys ``play_…``).
"""

from __future__ import annotations

import time

import streamlit as st

from coach import advise_with_tables
from coach.engine.situation import CALZA, DUDO, Action
from coach.play.bot_game import (
    MAX_OPPONENTS,
    MAX_SEED,
    MAX_TABLE_DICE,
    ME,
    STYLES,
    BotGame,
    BotGameError,
    BotTable,
)
from coach.review import ReviewedMove, Verdict, move_outcomes, review
from perudo_math import FACES, IllegalMove
from storage.progress import GameRecord
from views import (
    advice_view,
    dice,
    practice_view,
    profile,
    review_view,
    tracker_view,
    url_state,
)
from views import play_view as view
from views.i18n import current_language, t, tn, translate
from views.inputs import bid_numbers, stepper
from views.play_state import PlayState
from views.practice_common import new_seed
from views.style import phone_page

SEED_PARAM, STYLES_PARAM, MOVES_PARAM = "seed", "vs", "moves"
BAD_LINK_NOTICE = "notice.bad_play_link"
RULES_CHANGED_NOTICE = "notice.play_rules_changed"
MOST_PAUSE_S = 8.0
"""The longest the bots' moves are paced in one run: the rest then shows at once."""
RULES_PAGE = "app_pages/settings.py"
PRACTICE_PAGE = "app_pages/practice.py"
CHEAT_SHEET_PAGE = "app_pages/rules.py"
"""Where the grades of a review are defined."""

state = PlayState()


# --- the game and its link -------------------------------------------------------------------


def link_game() -> BotGame | None:
    """The game of the link; ``None`` without one (a bad link queues its notice)."""
    if not url_state.in_link(SEED_PARAM):
        return None
    seed = url_state.read(SEED_PARAM, url_state.whole_number(0, MAX_SEED),
                          notice=BAD_LINK_NOTICE)
    styles = url_state.read(STYLES_PARAM, _styles, notice=BAD_LINK_NOTICE)
    moves: tuple[Action, ...] | None = ()
    if url_state.in_link(MOVES_PARAM):
        moves = url_state.read(MOVES_PARAM, BotGame.read_moves, notice=BAD_LINK_NOTICE)
    if seed is None or styles is None or moves is None:
        if seed is not None and styles is not None:
            write_link(None)  # a game whose moves are damaged is no game
        return None
    return BotGame(seed, styles, url_state.current_rules(), moves)


def _styles(text: str) -> tuple[str, ...]:
    styles = tuple(text.split(","))
    BotGame(0, styles)  # refuses an unknown style or a wrong number of them
    return styles


def table_on_screen() -> BotTable | None:
    """The game being played: the session's, or, on a fresh session, the link's replayed (a
    bad one is dropped with a notice). A game whose table's rules were changed since is
    dropped with a notice: it was a game of other rules."""
    if not state.has_table():
        state.table = table = replayed(link_game())
        if table is not None:
            state.revealed = len(table.steps)  # shown at once, no pause
            reset_entry(table)
    table = state.table
    if table is not None and table.game.rules != url_state.current_rules():
        url_state.notify(RULES_CHANGED_NOTICE)
        state.table = table = None
    write_link(table)
    return table


def replayed(game: BotGame | None) -> BotTable | None:
    if game is None:
        return None
    try:
        return BotTable(game, view.player_names(game.styles))
    except BotGameError:
        url_state.notify(BAD_LINK_NOTICE)
        return None


def write_link(table: BotTable | None) -> None:
    game = None if table is None else table.game
    url_state.set_page_params({
        SEED_PARAM: None if game is None else str(game.seed),
        STYLES_PARAM: None if game is None else ",".join(game.styles),
        MOVES_PARAM: (game.moves_text() or None) if game is not None else None,
    })


def start_game() -> None:
    rules = url_state.current_rules()
    count = min(int(state.count), BotGame.most_opponents(rules))
    styles = tuple(state.style(index) for index in range(count))
    table = BotTable(BotGame(new_seed(), styles, rules), view.player_names(styles))
    state.table, state.revealed = table, 0
    reset_entry(table)


def new_game() -> None:
    """Back to the set-up: the game leaves the session and the link."""
    state.table = None
    del state.revealed
    write_link(None)


def move(action: Action, moves_before: int) -> None:
    """The player's move, unless the tap was made on a screen of an earlier turn (a second
    tap while the bots' moves were being shown): it is dropped, never played blind."""
    table = state.table
    if table is None:
        return
    try:
        if not table.play_at(action, moves_before):
            return
    except IllegalMove as refused:
        state.flash = tracker_view.refusal_text(table.state, refused.refusal)
        return
    if table.finished:
        state.finished_here = game_key(table)  # kept in the progress: played here
    reset_entry(table)


def game_key(table: BotTable) -> tuple[int, tuple[str, ...]]:
    return table.game.seed, table.game.styles


def reset_entry(table: BotTable) -> None:
    """After a move: the face of the bid on the table is picked (to open: the face I hold
    most), and the quantities rewind."""
    last = table.state.last_bid
    state.face = last.face if last is not None else view.opening_face(table)
    state.offset = 0


def face_changed() -> None:
    state.offset = 0


def shift_quantities(step: int) -> None:
    state.offset = max(0, state.offset + step)


# --- the set-up ------------------------------------------------------------------------------


def setup() -> None:
    st.caption(t("play.intro"))
    state.keep(PlayState.count)
    most = BotGame.most_opponents(url_state.current_rules())
    count = stepper(t("play.setup.count"), key=PlayState.count.key, minimum=1, maximum=most,
                    less=t("play.setup.fewer"), more=t("play.setup.more"))
    if most < MAX_OPPONENTS:
        st.caption(tn("play.setup.most", most, dice=url_state.current_rules().starting_dice,
                      table=MAX_TABLE_DICE))
    lang = current_language()  # bound: the labels may be formatted outside this run
    for index in range(count):
        state.keep_style(index)
        st.selectbox(t("play.setup.opponent", number=index + 1), tuple(STYLES),
                     key=PlayState.styles.key(index),
                     format_func=lambda style: translate(lang, f"play.style.{style}"),
                     persist_state="session")
    st.caption(t("play.setup.styles"))
    pace_choice()
    st.caption(tn("rules.setting.dice", url_state.current_rules().starting_dice))
    st.page_link(page=RULES_PAGE, label=t("play.setup.rules"), icon=":material/gavel:")
    st.button(t("play.setup.start"), key="play_start", type="primary",
              icon=":material/play_arrow:", on_click=start_game, width="stretch")


def pace_choice() -> None:
    state.keep(PlayState.pace)
    lang = current_language()  # bound: the labels may be formatted outside this run
    st.segmented_control(t("play.pace"), tuple(view.PACES), key=PlayState.pace.key,
                         required=True,
                         format_func=lambda pace: translate(lang, f"play.pace.{pace}"),
                         width="stretch", persist_state="session")


# --- the game --------------------------------------------------------------------------------


def news(table: BotTable) -> None:
    """The moves since the player's last one: those not shown yet one at a time at the
    chosen pace (at once when the player is out, and never more than :data:`MOST_PAUSE_S`
    in a run), each round's end with every cup lifted. A rerun shows them again at once."""
    steps = table.steps
    mine = [index for index, step in enumerate(steps) if step.seat == ME]
    start = mine[-1] if mine else 0
    if start == len(steps):
        return
    shown = len(steps) if state.revealed is None else state.revealed
    revealed = max(start, min(shown, len(steps)))
    pause = view.PACES.get(state.pace, 0.0)
    if table.state.players[ME].dice == 0:
        pause = 0.0
    budget = MOST_PAUSE_S
    calls_before = sum(1 for step in steps[:start] if step.action.kind != "raise")
    rounds = iter(table.rounds[calls_before:])
    with st.container(border=True, key="play_news"):
        for index in range(start, len(steps)):
            step = steps[index]
            if index >= revealed and step.seat != ME and budget >= pause > 0:
                time.sleep(pause)
                budget -= pause
            st.markdown(view.step_text(table.state, step))
            if step.action.kind != "raise":
                played = next(rounds)
                with st.container(key=f"play_cups_{played.number}"):
                    st.info(view.showdown_markdown(table.state, played),
                            icon=":material/casino:")
            if index >= revealed:
                state.revealed = index + 1


def my_move(table: BotTable) -> None:
    situation = table.situation
    st.markdown(f"**{t('play.your_dice')}** {dice.glyphs(sorted(table.my_hand.faces))}")
    if st.toggle(t("play.hint"), key="play_hint", persist_state="session"):
        advice = advise_with_tables(situation)
        with st.container(border=True, key="play_hint_card"):
            st.markdown(advice_view.card_markdown(advice, situation))
    game, moves = table.state, len(table.game.moves)
    if game.bids:
        with st.container(horizontal=True, gap="small", key="play_calls"):
            st.button(t("practice.move.dudo"), key="play_dudo", type="primary",
                      on_click=move, args=(DUDO, moves), width="stretch")
            if situation.may_calza():
                st.button(t("practice.move.calza"), key="play_calza", type="primary",
                          on_click=move, args=(CALZA, moves), width="stretch")
    face = st.segmented_control(t("tracker.bid.face"), FACES, format_func=dice.face_label,
                                key=PlayState.face.key, required=True, width="stretch",
                                on_change=face_changed, persist_state="session")
    if face is None:
        st.caption(t("tracker.bid.pick_face"))
    else:
        bid_numbers(game, face, key="play", offset=state.offset, on_bid=move,
                    bid_args=lambda bid: (Action.raise_to(bid), moves),
                    on_shift=shift_quantities)
    flash = state.take_flash()
    if flash:
        st.error(flash, icon=":material/block:")


def board(table: BotTable) -> None:
    game = table.state
    news(table)
    if game.is_over:
        st.success(view.winner_text(game), icon=":material/emoji_events:")
    elif table.stopped:
        st.warning(t("play.stopped"), icon=":material/hourglass_disabled:")
    else:
        st.subheader(view.round_header(game), anchor=False)
        banner = view.palifico_banner(game)
        if banner is not None:
            with st.container(key="play_palifico"):
                st.warning(banner, icon=":material/priority_high:")
        if game.bids:
            st.caption(tracker_view.bids_line(game, game.bids))
        if table.my_turn:
            my_move(table)
    st.markdown(tracker_view.players_table(game, None))  # my seat is named "You"
    if table.finished:
        show_review(table)
    with st.expander(t("play.settings"), icon=":material/tune:"):
        pace_choice()
    st.button(t("play.new"), key="play_new", icon=":material/restart_alt:", on_click=new_game,
              type="primary" if table.finished else "secondary", width="stretch")


def show_review(table: BotTable) -> None:
    """The finished game's review (worked out once per game), kept in the progress when
    the game was played to its end here, not opened finished from a link."""
    if not table.decisions:
        return
    key = (*game_key(table), len(table.game.moves))
    cached = state.review
    if cached is None or cached[0] != key:
        cached = (key, review(((d.situation, d.action) for d in table.decisions),
                              outcomes=move_outcomes(table.state, ME)))
        state.review = cached
    reviewed = cached[1]
    if state.finished_here == game_key(table) and table.state.is_over:
        keep(table, reviewed.added)
    st.subheader(t("review.title"), anchor=False)
    st.markdown(review_view.summary_text(reviewed))
    st.page_link(page=CHEAT_SHEET_PAGE, label=t("review.grades_link"),
                 icon=":material/menu_book:")
    turning = reviewed.turning_points()
    if turning:
        st.markdown(f"**{t('review.turning_points')}**")
        for index in turning:
            reviewed_move(table, index, reviewed.moves[index])
    with st.expander(t("review.all_moves", count=len(reviewed.moves)),
                     icon=":material/list:"):
        for index, move_reviewed in enumerate(reviewed.moves):
            reviewed_move(table, index, move_reviewed)


def keep(table: BotTable, added: float) -> None:
    """The finished game, in the learner's progress once (the store keeps it once too)."""
    game = table.game
    if state.kept != game_key(table):
        record = GameRecord(game.seed, game.styles, table.state.winner == ME,
                            len(table.decisions), added)
        state.kept = game_key(table)
        state.kept_saved = profile.record_game(record) is not profile.Saved.NOT_SAVED
    if state.kept_saved:
        st.caption(t("play.kept"))


def reviewed_move(table: BotTable, index: int, reviewed: ReviewedMove) -> None:
    """One decision of the review; a costly or doubtful one facing a bid links to itself
    as a practice spot."""
    st.markdown(review_view.move_line(index + 1, reviewed))
    if reviewed.verdict is not Verdict.GOOD and reviewed.situation.bids:
        st.page_link(page=PRACTICE_PAGE, label=t("review.practise"),
                     icon=":material/fitness_center:",
                     query_params={practice_view.GAME_SPOT_PARAM:
                                   practice_view.game_spot(table.game, index)})


@st.fragment
def game_in_play() -> None:
    """The game, rerun alone on each tap; back to a full run when it is dropped."""
    table = state.table
    if table is None:
        st.rerun()
    write_link(table)
    board(table)


with phone_page():
    st.title(t("play.title"), anchor=False)
    table = table_on_screen()
    for notice in url_state.pop_notices():
        st.warning(t(notice), icon=":material/warning:")
    if table is None:
        setup()
    else:
        game_in_play()
