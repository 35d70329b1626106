"""Practice page: a generated scenario seen as a player sees it, the learner's move, the reveal.

A scenario comes from a seed (``?seed=123&theme=palifico&level=2`` reproduces it exactly);
"Next scenario" draws a new seed, the theme from the filter and the level from the
learner's rating on that theme. The learner calls dudo, calza (when allowed) or raises
(a tap on the face, then on the number, as on the play page; an illegal raise is refused
with its reason), and may first estimate the chance that the bid on the table is true. Then
the cups are lifted. Answers are saved to the profile in the URL (created on the first
answer) when the progress file can be used, once per spot however often it is answered.

A review's spot (``?review=…``) belongs to its link: "Next scenario" and the theme leave it
with its link, and the menu (which drops the link) deals a new scenario.

Layout and wiring only: scenarios and grades are ``practice``, words and charts
``views.practice_view``, the profile ``views.profile``, the link ``views.url_state``.

State keys: ``practice_spot`` (the scenario on screen), ``practice_answer`` (its graded
answer), ``practice_refusal`` (the last illegal raise), ``practice_theme`` (the filter),
``practice_face`` (the raise's face) and ``practice_offset`` (the face and how far its
quantities are paged), ``practice_estimate_on``/``practice_estimate``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import streamlit as st

from coach.engine.situation import Action
from perudo_math import Bid, check_bid, smallest_raises
from practice.drills import ESTIMATE_STEP
from practice.scenarios import Scenario
from practice.scenarios import grade as grade_move
from storage.progress import Answer
from views import practice_common as common
from views import practice_view as view
from views import profile, rules_view, url_state
from views.i18n import t
from views.inputs import face_selector, quantity_buttons
from views.navigation import TRACKER_PAGE
from views.style import phone_page

SPOT_KEY = "practice_spot"
ANSWER_KEY = "practice_answer"
REFUSAL_KEY = "practice_refusal"
INPUTS_KEY = "practice_inputs_for"
THEME_KEY = "practice_theme"
FACE_KEY, OFFSET_KEY = "practice_face", "practice_offset"
ESTIMATE_ON_KEY, ESTIMATE_KEY = "practice_estimate_on", "practice_estimate"
DEFAULT_ESTIMATE = 50
PLAY_PAGE = "app_pages/play.py"
PLAY_TABLE_KEY = "play_table"
"""The play page's game on screen (its review, once the game is over)."""


def themes() -> tuple[str, ...]:
    return view.themes_for(url_state.current_rules())


def next_spot() -> view.Spot:
    """A new seed; the filter's theme (or one the seed picks); the level from the rating."""
    seed = common.new_seed()
    chosen = st.session_state.get(THEME_KEY, view.ANY_THEME)
    available = themes()
    if chosen not in available:
        chosen = random.Random(seed).choice(available)
    return view.Spot(seed, chosen, profile.next_level(chosen))


def show_spot(spot: view.Spot) -> None:
    """Put ``spot`` on screen, forgetting the previous answer; the link follows at once, so
    a review's spot left by a tap (next scenario, the theme) leaves the link too."""
    state = st.session_state
    state[SPOT_KEY] = spot
    state.pop(ANSWER_KEY, None)
    state.pop(REFUSAL_KEY, None)
    url_state.set_page_params(view.link_params(spot))


def next_scenario() -> None:
    show_spot(next_spot())


def first_spot() -> None:
    """On a fresh session: the scenario of the link, or a new one (with a notice if bad)."""
    spot = view.spot_from_link()
    if spot is not None and spot.theme is not None and spot.theme not in themes():
        spot = None
        url_state.notify(view.CALZA_OFF_NOTICE)
    if spot is None:
        spot = next_spot()
    show_spot(spot)


def current_scenario(spot: view.Spot) -> Scenario | None:
    with st.spinner(t("practice.generating")):
        return view.find_scenario(spot, url_state.current_rules())


