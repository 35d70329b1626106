"""Serving the app on a network: this computer's LAN address and the URLs a phone opens.

``lan`` is used by ``scripts/serve.py`` (``make serve``) and by the app's "Open on your
phone" spot (``views.phone_link``); never Streamlit.
"""
