"""Odds & advice page: what to do now, and how likely the bid on the table is to be true.

Built for a phone at a noisy table: the inputs are compact and the recommendation sits right
under them, visible without scrolling; the moves weighed follow, and the odds in detail (every
raise's chance, the bid's odds and their charts) wait in an expander, drawn only while open.
Layout and wiring only: the math is ``perudo_math`` and ``coach`` (cached by
``views.engine_cache``), the inputs ``views.inputs``, the charts ``views.charts``, the coach's
words ``views.advice_view``, the texts ``views/locales``.

The page is seven fragments, top to bottom: my dice, their keys, the table's dice and its
players (side by side), the bid's round and face, its quantity, the advice
(``views.odds_inputs.PARTS``). A tap reruns its own part and the advice, which reads the
inputs back from the session: a die's tap redraws the line of my dice but not their keys
unless they look otherwise (``views.odds_inputs.hand_tapped``), nor the steppers or the
bid's rows; a stepper's neither the keypad nor the bid; a tap on the bid redraws a part of
the bid only when it would look otherwise (``views.odds_inputs.bid_tapped``).

State keys: ``odds_hand`` (tapped faces, the keypad's) and ``odds_read`` (read the bids)
belong to their widgets; the table, the players, the round and the bid are
``views.odds_inputs.OddsState``, with what it remembers between visits. The page starts with
no bid (an opening): a bid is on the table once a face and a quantity are tapped, and "I open"
takes it off again. With a tracked game (not over) the table, the players, the round and its
bids come from the tracker and show as one short note instead of the steppers (they cannot be
overridden); the user's own values come back when the game is no longer tracked.

Until my dice are entered, the page asks for them and shows no odds (a player out of a
tracked game, who holds none, sees them from the dice alone).

One probability story: every chance the page shows first is the one the advice uses (the
bids read when "Read the bids" is on and a bid was read, else the dice alone), and says so;
when the two differ, the odds section gives the other one, labelled in words. When reading
the bids changes the advice or moves the bid's chance by more than ten points, a line under
the switch says which bids moved the count of its face, and by how much.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, NamedTuple

import streamlit as st

from perudo_math import (
    MAX_PLAYERS,
    MAX_TABLE_DICE,
    MIN_PLAYERS,
    Bid,
    GameState,
    Hand,
    Odds,
    Refusal,
    Rules,
    Situation,
    check_bid,
    exceeds_table,
)
from views import (
    advice_view,
    charts,
    my_dice,
    navigation,
    odds_inputs,
    tracker_view,
    url_state,
)
from views.engine_cache import (
    Table,
    cached_advice,
    cached_count_shift,
    cached_odds,
    cached_read_odds,
    cached_smallest_raises,
)
from views.i18n import current_language, format_decimal, format_percent, t, tn
from views.inputs import (
    entered_hand,
    face_selector,
    hand_keys,
    hand_line,
    keys_look,
    quantity_row,
    round_selector,
    stepper,
)
from views.odds_inputs import OddsState
from views.style import phone_page
from views.text import player_name, small

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

    from coach import Advice, Situation

OPENING = "open"
"""The one option of the "no bid yet: I open" pill, lit whenever no bid is entered."""


class Inputs(NamedTuple):
    """The table as the inputs describe it: the steppers' and the bid's, or a tracked game's
    (``game``, then ``me`` is my seat, ``seat_known`` whether the link says so)."""

    rules: Rules
    dice: int
    players: int
    palifico: bool
    bid: Bid | None
    game: GameState | None = None
    me: int = 0
    seat_known: bool = True

    def situation(self, hand: Hand) -> Situation:
        """My view of the table holding ``hand``: the tracked game's
        (:meth:`~perudo_math.GameState.situation`), else seat 0's at a table of these dice and
        players, the bid made by the seat before mine (:meth:`~perudo_math.Situation.at_table`).
        ``ValueError`` when they cannot make a table."""
        if self.game is not None:
            return self.game.situation(self.me, hand)
        bids = () if self.bid is None else (self.bid,)
        return Situation.at_table(self.rules, hand, self.dice, self.players, bids, self.palifico)


def tracked_game() -> GameState | None:
    """The game the tracker follows, unless there is none or it is over."""
    game = url_state.current_game()
    return None if game is None or game.is_over else game


def side_by_side() -> DeltaGenerator:
    """Two inputs side by side, each half the width, bottoms aligned: one block where two
    columns take three (each element a tap's screen redraws costs the phone)."""
    return st.container(horizontal=True, wrap=False, vertical_alignment="bottom")


@st.fragment(key=odds_inputs.DICE_PART)
def dice_part() -> None:
    """The dice on the table, on a stepper (as last used), kept in the link: its tap reruns
    this part and the advice alone."""
    stepper(t("odds.dice.label"), key=OddsState.dice.key, minimum=1, maximum=MAX_TABLE_DICE,
            less=t("odds.dice.less"), more=t("odds.dice.more"), help=t("odds.dice.help"),
            on_change=odds_inputs.table_stepped)
    odds_inputs.remember_in_link()


@st.fragment(key=odds_inputs.PLAYERS_PART)
def players_part() -> None:
    """The players at the table, on a stepper (as last used), kept in the link: its tap
    reruns this part and the advice, and the table's while it follows the players."""
    stepper(t("odds.players.label"), key=OddsState.players.key, minimum=MIN_PLAYERS,
            maximum=MAX_PLAYERS, less=t("odds.players.less"), more=t("odds.players.more"),
            on_change=odds_inputs.players_stepped)
    odds_inputs.remember_in_link()


def bid_inputs() -> None:
    """The round and the bid's face, and "I open", lit while no bid is entered (it clears
    the bid)."""
    label = t("odds.bid.none")  # bound: the pill's label may be formatted outside this run
    state = OddsState()
    entered = odds_inputs.bid_look(state).entered
    state.opening = None if entered else OPENING
    with side_by_side():
        round_selector(key=OddsState.round.key, label_visibility="collapsed",
                       on_change=partial(odds_inputs.bid_tapped, new_face=True))
        st.pills(label, [OPENING], format_func=lambda _: label, key=OddsState.opening.key,
                 on_change=odds_inputs.opening_tapped, width="stretch", wrap=True,
                 label_visibility="collapsed")
    face_selector(t("odds.bid.face"), key=OddsState.face.key, default=None, optional=True,
                  on_change=partial(odds_inputs.bid_tapped, new_face=True))
    state.drawn_entered = entered  # once drawn: a tap compares with what is on screen


def quantity_inputs() -> None:
    """The bid's quantity, in a row centred on the table's expected count of the face when
    it was picked: no bid until a face and a quantity are tapped."""
    state = OddsState()
    centre = odds_inputs.bid_look(state).centre
    quantity_row(t("odds.bid.quantity"), key=OddsState.quantity.key, centre=centre,
                 maximum=MAX_TABLE_DICE, on_change=partial(odds_inputs.bid_tapped,
                                                           new_face=False))
    state.drawn_centre = centre  # once drawn: a tap compares with what is on screen


def tracked_note(game: GameState) -> None:
    """The tracked game's table, round and bids, shown in place of the inputs."""
    seat = url_state.current_seat()
    me = seat if seat is not None else game.turn
    assert me is not None  # the game is not over
    with st.container(border=True, key="odds_tracker", gap="xsmall"):
        st.markdown(advice_view.tracker_note(game, me, seat is not None))
        st.caption(advice_view.tracker_bids(game))
        navigation.back_to_game()


def current_inputs(game: GameState | None) -> Inputs:
    """The table, the round and the bid as the page's parts left them in the session (the
    steppers' and the bid's), or from the tracked ``game``."""
    if game is not None:
        seat = url_state.current_seat()
        me = seat if seat is not None else game.turn
        assert me is not None  # the game is not over
        return Inputs(game.rules, game.table_dice, len(game.active_seats), game.palifico,
                      game.last_bid, game, me, seat is not None)
    state = OddsState()
    face, quantity = state.face, state.quantity
    bid = None if face is None or quantity is None else Bid(int(quantity), int(face))
    rules = url_state.current_rules()
    players = int(state.players) if state.players is not None else odds_inputs.DEFAULT_PLAYERS
    dice = int(state.dice) if state.dice is not None else players * rules.starting_dice
    return Inputs(rules, dice, players, state.round == "palifico", bid)


def input_problem(hand: Hand, inputs: Inputs) -> str | None:
    """Why these inputs cannot describe a table, in the user's words, or ``None``."""
    if len(hand) > inputs.dice:
        return t("odds.error.hand_exceeds_table", hand=len(hand),
                 table=tn("common.dice_on_table", inputs.dice))
    needed = max(len(hand), 1) + inputs.players - 1
    if inputs.game is None and needed > inputs.dice:
        return t("odds.error.players_exceed_dice", players=tn("common.players", inputs.players),
                 needed=needed, table=inputs.dice)
    return None


def advice_table(hand: Hand, inputs: Inputs) -> Table | None:
    """The coach's cache key for these inputs, or ``None`` (and a hint) when it cannot advise."""
    game = inputs.game
    if game is not None:
        mine = game.players[inputs.me].dice
        if mine == 0:
            st.info(t("odds.tracker.out"), icon=":material/info:")
            return None
        if inputs.seat_known and game.turn != inputs.me:
            st.info(t("odds.tracker.not_your_turn", name=player_name(game, game.turn or 0)),
                    icon=":material/hourglass_top:")
            return None
        if len(hand) != mine:
            if my_dice.asked_for(game) is None:  # else the new round's line asks already
                st.info(tn("odds.tracker.hand_count", mine), icon=":material/casino:")
            return None
        return Table(inputs.situation(hand), tracker_view.bluffs_of(game))
    if not hand:
        st.info(t("odds.hint.empty_hand"), icon=":material/casino:")
        return None
    return Table(inputs.situation(hand))


def awaits_my_dice(hand: Hand, inputs: Inputs) -> bool:
    """Whether the page asks for my dice before it shows any odds: none entered, and I hold
    some (out of a tracked game, I watch the odds from the dice alone)."""
    return not hand and (inputs.game is None or inputs.game.players[inputs.me].dice > 0)


def palifico_banner(inputs: Inputs) -> None:
    """Unmissable in a palifico round: pacos are not jokers, and the face is frozen."""
    if not inputs.palifico:
        return
    if inputs.bid is None:
        text = t("odds.palifico.opening")
    else:
        text = t("odds.palifico.face", faces=t(f"face.plural.{inputs.bid.face}"))
    if inputs.rules.palifico_one_die_may_change_face:
        text = f"{text} {t('odds.palifico.one_die')}"
    with st.container(key="odds_palifico"):
        st.warning(text, icon=":material/priority_high:")


def show_recommendation(card: DeltaGenerator, table: Table,
                        read_bids: bool) -> tuple[Advice, Situation]:
    """The big answer: the move, the chance it costs a die, why, and what the chances rest
    on (the bids read, or the dice alone); heads-up where the coach plays a solved table,
    the table's move and how often to play each of its moves."""
    advice = cached_advice(table, read_bids)
    situation = table.situation
    card.markdown(advice_view.card_markdown(advice, situation), anchors=False)
    return advice, situation


def show_what_reading_changed(box: DeltaGenerator, table: Table, bid: Bid,
                              game: GameState | None) -> None:
    """Under "Read the bids", on: which bids moved the count of ``bid``'s face and
    by how much, when reading them moved the bid's chance by more than ten points or changed
    the advice; named after the tracked game's players. The advice from the dice alone is
    asked for only when the chance moved less (a cold one costs about as much as the read)."""
    read = cached_read_odds(table, True, bid)
    if read is None:
        return
    situation = table.situation
    try:
        plain = cached_odds(bid, situation.hand, situation.table_dice, situation.palifico)
    except ValueError:
        return
    if not (advice_view.chance_moved(read, plain) or advice_view.advice_changed(
            cached_advice(table, True), cached_advice(table, False))):
        return
    name = None if game is None else partial(player_name, game)
    for line in advice_view.moved_lines(cached_count_shift(table, bid.face), name):
        box.caption(line)


def show_raise_chart(advice: Advice, table: Table, read_bids: bool) -> None:
    """Where every legal raise stands: the chance each is true, the coach's pick outlined."""
    pick = advice.action.bid
    heat_map = charts.cached_raise_html(table, read_bids, pick, current_language())
    if heat_map is not None:
        basis = "" if advice.reads_bids else ".plain"
        caption = t(f"advice.chart.caption{basis}{'.pick' if pick is not None else ''}")
        st.html(charts.figure(heat_map, caption, title=t("advice.chart.heading")))


def show_odds(hand: Hand, dice: int, bid: Bid, palifico: bool,
              reading: tuple[Table, bool] | None) -> None:
    """The odds of ``bid`` in words, numbers and a chart: as the advice reads the table
    (``reading``: its cache key and whether it reads the bids), labelled in words, and from
    the dice alone beside them when the two differ."""
    try:
        plain = cached_odds(bid, hand, dice, palifico)
    except ValueError:
        st.error(t("odds.error.invalid"))
        return
    read = None if reading is None else cached_read_odds(*reading, bid)
    st.markdown(odds_summary(bid, dice, palifico, plain, read), anchors=False)
    if reading is None or read is None:
        bars = charts.cached_distribution_html(bid, hand, dice, palifico, current_language())
    else:
        bars = charts.cached_read_distribution_html(*reading, bid, current_language())
    st.html(charts.figure(bars, t("odds.chart.caption", bid=bid.pretty())))


def odds_summary(bid: Bid, dice: int, palifico: bool, plain: Odds, read: Odds | None) -> str:
    """The odds of ``bid`` in words and numbers, as one markdown block: the chance it is true
    and exactly right (as the advice reads the table: ``read``, else ``plain``), said on what
    they rest, the dice-alone chance beside it when it differs, the expected count."""
    shown = plain if read is None else read
    numbers = (f"| {t('odds.result.at_least', quantity=bid.quantity)} "
               f"| {t('odds.result.exactly', quantity=bid.quantity)} |\n| :-- | :-- |\n"
               f"| **{format_percent(shown.at_least)}** | **{format_percent(shown.exactly)}** |")
    paragraphs = [f"### {t('odds.result.heading', bid=bid.pretty())}",
                  small(t("odds.basis.plain" if read is None else "odds.basis.read")),
                  numbers]
    if read is not None and format_percent(read.at_least) != format_percent(plain.at_least):
        paragraphs.append(t("odds.basis.both", read=format_percent(read.at_least),
                            plain=format_percent(plain.at_least)))
    if bid.is_paco:
        expected_key = "odds.result.expected.pacos"
    elif palifico:
        expected_key = "odds.result.expected.palifico"
    else:
        expected_key = "odds.result.expected.jokers"
    paragraphs.append(t(expected_key, table=tn("common.dice_on_table", dice),
                        expected=format_decimal(shown.expected, 1),
                        faces=t(f"face.plural.{bid.face}")))
    paragraphs.append(small(t("odds.result.detail", own=plain.own_matches,
                                          unknown=plain.unknown_dice)))
    return "\n\n".join(paragraphs)


def legality_notes(inputs: Inputs, bid: Bid, bidder_dice: int | None) -> None:
    """What may follow the bid on the table under the table's rules."""
    if inputs.game is None and check_bid(bid, palifico=inputs.palifico).refusal is (
        Refusal.OPEN_ON_PACOS
    ):
        st.caption(t("odds.note.open_on_pacos"))
    raises = cached_smallest_raises(bid, inputs.palifico, inputs.rules, bidder_dice)
    st.caption(advice_view.smallest_raises_text(bid, raises))


def new_round_notice(game: GameState | None) -> None:
    """One line when the round changed under the dice entered for the last one (they were
    put aside): which round this is, and how many dice to enter now."""
    wanted = my_dice.asked_for(game)
    if wanted is None or game is None:
        return
    text = (t("odds.new_round.any", round=game.round_number) if wanted == 0
            else tn("odds.new_round", wanted, round=game.round_number))
    st.warning(text, icon=":material/autorenew:")


@st.fragment(key=odds_inputs.HAND_PART)
def hand_part() -> None:
    """My dice as entered: a die's tap reruns this part and the advice (and the keys when
    they look otherwise, ``views.odds_inputs.hand_tapped``)."""
    game = tracked_game()
    new_round_notice(game)
    hand_line(my_dice.KEYPAD)
    my_dice.keep(game)  # this round's dice, kept on this device for a reload


@st.fragment(key=odds_inputs.KEYPAD_PART)
def keypad_part() -> None:
    """The keys my dice are entered with."""
    hand_keys(my_dice.KEYPAD, on_change=odds_inputs.hand_tapped)
    OddsState().drawn_keys = keys_look(my_dice.KEYPAD)  # drawn: a tap compares with it


def table_part() -> None:
    """The table's dice and players on steppers side by side, each its own part, or the
    tracked game's note in their place."""
    game = tracked_game()
    if game is not None:
        tracked_note(game)
        return
    odds_inputs.recall_table(url_state.current_rules().starting_dice)
    with side_by_side():
        dice_part()
        players_part()


@st.fragment(key=odds_inputs.BID_PART)
def bid_part() -> None:
    """The round, the bid's face and "I open" (none with a tracked game: its bids are the
    bid)."""
    if tracked_game() is None:
        bid_inputs()


@st.fragment(key=odds_inputs.QUANTITY_PART)
def quantity_part() -> None:
    """The bid's quantity (none with a tracked game)."""
    if tracked_game() is None:
        quantity_inputs()


@st.fragment(key=odds_inputs.ADVICE_PART)
def advice_part() -> None:
    """The advice, and the odds in detail: reruns with every tap above it that changes an
    input (the inputs are read from the session), and alone on its own switches."""
    hand = Hand(entered_hand(my_dice.KEYPAD))
    inputs = current_inputs(tracked_game())
    palifico_banner(inputs)
    problem = input_problem(hand, inputs)
    if problem is not None:
        st.error(problem, icon=":material/block:")
        return
    if inputs.bid is not None and exceeds_table(inputs.bid, inputs.dice):
        st.warning(t("odds.warn.exceeds_table", bid=inputs.bid.pretty(), dice=inputs.dice),
                   icon=":material/warning:")
    table = advice_table(hand, inputs)
    if table is None:
        odds_alone(hand, inputs)
    else:
        advice_and_details(hand, inputs, table)


def odds_alone(hand: Hand, inputs: Inputs) -> None:
    """No advice (no dice entered, not my turn, out of the game): the bid's odds from the
    dice alone, in the open, unless the page is asking for my dice."""
    if inputs.bid is None:
        return
    mine = len(hand) if inputs.game is None else inputs.game.players[inputs.me].dice
    legality_notes(inputs, inputs.bid, mine or None)
    if not awaits_my_dice(hand, inputs):
        show_odds(hand, inputs.dice, inputs.bid, inputs.palifico, None)


def advice_and_details(hand: Hand, inputs: Inputs, table: Table) -> None:
    """The advice's card, "Read the bids", what may follow the bid and the moves weighed;
    then the chances in detail (every raise's chance, the bid's odds and their charts),
    drawn only while their expander is open: a tap's screen without them is about a tenth
    faster, and a learner who opens them keeps them open."""
    card = st.container(border=True, key="odds_advice", gap="xsmall")
    read_bids = st.toggle(
        t("advice.read_bids"), value=True, key="odds_read",
        help=t("advice.read_bids.help"), disabled=inputs.bid is None,
        persist_state="session",
    )
    moved = st.container(key="odds_moved", gap="xsmall")  # filled last
    advice, situation = show_recommendation(card, table, read_bids)
    if inputs.bid is not None:
        mine = len(hand) if inputs.game is None else inputs.game.players[inputs.me].dice
        legality_notes(inputs, inputs.bid, mine or None)
    st.markdown(advice_view.moves_markdown(advice, situation))
    details = st.expander(t("odds.details"), expanded=OddsState().details_kept,
                          icon=":material/bar_chart:", key=OddsState.details.key,
                          on_change=odds_inputs.keep_details)
    if details.open:
        with details:
            show_raise_chart(advice, table, read_bids)
            shown_bid = inputs.bid if inputs.bid is not None else advice.action.bid
            if shown_bid is not None:
                show_odds(hand, inputs.dice, shown_bid, inputs.palifico, (table, read_bids))
    if read_bids and inputs.bid is not None:
        # last: the lines under the switch wait on nothing else the tap shows
        show_what_reading_changed(moved, table, inputs.bid, inputs.game)
    st.caption(t("odds.intro.basis"))  # what "Read the bids", shown with the advice, changes

with phone_page():
    st.title(t("odds.title"), anchor=False)
    hand_part()
    keypad_part()
    table_part()
    bid_part()
    quantity_part()
    advice_part()
