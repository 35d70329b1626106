"""What the pages draw with. Streamlit is imported here, in ``app_pages/`` and by the entry
script only: ``coach``, ``practice``, ``storage``, ``serving`` and ``perudo_math`` never import it.

Shared by every page: the catalogs (``i18n``), the URL and the state it keeps (``url_state``,
the one module that touches ``st.query_params``), the colours (``palette``), the phone look
(``style``), dice as players see them (``dice``), inputs built for taps (``inputs``), the
odds and the coach behind a cache (``engine_cache``), charts (``charts``) and the learner's
profile (``profile``). Then one view module per page's content: ``advice_view`` (odds, with
``table_words`` for a move played from a solved heads-up table),
``tracker_view``, ``rules_view``, ``practice_view``, ``drills_view`` and ``progress_view``
(with ``practice_common``), and ``phone_link`` for the sidebar. What a page keeps in the
session is a typed state object (``session``): ``play_state``, ``practice_state``,
``drills_state``, ``settings_state``, and ``odds_inputs.OddsState``.

Kept empty on purpose: ``import views.i18n`` must stay light (no numpy, no altair),
because the entry script ``streamlit_app.py`` imports it on every rerun.
"""
