"""Streamlit user interface helpers: translations (``ui.i18n``) and shared widgets (``ui.widgets``).

Kept empty on purpose: ``import ui.i18n`` must stay light (no numpy, no altair),
because the entry script ``streamlit_app.py`` imports it on every rerun.
"""
