"""Every bound of the game, defined once: the app, the CLIs and the engine read them here."""

MIN_PLAYERS = 2
MAX_PLAYERS = 10
MIN_STARTING_DICE = 1
MAX_STARTING_DICE = 10
MAX_TABLE_DICE = MAX_PLAYERS * MAX_STARTING_DICE
"""The most dice a table can hold under any settings: ten players of ten dice."""
MAX_NAME_LENGTH = 40
"""The longest player name, in characters."""

__all__ = [
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MAX_STARTING_DICE",
    "MAX_TABLE_DICE",
    "MIN_PLAYERS",
    "MIN_STARTING_DICE",
]
