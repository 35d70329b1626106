"""Normal spots, drawn the same way every time, and the coach's advice on each: every number
of it, to nine decimals (issue 31: bounding long rounds must not change a normal spot).

A spot: 2 to 10 players of up to 3, 5, 6 or 10 dice (some out), one of five rule sets, now
and then a palifico round, and a round of 0 to 24 legal raises (one spot in twelve: 8 to 10
players of up to 10 dice, 25 to 64 raises), each the smallest of a face drawn at random or a
die or two above it, none above the table's dice; the player after the last bidder to act,
with a hand drawn at random. ``tests/data/normal_decisions.json`` holds the coach's advice
on each (written by ``python -m tests.normal_spots FILE``): ``tests/test_normal_decisions.py``
checks that the coach still gives the same, every option in the same order and each number
within :data:`TOLERANCE`.

Nine decimals, not the last bit: numpy and OpenBLAS sum in another order on another CPU
(AVX-512 or not), and the last bits differ. The coach rounds what it ranks and compares
(:mod:`coach.engine.steady`), so those bits never change a move, a reason or a rollout.
The table was first written by main before issue 31 (f300c55) as digests of every bit.
Against that code, the rounding changed 63 of the 1,200 spots beyond :data:`TOLERANCE` (the
best move in 3: 235, 286, 613), each where a machine's last bits had decided a tie, and in
292 more only the order of options tied to nine decimals.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from coach import Advice, Situation, advise
from coach.engine.steady import steady
from perudo_math import Bid, Hand, Rules, smallest_raises

SPOTS = 1200
LONG_EVERY, LONGEST = 12, 64
"""One spot in twelve at eight to ten players of up to ten dice, in a round of 25 to 64
bids (the longest rounds play makes; the coach reads 64 bids at most)."""
TABLE = Path(__file__).with_name("data") / "normal_decisions.json"


def rule_sets(starting: int) -> tuple[Rules, ...]:
    return (Rules(starting_dice=starting), Rules(starting_dice=starting, raise_rule="any-face"),
            Rules(starting_dice=starting, calza=False),
            Rules(starting_dice=starting, palifico_one_die_may_change_face=True),
            Rules(starting_dice=starting, raise_rule="any-face", palifico="while-one-die"))


def normal_spot(number: int) -> Situation:
    """Spot ``number``: the same spot every time (Python's seeded ``random``)."""
    rng = random.Random(f"normal spot {number}")
    long = number % LONG_EVERY == LONG_EVERY - 1
    players = rng.randint(8, 10) if long else rng.randint(2, 10)
    starting = 10 if long else rng.choice((3, 5, 5, 6, 10))
    dice = [rng.randint(1, starting) if rng.random() < 0.85 else 0 for _ in range(players)]
    while sum(1 for held in dice if held) < 2:
        dice[rng.randrange(players)] = rng.randint(1, starting)
    rules = rng.choice(rule_sets(starting))
    palifico = rng.random() < 0.12
    active = [seat for seat, held in enumerate(dice) if held]
    seat = rng.choice(active)
    bids: list[tuple[int, Bid]] = []
    previous: Bid | None = None
    length = rng.randint(25, LONGEST) if long else 0 if rng.random() < 0.1 else rng.randint(1, 24)
    for _ in range(length):
        raises = {face: bid for face, bid in smallest_raises(
            previous, palifico=palifico, rules=rules, bidder_dice=dice[seat]).items()
            if bid.quantity <= sum(dice)}
        if not raises:
            break
        lowest = raises[rng.choice(sorted(raises))]
        bid = Bid(lowest.quantity + rng.choice((0, 0, 0, 0, 1, 1, 2)), lowest.face)
        if bid.quantity > sum(dice) or not _legal(bid, previous, palifico, rules, dice[seat]):
            bid = lowest
        bids.append((seat, bid))
        previous = bid
        seat = _next(active, seat)
    me = seat
    hand = Hand(rng.randint(1, 6) for _ in range(dice[me]))
    return Situation(rules, tuple(dice), me, hand, tuple(bids), palifico)


def _legal(bid: Bid, previous: Bid | None, palifico: bool, rules: Rules, held: int) -> bool:
    from perudo_math import is_legal

    return is_legal(bid, previous, palifico=palifico, rules=rules, bidder_dice=held)


def _next(active: list[int], seat: int) -> int:
    return active[(active.index(seat) + 1) % len(active)]


TOLERANCE = 1.5e-9
"""Stored numbers are rounded to nine decimals: a machine's own last bits (about 1e-15) move
one across a rounding step at most, 1e-9."""
_MOVE = ("action", "bid")


def _number(value: float) -> float | int:
    rounded = steady(value)
    return int(rounded) if rounded == int(rounded) else rounded


def record(advice: Advice) -> dict[str, Any]:
    """``advice`` as stored: its reason, and each option best first as its move (a bid or
    ``dudo``/``calza``) and every number it has, rounded to nine decimals."""
    reason = {key: _number(value) if isinstance(value, float) else value
              for key, value in advice.reason.to_dict().items()}
    options = [[str(option.action), *(_number(number) for name, number in
                                      option.to_dict().items() if name not in _MOVE)]
               for option in advice.options]
    return {"reason": reason, "options": options}


def decision(number: int) -> dict[str, Any]:
    """The coach's advice on spot ``number``, as :func:`record` stores it."""
    return record(advise(normal_spot(number)))


def differences(stored: dict[str, Any], found: dict[str, Any]) -> list[str]:
    """Where ``found`` is not ``stored``: another reason or move, or a number further off
    than :data:`TOLERANCE`; empty when they agree."""
    return [f"{where}: {was!r} now {now!r}" for where, was, now in _pairs(stored, found)
            if not _alike(was, now)]


def _pairs(stored: Any, found: Any, where: str = "") -> Iterator[tuple[str, Any, Any]]:
    if isinstance(stored, dict) and isinstance(found, dict) and stored.keys() == found.keys():
        for key in stored:
            yield from _pairs(stored[key], found[key], f"{where}.{key}")
    elif (isinstance(stored, list) and isinstance(found, list)
          and len(stored) == len(found)):
        for index, (was, now) in enumerate(zip(stored, found, strict=True)):
            yield from _pairs(was, now, f"{where}[{index}]")
    else:
        yield where or "advice", stored, found


def _alike(stored: Any, found: Any) -> bool:
    if isinstance(stored, bool) or isinstance(found, bool):
        return stored is found
    if isinstance(stored, int | float) and isinstance(found, int | float):
        return abs(stored - found) <= TOLERANCE
    return bool(stored == found)


def main(out: str) -> None:
    lines = [f"{json.dumps(str(number))}: {json.dumps(decision(number), separators=(',', ':'))}"
             for number in range(SPOTS)]
    Path(out).write_text("{\n" + ",\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    main(sys.argv[1])
