"""The decision engine: every available action with the chance it costs me a die."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import Any

import numpy as np

from coach.engine.beliefs import BidReading, TableBeliefs
from coach.engine.rollout import raise_outcomes
from coach.engine.situation import CALZA, DUDO, Action, ActionKind, Situation
from coach.engine.stakes import after, win_chance
from coach.engine.steady import steady as _steady
from perudo_math import (
    PACO,
    Bid,
    count_survival,
    legal_quantities,
    settle_round,
    smallest_raises,
)
from perudo_math.bid import as_bid
from perudo_math.checks import is_whole, require_int, require_real, wrong_type

COACH_READING = BidReading()


UNLIKELY_BELOW = 0.4995
"""Below this chance a bid is called unlikely: below half as a percentage with one decimal
prints it (0.4996 shows as 50.0 %)."""
CROWD = 5
"""From this many players up, callers are taken to call as at any big table."""
ROLLOUT_PRIOR = 16
"""How many draws the one-step estimate of a raise is worth beside the played-out ones."""
ROLLOUT_CALL_MARGIN = 0.3
"""How much likelier false than their own raise true a bid must look for a player of the
rollouts to call it (:attr:`CoachSettings.rollout_call_margin`). Callers so drawn play out
rounds the way the league's planners play them, and at five players the coach went from
well below its fair share against four planners to about it (README, "Against the
planners"); 0.3 rather than 0.2 won 2 to 4 points more against the planners at three, five
and six players, and as much against the older bots at five once each seat's margin is
learned (README, "A wider margin")."""
OPENING_FLOOR = 1.0
"""The coach opens at no less than the table's expected count of its face, rounded down
(:attr:`CoachSettings.opening_floor`). Measured in the league (README, "Openings"): head to
head the coach that opens so does no worse than the one that opened at 2 × 4 with 19 dice,
an opening a table laughs at."""


@dataclass(frozen=True, slots=True)
class CoachSettings:
    """The coach's knobs.

    ``challenge_below``: heads-up, the next player is taken to call dudo when, from their own
    dice, the raise looks true with a probability below this (per seat in ``thresholds``
    where showdowns told it); ``challenge_crowd``: the same from :data:`CROWD` players up,
    in proportion between (:meth:`challenge_for`). At a bigger table the caller reads more
    bids than their own dice tell, and calls more often than their dice alone would say
    (fitted to arena play against readers, odds players and liars); ``call_spread`` blurs
    that threshold. ``raise_depth``: how many
    quantities above the smallest raise of each face are weighed. ``carry_on``: heads-up,
    P(I lose this round later) when my raise is not called at once (the bid comes back to
    me); at ``n`` players it is ``carry_on / (n − 1) ** carry_power`` (fitted to arena play:
    round a bigger table the bid rarely comes back). ``by_stakes`` ranks by the change in my
    chance to win the game instead of by net loss (measured weaker; kept for ablations).
    """

    reading: BidReading = field(default_factory=lambda: COACH_READING)
    challenge_below: float = 0.4
    challenge_crowd: float = 0.7
    call_spread: float = 0.0
    raise_depth: int = 4
    carry_on: float = 0.4
    by_stakes: bool = False
    pressure: float = 0.02
    thresholds: tuple[tuple[int, float], ...] = ()
    """Per seat, its own ``challenge_below`` where its calls have shown it."""
    carry_power: float = 2.0
    calza_margin: float = 0.0
    """A calza must beat the best other move by this much net loss (it costs a die more
    often than it wins one)."""
    surest_call: float = 0.9
    """No player is taken to call dudo more surely than this: they may always raise."""
    rollouts: int = 256
    """How many times the rest of the round is played out for a raise
    (:mod:`coach.engine.rollout`); 0 keeps the one-step risks. Not with ``by_stakes``."""
    rollout_top: int = 60
    """How many raises, those of least one-step risk, are played out; the others are
    dropped. 60 plays out every raise weighed after a bid and every opening up to 26 dice on
    the table (five faces, each up to a third of the dice and ``raise_depth`` above); it was
    6 while callers in the rollouts called by a threshold."""
    rollout_call_margin: float | None = ROLLOUT_CALL_MARGIN
    """In the rollouts, a player calls dudo when they see the bid false more likely, by this
    margin, than they see their likeliest raise true, or see no chance in it; None: when it
    looks true with a chance below their threshold (:meth:`threshold_of`)."""
    call_margins: tuple[tuple[int, float], ...] = ()
    """Per seat, its own ``rollout_call_margin`` where its calls have shown it."""
    learn_margins: bool = True
    """Whether a bot learns each seat's ``call_margins`` from the showdowns."""
    rollout_from: int = 3
    """From how many players still in the raises are played out. Heads-up the one-step
    risks (and the solved tables) played better in the arena."""
    opening_floor: float = OPENING_FLOOR
    """An opening asks for at least this share of the table's expected count of its face
    (a third of the dice, a sixth for pacos or in palifico), on the face the coach chose
    (:func:`opening_floor_quantity`); 0: no floor."""

    def __post_init__(self) -> None:
        if not isinstance(self.reading, BidReading):
            raise wrong_type("CoachSettings: reading", "a BidReading", self.reading)
        require_real("CoachSettings: challenge_below", self.challenge_below, 0.0, 1.0)
        require_real("CoachSettings: challenge_crowd", self.challenge_crowd, 0.0, 1.0)
        require_real("CoachSettings: call_spread", self.call_spread, 0.0, 1.0)
        require_int("CoachSettings: raise_depth", self.raise_depth, 0, 60)
        require_real("CoachSettings: carry_on", self.carry_on, 0.0, 1.0)
        require_real("CoachSettings: pressure", self.pressure, 0.0, 1.0)
        require_real("CoachSettings: surest_call", self.surest_call, 0.0, 1.0)
        require_real("CoachSettings: calza_margin", self.calza_margin, 0.0, 1.0)
        require_real("CoachSettings: carry_power", self.carry_power, 0.0, 4.0)
        require_int("CoachSettings: rollouts", self.rollouts, 0, 4096)
        require_int("CoachSettings: rollout_top", self.rollout_top, 1, 60)
        require_int("CoachSettings: rollout_from", self.rollout_from, 2, 99)
        if self.rollout_call_margin is not None:
            require_real("CoachSettings: rollout_call_margin", self.rollout_call_margin,
                         -1.0, 1.0)
        require_real("CoachSettings: opening_floor", self.opening_floor, 0.0, 1.0)
        if self.thresholds.__class__ is not tuple:
            raise wrong_type("CoachSettings: thresholds", "a tuple of (seat, threshold) pairs",
                             self.thresholds)
        for pair in self.thresholds:
            if not (isinstance(pair, tuple) and len(pair) == 2 and is_whole(pair[0])):
                raise wrong_type("CoachSettings: thresholds", "(seat, threshold) pairs", pair)
            require_real("CoachSettings: a seat's threshold", pair[1], 0.0, 1.0)
        if self.by_stakes is not True and self.by_stakes is not False:
            raise wrong_type("CoachSettings: by_stakes", "True or False", self.by_stakes)


    def challenge_for(self, players: int) -> float:
        """Below what chance of a bid being true, from their own dice, a player is taken to
        call dudo with ``players`` players still in: ``challenge_below`` heads-up,
        ``challenge_crowd`` from :data:`CROWD` players up, in proportion between."""
        share = min(1.0, max(0.0, (players - 2) / (CROWD - 2)))
        return self.challenge_below + share * (self.challenge_crowd - self.challenge_below)

    def margin_of(self, seat: int) -> float:
        """By how much more ``seat`` must see the bid false than its raise true to call it,
        in the rollouts: its own where showdowns told it (with a ``rollout_call_margin``)."""
        assert self.rollout_call_margin is not None
        return next((value for known, value in self.call_margins if known == seat),
                    self.rollout_call_margin)

    def threshold_of(self, seat: int, players: int = 2) -> float:
        """Below what chance of the bid being true ``seat`` is taken to call dudo, with
        ``players`` players still in: its own where showdowns told it."""
        return next((value for known, value in self.thresholds if known == seat),
                    self.challenge_for(players))


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
    """For a raise: P(the next player calls dudo on it), from the same draws as ``lose``
    where the round is played out."""
    value: float = 0.0
    """The expected change in my chance to win the game, in probability."""

    @property
    def net_loss(self) -> float:
        """The expected change in my dice, negated: lose minus gain."""
        return self.lose - self.gain

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = self.action.to_dict()
        data.update(lose=self.lose, gain=self.gain, p_true=self.p_true, p_exact=self.p_exact,
                    value=self.value)
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
    mix: tuple[tuple[Action, float], ...] = ()
    """Where the coach plays a solved heads-up table (:func:`coach.advise_with_tables`): each
    move the table plays here with how often it plays it, most likely first (the first is
    :attr:`action`, and the options list these moves first, in this order); empty where the
    coach plays its own advice."""

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
        if self.mix:
            data["mix"] = [{**action.to_dict(), "probability": round(probability, 4)}
                           for action, probability in self.mix]
        return data


def advise(situation: Situation, settings: CoachSettings = CoachSettings()) -> Advice:
    """Weigh every available action for the player to move and recommend one.

    Each action is valued by the expected change in my chance to win the game: a die lost
    by me, won back, or lost by another player, each weighed by what it is worth at these
    dice counts (:mod:`coach.engine.stakes`).
    """
    if situation.__class__ is not Situation and not isinstance(situation, Situation):
        raise wrong_type("advise: situation", "a Situation", situation)
    if settings.__class__ is not CoachSettings and not isinstance(settings, CoachSettings):
        raise wrong_type("advise: settings", "a CoachSettings", settings)
    beliefs = _beliefs(situation, settings.reading)
    stakes = Stakes.of(situation)
    options: list[Option] = []
    last, bidder = situation.last_bid, situation.last_bidder
    if last is not None and bidder is not None and situation.may_dudo():
        p_true = beliefs.at_least(last)
        p_exact = beliefs.exactly(last)
        value = p_true * stakes.mine_lost + (1.0 - p_true) * stakes.lost_by(bidder)
        options.append(Option(DUDO, lose=p_true, gain=0.0, p_true=p_true, p_exact=p_exact,
                              value=value))
        if situation.may_calza():
            gain = p_exact if _right_calza_regains(situation) else 0.0
            value = (1.0 - p_exact) * stakes.mine_lost + gain * stakes.mine_won
            options.append(Option(CALZA, lose=1.0 - p_exact, gain=gain,
                                  p_true=p_true, p_exact=p_exact, value=value))
    raises = _weigh_raises(situation, beliefs, settings, stakes)
    if raises and _rolls_out(situation, settings):
        raises = _rolled_out(situation, beliefs, settings, raises)
    ranked = _rank(options, raises, settings, situation.palifico)
    if situation.last_bid is None and settings.opening_floor > 0:
        floored = _floored_opening(situation, beliefs, settings, stakes, ranked)
        if floored is not ranked:
            return Advice(tuple(floored), _floored_reason(situation, floored, beliefs),
                          beliefs.reads_bids)
    return Advice(tuple(ranked), _reason(situation, ranked, beliefs), beliefs.reads_bids)


_LAST_BELIEFS: list[TableBeliefs] = []


def _beliefs(situation: Situation, reading: BidReading) -> TableBeliefs:
    """The beliefs of ``situation`` under ``reading``: the last ones again when the same
    situation comes back (a review weighs the move played after the coach's advice) or one
    they read alike (:meth:`TableBeliefs.reads_as`: the spots of a round past the table
    share every bid read), so that their reading and counts are not worked out twice."""
    kept = _LAST_BELIEFS[:]  # one step: another session may change it meanwhile
    if kept and kept[0].reading == reading and (kept[0].situation is situation
                                                or kept[0].reads_as(situation)):
        return kept[0]
    beliefs = TableBeliefs(situation, reading)
    _LAST_BELIEFS[:] = [beliefs]
    return beliefs


@dataclass(frozen=True, slots=True)
class Stakes:
    """What each outcome of this round changes in my chance to win the game."""

    mine_lost: float
    mine_won: float
    others_lost: tuple[float, ...]
    """Per seat: the change for me when that seat loses a die (0 for me and empty seats)."""

    @classmethod
    def of(cls, situation: Situation) -> Stakes:
        return _stakes(situation.dice, situation.me)

    @classmethod
    def worked_out(cls, dice: tuple[int, ...], me: int) -> Stakes:
        now = win_chance(dice, me)
        won = win_chance(after(dice, me, +1), me) - now
        others = tuple(win_chance(after(dice, seat, -1), me) - now
                       if seat != me and dice[seat] else 0.0 for seat in range(len(dice)))
        return cls(win_chance(after(dice, me, -1), me) - now, won, others)

    def lost_by(self, seat: int) -> float:
        return self.others_lost[seat]

    def someone_else(self) -> float:
        """The change when a player other than me, any of them alike, loses a die."""
        changes = [change for change in self.others_lost if change]
        return sum(changes) / len(changes) if changes else 0.0


@lru_cache(maxsize=1024)
def _stakes(dice: tuple[int, ...], me: int) -> Stakes:
    """:meth:`Stakes.of` a table's dice, worked out once: every spot of a round asks again."""
    return Stakes.worked_out(dice, me)


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
    context: dict[str, Any] = {"palifico": situation.palifico, "rules": situation.rules,
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
    return max(1, int(_expected_share(situation, face)))


def _expected_share(situation: Situation, face: int) -> float:
    """The table's expected count of ``face`` before any die is seen: a third of the dice,
    a sixth for pacos or in palifico."""
    return situation.table_dice / (6 if face == PACO or situation.palifico else 3)


def opening_floor_quantity(situation: Situation, face: int, floor: float) -> int:
    """The least quantity an opening on ``face`` asks for under ``floor``
    (:attr:`CoachSettings.opening_floor`): that share of the expected count, rounded down,
    and at least one die."""
    if not isinstance(situation, Situation):
        raise wrong_type("opening_floor_quantity: situation", "a Situation", situation)
    require_int("opening_floor_quantity: face", face, 1, 6)
    require_real("opening_floor_quantity: floor", floor, 0.0, 1.0)
    return max(1, int(floor * _expected_share(situation, face)))


def _floored_opening(situation: Situation, beliefs: TableBeliefs, settings: CoachSettings,
                     stakes: Stakes, ranked: list[Option]) -> list[Option]:
    """``ranked`` with an opening below the floor replaced by the floor's quantity on the
    same face, weighed as :func:`advise` weighs raises."""
    best = ranked[0]
    bid = best.action.bid
    if bid is None:
        return ranked
    quantity = opening_floor_quantity(situation, bid.face, settings.opening_floor)
    if bid.quantity >= quantity:
        return ranked
    floored, = _weigh_raises(situation, beliefs, settings, stakes,
                             {bid.face: range(quantity, quantity + 1)})
    if _rolls_out(situation, settings):
        floored, = _played_out(situation, beliefs, settings, [floored])
    return [floored, *(option for option in ranked if option.action != floored.action)]


def _floored_reason(situation: Situation, ranked: list[Option],
                    beliefs: TableBeliefs) -> Reason:
    """Why an opening lifted to the floor: ``opening-expected`` when a lower opening risks
    less this round (it names the safest, and the expected count the opening is near);
    otherwise the plain opening's reason."""
    best = ranked[0]
    safer = min(ranked, key=lambda option: (_steady(option.lose), -_steady(option.p_true)))
    if _steady(safer.lose) >= _steady(best.lose):
        return _reason(situation, ranked, beliefs)
    bid = best.action.bid
    assert bid is not None
    return Reason("opening-expected", {
        "lose": best.lose, "bid": str(bid), "p_true": best.p_true,
        "expected": round(_expected_share(situation, bid.face), 3),
        "dice": situation.table_dice, "safer": str(safer.action), "safer_lose": safer.lose,
        "safer_true": safer.p_true})


def _weigh_raises(situation: Situation, beliefs: TableBeliefs, settings: CoachSettings,
                  stakes: Stakes, candidates: dict[int, range] | None = None) -> list[Option]:
    options = []
    carry_on = settings.carry_on / (len(situation.active_seats) - 1) ** settings.carry_power
    responder = situation.next_seat()
    if candidates is None:
        candidates = candidate_raises(situation, settings.raise_depth)
    for face, span in candidates.items():
        # Above the table every quantity is certainly false: one past it stands for them all,
        # and keeps quantities of any size (a typed 10**30) inside numpy's integers.
        ceiling = situation.table_dice + 1
        quantities = np.array([min(quantity, ceiling) for quantity in span], dtype=np.int64)
        call_false, call_true = beliefs.kept(
            ("call risks", face, quantities.tobytes(), settings),
            partial(_call_risks, situation, beliefs, settings, face, quantities))
        not_called = 1.0 - call_false - call_true
        lose = call_false + not_called * carry_on
        value = (call_false * stakes.mine_lost + call_true * stakes.lost_by(responder)
                 + not_called * (carry_on * stakes.mine_lost
                                 + (1.0 - carry_on) * stakes.someone_else()))
        tail, exact = beliefs.kept(("past the table", face), partial(_padded, beliefs, face))
        at = np.minimum(quantities, len(tail) - 1)
        for index, quantity in enumerate(span):
            options.append(Option(Action(ActionKind.RAISE, Bid(quantity, face)),
                                  lose=float(min(1.0, lose[index])), gain=0.0,
                                  p_true=float(tail[at[index]]), p_exact=float(exact[at[index]]),
                                  challenge=float(min(1.0, call_false[index] + call_true[index])),
                                  value=float(value[index])))
    return options


def _padded(beliefs: TableBeliefs, face: int) -> tuple[np.ndarray, np.ndarray]:
    """The tail and the distribution of ``face``, each with a 0 past the table (read there
    for every raise above it)."""
    return np.append(beliefs.tail(face), 0.0), np.append(beliefs.distribution(face), 0.0)


def _rolled_out(situation: Situation, beliefs: TableBeliefs, settings: CoachSettings,
                raises: list[Option]) -> list[Option]:
    """The ``rollout_top`` raises of least net loss, each weighed again over the rest of the
    round (:func:`_played_out`); the others are dropped."""
    top = sorted(raises, key=lambda option: (_steady(option.net_loss), -_steady(option.p_true)))
    return _played_out(situation, beliefs, settings, top[:settings.rollout_top])


def _played_out(situation: Situation, beliefs: TableBeliefs, settings: CoachSettings,
                raises: list[Option]) -> list[Option]:
    """``raises`` with their chance of costing me a die over the rest of the round, and of
    being called at once by the next player, both from the same draws
    (:func:`rollout.raise_outcomes`, on the spot's seeded draws, so a raise weighed alone gets
    the numbers it gets among others). The one-step estimate counts as
    :data:`ROLLOUT_PRIOR` draws more, so a chance the draws never showed is small, not nil;
    a raise that cannot be true takes the higher of the two."""
    players = len(situation.active_seats)
    certain = _surely_called(situation, settings, raises)
    played = [_raised(option) for option, sure in zip(raises, certain, strict=True) if not sure]
    if played:
        outcomes = raise_outcomes(situation, played, beliefs.hand_weights,
                                  lambda seat: settings.threshold_of(seat, players),
                                  settings.rollouts, beliefs.view_of,
                                  None if settings.rollout_call_margin is None
                                  else settings.margin_of)
        drawn = iter(zip(outcomes.lose.tolist(), outcomes.called.tolist(), strict=True))
    draws = settings.rollouts

    def blended(option: Option, from_draws: float, one_step: float) -> float:
        if option.p_true == 0.0:
            # A bid that cannot be true: the draws settle it where they see it called more
            # often than one step does (which lets the caller raise it); where the draws'
            # callers all raise past it, one step's caller still stands, or a 0 % risk
            # would be advised on a bid that any table may call.
            return max(from_draws, one_step)
        return (from_draws * draws + one_step * ROLLOUT_PRIOR) / (draws + ROLLOUT_PRIOR)

    weighed = []
    for option, sure in zip(raises, certain, strict=True):
        if sure:
            weighed.append(replace(option, lose=1.0, challenge=1.0))
            continue
        lose, called = next(drawn)
        # As dataclasses.replace would, without its generic work (a few hundred a spot).
        weighed.append(Option(option.action, float(blended(option, lose, option.lose)),
                              option.gain, option.p_true, option.p_exact,
                              float(blended(option, called, option.challenge)), option.value))
    return weighed


def _surely_called(situation: Situation, settings: CoachSettings,
                   raises: list[Option]) -> list[bool]:
    """For each of ``raises``: whether it is above the table, so that the next player, who
    calls any bid they see no chance in, calls it and I lose a die in every draw the
    rollouts would play (a round a dudo has already won: docs/RULES.md, "A round's useful
    range"). Those are not played out."""
    responder = situation.next_seat()
    if (settings.rollout_call_margin is None
            and settings.threshold_of(responder, len(situation.active_seats)) <= 0.0):
        return [False] * len(raises)  # a player who never calls may let it pass
    table = situation.table_dice
    return [option.action.bid is not None and option.action.bid.quantity > table
            for option in raises]


def _rolls_out(situation: Situation, settings: CoachSettings) -> bool:
    return (settings.rollouts > 0 and not settings.by_stakes
            and len(situation.active_seats) >= settings.rollout_from)


def weigh_raise(situation: Situation, bid: Bid,
                settings: CoachSettings = CoachSettings()) -> Option:
    """The coach's numbers for any legal raise to ``bid``, listed by :func:`advise` or not
    (a bigger jump, a raise outside the ones it weighed again): as :func:`advise` would
    give them had it weighed this raise."""
    if not isinstance(situation, Situation):
        raise wrong_type("weigh_raise: situation", "a Situation", situation)
    bid = as_bid(bid, "weigh_raise: bid")
    if not situation.is_legal(Action.raise_to(bid)):
        raise ValueError(f"weigh_raise: {bid} is not a legal raise here")
    beliefs = _beliefs(situation, settings.reading)
    option, = _weigh_raises(situation, beliefs, settings, Stakes.of(situation),
                            {bid.face: range(bid.quantity, bid.quantity + 1)})
    if _rolls_out(situation, settings):
        option, = _played_out(situation, beliefs, settings, [option])
    return option


def _call_risks(situation: Situation, beliefs: TableBeliefs, settings: CoachSettings,
                face: int, quantities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For raises on ``face`` to each of ``quantities``: P(the next player calls dudo and the
    raise is false), and P(they call it and it is true).

    The next player holds k matching dice with my belief's probability. They read the
    table as I would without my hand: every other seat's dice tilted by its bids, mine by
    my bids and this raise. They call when the raise looks true to them with a probability
    below their threshold (:meth:`CoachSettings.threshold_of`), more surely the further
    below it is.
    """
    responder = situation.next_seat()
    seat = beliefs.seat_counts(responder, face)
    rest_cdf = np.cumsum(beliefs.others_counts(face, excluding=(responder,)))
    # They judge from their own dice, every other die uniform (a responder who read my bids
    # as I read theirs was measured, and believed my bluffs were never called).
    unknown = situation.table_dice - situation.dice[responder]
    their_tail = np.append(count_survival(unknown, face, situation.palifico), 0.0)
    needed = quantities[:, None] - np.arange(len(seat))[None, :]
    # needed <= 0 reads their_tail[0] == 1; needed beyond the other dice reads the 0.
    their_view = their_tail.take(np.maximum(needed, 0), mode="clip")
    threshold = settings.threshold_of(responder, len(situation.active_seats))
    if settings.call_spread > 0:
        calls = 1.0 / (1.0 + np.exp((their_view - threshold) / settings.call_spread))
    else:
        calls = (their_view < threshold).astype(float)
    calls = np.minimum(calls, settings.surest_call)
    short = needed - beliefs.own_matches(face) - 1  # the rest must hold at most this many
    p_false = np.where(short < 0, 0.0, rest_cdf.take(np.maximum(short, 0), mode="clip"))
    weights = seat[None, :] * calls
    call_false = (weights * p_false).sum(axis=1)
    return call_false, weights.sum(axis=1) - call_false


def _rank(calls: list[Option], raises: list[Option], settings: CoachSettings,
          palifico: bool) -> list[Option]:
    """Best first. By stakes: most valuable first (ties: less risk, then likelier true).
    Otherwise least net loss first, and among raises within ``pressure`` of the safest, the
    hardest to follow. A bid that cannot be true is challenged: nothing else ends the round
    surely in my favour."""
    if settings.by_stakes:
        ordered = sorted(calls + raises, key=lambda option: (
            -_steady(option.value), _steady(option.lose), -_steady(option.p_true)))
    else:
        def weighed(option: Option) -> float:
            margin = settings.calza_margin if option.action.kind == "calza" else 0.0
            return _steady(option.net_loss + margin)

        ordered = sorted(calls + raises,
                         key=lambda option: (weighed(option), -_steady(option.p_true)))
        if raises:
            safest = min(_steady(option.net_loss) for option in raises)
            pressured = [option for option in raises
                         if _steady(option.net_loss) <= _steady(safest + settings.pressure)]
            pick = max(pressured, key=lambda option: (
                strength(_raised(option), palifico), _steady(option.p_true)))
            best_call = min((weighed(option) for option in calls), default=float("inf"))
            if _steady(pick.net_loss) <= best_call:
                ordered.remove(pick)
                ordered.insert(0, pick)
    dudo = next((option for option in ordered if option.action.kind == "dudo"), None)
    if dudo is not None and dudo.p_true == 0.0 and ordered[0] is not dudo:
        ordered.remove(dudo)
        ordered.insert(0, dudo)
    return ordered


def _raised(option: Option) -> Bid:
    """The bid of a raise's option (every raise has one)."""
    bid = option.action.bid
    assert bid is not None
    return bid


def strength(bid: Bid, palifico: bool) -> float:
    """How hard a bid is to follow, in dice of one face. In a normal round a paco counts
    twice (pacos are wild, and leaving them doubles the count); in a palifico round pacos
    are an ordinary face."""
    return bid.quantity * (2.0 if bid.face == PACO and not palifico else 1.0) + bid.face / 10


def _reason(situation: Situation, ranked: list[Option], beliefs: TableBeliefs) -> Reason:
    """Why ``ranked[0]``; a move is called safer only when no option shown is safer. The
    numbers are the options' own figures, unrounded, so a reason prints as its table does."""
    best = ranked[0]
    safest = min(_steady(option.lose) for option in ranked)
    last = situation.last_bid
    numbers: dict[str, Any] = {"lose": best.lose}
    if last is not None and last.quantity > situation.table_dice and best.action.kind == "dudo":
        return Reason("bid-above-table", {"bid": str(last), "dice": situation.table_dice,
                                          "lose": 0.0})
    if best.action.kind == "dudo":
        assert last is not None
        numbers.update(bid=str(last), p_true=best.p_true)
        raises = [option for option in ranked if option.action.kind == "raise"]
        if _steady(best.p_true) >= UNLIKELY_BELOW:
            # The bid is likelier true than not: the dudo is chosen because every raise
            # costs a die more often still; the safest of them says how often.
            if not raises:
                return Reason("fallback", numbers)
            safest_raise = min(raises, key=lambda option: (_steady(option.lose),
                                                           -_steady(option.p_true)))
            numbers.update({"raise": str(safest_raise.action), "raise_lose": safest_raise.lose})
            return Reason("dudo-least-bad", numbers)
        expected = float(np.dot(np.arange(len(beliefs.distribution(last.face))),
                                beliefs.distribution(last.face)))
        numbers.update(expected=round(expected, 3))
        return Reason("dudo-unlikely", numbers)
    if best.action.kind == "calza":
        assert last is not None
        numbers.update(bid=str(last), p_exact=best.p_exact, gain=best.gain)
        if _steady(best.lose) <= safest:
            return Reason("calza-likely", numbers)
        # Riskier than another move, a calza is chosen for the die a right one wins back.
        safer = min(ranked, key=lambda option: (_steady(option.lose), -_steady(option.p_true)))
        numbers.update(safer=str(safer.action), safer_lose=safer.lose)
        return Reason("calza-pays", numbers)
    bid = best.action.bid
    assert bid is not None
    numbers.update(bid=str(bid), p_true=best.p_true, challenge=best.challenge)
    if last is None:
        return Reason("opening", numbers)
    dudo = next((option for option in ranked if option.action.kind == "dudo"), None)
    numbers["current_p_true"] = beliefs.at_least(last) if dudo is None else dudo.p_true
    if _steady(best.lose) <= safest:
        return Reason("raise-safer", numbers)
    safer = min(ranked, key=lambda option: _steady(option.lose))
    numbers.update(safer=str(safer.action), safer_lose=safer.lose)
    return Reason("raise-pressure", numbers)
