"""What the pages draw with: the catalogs (``i18n``), the URL's state (``url_state``), the
inputs, engine caches and charts the pages share, and one view module per page's content.
Streamlit lives here and in ``app_pages/``; below, ``coach``, ``practice``, ``storage`` and
``perudo_math`` never import it.

Kept empty on purpose: ``import views.i18n`` must stay light (no numpy, no altair),
because the entry script ``streamlit_app.py`` imports it on every rerun.
"""