def answer(kind: str, spot: view.Spot, bid: Bid | None = None) -> None:
    """Grade the learner's move (``bid`` for a raise; an illegal one is refused) and save
    it; runs before the rerun."""
    state = st.session_state
    if state.get(SPOT_KEY) != spot or ANSWER_KEY in state:
        return
    scenario = view.find_scenario(spot, url_state.current_rules())
    if scenario is None:
        return
    if kind == "raise":
        assert bid is not None
        verdict = check_bid(bid, scenario.last_bid, palifico=scenario.palifico,
                            rules=scenario.rules, bidder_dice=scenario.seat_dice[scenario.seat])
        if not verdict.legal:
            state[REFUSAL_KEY] = (spot, verdict)
            return
        action = Action.raise_to(bid)
    else:
        action = Action.parse(kind)  # dudo or calza
    state.pop(REFUSAL_KEY, None)
    graded = grade_move(scenario, action)
    estimate = state[ESTIMATE_KEY] / 100 if state.get(ESTIMATE_ON_KEY) else None
    record = Answer.from_scenario(scenario, graded)
    if estimate is not None and scenario.true_count is not None:
        bid = scenario.last_bid
        record = replace(record, estimate=estimate, truth=view.estimate_truth(scenario),
                         outcome=scenario.true_count >= bid.quantity)
    saved = profile.record(record)  # once per spot and profile, whatever the reruns and reloads
    state[ANSWER_KEY] = {"spot": spot, "grade": graded, "estimate": estimate, "saved": saved}


def reset_inputs(scenario: Scenario, spot: view.Spot) -> None:
    """Fresh raise and estimate inputs for a new scenario (before the widgets are drawn)."""
    state = st.session_state
    fresh = {FACE_KEY: scenario.last_bid.face, ESTIMATE_ON_KEY: False,
             ESTIMATE_KEY: DEFAULT_ESTIMATE}
    if state.get(INPUTS_KEY) != spot:
        state.update(fresh)
        state.pop(OFFSET_KEY, None)
        state[INPUTS_KEY] = spot
    for key, value in fresh.items():  # a page switch drops the state of widgets not drawn
        if key not in state:
            state[key] = value


def theme_filter() -> None:
    options = (view.ANY_THEME, *themes())
    if st.session_state.get(THEME_KEY) not in options:
        st.session_state[THEME_KEY] = view.ANY_THEME
    st.selectbox(t("practice.filter"), options, key=THEME_KEY, format_func=common.theme_labeller(),
                 on_change=next_scenario, persist_state="session")


def shift_quantities(step: int) -> None:
    face, offset = st.session_state.get(OFFSET_KEY, (None, 0))
    current = st.session_state.get(FACE_KEY)
    st.session_state[OFFSET_KEY] = (current, max(0, (offset if face == current else 0) + step))


def raise_numbers(scenario: Scenario, spot: view.Spot, face: int) -> None:
    """The raise's quantities on ``face``, one tap a raise (as on the play page and the
    tracker); a face with no legal raise says why instead."""
    last, rules, palifico = scenario.last_bid, scenario.rules, scenario.palifico
    bidder = scenario.seat_dice[scenario.seat]
    lowest = smallest_raises(last, palifico=palifico, rules=rules, bidder_dice=bidder).get(face)
    if lowest is None:
        refused = check_bid(Bid(last.quantity + 1, face), last, palifico=palifico, rules=rules,
                            bidder_dice=bidder)
        st.warning(rules_view.refusal_text(refused), icon=":material/block:")
        return
    paged_face, offset = st.session_state.get(OFFSET_KEY, (None, 0))
    quantity_buttons(face, key="practice", lowest=lowest.quantity,
                     offset=offset if paged_face == face else 0, table_dice=scenario.dice,
                     legal=lambda bid: check_bid(bid, last, palifico=palifico, rules=rules,
                                                 bidder_dice=bidder).legal,
                     on_bid=answer, bid_args=lambda bid: ("raise", spot, bid),
                     on_shift=shift_quantities)


def decision(scenario: Scenario, spot: view.Spot) -> None:
    """Dudo, calza (when allowed), or a raise; an optional estimate first."""
    situation = scenario.situation()
    bid = scenario.last_bid
    st.subheader(t("practice.your_move"), anchor=False)
    st.toggle(t("practice.estimate.toggle", bid=bid.pretty()), key=ESTIMATE_ON_KEY)
    if st.session_state.get(ESTIMATE_ON_KEY):
        st.slider(t("practice.estimate.label", bid=bid.pretty()), min_value=0, max_value=100,
                  step=round(ESTIMATE_STEP * 100), format=t("practice.estimate.format"),
                  key=ESTIMATE_KEY)
    with st.container(horizontal=True, gap="small", key="practice_calls"):
        st.button(t("practice.move.dudo"), key="practice_dudo", type="primary",
                  on_click=answer, args=("dudo", spot), width="stretch")
        if situation.may_calza():
            st.button(t("practice.move.calza"), key="practice_calza", type="primary",
                      on_click=answer, args=("calza", spot), width="stretch")
    if not situation.may_calza() and scenario.rules.calza:
        st.caption(t("practice.calza.not_allowed"))
    st.markdown(f"**{t('practice.raise')}**")
    face = face_selector(t("practice.raise.face"), key=FACE_KEY, default=None)
    raise_numbers(scenario, spot, face)
    refusal = st.session_state.get(REFUSAL_KEY)
    if refusal is not None and refusal[0] == spot:
        st.error(rules_view.refusal_text(refusal[1]), icon=":material/block:")


