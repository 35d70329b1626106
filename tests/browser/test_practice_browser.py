"""Practice in a real browser at phone size, in English and French.

Open a shared scenario link, answer, read the reveal, reload and find the profile's progress;
no sideways scroll. Each worker's test server keeps progress in a throwaway file.
"""

from __future__ import annotations

import re
from functools import cache
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from perudo_math import Bid, GameState, Hand
from practice.scenarios import Scenario, generate, grade
from tests.browser.kit import (
    assert_fits_the_width,
    choose_segment,
    flip,
    laid_out,
    metric_values,
    open_page,
    reload_page,
    script_run,
    tap,
    whole_page_screenshot,
    with_names,
)
from views import practice_view
from views.i18n import translate

pytestmark = pytest.mark.browser

SHARED = "seed=4281&theme=palifico&level=2"
"""The AppTests' shared spot (``tests/app/test_practice_page.py`` checks what it is): a
palifico round on pacos at five players; the bid on the table is true."""


@cache
def shared() -> Scenario:
    return generate(4281, "palifico", 2)


def on_the_table(scenario: Scenario, player: str = "Player", colon: str = ": ") -> str:
    """The bid on the table as the page lists it: ``Player 1: 3 × P``."""
    return f"{player} {scenario.last_bidder + 1}{colon}{scenario.last_bid.pretty()}"


def risk_added(scenario: Scenario) -> int:
    """The points of risk a dudo adds in the shared spot, as the reveal says them."""
    return round(grade(scenario, "dudo").regret * 100)


def face_change(scenario: Scenario) -> str:
    """Another face: no raise on it, the face stays in a palifico round."""
    return "5" if scenario.last_bid.face != 5 else "3"


def refusal(scenario: Scenario) -> str:
    last = scenario.last_bid
    return (f"In a palifico round bids stay on {translate('en', f'face.plural.{last.face}')}: "
            f"bid at least {Bid(last.quantity + 1, last.face).pretty()}.")


TAP_TARGETS_JS = """
() => [...document.querySelectorAll(
    ".st-key-phone-page [data-testid='stButton'] button, "
    + ".st-key-phone-page [data-testid='stButtonGroup'] button, "
    + ".st-key-phone-page [data-testid='stNumberInputContainer'], "
    + ".st-key-phone-page [data-testid='stCheckbox'] label")]
  .map(el => [el.innerText.trim().slice(0, 30), Math.round(el.getBoundingClientRect().height)])
  .filter(([, height]) => height > 0)
"""
TOUCH_TARGET_PX = 44

AXIS_TITLES_JS = """
() => [...document.querySelectorAll("[data-testid='stVegaLiteChart'] svg")].flatMap(svg => {
  const chart = svg.getBoundingClientRect();
  return [...svg.querySelectorAll(".role-axis-title text")].map(title => {
    const box = title.getBoundingClientRect(), upright = box.height > box.width;
    return [title.textContent, upright ? Math.min(box.top - chart.top, chart.bottom - box.bottom)
                                       : Math.min(box.left - chart.left, chart.right - box.right)];
  });
})
"""


def assert_axis_titles_fit(page: Page) -> None:
    """Every chart's axis titles lie whole inside their chart, along their length."""
    laid_out(page)
    titles = page.evaluate(AXIS_TITLES_JS)
    assert len(titles) >= 4, titles
    assert [(text, room) for text, room in titles if room < 0] == []


def assert_thumb_sized(page: Page) -> None:
    laid_out(page)
    targets = page.evaluate(TAP_TARGETS_JS)
    assert len(targets) >= 5, targets
    assert [t for t in targets if t[1] < TOUCH_TARGET_PX] == []


def open_link(page: Page, url: str) -> None:
    open_page(page, url)
    expect(page.locator(".st-key-practice_next button, .st-key-drills_next button, "
                        "[data-testid='stHeading']").first).to_be_visible()


def profile_of(page: Page) -> str:
    match = re.search(r"[?&]profile=([A-Za-z0-9_-]+)", page.url)
    assert match, page.url
    return match.group(1)


def set_face(page: Page, face: str) -> None:
    """Tap a face of the raise: its quantities follow, or why it has none."""
    choose_segment(page, "practice_face", face)


def estimate(page: Page, steps_down: int) -> None:
    """Switch the estimate on and move its slider ``steps_down`` steps (5 % each) down."""
    flip(page, "practice_estimate_on")
    slider = page.locator(".st-key-practice_estimate input[type='range']")
    slider.focus()
    for _ in range(steps_down):
        with script_run(page):  # each key press sends the new value: one run each
            slider.press("ArrowLeft")


