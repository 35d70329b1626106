"""Practice in a real browser at phone size, in English and French.

Open a shared scenario link, answer, read the reveal, reload and find the profile's progress;
no sideways scroll. The shared test server keeps progress in a throwaway file.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.kit import IDLE, OVERFLOW_JS, whole_page_screenshot

pytestmark = pytest.mark.browser

SHARED = "seed=123&theme=palifico&level=2"
"""A palifico spot: Player 4 bid 2 × P; dudo has a regret of 44.1%."""


@pytest.fixture(scope="module")
def practice_url(app_url: str) -> str:
    """The shared test server, which keeps practice progress in a throwaway file."""
    return app_url


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


def assert_thumb_sized(page) -> None:
    targets = page.evaluate(TAP_TARGETS_JS)
    assert len(targets) >= 5, targets
    assert [t for t in targets if t[1] < TOUCH_TARGET_PX] == []


def settled(page) -> None:
    page.wait_for_selector(IDLE)


def open_link(page, url: str) -> None:
    page.goto(url)
    settled(page)
    page.locator(".st-key-practice_next button, .st-key-drills_next button, "
                 "[data-testid='stHeading']").first.wait_for()
    settled(page)


def click(page, key: str) -> None:
    page.locator(f".st-key-{key} button").first.click()
    page.wait_for_timeout(150)
    settled(page)


def assert_fits_the_width(page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.evaluate(OVERFLOW_JS) == []

    page.wait_for_timeout(200)


def profile_of(page) -> str:
    match = re.search(r"[?&]profile=([A-Za-z0-9_-]+)", page.url)
    assert match, page.url
    return match.group(1)


def set_raise(page, quantity: int, face: str) -> None:
    field = page.locator(".st-key-practice_qty input")
    field.fill(str(quantity))
    field.press("Enter")
    settled(page)
    page.locator(".st-key-practice_face button", has_text=face).click()
    settled(page)


def test_shared_seed_answer_reveal_and_progress_in_english(practice_url, phone,
                                                          screenshot_dir) -> None:
    open_link(phone, f"{practice_url}/train?{SHARED}")
    assert phone.get_by_role("heading", name="Practice").is_visible()
    phone.get_by_text("Player 4: 2 × P").wait_for()
    assert_fits_the_width(phone)
    assert_thumb_sized(phone)
    phone.screenshot(path=screenshot_dir / "practice-phone-en-top.png")

    set_raise(phone, 3, "5")
    click(phone, "practice_raise")
    phone.get_by_text("In a palifico round the face stays P: bid at least 3 × P.").wait_for()

    phone.locator(".st-key-practice_estimate_on label").click()
    settled(phone)
    slider = phone.locator(".st-key-practice_estimate input[type='range']")
    slider.focus()
    slider.press("ArrowLeft")
    slider.press("ArrowLeft")
    phone.wait_for_timeout(600)
    settled(phone)
    whole_page_screenshot(phone, screenshot_dir / "practice-phone-en-question.png")
    click(phone, "practice_dudo")
    phone.get_by_role("heading", name="Cups up!").wait_for()
    phone.get_by_text("The coach would choose 3 × P.").wait_for()
    phone.get_by_test_id("stMetricValue").filter(has_text="44.1%").wait_for()
    settled(phone)
    values = phone.get_by_test_id("stMetricValue").all_inner_texts()
    assert values[:2] == ["44.1%", "4"]
    phone.get_by_text("Your estimate for 2 × P: 40.0%", exact=False).wait_for()
    token = profile_of(phone)
    phone.get_by_test_id("stVegaLiteChart").first.wait_for()
    settled(phone)
    assert_fits_the_width(phone)
    phone.get_by_text("Cups up!").scroll_into_view_if_needed()
    phone.screenshot(path=screenshot_dir / "practice-phone-en-reveal.png")
    whole_page_screenshot(phone, screenshot_dir / "practice-phone-en-reveal-full.png")

    phone.reload()
    settled(phone)
    phone.get_by_text("1 answer saved in this page's link", exact=False).wait_for()
    assert profile_of(phone) == token
    assert "seed=123" in phone.url

    open_link(phone, f"{practice_url}/my-progress?profile={token}")
    phone.get_by_role("heading", name="Your progress").wait_for()
    phone.get_by_test_id("stVegaLiteChart").first.wait_for()
    settled(phone)
    phone.get_by_test_id("stMetricValue").first.wait_for()
    assert phone.get_by_test_id("stMetricValue").all_inner_texts()[:2] == ["1", "0%"]
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "progress-phone-en.png")


def test_drills_on_a_phone(practice_url, phone, screenshot_dir) -> None:
    open_link(phone, f"{practice_url}/drill")
    assert phone.get_by_role("heading", name="Drills").is_visible()
    phone.locator(".st-key-drills_choices button").first.wait_for()
    assert_fits_the_width(phone)
    assert_thumb_sized(phone)
    phone.screenshot(path=screenshot_dir / "drills-phone-en-question.png")
    phone.locator(".st-key-drills_choices button").nth(2).click()
    settled(phone)
    phone.locator(".st-key-drills_result").wait_for()
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / "drills-phone-en-result.png")
    phone.locator(".st-key-drills_kind button", has_text="Estimate the odds").click()
    settled(phone)
    click(phone, "drills_check")
    phone.locator(".st-key-drills_result").wait_for()
    phone.get_by_text("Exact chance").wait_for()
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "drills-phone-en-odds.png")


def test_shared_seed_answer_reveal_and_progress_in_french(practice_url, phone,
                                                         screenshot_dir) -> None:
    open_link(phone, f"{practice_url}/train?{SHARED}&lang=fr")
    assert phone.get_by_role("heading", name="Entraînement").is_visible()
    phone.get_by_text("Joueur 4\u00a0: 2 × P").wait_for()
    set_raise(phone, 3, "5")
    click(phone, "practice_raise")
    phone.get_by_text("En manche palifico, la face reste P", exact=False).wait_for()
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "practice-phone-fr-question.png")
    click(phone, "practice_dudo")
    phone.get_by_role("heading", name="On soulève les gobelets").wait_for()
    phone.get_by_test_id("stMetricValue").filter(has_text="44,1").wait_for()
    settled(phone)
    values = phone.get_by_test_id("stMetricValue").all_inner_texts()
    assert values[0] == "44,1\u202f%"
    token = profile_of(phone)
    phone.get_by_test_id("stVegaLiteChart").first.wait_for()
    settled(phone)
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "practice-phone-fr-reveal.png")

    phone.reload()
    settled(phone)
    phone.get_by_text("1 réponse enregistrée", exact=False).wait_for()
    assert "lang=fr" in phone.url and profile_of(phone) == token
    open_link(phone, f"{practice_url}/my-progress?profile={token}&lang=fr")
    phone.get_by_role("heading", name="Vos progrès").wait_for()
    phone.get_by_test_id("stVegaLiteChart").first.wait_for()
    settled(phone)
    phone.get_by_test_id("stMetricValue").first.wait_for()
    assert phone.get_by_test_id("stMetricValue").all_inner_texts()[0] == "1"
    assert_fits_the_width(phone)
    whole_page_screenshot(phone, screenshot_dir / "progress-phone-fr.png")


def test_an_unknown_profile_link_on_a_phone(practice_url, phone) -> None:
    open_link(phone, f"{practice_url}/train?{SHARED}&profile={'Z' * 22}")
    phone.get_by_text("No saved progress matches this link", exact=False).wait_for()
    click(phone, "profile_start_new")
    phone.get_by_text("Bookmark this page on your phone", exact=False).wait_for()
    assert profile_of(phone) != "Z" * 22
