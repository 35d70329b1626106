"""Odds page: how likely is a bid to be true, given my dice and the dice on the table.

Layout and wiring only: the math is ``perudo_math``, the widgets and the cache ``ui.widgets``,
the words ``ui/locales``. State keys: ``odds_hand`` (tapped faces), ``odds_dice``,
``odds_round``, ``odds_qty``, ``odds_face``.
"""

import streamlit as st

from perudo_math import Bid, Refusal, check_bid, exceeds_table
from ui import widgets
from ui.i18n import format_decimal, format_percent, t, tn

MAX_TABLE_DICE = 60
DEFAULT_TABLE_DICE = 20
DEFAULT_QUANTITY = 5
DEFAULT_FACE = 4


def show_result(hand: tuple[int, ...], dice: int, bid: Bid, palifico: bool) -> None:
    """The odds of ``bid`` in words, numbers and a chart; inline messages for bad inputs."""
    if len(hand) > dice:
        st.error(
            t(
                "odds.error.hand_exceeds_table",
                hand=len(hand),
                table=tn("common.dice_on_table", dice),
            )
        )
        return
    try:
        result = widgets.cached_odds(bid.quantity, bid.face, hand, dice, palifico)
    except ValueError:
        st.error(t("odds.error.invalid"))
        return

    st.subheader(t("odds.result.heading", bid=bid.pretty()), anchor=False)
    if exceeds_table(bid, dice):
        st.warning(t("odds.warn.exceeds_table", bid=bid.pretty(), dice=dice), icon="⚠️")
    if check_bid(bid, palifico=palifico).refusal is Refusal.OPEN_ON_PACOS:
        st.info(t("odds.note.open_on_pacos"), icon="ℹ️")

    with st.container(horizontal=True, key="odds_metrics"):
        st.metric(
            t("odds.result.at_least", quantity=bid.quantity),
            format_percent(result.at_least),
            border=True,
        )
        st.metric(
            t("odds.result.exactly", quantity=bid.quantity),
            format_percent(result.exactly),
            border=True,
        )

    if bid.is_paco:
        expected_key = "odds.result.expected.pacos"
    elif palifico:
        expected_key = "odds.result.expected.palifico"
    else:
        expected_key = "odds.result.expected.jokers"
    st.markdown(
        t(
            expected_key,
            table=tn("common.dice_on_table", dice),
            expected=format_decimal(result.expected, 1),
            faces=t(f"face.plural.{bid.face}"),
        )
    )
    st.caption(t("odds.result.detail", own=result.own_matches, unknown=result.unknown_dice))

    st.altair_chart(
        widgets.distribution_chart(result.distribution, bid),
        width="stretch",
        alt=t("odds.chart.alt", bid=bid.pretty()),
    )
    st.caption(t("odds.chart.caption", bid=bid.pretty()))


st.title(t("odds.title"), anchor=False)
st.caption(t("odds.intro"))

hand = widgets.hand_keypad("odds")

table_column, round_column = st.columns(2, wrap=False, vertical_alignment="bottom")
with table_column:
    dice = st.number_input(
        t("odds.dice.label"),
        min_value=1,
        max_value=MAX_TABLE_DICE,
        value=DEFAULT_TABLE_DICE,
        step=1,
        key="odds_dice",
        persist_state="session",
    )
with round_column:
    palifico = widgets.round_selector(key="odds_round")
quantity = st.number_input(
    t("odds.bid.quantity"),
    min_value=1,
    max_value=MAX_TABLE_DICE,
    value=DEFAULT_QUANTITY,
    step=1,
    key="odds_qty",
    persist_state="session",
)
face = widgets.face_selector(t("odds.bid.face"), key="odds_face", default=DEFAULT_FACE)

show_result(hand, int(dice), Bid(int(quantity), face), palifico)
