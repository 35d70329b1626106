"""Rules and cheat sheet: the rules under the current settings, what the coach's grades of a
move mean, the paco conversions, the expected counts and a legality checker.

Layout and wiring only: the numbers come from ``perudo_math`` through ``views.rules_view``, the
words from the catalogs. State keys: ``rules_opening``, ``rules_prev_q``, ``rules_prev_face``,
``rules_new_q``, ``rules_new_face``, ``rules_round``, ``rules_one_die``.
"""

from __future__ import annotations

import streamlit as st

from perudo_math import MAX_TABLE_DICE, Bid, check_bid
from views import rules_view, url_state
from views.i18n import t
from views.inputs import face_selector, round_selector

MAX_QUANTITY = MAX_TABLE_DICE  # the largest table; a bid beyond one's table is legal, just false

rules = url_state.current_rules()

st.title(t("rules.title"), anchor=False)
st.caption(t("rules.intro"))

rules_tab, numbers_tab, checker_tab = st.tabs(
    [t("rules.tab.rules"), t("rules.tab.numbers"), t("rules.tab.checker")]
)

with rules_tab:
    st.subheader(t("rules.section.settings"), anchor=False)
    st.markdown(rules_view.bullet_list(rules_view.setting_lines(rules)))

    st.subheader(t("rules.section.basics"), anchor=False)
    st.markdown(rules_view.bullet_list([t(key) for key in rules_view.BASIC_KEYS]))

    st.subheader(t("rules.section.grades"), anchor=False)
    st.caption(t("rules.grades.caption"))
    st.markdown(rules_view.bullet_list(rules_view.grade_lines()))

with numbers_tab:
    st.subheader(t("rules.section.paco"), anchor=False)
    st.caption(t("rules.paco.caption"))
    st.markdown(rules_view.paco_table())

    st.subheader(t("rules.section.expected"), anchor=False)
    st.caption(t("rules.expected.caption"))
    st.markdown(rules_view.expected_table())

with checker_tab:
    st.subheader(t("rules.section.checker"), anchor=False)
    st.caption(t("rules.checker.intro"))
    opening = st.toggle(t("rules.checker.opening"), key="rules_opening", persist_state="session")
    previous = None
    if not opening:
        previous_quantity = st.number_input(
            t("rules.checker.previous.quantity"), min_value=1, max_value=MAX_QUANTITY, value=5,
            step=1, key="rules_prev_q", persist_state="session",
        )
        previous_face = face_selector(t("rules.checker.previous.face"),
                                              key="rules_prev_face")
        previous = Bid(int(previous_quantity), previous_face)
    quantity = st.number_input(
        t("rules.checker.new.quantity"), min_value=1, max_value=MAX_QUANTITY, value=6, step=1,
        key="rules_new_q", persist_state="session",
    )
    face = face_selector(t("rules.checker.new.face"), key="rules_new_face")
    palifico = round_selector(key="rules_round")
    one_die = st.checkbox(t("rules.checker.one_die"), key="rules_one_die",
                          help=t("rules.checker.one_die.help"), persist_state="session")

    verdict = check_bid(Bid(int(quantity), face), previous, palifico=palifico, rules=rules,
                        bidder_dice=1 if one_die else None)
    if verdict.legal:
        st.success(rules_view.verdict_text(verdict), icon=":material/check_circle:")
    else:
        st.error(rules_view.verdict_text(verdict), icon=":material/block:")
