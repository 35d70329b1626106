"""The decision engine: every available action with the chance it costs me a die."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from coach.engine.beliefs import BidReading, TableBeliefs
from coach.engine.situation import CALZA, DUDO, Action, Situation
from perudo_math import (
    PACO,
    Bid,
    count_survival,
    legal_quantities,
    settle_round,
    smallest_raises,
)
from perudo_math.checks import require_int, require_real, wrong_type


@dataclass(frozen=True, slots=True)
class CoachSettings:
    """The coach's knobs.

    ``challenge_below``: the next player is taken to call dudo when, from their
    own dice alone, the bid looks true with a probability below this.
    ``raise_depth``: how many quantities above the smallest raise of each face
    are weighed. ``pressure``: how much extra risk (in probability of losing a
    die) the coach accepts for a higher, harder-to-follow raise.
    """

    reading: BidReading = field(default_factory=BidReading)
    challenge_below: float = 0.5
    raise_depth: int = 4
    pressure: float = 0.02

    def __post_init__(self) -> None:
        if not isinstance(self.reading, BidReading):
            raise wrong_type("CoachSettings: reading", "a BidReading", self.reading)
        require_real("CoachSettings: challenge_below", self.challenge_below, 0.0, 1.0)
        require_int("CoachSettings: raise_depth", self.raise_depth, 0, 60)
        require_real("CoachSettings: pressure", self.pressure, 0.0, 1.0)


@dataclass(frozen=True, slots=True)
class Option:
    """One action weighed: ``lose`` is P(I lose a die this round because of it), ``gain``
    P(I win one back); ``p_true`` and ``p_exact`` are about the bid it concerns (the
    current bid for dudo and calza, the new bid for a raise)."""

    action: Action
    lose: float
    gain: float
    p_true: float
    p_exact: float
    challenge: float = 0.0
    """For a raise: P(the next player calls dudo on it)."""

    @property
    def net_loss(self) -> float:
        """The expected change in my dice, negated: lose minus gain."""
        return self.lose - self.gain

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = self.action.to_dict()
        data.update(lose=self.lose, gain=self.gain, p_true=self.p_true, p_exact=self.p_exact)
        if self.action.kind == "raise":
            data["challenge"] = self.challenge
        return data


@dataclass(frozen=True, slots=True)
class Reason:
    """Why the coach recommends what it does: a code and its numbers, worded by the app."""

    code: str
    numbers: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, **self.numbers}


@dataclass(frozen=True, slots=True)
class Advice:
    """Every weighed option, best first, and why the first one is recommended."""

    options: tuple[Option, ...]
    reason: Reason
    reads_bids: bool

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def action(self) -> Action:
        return self.best.action

    def option(self, action: Action) -> Option | None:
        return next((option for option in self.options if option.action == action), None)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = self.action.to_dict()
        data["options"] = [option.to_dict() for option in self.options]
        data["reason"] = self.reason.to_dict()
        return data


def advise(situation: Situation, settings: CoachSettings = CoachSettings()) -> Advice:
    """Weigh every available action for the player to move and recommend one."""
    if situation.__class__ is not Situation and not isinstance(situation, Situation):
        raise wrong_type("advise: situation", "a Situation", situation)
    if settings.__class__ is not CoachSettings and not isinstance(settings, CoachSettings):
        raise wrong_type("advise: settings", "a CoachSettings", settings)
    beliefs = TableBeliefs(situation, settings.reading)
    options: list[Option] = []
    last = situation.last_bid
    if last is not None and situation.may_dudo():
        p_true = beliefs.at_least(last)
        p_exact = beliefs.exactly(last)
        options.append(Option(DUDO, lose=p_true, gain=0.0, p_true=p_true, p_exact=p_exact))
        if situation.may_calza():
            gain = p_exact if _right_calza_regains(situation) else 0.0
            options.append(Option(CALZA, lose=1.0 - p_exact, gain=gain,
                                  p_true=p_true, p_exact=p_exact))
    raises = _weigh_raises(situation, beliefs, settings)
    ranked = _rank(options, raises, settings)
    return Advice(tuple(ranked), _reason(situation, ranked[0], beliefs), beliefs.reads_bids)


def _right_calza_regains(situation: Situation) -> bool:
    """Whether a right calza on the bid on the table would win me a die back (not at the cap)."""
    last, bidder = situation.last_bid, situation.last_bidder
    assert last is not None and bidder is not None
    right = settle_round(last, bidder=bidder, caller=situation.me, kind="calza",
                         count=last.quantity, dice=situation.dice, rules=situation.rules)
    return right.gainer == situation.me


def candidate_raises(situation: Situation, depth: int) -> dict[int, range]:
    """The raises worth weighing, per face: the smallest legal one and ``depth`` above it
    (an opening: up to the expected count and ``depth`` above). When every raise is above
    the table, the smallest raise of each face still counts: it is all that is left."""
    if not isinstance(situation, Situation):
        raise wrong_type("candidate_raises: situation", "a Situation", situation)
    require_int("candidate_raises: depth", depth, 0)
    context = {"palifico": situation.palifico, "rules": situation.rules,
               "bidder_dice": situation.dice[situation.me]}
    table = situation.table_dice
    spans = legal_quantities(situation.last_bid, table, **context)
    if not spans:
        return {face: range(bid.quantity, bid.quantity + 1)
                for face, bid in smallest_raises(situation.last_bid, **context).items()}
    candidates = {}
    for face, span in spans.items():
        reach = (_opening_ceiling(situation, face) if situation.last_bid is None
                 else span.start) + depth
        candidates[face] = range(span.start, min(span.stop, reach + 1))
    return candidates


def _opening_ceiling(situation: Situation, face: int) -> int:
    expected = situation.table_dice / (6 if face == PACO or situation.palifico else 3)
    return max(1, int(expected))


def _weigh_raises(situation: Situation, beliefs: TableBeliefs,
                  settings: CoachSettings) -> list[Option]:
    options = []
    for face, span in candidate_raises(situation, settings.raise_depth).items():
        # Above the table every quantity is certainly false: one past it stands for them all,
        # and keeps quantities of any size (a typed 10**30) inside numpy's integers.
        ceiling = situation.table_dice + 1
        quantities = np.array([min(quantity, ceiling) for quantity in span], dtype=np.int64)
        lose, challenge = _raise_risks(situation, beliefs, settings, face, quantities)
        tail = np.append(beliefs.tail(face), 0.0)
        exact = np.append(beliefs.distribution(face), 0.0)
        at = np.minimum(quantities, len(tail) - 1)
        for index, quantity in enumerate(span):
            options.append(Option(Action("raise", Bid(quantity, face)),
                                  lose=float(min(1.0, lose[index])), gain=0.0,
                                  p_true=float(tail[at[index]]), p_exact=float(exact[at[index]]),
                                  challenge=float(min(1.0, challenge[index]))))
    return options


def _raise_risks(situation: Situation, beliefs: TableBeliefs, settings: CoachSettings,
                 face: int, quantities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For raises on ``face`` to each of ``quantities``: P(the next player calls dudo and the
    raise is false), and P(the next player calls dudo).

    The next player holds k matching dice with my belief's probability; they call dudo
    when, from their own dice with every other die uniform, the raise looks true with a
    probability below ``settings.challenge_below``.
    """
    responder = situation.next_seat()
    responder_dice = situation.dice[responder]
    seat = beliefs.seat_counts(responder, face)
    rest_cdf = np.cumsum(beliefs.others_counts(face, excluding=(responder,)))
    their_unknown = situation.table_dice - responder_dice
    their_tail = np.append(count_survival(their_unknown, face, situation.palifico), 0.0)
    needed = quantities[:, None] - np.arange(len(seat))[None, :]
    # needed <= 0 reads their_tail[0] == 1; needed beyond their unknown dice reads the 0.
    their_view = their_tail.take(needed, mode="clip")
    challenged = their_view < settings.challenge_below
    short = needed - beliefs.own_matches(face) - 1  # the rest must hold at most this many
    p_false = np.where(short < 0, 0.0, rest_cdf.take(short, mode="clip"))
    weights = seat[None, :] * challenged
    return (weights * p_false).sum(axis=1), weights.sum(axis=1)