def back_to_review(spot: view.Spot) -> None:
    """A review's spot: the way back to its game, when this session still has it (a spot
    opened from a shared link has no game to go back to)."""
    assert spot.game is not None
    if view.is_tracked(spot.game):
        if url_state.current_game() is not None:
            st.page_link(page=TRACKER_PAGE, label=t("nav.back_to_game"),
                         icon=":material/arrow_back:")
    elif st.session_state.get(PLAY_TABLE_KEY) is not None:
        st.page_link(page=PLAY_PAGE, label=t("practice.back_to_review"),
                     icon=":material/arrow_back:")


def choose_spot() -> None:
    """The spot to show: the link's on a fresh session, a review's link followed in this
    session, or a new scenario when the menu left a review's spot."""
    state = st.session_state
    if SPOT_KEY not in state:
        first_spot()
    elif url_state.in_link(view.GAME_SPOT_PARAM):  # a review's link, followed in this session
        linked = view.spot_from_link()
        if linked is not None and linked != state[SPOT_KEY]:
            show_spot(linked)
    elif state[SPOT_KEY].game is not None:  # the menu (a page switch drops the link): a
        next_scenario()  # review's spot belongs to its link; the menu's practice is a new one


def spot_scenario(spot: view.Spot) -> tuple[Scenario | None, view.Spot]:
    """The spot's scenario (``None``, said on screen, when there is none) and the spot as
    kept, once the scenario has settled its theme and level; fresh inputs for it."""
    scenario = current_scenario(spot)
    if scenario is None and spot.game is not None:
        st.error(t("practice.error.game_spot"), icon=":material/casino:")
    elif scenario is None:
        theme = spot.theme or view.ANY_THEME
        st.error(t("practice.error.not_found", theme=common.theme_label(theme)),
                 icon=":material/casino:")
    else:
        if view.spot_of(scenario) != spot:  # the seed picked the theme, or another level
            spot = view.spot_of(scenario)
            st.session_state[SPOT_KEY] = spot
        reset_inputs(scenario, spot)
    return scenario, spot


def move_or_reveal(scenario: Scenario, spot: view.Spot, done: dict[str, Any] | None) -> None:
    """The scenario, then the learner's move, or the reveal once ``done`` (its answer)."""
    view.show_scenario(scenario)
    if done is None:
        decision(scenario, spot)
        return
    st.subheader(t("practice.reveal" if scenario.cups else "practice.reveal.tracked"),
                 anchor=False)
    view.show_verdict(scenario, done["grade"])
    if done["saved"] is profile.Saved.REPEAT:
        st.caption(t("practice.saved.repeat"))


def page() -> None:
    choose_spot()
    st.title(t("practice.title"), anchor=False)
    for notice in url_state.pop_notices():
        st.warning(t(notice), icon=":material/warning:")
    theme_filter()
    status = profile.banner()
    scenario, spot = spot_scenario(st.session_state[SPOT_KEY])
    url_state.set_page_params(view.link_params(spot))
    done = st.session_state.get(ANSWER_KEY)
    answered = scenario is not None and done is not None and done["spot"] == spot
    if scenario is not None:
        move_or_reveal(scenario, spot, done if answered else None)
    st.button(t("practice.next"), key="practice_next", icon=":material/casino:",
              on_click=next_scenario, type="primary" if answered else "secondary",
              width="stretch")
    if spot.game is not None:
        back_to_review(spot)
    if answered:
        assert scenario is not None and done is not None
        view.show_details(scenario, done["grade"], done["estimate"])
    if status is profile.Status.ACTIVE:
        st.page_link(page="app_pages/progress.py", label=t("practice.progress_link"),
                     icon=":material/insights:")
    st.caption(t("practice.intro"))


with phone_page():
    page()