def test_shared_seed_answer_reveal_and_progress_in_english(app_url, phone,
                                                          screenshot_dir) -> None:
    scenario = shared()
    bid, regret = scenario.last_bid.pretty(), f"{risk_added(scenario)} points"
    open_link(phone, f"{app_url}/train?{SHARED}")
    assert phone.get_by_role("heading", name="Practice").is_visible()
    expect(phone.get_by_text(on_the_table(scenario))).to_be_visible()
    assert_fits_the_width(phone)
    assert_thumb_sized(phone)
    phone.screenshot(path=screenshot_dir / "practice-phone-en-top.png")

    set_face(phone, face_change(scenario))
    expect(phone.get_by_text(refusal(scenario))).to_be_visible()

    estimate(phone, steps_down=2)
    expect(phone.get_by_test_id("stSliderThumbValue")).to_have_text("40%")
    whole_page_screenshot(phone, screenshot_dir / "practice-phone-en-question.png")
    tap(phone, "practice_dudo")
    expect(phone.get_by_role("heading", name="Cups up!")).to_be_visible()
    # the answer reruns only its fragment, which draws the profile's line above the scenario
    expect(phone.get_by_text("Your progress is now saved in this page's link.", exact=False)
           ).to_be_visible()
    expect(phone.get_by_text(on_the_table(scenario))).to_be_visible()
    expect(phone.get_by_text(f"The coach would choose {scenario.best.bid.pretty()}.")
           ).to_be_visible()
    expect(phone.get_by_test_id("stMetricValue").first).to_have_text(regret)
    assert metric_values(phone)[:2] == [regret, str(scenario.true_count)]
    expect(phone.get_by_text(f"This move added {regret} of risk of losing a die compared with "
                             "the best, as the coach reads the bids.")).to_be_visible()
    expect(phone.get_by_text(f"Chance that {bid} is true: ", exact=False)).to_be_visible()
    expect(phone.get_by_text("Why two numbers: ", exact=False)).to_be_visible()
    expect(phone.get_by_text(f"Your estimate for {bid}: 40.0%", exact=False)).to_be_visible()
    token = profile_of(phone)
    expect(phone.locator("figure.pc-rows")).to_be_visible()
    # the profile made by this answer: its link drawn by the fragment, once, above the foot
    # the answer did not redraw
    expect(phone.get_by_role("link", name="See my progress")).to_have_count(1)
    expect(phone.get_by_text("Scenarios come from games played", exact=False)).to_be_visible()
    assert_fits_the_width(phone)
    phone.get_by_text("Cups up!").scroll_into_view_if_needed()
    laid_out(phone)
    phone.screenshot(path=screenshot_dir / "practice-phone-en-reveal.png")
    whole_page_screenshot(phone, screenshot_dir / "practice-phone-en-reveal-full.png")

    reload_page(phone)
    expect(phone.get_by_text("1 answer saved in this page's link", exact=False)).to_be_visible()
    assert profile_of(phone) == token
    assert "seed=4281" in phone.url
    expect(phone.get_by_role("link", name="See my progress")).to_have_count(1)  # the foot's

    open_link(phone, f"{app_url}/my-progress?profile={token}")
    expect(phone.get_by_role("heading", name="Your progress")).to_be_visible()
    expect(phone.get_by_test_id("stVegaLiteChart").first).to_be_visible()
    expect(phone.get_by_test_id("stMetricValue").first).to_be_visible()
    assert metric_values(phone)[:2] == ["1", "0%"]
    assert_fits_the_width(phone)
    assert_axis_titles_fit(phone)
    whole_page_screenshot(phone, screenshot_dir / "progress-phone-en.png")


def test_drills_on_a_phone(app_url, phone, screenshot_dir) -> None:
    open_link(phone, f"{app_url}/drill")
    assert phone.get_by_role("heading", name="Drills").is_visible()
    choices = phone.locator(".st-key-drills_choices button")
    expect(choices.first).to_be_visible()
    assert_fits_the_width(phone)
    assert_thumb_sized(phone)
    phone.screenshot(path=screenshot_dir / "drills-phone-en-question.png")
    with script_run(phone):
        choices.nth(2).click()
    expect(phone.locator(".st-key-drills_result")).to_be_visible()
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / "drills-phone-en-result.png")
    choose_segment(phone, "drills_kind", "Estimate the odds")
    tap(phone, "drills_check")
    expect(phone.locator(".st-key-drills_result")).to_be_visible()
    expect(phone.get_by_text("Exact chance")).to_be_visible()
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "drills-phone-en-odds.png")


