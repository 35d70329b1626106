"""Opening the app in AppTest as a link would: its language and parameters, then a page."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def open_at(at: AppTest, page: str | None, lang: str = "en", **params: str) -> AppTest:
    """Run ``at`` with ``?lang=…`` and ``params`` in its link, then switch to ``page`` (the
    root when ``None``); no exception on the way."""
    at.query_params["lang"] = lang
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    return at
