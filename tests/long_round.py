"""The longest rounds the limits allow, shared by the tests and the benchmarks (issue 31).

The issue's round: ten players holding ten dice each, the any-face raise rule, and one round of
smallest legal raises as long as a game may be (``MAX_MOVES``). Bids may pass the dice on the
table (no rule forbids it), so the round climbs to 600 × 5; its useful range is its first
500 bids (every quantity up to the table on each ordinary face) (``perudo_math.useful_range``).
"""

from __future__ import annotations

from perudo_math import (
    MAX_MOVES,
    Bid,
    BidMade,
    DudoCalled,
    GameState,
    Hand,
    Rules,
    smallest_raises,
)

PLAYERS = 10
DICE = 10
ANY_FACE = Rules(starting_dice=DICE, raise_rule="any-face")
SAME_FACE = Rules(starting_dice=DICE)
NAMES = tuple(f"P{seat}" for seat in range(PLAYERS))


def smallest_raise(previous: Bid | None, rules: Rules) -> Bid:
    """The smallest legal raise on an ordinary face (2 to 6): quantity first, then face."""
    if previous is None:
        return Bid(1, 2)
    raises = smallest_raises(previous, rules=rules)
    return min((bid for face, bid in raises.items() if face != 1),
               key=lambda bid: (bid.quantity, bid.face))


def long_round(bids: int = MAX_MOVES - 1, rules: Rules = ANY_FACE,
               players: int = PLAYERS) -> GameState:
    """A game whose first round holds ``bids`` smallest legal raises, still going."""
    events, previous = [], None
    for _ in range(bids):
        previous = smallest_raise(previous, rules)
        events.append(BidMade(None, previous))
    return GameState.new(NAMES[:players], rules).replay(events)


def finished_long_round(bids: int = MAX_MOVES - 1, count: int = 30,
                        players: int = PLAYERS) -> GameState:
    """:func:`long_round` ended by a dudo (``count`` dice matched): the longest game a code
    may hold when ``bids`` is ``MAX_MOVES - 1``."""
    return long_round(bids, players=players).replay([DudoCalled(None, count)])


def rounds_within_the_table(rules: Rules = SAME_FACE, most: int | None = None) -> GameState:
    """A game of ``MAX_MOVES`` moves at the largest table (ten players of ten dice) whose
    every round climbs by smallest legal raises (ordinary faces) to the last one within the
    table, then its bidder is called and loses a die: the longest game whose every decision
    faces a long round still open (a review weighs each of them). With ``most``, each round
    stops after that many bids (a normal game: the table shrinks to a winner first)."""
    game = GameState.new(NAMES, rules)
    while len(game.history) < MAX_MOVES and not game.is_over:
        raises = game.smallest_raises()
        bid = min((bid for face, bid in raises.items() if face != 1 or len(raises) == 1),
                  key=lambda bid: (bid.quantity, bid.face))
        if (bid.quantity <= game.table_dice and len(game.history) < MAX_MOVES - 1
                and (most is None or len(game.bids) < most)):
            game = game.apply(BidMade(None, bid))
        else:
            game = game.apply(DudoCalled(None, 0))
    return game


def hands_of(game: GameState, seat: int) -> dict[int, Hand]:
    """A hand for ``seat`` in every round of ``game`` it played, of the dice it held."""
    faces = (1, 2, 3, 4, 5, 6) * 2
    hands, state = {}, game.restart()
    for event in (None, *game.history):
        if event is not None:
            state = state.apply(event)
        number = state.round_number
        if (number not in hands and not state.is_over and state.players[seat].dice
                and (number <= len(game.results) or not game.is_over)):
            hands[number] = Hand(faces[:state.players[seat].dice])
    return hands
