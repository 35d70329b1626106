"""What the app keeps between visits: practice progress (``progress``), in embedded SQLite."""
