"""Bots that fight the arena (issue 31): they hang, spin, print or end their process. Each
plays like ``example_bots.cautious`` until it turns, so a match has games to keep."""

from __future__ import annotations

import itertools
import os
import random
import time

from coach import Action, Situation
from tests.example_bots import cautious

print("hostile_bots: loaded")  # on stdout, as a bot module may do when imported

TURNS_AT = 3
"""The game (counted in each process) from which a bot that turns does."""
_built = itertools.count(1)


class _Turning:
    """A factory: plays like ``cautious`` in the process's first games, then :meth:`turn`."""

    def __init__(self, rng: random.Random) -> None:
        self.turned = next(_built) >= TURNS_AT

    def __call__(self, situation: Situation) -> Action:
        if self.turned:
            self.turn()
        return cautious(situation)

    def turn(self) -> None:
        raise NotImplementedError


class Sleeper(_Turning):
    """Hangs: asleep for a day."""

    def turn(self) -> None:
        time.sleep(86_400)


class Spinner(_Turning):
    """Spins: a busy loop that never ends."""

    def turn(self) -> None:
        while True:
            pass


def talker(situation: Situation) -> Action:
    """Says what it thinks, with ``print`` and on file descriptor 1, then plays."""
    print(f"talker thinks about {situation.last_bid}")
    os.write(1, b"talker, straight to fd 1\n")
    return cautious(situation)


def quitter(situation: Situation) -> Action:
    """Ends its process at once, in silence (exit status 0)."""
    os._exit(0)


class Tantrum(BaseException):
    """Not an ``Exception``: what a bot may raise to slip past ``except Exception``."""


def sulker(situation: Situation) -> Action:
    """Raises KeyboardInterrupt, as if Ctrl+C had been pressed."""
    raise KeyboardInterrupt


def stormer(situation: Situation) -> Action:
    """Raises a ``BaseException`` of its own."""
    raise Tantrum("no more")
