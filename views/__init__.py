"""What the pages draw with: the catalogs (``i18n``), the URL's state (``url_state``), the
inputs, engine caches and charts the pages share, and the view modules of the pages' content.
Streamlit is imported here, in ``app_pages/`` and by the entry script only: ``coach``,
``practice``, ``storage``, ``serving`` and ``perudo_math`` never import it.

Kept empty on purpose: ``import views.i18n`` must stay light (no numpy, no altair),
because the entry script ``streamlit_app.py`` imports it on every rerun.
"""
