"""What every browser test reads the page with: when a run is over, and what sticks out."""

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
"""The app has finished its script run: safe to read."""

OVERFLOW_JS = """
() => {
  const limit = window.innerWidth + 1;
  const main = document.querySelector("[data-testid='stMain']") || document.body;
  const wide = [];
  for (const el of main.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.height > 0 && box.right > limit) {
      wide.push(`${el.tagName}.${el.className} right=${Math.round(box.right)}`);
    }
  }
  return wide.slice(0, 10);
}
"""
"""The elements (up to 10) whose right edge passes the viewport: each would scroll sideways."""

TO_TOP_JS = """
() => {
  window.scrollTo(0, 0);
  for (const el of document.querySelectorAll("*")) { if (el.scrollTop) el.scrollTop = 0; }
}
"""
"""Scroll the page and every scrolled container back to the top."""


def whole_page_screenshot(page, path) -> None:
    """Streamlit scrolls an inner container, so ``full_page`` sees one screen: grow the
    viewport to the content's height instead (the width, hence the layout, stays)."""
    size = page.viewport_size
    height = page.evaluate(
        "Math.max(...[...document.querySelectorAll('*')].map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": size["width"], "height": min(int(height), 4000)})
    page.wait_for_timeout(400)
    page.screenshot(path=path)
    page.set_viewport_size(size)
