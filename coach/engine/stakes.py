"""What a die is worth: a player's chance to win the game from the table's dice counts.

The model plays the rest of the game as rounds that each cost one active player a die,
every active player alike (no one is assumed to play better). It is exact for that model,
computed by recursion over dice counts; on tables too big to enumerate quickly it falls
back on each player's share of the dice, raised to a power fitted to the recursion.

Only differences matter to the coach: losing my last die costs everything, losing one of
five costs little; an opponent losing a die is worth more heads-up than at six players.
"""

from __future__ import annotations

from functools import lru_cache

MAX_STATES = 40_000
"""Above this many dice-count states the recursion gives way to the share model."""
SHARE_POWER = 1.6


def win_chance(dice: tuple[int, ...], me: int) -> float:
    """P(``me`` wins the game) when each round costs a uniformly chosen active player a die."""
    if not 0 <= me < len(dice):
        raise ValueError(f"seat {me} is not at a table of {len(dice)}")
    if dice[me] <= 0:
        return 0.0
    others = tuple(sorted(count for seat, count in enumerate(dice) if seat != me and count > 0))
    if not others:
        return 1.0
    if _state_count(dice[me], others) > MAX_STATES:
        return _share(dice[me], others)
    return _recursive(dice[me], others)


def _state_count(mine: int, others: tuple[int, ...]) -> int:
    states = mine
    for count in others:
        states *= count + 1
    return states


def _share(mine: int, others: tuple[int, ...]) -> float:
    mine_weight = mine ** SHARE_POWER
    return mine_weight / (mine_weight + sum(count ** SHARE_POWER for count in others))


@lru_cache(maxsize=65_536)
def _recursive(mine: int, others: tuple[int, ...]) -> float:
    if mine == 0:
        return 0.0
    if not others:
        return 1.0
    players = len(others) + 1
    total = _recursive(mine - 1, others)
    for index in range(len(others)):
        total += _recursive(mine, _drop_one(others, index))
    return total / players


def _drop_one(others: tuple[int, ...], index: int) -> tuple[int, ...]:
    count = others[index] - 1
    rest = others[:index] + others[index + 1:]
    if count == 0:
        return rest
    return tuple(sorted((*rest, count)))


def after(dice: tuple[int, ...], seat: int, change: int) -> tuple[int, ...]:
    """The dice counts once ``seat`` loses (``change`` −1) or wins back (+1) a die."""
    return (*dice[:seat], dice[seat] + change, *dice[seat + 1:])
