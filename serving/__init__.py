"""Serving the app on a network: this computer's LAN address and the URLs a phone opens.

``lan`` is used by ``serving/start.py`` (``make serve``) and by the app's "Open on your
phone" spot (``views.phone_link``); never Streamlit. ``streamlit_cli`` is Streamlit's
command line with its server's socket set to answer without Nagle's delay.
"""
