"""Drills at 390 × 844: a bid such as ``6 × 4`` never wraps inside the question's heading.

Which drill the page deals is random, so the test slides the heading's text along the line
(words put before it, one at a time) until every bid has crossed the line's end: with plain
spaces around ``×`` some position splits a bid over two lines; with the no-break spaces the
page writes, the bid always moves to the next line whole.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.kit import assert_fits_the_width, choose_segment, laid_out, open_page

pytestmark = pytest.mark.browser

KIND_LABEL = {"en": "Legal raise?", "fr": "Surenchère permise\u202f?"}
"""The legality drill: its question holds two bids."""

SPLIT_BIDS_JS = """
(heading) => {
  const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  const node = nodes.find(candidate => candidate.data.includes("×"));
  if (!node) return {bids: 0, split: ["no bid in: " + heading.textContent]};
  const original = node.data;
  const bid = /\\d+\\s×\\s[1-6P]/g;  // \\s takes the no-break spaces in too
  const split = [];
  let bids = 0;
  for (let words = 0; words <= 60; words++) {
    node.data = "i ".repeat(words) + original;
    for (const match of node.data.matchAll(bid)) {
      bids += 1;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
      if (lines.size > 1) split.push(`${words} words before: "${match[0]}"`);
    }
  }
  node.data = original;
  return {bids, split};
}
"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_bid_never_wraps_in_the_drill_heading(app_url, phone: Page, screenshot_dir,
                                                lang: str) -> None:
    open_page(phone, f"{app_url}/drill", lang=lang)
    choose_segment(phone, "drills_kind", KIND_LABEL[lang])
    heading = phone.locator(".st-key-drills_question h4").first
    expect(heading).to_contain_text("×")
    laid_out(phone)
    text = heading.inner_text()
    assert "\u00a0×\u00a0" in heading.text_content(), text  # the page writes 6 × 4 unbroken
    probe = heading.evaluate(SPLIT_BIDS_JS)
    assert probe["bids"] >= 2 * 61 and probe["split"] == [], (text, probe)
    assert_fits_the_width(phone)
    phone.screenshot(path=screenshot_dir / f"drills-phone-{lang}-heading.png")
