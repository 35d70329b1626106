"""Serving the app on a network: this computer's LAN address and the URLs a phone opens."""