def test_shared_seed_answer_reveal_and_progress_in_french(app_url, phone,
                                                         screenshot_dir) -> None:
    scenario = shared()
    regret = f"{risk_added(scenario)} points"
    open_link(phone, f"{app_url}/train?{SHARED}&lang=fr")
    assert phone.get_by_role("heading", name="Entraînement").is_visible()
    expect(phone.get_by_text(on_the_table(scenario, "Joueur", "\u00a0: "))).to_be_visible()
    set_face(phone, face_change(scenario))
    expect(phone.get_by_text("En manche palifico, on reste sur les pacos\u00a0: annoncez au moins "
                             f"{Bid(scenario.last_bid.quantity + 1, 1).pretty()}.")
           ).to_be_visible()
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "practice-phone-fr-question.png")
    tap(phone, "practice_dudo")
    expect(phone.get_by_role("heading", name="On soulève les gobelets")).to_be_visible()
    expect(phone.get_by_test_id("stMetricValue").first).to_have_text(regret)
    expect(phone.get_by_text(f"Ce coup a ajouté {regret} de risque de perdre un dé par rapport "
                             "au meilleur coup, en tenant compte des annonces.")).to_be_visible()
    expect(phone.get_by_text("Pourquoi deux chiffres", exact=False)).to_be_visible()
    token = profile_of(phone)
    expect(phone.locator("figure.pc-rows")).to_be_visible()
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "practice-phone-fr-reveal.png")

    reload_page(phone)
    expect(phone.get_by_text("1 réponse enregistrée", exact=False)).to_be_visible()
    assert "lang=fr" in phone.url and profile_of(phone) == token
    open_link(phone, f"{app_url}/my-progress?profile={token}&lang=fr")
    expect(phone.get_by_role("heading", name="Vos progrès")).to_be_visible()
    expect(phone.get_by_test_id("stVegaLiteChart").first).to_be_visible()
    expect(phone.get_by_test_id("stMetricValue").first).to_be_visible()
    assert metric_values(phone)[0] == "1"
    assert_fits_the_width(phone)
    assert_axis_titles_fit(phone)
    whole_page_screenshot(phone, screenshot_dir / "progress-phone-fr.png")


def test_an_unknown_profile_link_on_a_phone(app_url, phone) -> None:
    open_link(phone, f"{app_url}/train?{SHARED}&profile={'Z' * 22}")
    expect(phone.get_by_text("No saved progress matches this link", exact=False)).to_be_visible()
    tap(phone, "profile_start_new")
    expect(phone.get_by_text("Bookmark this page on your phone", exact=False)).to_be_visible()
    assert profile_of(phone) != "Z" * 22


def review_link(app_url: str) -> str:
    """The tracker review's link to Ann's dudo on Cid's 1 × 4 (she held five fours)."""
    game = GameState.new(["Ann", "Bob", "Cid"]).bid("1x2").bid("1x3").bid("1x4").dudo(7)
    spot = practice_view.tracked_spot(game, 0, 1, Hand((1, 1, 4, 4, 4)), 1)
    return f"{app_url}/train?review={quote(spot, safe='~')}"


def menu_to(page: Page, name: str) -> None:
    page.get_by_test_id("stExpandSidebarButton").click()
    with script_run(page):
        page.get_by_test_id("stSidebarNav").get_by_role("link", name=name, exact=True).click()


def assert_a_new_scenario(page: Page) -> None:
    expect(page).to_have_url(re.compile(r"[?&]seed=\d+"))
    assert "review=" not in page.url
    expect(page.locator(".st-key-practice_dudo button")).to_be_visible()


def test_a_review_spot_is_left_by_next_and_by_the_menu(app_url, phone) -> None:
    open_link(phone, review_link(app_url))
    expect(phone.get_by_text(with_names("Bob: 5 dice"))).to_be_visible()  # the game's names
    tap(phone, "practice_dudo")
    expect(phone.get_by_test_id("stMetricValue").first).to_be_visible()
    tap(phone, "practice_next")
    assert_a_new_scenario(phone)
    reload_page(phone)
    assert_a_new_scenario(phone)  # the reload finds the new scenario, not the review's

    open_link(phone, review_link(app_url))
    expect(phone.get_by_text(with_names("Bob: 5 dice"))).to_be_visible()
    menu_to(phone, translate("en", "nav.drills"))
    menu_to(phone, translate("en", "nav.practice"))
    assert_a_new_scenario(phone)
    expect(phone.get_by_text(with_names("Bob: 5 dice"))).to_have_count(0)
