"""Drills page: short questions answered with taps and graded at once.

Three kinds (``practice.drills``): the smallest raise to or from pacos (tap one of six bids),
is this raise legal (tap yes or no; the reason follows), and estimate the odds of a bid
(a slider; the exact value and the error follow, and the estimate is kept for the
calibration chart). The level follows the learner's rating on each kind; every answer is
saved to the profile in the URL when the progress file can be used.

What the session keeps (the kind chosen, the drill on screen, its grade, the odds slider)
is ``views.drills_state.DrillsState`` (keys ``drills_…``).
"""

from __future__ import annotations

import streamlit as st

from perudo_math import Bid, check_bid
from practice.drills import (
    DRILL_KINDS,
    ESTIMATE_STEP,
    Drill,
    LegalityDrill,
    OddsDrill,
    SmallestRaiseDrill,
    generate_drill,
    grade_drill,
)
from storage.progress import Answer
from views import drills_view as view
from views import practice_common as common
from views import profile, rules_view
from views.drills_state import DEFAULT_ESTIMATE, DrillSpot, DrillsState
from views.i18n import format_percent, t
from views.style import phone_page


def new_drill() -> None:
    """A new drill of the chosen kind, at the level the learner's rating asks for."""
    state = DrillsState()
    kind = state.kind or DRILL_KINDS[0]
    state.spot = (common.new_seed(), kind, profile.next_level(kind))
    del state.answer
    state.estimate = DEFAULT_ESTIMATE


def drill_of(spot: DrillSpot) -> Drill:
    seed, kind, level = spot
    return generate_drill(seed, kind, level)


def respond(spot: DrillSpot, response: object) -> None:
    """Grade and save the response; runs before the rerun."""
    state = DrillsState()
    if state.spot != spot or state.answer is not None:
        return
    drill = drill_of(spot)
    if response == "estimate":
        response = state.estimate / 100
    graded = grade_drill(drill, response)
    saved = profile.record(Answer.from_drill(drill, graded))
    state.answer = {"spot": spot, "grade": graded, "saved": saved}


def question(drill: Drill, spot: DrillSpot, answered: bool) -> None:
    """The question and the taps that answer it (disabled once answered)."""
    with st.container(border=True, key="drills_question"):
        with st.container(horizontal=True, gap="small", key="drills_badges"):
            st.badge(common.theme_label(drill.kind), icon=":material/fitness_center:")
            st.badge(t("practice.level", level=drill.level), color="gray")
            if isinstance(drill, LegalityDrill | OddsDrill) and drill.palifico:
                st.badge(t("practice.round.palifico"), icon=":material/lock:", color="orange")
        if isinstance(drill, OddsDrill):
            st.markdown(view.odds_drill_table(drill))
        st.markdown(f"#### {view.drill_question(drill)}", anchors=False)
        if isinstance(drill, LegalityDrill) and drill.rules.raise_rule.value == "any-face":
            st.caption(t("drills.legal.any_face"))
    match drill:
        case SmallestRaiseDrill():
            choices = view.smallest_choices(drill)
            with st.container(key="drills_choices", gap="small"):
                for row in (choices[:3], choices[3:]):
                    with st.container(horizontal=True, gap="small"):
                        for bid in row:
                            st.button(bid.pretty(), key=f"drills_pick_{bid.quantity}",
                                      on_click=respond, args=(spot, bid), disabled=answered,
                                      width="stretch")
        case LegalityDrill():
            with st.container(horizontal=True, gap="small", key="drills_verdict"):
                st.button(t("drills.legal.yes"), key="drills_yes", on_click=respond,
                          args=(spot, True), disabled=answered, width="stretch",
                          icon=":material/check:")
                st.button(t("drills.legal.no"), key="drills_no", on_click=respond,
                          args=(spot, False), disabled=answered, width="stretch",
                          icon=":material/block:")
        case OddsDrill():
            st.slider(t("drills.odds.label"), min_value=0, max_value=100,
                      step=round(ESTIMATE_STEP * 100),
                      format=t("practice.estimate.format"), key=DrillsState.estimate.key,
                      disabled=answered)
            st.button(t("drills.odds.check"), key="drills_check", on_click=respond,
                      args=(spot, "estimate"), disabled=answered, type="primary",
                      width="stretch")


def result(drill: Drill, done: dict) -> None:
    """Right or wrong at once, with the explanation."""
    graded = done["grade"]
    with st.container(border=True, key="drills_result"):
        icon = common.result_icon(graded.correct)
        match drill:
            case SmallestRaiseDrill():
                key = "drills.smallest.right" if graded.correct else "drills.smallest.wrong"
                answer = view.heading_bid(drill.answer)
                st.markdown(f"#### {icon} {t(key, answer=answer)}", anchors=False)
                st.markdown(view.smallest_explanation(drill))
                if not graded.correct and isinstance(graded.response, Bid):
                    verdict = check_bid(graded.response, drill.previous)
                    if not verdict.legal:
                        st.caption(rules_view.refusal_text(verdict))
            case LegalityDrill():
                key = "drills.legal.is_legal" if drill.answer else "drills.legal.is_illegal"
                mark = t("drills.right") if graded.correct else t("drills.wrong")
                st.markdown(f"#### {icon} {mark}", anchors=False)
                st.markdown(t(key, bid=drill.bid.pretty()))
                st.markdown(rules_view.verdict_text(drill.verdict))
            case OddsDrill():
                st.markdown(f"#### {icon} {t(f'drills.odds.{graded.estimate}')}",
                            anchors=False)
                with st.container(horizontal=True, key="drills_metrics"):
                    st.metric(t("drills.odds.exact"), format_percent(drill.answer), border=True)
                    st.metric(t("drills.odds.yours"), format_percent(graded.response),
                              border=True)
                st.markdown(t("drills.odds.error", error=common.points(graded.error or 0.0)))
                st.caption(view.odds_drill_outcome(drill))


def page() -> None:
    state = DrillsState()
    if state.kind not in DRILL_KINDS:
        state.kind = DRILL_KINDS[0]
    if state.spot is None:
        new_drill()
    state.keep(DrillsState.estimate)  # dropped by a page switch
    st.title(t("drills.title"), anchor=False)
    st.segmented_control(t("drills.kind"), DRILL_KINDS, key=DrillsState.kind.key, required=True,
                         format_func=common.theme_labeller(), on_change=new_drill, width="stretch",
                         persist_state="session")
    profile.banner()
    spot = state.spot
    assert spot is not None  # dealt above
    drill = drill_of(spot)
    done = state.answer
    answered = done is not None and done["spot"] == spot
    question(drill, spot, answered)
    if answered:
        assert done is not None
        result(drill, done)
    st.button(t("drills.next"), key="drills_next", icon=":material/skip_next:",
              on_click=new_drill, type="primary" if answered else "secondary",
              width="stretch")
    st.caption(t("drills.intro"))


with phone_page():
    page()