def _strength(bid: Bid, palifico: bool) -> float:
    """How hard a bid is to follow, in ordinary-face dice: a paco counts twice."""
    return bid.quantity * (2.0 if bid.face == PACO and not palifico else 1.0) + bid.face / 10


def _rank(calls: list[Option], raises: list[Option], settings: CoachSettings) -> list[Option]:
    """Least net loss first; among raises within ``pressure`` of the safest, the strongest."""
    ordered = sorted(calls + raises, key=lambda option: (option.net_loss, -option.p_true))
    if raises:
        safest = min(option.net_loss for option in raises)
        pressured = [option for option in raises if option.net_loss <= safest + settings.pressure]
        pick = max(pressured, key=lambda option: (_strength(option.action.bid, False),
                                                  option.p_true))
        best_call = min((option.net_loss for option in calls), default=float("inf"))
        if pick.net_loss <= best_call:
            ordered.remove(pick)
            ordered.insert(0, pick)
    return ordered


def _reason(situation: Situation, best: Option, beliefs: TableBeliefs) -> Reason:
    last = situation.last_bid
    numbers: dict[str, Any] = {"lose": round(best.lose, 6)}
    if best.action.kind == "dudo":
        assert last is not None
        if last.quantity > situation.table_dice:
            return Reason("bid-above-table", {"bid": str(last), "dice": situation.table_dice,
                                              "lose": 0.0})
        expected = float(np.dot(np.arange(len(beliefs.distribution(last.face))),
                                beliefs.distribution(last.face)))
        numbers.update(bid=str(last), p_true=round(best.p_true, 6), expected=round(expected, 3))
        return Reason("dudo-unlikely", numbers)
    if best.action.kind == "calza":
        assert last is not None
        numbers.update(bid=str(last), p_exact=round(best.p_exact, 6), gain=round(best.gain, 6))
        return Reason("calza-likely", numbers)
    bid = best.action.bid
    assert bid is not None
    numbers.update(bid=str(bid), p_true=round(best.p_true, 6),
                   challenge=round(best.challenge, 6))
    if last is None:
        return Reason("opening", numbers)
    if last.quantity > situation.table_dice:
        return Reason("bid-above-table", {"bid": str(last), "dice": situation.table_dice,
                                          "lose": 0.0})
    numbers["current_p_true"] = round(beliefs.at_least(last), 6)
    return Reason("raise-safer", numbers)
