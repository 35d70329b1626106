"""Odds & advice page: what to do now, and how likely the bid on the table is to be true.

Built for a phone at a noisy table: the inputs are compact and the recommendation sits right
under them, visible without scrolling; details (other moves, odds, charts) follow below.
Layout and wiring only: the math is ``perudo_math`` and ``coach`` (cached by
``views.engine_cache``), the inputs ``views.inputs``, the charts ``views.charts``, the coach's
words ``views.advice_view``, the texts ``views/locales``.

State keys: ``odds_hand`` (tapped faces, the keypad's), ``odds_round`` and ``odds_read``
(read the bids) belong to their widgets; the table, the players and the bid, which the page
reads back, are ``views.odds_inputs.OddsState``, with what it remembers between visits. The page
starts with no bid (an opening): a bid is on the table once a face and a quantity are tapped,
and "I open" takes it off again. With a tracked game (not over) the table, the players, the
round and its bids come from the tracker and show as one short note instead of the steppers
(they cannot be overridden); the user's own values come back when the game is no longer
tracked.

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
from views.inputs import face_selector, hand_keypad, quantity_row, round_selector, stepper
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


def manual_inputs() -> Inputs:
    """Steppers and selectors for the table, the round and the bid on it: the table and the
    players as last used (``views.odds_inputs``), no bid until one is tapped."""
    return bid_inputs(*table_inputs())


def side_by_side() -> DeltaGenerator:
    """Two inputs side by side, each half the width, bottoms aligned: one block where two
    columns take three (each element a tap's screen redraws costs the phone)."""
    return st.container(horizontal=True, wrap=False, vertical_alignment="bottom")


def table_inputs() -> tuple[int, int]:
    """The table's dice and players, on steppers (as last used)."""
    rules = url_state.current_rules()
    odds_inputs.recall_table(rules.starting_dice)
    with side_by_side():
        dice = stepper(t("odds.dice.label"), key=OddsState.dice.key, minimum=1,
                       maximum=MAX_TABLE_DICE, less=t("odds.dice.less"),
                       more=t("odds.dice.more"), help=t("odds.dice.help"),
                       on_change=odds_inputs.table_set_by_hand)
        players = stepper(t("odds.players.label"), key=OddsState.players.key,
                          minimum=MIN_PLAYERS, maximum=MAX_PLAYERS, less=t("odds.players.less"),
                          more=t("odds.players.more"))
    odds_inputs.remember_in_link(int(dice), int(players))
    return int(dice), int(players)


def bid_inputs(dice: int, players: int) -> Inputs:
    """The round and the bid on the table: none until a face and a quantity are tapped (the
    quantities centred on the table's expected count of the face); "I open" clears it."""
    label = t("odds.bid.none")  # bound: the pill's label may be formatted outside this run
    state = OddsState()
    entered = state.face is not None and state.quantity is not None
    state.opening = None if entered else OPENING
    with side_by_side():
        palifico = round_selector(key="odds_round", label_visibility="collapsed")
        st.pills(label, [OPENING], format_func=lambda _: label, key=OddsState.opening.key,
                 on_change=odds_inputs.clear_bid, width="stretch", wrap=True,
                 label_visibility="collapsed")
    face = face_selector(t("odds.bid.face"), key=OddsState.face.key, default=None,
                         optional=True)
    centre = odds_inputs.expected_quantity(int(dice), face, palifico)
    quantity = quantity_row(t("odds.bid.quantity"), key=OddsState.quantity.key,
                            centre=centre, maximum=MAX_TABLE_DICE)
    bid = None if face is None or quantity is None else Bid(quantity, face)
    return Inputs(url_state.current_rules(), int(dice), int(players), palifico, bid)


def tracked_inputs(game: GameState) -> Inputs:
    """The table, the round and its bids from the tracked game: shown, not editable."""
    seat = url_state.current_seat()
    me = seat if seat is not None else game.turn
    assert me is not None  # the game is not over
    with st.container(border=True, key="odds_tracker", gap="xsmall"):
        st.markdown(advice_view.tracker_note(game, me, seat is not None))
        st.caption(advice_view.tracker_bids(game))
        navigation.back_to_game()
    return Inputs(game.rules, game.table_dice, len(game.active_seats), game.palifico,
                  game.last_bid, game, me, seat is not None)


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


def show_moves(advice: Advice, situation: Situation, table: Table, read_bids: bool) -> None:
    """The other moves worth weighing, and where every legal raise stands."""
    st.markdown(advice_view.moves_markdown(advice, situation))
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


@st.fragment
def odds_and_advice(top: DeltaGenerator) -> None:
    """Everything under the title, rerun alone on a tap of the table's steppers: the entry
    script and the sidebar stay as they are. My dice and their keypad go to ``top``, above
    the steppers, drawn by the fragment inside (:func:`hand_and_advice`)."""
    game = tracked_game()
    hand_and_advice(top, table_inputs() if game is None else None)


@st.fragment
def hand_and_advice(top: DeltaGenerator, seats: tuple[int, int] | None) -> None:
    """My dice on their keypad (in ``top``, above the table's steppers), the bid and its
    advice: a die's tap, the tap a player makes most, reruns this part alone, and the
    steppers between the keypad and the bid stay as they are (36 messages a tap where the
    whole page's fragment sent 49, ``make bench-speed``). ``seats``: the table's dice and
    players (``None``: a tracked game)."""
    game = tracked_game()
    with top:
        new_round_notice(game)
        hand = hand_keypad(my_dice.KEYPAD)
    my_dice.keep(game)  # this round's dice, kept on this device for a reload
    bid_and_advice(hand, seats)


@st.fragment
def bid_and_advice(faces: tuple[int, ...], seats: tuple[int, int] | None) -> None:
    """The bid and its advice, a fragment inside the keypad's: a tap on the bid reruns this
    part alone, the keypad and the table's steppers above it staying as they are (20
    messages a tap). ``faces``: my dice as tapped; ``seats``: the table's dice and players
    (``None``: a tracked game).
    """
    hand = Hand(faces)
    game = tracked_game()
    if game is not None:
        inputs = tracked_inputs(game)
    elif seats is not None:
        inputs = bid_inputs(*seats)
    else:
        inputs = manual_inputs()
    palifico_banner(inputs)
    problem = input_problem(hand, inputs)
    if problem is not None:
        st.error(problem, icon=":material/block:")
    else:
        if inputs.bid is not None and exceeds_table(inputs.bid, inputs.dice):
            st.warning(t("odds.warn.exceeds_table", bid=inputs.bid.pretty(), dice=inputs.dice),
                       icon=":material/warning:")
        table = advice_table(hand, inputs)
        advice = situation = None
        if table is not None:
            card = st.container(border=True, key="odds_advice", gap="xsmall")
            read_bids = st.toggle(
                t("advice.read_bids"), value=True, key="odds_read",
                help=t("advice.read_bids.help"), disabled=inputs.bid is None,
                persist_state="session",
            )
            moved = st.container(key="odds_moved", gap="xsmall")  # filled last
            advice, situation = show_recommendation(card, table, read_bids)
        shown_bid = inputs.bid if inputs.bid is not None else (
            advice.action.bid if advice is not None else None
        )
        if inputs.bid is not None:
            mine = len(hand) if inputs.game is None else inputs.game.players[inputs.me].dice
            legality_notes(inputs, inputs.bid, mine or None)
        if advice is not None and situation is not None and table is not None:
            show_moves(advice, situation, table, read_bids)
        if shown_bid is not None and not awaits_my_dice(hand, inputs):
            # the order of the taps does not change the odds
            reading = None if table is None else (table, read_bids)
            show_odds(hand, inputs.dice, shown_bid, inputs.palifico, reading)
        if table is not None and read_bids and inputs.bid is not None:
            # last: the lines under the switch wait on nothing else the tap shows
            show_what_reading_changed(moved, table, inputs.bid, inputs.game)
        if table is not None:  # what "Read the bids", shown with the advice, changes
            st.caption(t("odds.intro.basis"))


with phone_page():
    st.title(t("odds.title"), anchor=False)
    odds_and_advice(st.container())
