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

What the session keeps (the scenario on screen, its answer, the filter, the inputs) is
``views.practice_state.PracticeState`` (keys ``practice_…``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

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
from views.play_state import PlayState
from views.practice_state import PracticeState
from views.style import phone_page

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

PLAY_PAGE = "app_pages/play.py"


def themes() -> tuple[str, ...]:
    return view.themes_for(url_state.current_rules())


def next_spot() -> view.Spot:
    """A new seed; the filter's theme (or one the seed picks); the level from the rating."""
    seed = common.new_seed()
    chosen = PracticeState().chosen_theme()
    available = themes()
    if chosen not in available:
        chosen = random.Random(seed).choice(available)
    return view.Spot(seed, chosen, profile.next_level(chosen))


def show_spot(spot: view.Spot) -> None:
    """Put ``spot`` on screen, forgetting the previous answer; the link follows at once, so
    a review's spot left by a tap (next scenario, the theme) leaves the link too."""
    state = PracticeState()
    state.spot = spot
    del state.answer
    del state.refusal
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
    state = PracticeState()
    if state.spot != spot or state.answer is not None:
        return
    scenario = view.find_scenario(spot, url_state.current_rules())
    if scenario is None:
        return
    if kind == "raise":
        assert bid is not None
        verdict = check_bid(bid, scenario.last_bid, palifico=scenario.palifico,
                            rules=scenario.rules, bidder_dice=scenario.seat_dice[scenario.seat])
        if not verdict.legal:
            state.refusal = (spot, verdict)
            return
        action = Action.raise_to(bid)
    else:
        action = Action.parse(kind)  # dudo or calza
    del state.refusal
    graded = grade_move(scenario, action)
    estimate = state.estimate / 100 if state.estimate_on else None
    record = Answer.from_scenario(scenario, graded)
    if estimate is not None and scenario.true_count is not None:
        bid = scenario.last_bid
        record = replace(record, estimate=estimate, truth=view.estimate_truth(scenario),
                         outcome=scenario.true_count >= bid.quantity)
    saved = profile.record(record)  # once per spot and profile, whatever the reruns and reloads
    state.answer = {"spot": spot, "grade": graded, "estimate": estimate, "saved": saved}


def theme_filter() -> None:
    options = (view.ANY_THEME, *themes())
    state = PracticeState()
    if state.theme not in options:
        state.theme = view.ANY_THEME
    st.selectbox(t("practice.filter"), options, key=PracticeState.theme.key,
                 format_func=common.theme_labeller(), on_change=next_scenario,
                 persist_state="session")


def shift_quantities(step: int) -> None:
    state = PracticeState()
    face, offset = state.offset
    current = state.face
    state.offset = (current, max(0, (offset if face == current else 0) + step))


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
    paged_face, offset = PracticeState().offset
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
    state = PracticeState()
    st.toggle(t("practice.estimate.toggle", bid=bid.pretty()), key=PracticeState.estimate_on.key)
    if state.estimate_on:
        st.slider(t("practice.estimate.label", bid=bid.pretty()), min_value=0, max_value=100,
                  step=round(ESTIMATE_STEP * 100), format=t("practice.estimate.format"),
                  key=PracticeState.estimate.key)
    with st.container(horizontal=True, gap="small", key="practice_calls"):
        st.button(t("practice.move.dudo"), key="practice_dudo", type="primary",
                  on_click=answer, args=("dudo", spot), width="stretch")
        if situation.may_calza():
            st.button(t("practice.move.calza"), key="practice_calza", type="primary",
                      on_click=answer, args=("calza", spot), width="stretch")
    if not situation.may_calza() and scenario.rules.calza:
        st.caption(t("practice.calza.not_allowed"))
    st.markdown(f"**{t('practice.raise')}**")
    face = face_selector(t("practice.raise.face"), key=PracticeState.face.key, default=None)
    raise_numbers(scenario, spot, face)
    refusal = state.refusal
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
    elif PlayState().table is not None:  # the play page's game, its review once over
        st.page_link(page=PLAY_PAGE, label=t("practice.back_to_review"),
                     icon=":material/arrow_back:")


def choose_spot() -> None:
    """The spot to show: the link's on a fresh session, a review's link followed in this
    session, or a new scenario when the menu left a review's spot."""
    spot = PracticeState().spot
    if spot is None:
        first_spot()
    elif url_state.in_link(view.GAME_SPOT_PARAM):  # a review's link, followed in this session
        linked = view.spot_from_link()
        if linked is not None and linked != spot:
            show_spot(linked)
    elif spot.game is not None:  # the menu (a page switch drops the link): a
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
            PracticeState().spot = spot
        PracticeState().reset_inputs(scenario.last_bid.face, spot)
    return scenario, spot


def move_or_reveal(scenario: Scenario, spot: view.Spot, done: dict[str, Any] | None) -> None:
    """The learner's move, or the reveal once ``done`` (its answer)."""
    if done is None:
        decision(scenario, spot)
        return
    st.subheader(t("practice.reveal" if scenario.cups else "practice.reveal.tracked"),
                 anchor=False)
    view.show_verdict(scenario, done["grade"])
    if done["saved"] is profile.Saved.REPEAT:
        st.caption(t("practice.saved.repeat"))


@st.fragment
def answer_and_after(banner: DeltaGenerator, scenario: Scenario | None,
                     spot: view.Spot, linked: bool) -> None:
    """The profile's line (in ``banner``, above the scenario), the move or the reveal, and
    what follows it: an answer reruns this part alone, the scenario above and the page's
    foot below staying as they are (15 messages a tap where the whole page sent 50). A new
    scenario is the whole page's. ``linked``: the foot links to the progress page already;
    the first answer, which makes the profile, adds the link here."""
    state = PracticeState()
    if state.spot != spot:  # "Next scenario": the scenario is drawn outside this fragment
        st.rerun()
    with banner:
        status = profile.banner()
    done = state.answer
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
    if status is profile.Status.ACTIVE and not linked:
        progress_link()


def progress_link() -> None:
    st.page_link(page="app_pages/progress.py", label=t("practice.progress_link"),
                 icon=":material/insights:")


def foot(linked: bool) -> None:
    """Under the scenario and its answer, drawn with the page: an answer does not redraw it."""
    if linked:
        progress_link()
    st.caption(t("practice.intro"))


def page() -> None:
    choose_spot()
    st.title(t("practice.title"), anchor=False)
    for notice in url_state.pop_notices():
        st.warning(t(notice), icon=":material/warning:")
    theme_filter()
    banner = st.container()
    state = PracticeState()
    assert state.spot is not None  # chosen first
    scenario, spot = spot_scenario(state.spot)
    url_state.set_page_params(view.link_params(spot))
    if scenario is not None:
        view.show_scenario(scenario)
    linked = profile.status() is profile.Status.ACTIVE
    answer_and_after(banner, scenario, spot, linked)
    foot(linked)


with phone_page():
    page()
