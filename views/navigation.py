"""Moving around on a phone: one tap between a game and its advice, a menu that closes itself.

Streamlit 1.67 closes its sidebar after a page is chosen only when the browser's user agent
says "mobile": a phone browsing in desktop mode, a small tablet or a narrow window keep the
menu open over the page, so switching pages takes three taps (open, choose, close).
``st.navigation(position="top")`` does not help: below Streamlit's 768 px breakpoint the top
bar falls back to the same sidebar. So the entry script installs, once per
document, a small script that closes the sidebar after a page is chosen whenever it covers
the page (a viewport up to :data:`NARROW_PX`) and Streamlit left it open: two taps.

The two pages of a game link to each other in one tap, with ``st.page_link``: the tracker's
"Advice for this spot" and the advice page's :func:`back_to_game`. Both pages read the game
from ``views.url_state``, so it comes and goes intact.
"""

from __future__ import annotations

import streamlit as st

from views.i18n import t

TRACKER_PAGE = "app_pages/tracker.py"
ODDS_PAGE = "app_pages/odds.py"
RULES_PAGE = "app_pages/rules.py"
PRACTICE_PAGE = "app_pages/practice.py"
TRACKER_URL_PATH = "game"
"""The tracker's address (``/game``), as the entry script declares it (a test keeps the two
equal): links to the tracker are built on it."""
GAME_PAGE_PATHS = frozenset({"", "bid-odds", TRACKER_URL_PATH})
"""The ``url_path`` of the pages that show a game: the advice page (at the root and at its own
address) and the tracker (see ``streamlit_app.py``)."""

NARROW_PX = 768
"""Streamlit's ``md`` breakpoint: up to this width the open sidebar covers the page."""

CLOSE_MENU_SCRIPT = f"""<script>
(() => {{
  const root = document.documentElement;
  if (root.dataset.perudoMenuCloses) return;  // once per document, whatever the reruns
  root.dataset.perudoMenuCloses = "yes";
  document.addEventListener("click", (event) => {{
    const link = event.target instanceof Element
      && event.target.closest("[data-testid='stSidebarNavLink']");
    if (!link || window.innerWidth > {NARROW_PX}) return;
    // After Streamlit's own handler, which closes the menu on a "mobile" user agent only.
    setTimeout(() => {{
      const sidebar = document.querySelector("[data-testid='stSidebar']");
      if (sidebar && sidebar.dataset.collapsed === "false") {{
        document.querySelector("[data-testid='stSidebarCollapseButton'] button")?.click();
      }}
    }}, 0);
  }});
}})();
</script>"""
"""Closes the sidebar after a page is chosen on a narrow screen, unless it is closed already."""


def back_to_game() -> None:
    """The one-tap link from the advice page back to the tracked game."""
    with st.container(key="nav_back_to_game"):
        st.page_link(page=TRACKER_PAGE, label=t("nav.back_to_game"), icon=":material/arrow_back:")


def shows_a_game(url_path: str) -> bool:
    """Whether the page at ``url_path`` shows a game (where a game can be resumed)."""
    return url_path in GAME_PAGE_PATHS


__all__ = [
    "CLOSE_MENU_SCRIPT",
    "GAME_PAGE_PATHS",
    "NARROW_PX",
    "ODDS_PAGE",
    "PRACTICE_PAGE",
    "RULES_PAGE",
    "TRACKER_PAGE",
    "TRACKER_URL_PATH",
    "back_to_game",
    "shows_a_game",
]
