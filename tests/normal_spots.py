"""Normal spots, drawn the same way every time, and the coach's decision on each written as a
digest of its every number (issue 31: bounding long rounds must not change a normal spot).

A spot: 2 to 10 players of up to 3, 5, 6 or 10 dice (some out), one of five rule sets, now
and then a palifico round, and a round of 0 to 24 legal raises (one spot in twelve: 8 to 10
players of up to 10 dice, 25 to 64 raises), each the smallest of a face drawn at random or a
die or two above it, none above the table's dice; the player after the last bidder to act,
with a hand drawn at random. ``tests/data/normal_decisions.json`` holds the coach's advice
on each as main gave it before this work (commit f300c55; written by ``python -m
tests.normal_spots FILE`` run on that commit's code): ``tests/test_normal_decisions.py``
checks that the coach still gives the same, to the last bit.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from coach import Advice, Situation, advise
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


def digest(advice: Advice) -> str:
    """Every number of ``advice`` (floats written to the last bit), as a short digest."""
    text = json.dumps(advice.to_dict(), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def decision(number: int) -> list[str]:
    """The coach's move on spot ``number``, and its :func:`digest`."""
    advice = advise(normal_spot(number))
    return [str(advice.action), digest(advice)]


def main(out: str) -> None:
    lines = [f"{json.dumps(str(number))}: {json.dumps(decision(number))}"
             for number in range(SPOTS)]
    Path(out).write_text("{\n" + ",\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    main(sys.argv[1])
