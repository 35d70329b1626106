"""What the app keeps between visits: practice progress (``progress``), in embedded SQLite.

Stores what ``practice`` grades and rates (drills, ratings); never Streamlit.
"""
