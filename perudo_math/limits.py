"""Every bound of the game, defined once: the app, the CLIs and the engine read them here."""

MIN_PLAYERS = 2
MAX_PLAYERS = 10
MIN_STARTING_DICE = 1
MAX_STARTING_DICE = 10
MAX_TABLE_DICE = MAX_PLAYERS * MAX_STARTING_DICE
"""The most dice a table can hold under any settings: ten players of ten dice."""
MAX_NAME_LENGTH = 40
"""The longest player name, in characters."""
MAX_ROUNDS = 300
"""The most rounds a game may hold. The largest table (100 dice) is decided in 99 rounds
plus one for each die won back by a calza: three times that is far above any real game."""
MAX_MOVES = 3000
"""The most moves (bids, dudos and calzas) a game may hold: ten a round over the longest
game above. Game codes holding more are refused before anything is replayed."""

MAX_USEFUL_BIDS = 6 * MAX_TABLE_DICE
"""The most bids a round's useful range holds when every bid is a legal raise: six per die of
the largest table (``perudo_math.legality.most_useful_bids``). Past it, every bid is read as
telling nothing of anyone's dice (docs/RULES.md, "A round's useful range")."""
