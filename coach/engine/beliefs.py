"""Reading the bids: beliefs about every hidden die after this round's bids.

Each opponent's hand is weighed whole: every multiset of their dice, with its multinomial
prior, times the likelihood of each bid they spoke (:mod:`coach.engine.hands`). By default
a bid is read as a choice: how likely a player holding that hand was to pick this bid among
the moves they had after the bid before it (:func:`hands.choice_likelihood`), seeing the
dice they cannot see partly through the bids before theirs (:func:`public_posteriors`:
the table's reading of every hand, built bid by bid). The older
reading, ``sharpness=0``, weighs a hand by its matching dice and by how far the bid
overreaches it (:func:`hands.bid_likelihood`). The posterior is exact for the model, and a
seat's matching count toward any face is tallied from it directly. The first model, kept as
``by_hands=False``, tilts each die on its own by exp(strength × faces bid that it counts
toward), which keeps the dice independent and each seat's count binomial, in linear work
whatever the dice. Hands of different players stay independent, so the table's matching
count is the exact convolution of per-player distributions. With no bids to read, or
nothing read, the numbers are those of :func:`perudo_math.odds` exactly.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import count
from math import exp, lgamma, log, log1p
from threading import Lock
from typing import TypeVar, cast

import numpy as np

from coach.engine.hands import (
    ChoiceTable,
    _counts_by_face_rows,
    bid_likelihood,
    choice_likelihood,
    choice_table,
    hand_space,
    uniform_choice,
    uniform_survival,
)
from coach.engine.situation import Situation
from perudo_math import (
    FACES,
    MAX_STARTING_DICE,
    PACO,
    Bid,
    Rules,
    count_distribution,
    odds,
    probability,
    useful_range,
)
from perudo_math.checks import is_whole, require_real, wrong_type

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class BidReading:
    """How much the coach trusts bids as evidence of the bidder's hand.

    By default (``sharpness`` above 0) each bid is read as a choice among the moves the
    bidder had, from their own dice (:func:`hands.choice_likelihood`), with a share
    ``bluff`` of bids taken to say nothing; ``table_reading`` says how far the bidder also
    read the bids before theirs. Measured in the league (1,000 games a match), this
    reading beats the older one (``sharpness=0``: :func:`hands.bid_likelihood`, each hand
    weighed by ``strength`` per matching die and ``overbid`` per die the bid overreaches it)
    by 8 points heads-up against a Bayesian reader, 3 at three players, 9 to 19 against odds
    players and tight players at every size, and loses 1 to 5 against liars, although its
    Brier score of P(the bid faced is true) is no better against readers.
    ``by_hands=False`` tilts each die on its own instead (each face bid counted
    once per bidder, ``strength`` per die), the first model.
    """

    strength: float = 0.3
    by_hands: bool = True
    """Weigh every hand (multiset) of each bidder rather than tilt each die on its own."""
    overbid: float = 1.5
    bluff: float = 0.2
    """The population's share of bids that say nothing of the bidder's hand."""
    bluffs: tuple[tuple[int, float], ...] = ()
    """Per seat, its own share of bluffs where showdowns have told it."""
    sharpness: float = 6.0
    """Above 0, each bid is read as a choice among the moves the bidder had
    (:func:`hands.choice_likelihood`): ``strength`` and ``overbid`` then play no part."""
    held: float = 2.5
    """For a choice reading: how much more a bidder favours a face per die they hold of it."""
    table_reading: float = 0.5
    """For a choice reading: how far a bidder is taken to read the bids before theirs, as
    the coach reads them (:func:`public_posteriors`), rather than judge from their own dice
    alone (0). A bidder who read the bids raises a face the table has bid without holding
    it: reading them from their own dice alone counts the same dice twice."""
    table_readings: tuple[tuple[int, float], ...] = ()
    """Per seat, its own ``table_reading`` where showdowns have told it."""

    def __post_init__(self) -> None:
        require_real("BidReading: strength", self.strength, 0.0, 5.0)
        require_real("BidReading: overbid", self.overbid, 0.0, 10.0)
        require_real("BidReading: bluff", self.bluff, 0.0, 1.0)
        require_real("BidReading: sharpness", self.sharpness, 0.0, 50.0)
        require_real("BidReading: held", self.held, 0.0, 10.0)
        require_real("BidReading: table_reading", self.table_reading, 0.0, 1.0)
        _check_pairs("table_readings", self.table_readings, "a seat's table reading")
        if self.by_hands is not True and self.by_hands is not False:
            raise wrong_type("BidReading: by_hands", "True or False", self.by_hands)
        _check_pairs("bluffs", self.bluffs, "a seat's bluff share")

    def table_reading_of(self, seat: int) -> float:
        """How far ``seat`` is taken to read the bids before theirs."""
        return next((value for known, value in self.table_readings if known == seat),
                    self.table_reading)

    @property
    def reads_table(self) -> bool:
        """Whether any bidder is taken to read the table (a choice reading by hands)."""
        return (self.sharpness > 0 and self.by_hands
                and (self.table_reading > 0 or any(value > 0 for _, value in self.table_readings)))

    def bluff_of(self, seat: int) -> float:
        """The share of ``seat``'s bids taken to be bluffs."""
        return next((share for known, share in self.bluffs if known == seat), self.bluff)

    def reads(self, seat: int) -> bool:
        """Whether ``seat``'s bids move the beliefs at all."""
        if self.by_hands:
            return ((self.strength > 0 or self.overbid > 0 or self.sharpness > 0)
                    and self.bluff_of(seat) < 1.0)
        return self.strength_of(seat) > 0

    def strength_of(self, seat: int) -> float:
        """How strongly ``seat``'s bids are read: per die, tilted readings scale the
        strength down as the seat bluffs more than the population."""
        if self.by_hands:
            return self.strength
        return self.strength * (1.0 - self.bluff_of(seat)) / (1.0 - min(self.bluff, 0.99))

    @classmethod
    def from_bluff_level(cls, bluff: float) -> BidReading:
        """A reading for opponents who bluff a share ``bluff`` (0 to 1) of their bids."""
        require_real("BidReading.from_bluff_level: bluff", bluff, 0.0, 1.0)
        return cls(bluff=bluff)


def _check_pairs(name: str, pairs: object, what: str) -> None:
    if pairs.__class__ is not tuple:
        raise wrong_type(f"BidReading: {name}", "a tuple of (seat, value) pairs", pairs)
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2 and is_whole(pair[0])):
            raise wrong_type(f"BidReading: {name}", "(seat, value) pairs", pair)
        require_real(f"BidReading: {what}", pair[1], 0.0, 1.0)


PURE_ODDS = BidReading(strength=0.0, overbid=0.0, bluff=0.0, sharpness=0.0)


def _counts_toward(die: int, face: int, palifico: bool) -> bool:
    """Whether a die showing ``die`` counts toward a bid on ``face``."""
    return die == face or (die == PACO and face != PACO and not palifico)


@lru_cache(maxsize=4096)
def die_posterior(bids: tuple[Bid, ...], palifico: bool, strength: float) -> tuple[float, ...]:
    """P(one of a bidder's dice shows each face 1..6) after their ``bids``."""
    faces = {bid.face for bid in bids}  # a face bid again says no more of the hand
    logs = [strength * sum(_counts_toward(die, face, palifico) for face in faces)
            for die in FACES]
    top = max(logs)
    weights = [exp(value - top) for value in logs]
    total = sum(weights)
    return tuple(weight / total for weight in weights)


@lru_cache(maxsize=4096)
def _binomial(dice: int, q: float) -> np.ndarray:
    """P(k of ``dice`` independent dice match), each with probability ``q``, k = 0 .. dice."""
    k = np.arange(dice + 1)
    if q <= 0.0 or q >= 1.0:
        result = (k == (dice if q >= 1.0 else 0)).astype(float)
    else:
        log_choose = np.array([lgamma(dice + 1) - lgamma(j + 1) - lgamma(dice - j + 1)
                               for j in range(dice + 1)])
        result = np.exp(log_choose + k * log(q) + (dice - k) * log1p(-q))
        result /= result.sum()
    result.setflags(write=False)
    return result


def clear_caches() -> None:
    """Forget every cached posterior and count distribution (for measuring cold calls)."""
    die_posterior.cache_clear()
    with _KEEPING:
        _POSTERIOR_CACHE.clear()
        _PUBLIC_CACHE.clear()
    uniform_choice.cache_clear()
    _hand_counts.cache_clear()
    _binomial.cache_clear()
    uniform_survival.cache_clear()
    _counts_by_face_rows.cache_clear()
    _plain_by_face.cache_clear()
    _count_indicator.cache_clear()
    probability.clear_caches()
    from coach.engine import decide, rollout  # the rollouts' tables, the last beliefs

    rollout.forget_steps()
    rollout.padded_survival.cache_clear()
    decide._LAST_BELIEFS.clear()
    decide._stakes.cache_clear()


def seat_distribution(dice: int, bids: tuple[Bid, ...], face: int, palifico: bool,
                      strength: float) -> np.ndarray:
    """P(a player of ``dice`` dice who made ``bids`` holds k dice counting toward ``face``)."""
    posterior = die_posterior(bids, palifico, strength)
    q = sum(p for die, p in zip(FACES, posterior, strict=True)
            if _counts_toward(die, face, palifico))
    return _binomial(dice, q)


def hand_posterior(dice: int, bids: tuple[Bid, ...], table_dice: int, palifico: bool,
                   strength: float, overbid: float, bluff: float,
                   moves: Moves | None = None) -> np.ndarray:
    """P(a bidder of ``dice`` dice who made ``bids`` holds each multiset of
    :func:`hands.hand_space`). With ``moves`` (each bid with the bid it followed, the rules
    and a sharpness), each bid is read as a choice among the moves it was made from.

    The posterior of a seat's bids extends the one of its bids but the last when that one
    is still kept, so that following a round bid by bid reads each bid once."""
    key = (dice, bids, table_dice, palifico, strength, overbid, bluff, moves)
    with _KEEPING:
        found = _POSTERIOR_CACHE.get(key)
        if found is not None:
            _POSTERIOR_CACHE.move_to_end(key)
            return found[1]
    space = hand_space(dice)
    start, weights = 0, space.prior
    if bids:
        shorter = None if moves is None else Moves(moves.previous[:-1], moves.rules,
                                                   moves.sharpness, moves.held)
        before = _POSTERIOR_CACHE.get((dice, bids[:-1], *key[2:7], shorter))
        if before is not None:
            start, weights = len(bids) - 1, before[0]
    weights = weights.copy()
    for index in range(start, len(bids)):
        bid = bids[index]
        if moves is not None:
            weights *= choice_likelihood(dice, bid, moves.previous[index], table_dice, palifico,
                                         moves.rules, moves.sharpness, moves.held, bluff)
            continue
        weights *= bid_likelihood(space, bid, table_dice, palifico, strength, overbid, bluff)
    weights.setflags(write=False)
    posterior = weights / weights.sum()
    posterior.setflags(write=False)
    with _KEEPING:
        _POSTERIOR_CACHE[key] = (weights, posterior)
        if len(_POSTERIOR_CACHE) > _POSTERIOR_CACHE_SIZE:
            _POSTERIOR_CACHE.popitem(last=False)
    return posterior


_KEEPING = Lock()
"""Held while the readings kept are looked up or changed: a server's sessions share them."""
_POSTERIOR_CACHE: OrderedDict[tuple[object, ...], tuple[np.ndarray, np.ndarray]] = OrderedDict()
"""Each posterior kept beside its weights before they are scaled to sum to 1, which the
posterior of one bid more multiplies on."""
_POSTERIOR_CACHE_SIZE = 256
"""Posteriors kept, the most recent ones: at most 2 × 3,003 numbers each (a seat of ten
dice), whatever the number of bids."""


@dataclass(frozen=True, slots=True)
class Moves:
    """What a choice reading needs besides the bids: the bid each followed, the rules, and
    how the bidder chooses (:func:`hands.choice_likelihood`)."""

    previous: tuple[Bid | None, ...]
    rules: Rules
    sharpness: float
    held: float


@lru_cache(maxsize=16384)
def _hand_counts(dice: int, bids: tuple[Bid, ...], table_dice: int, face: int, palifico: bool,
                 strength: float, overbid: float, bluff: float,
                 moves: Moves | None = None) -> np.ndarray:
    posterior = hand_posterior(dice, bids, table_dice, palifico, strength, overbid, bluff,
                               moves)
    matching = hand_space(dice).matches(palifico)[:, face - 1]
    result = np.bincount(matching, weights=posterior, minlength=dice + 1)
    result.setflags(write=False)
    return result


def read_seat(reading: BidReading, seat: int, dice: int, bids: tuple[Bid, ...],
              table_dice: int, face: int, palifico: bool,
              moves: Moves | None = None) -> np.ndarray:
    """P(``seat``, of ``dice`` dice, who made ``bids``, holds k dice counting toward ``face``)."""
    if reading.by_hands and dice <= MAX_STARTING_DICE:
        return _hand_counts(dice, bids, table_dice, face, palifico, reading.strength,
                            reading.overbid, reading.bluff_of(seat),
                            moves if reading.sharpness > 0 else None)
    return seat_distribution(dice, bids, face, palifico, reading.strength_of(seat))


def _plain(dice: int, face: int, palifico: bool) -> np.ndarray:
    return count_distribution(dice, face, palifico)


@dataclass(frozen=True, slots=True)
class PublicReading:
    """How the table reads bids, for :func:`public_posteriors`: each bidder chooses as
    :func:`hands.informed_choice` says, seeing the other dice through the earlier bids as
    far as its ``table_readings`` says (the rest uniform); ``bluffs`` holds each seat's share
    of bluffs."""

    sharpness: float
    held: float
    table_readings: tuple[float, ...]
    bluffs: tuple[float, ...]

    @classmethod
    def of(cls, reading: BidReading, seats: int) -> PublicReading:
        """The public side of ``reading`` at a table of ``seats`` seats."""
        return cls(reading.sharpness, reading.held,
                   tuple(reading.table_reading_of(seat) for seat in range(seats)),
                   tuple(reading.bluff_of(seat) for seat in range(seats)))


TABLE_READ_BIDS = 64
"""The most bids of a round the coach reads: the first ones of its useful range
(:func:`read_range`). A bid past them tells nothing more of anyone's dice, as a bid past the
table tells nothing. Real rounds end before: the longest in arena play at two to ten players
of five and ten dice held 50 bids (ten readers of ten dice each). Every bid read weighs
every hand of every seat that bid (3,003 for ten dice) and, as its bidder saw it, the
reading of every other seat: a fixed price a bid, which this bound keeps within what a spot
may cost beside a normal one, however long the round (a round typed with thousands of
bids). Every round is read as it always was up to it, to the last bit."""


def read_range(bids: tuple[tuple[int, Bid], ...], table_dice: int) -> tuple[tuple[int, Bid], ...]:
    """The ``(seat, bid)`` pairs of a round the coach reads: the first :data:`TABLE_READ_BIDS`
    of its useful range (:func:`perudo_math.useful_range`: every bid before the first one
    above the table)."""
    first = bids[:TABLE_READ_BIDS]
    return first[:useful_range((bid for _, bid in first), table_dice)]


class RoundReading:
    """The table's reading of a round's bids so far: per seat, the weight of each of its
    hands (None for a seat that has not bid). Reading one more bid (:meth:`read`) replaces
    one seat's weights: the memory a reading holds is one array per seat, however long the
    round. What it counts (a seat's dice toward each face, how a seat sees the others) is
    worked out once when first asked: every bid asks how its bidder saw every other seat.
    """

    __slots__ = ("_chains", "_counts", "_kept", "hands")

    def __init__(self, hands: tuple[np.ndarray | None, ...]) -> None:
        self.hands = hands
        self._counts: list[np.ndarray | None] = [None] * len(hands)
        self._kept: dict[tuple[object, ...], np.ndarray] = {}
        self._chains: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}

    def chain(self, plain_dice: int, seats: tuple[int, ...], dice: tuple[int, ...],
              palifico: bool) -> np.ndarray:
        """``[f - 1, k]``: P(k dice count toward face f) among ``plain_dice`` fair dice and
        the dice of ``seats``, convolved in that order: each step kept, so that the next
        bidder's view, which shares all but a seat or two with this one's, costs a step or
        two (the same sums as convolving them all again)."""
        chains = self._chains
        found = chains.get((plain_dice, seats))
        if found is not None:
            return found
        kept = len(seats) - 1  # the longest step kept, then each step after it in order
        while kept >= 0 and (plain_dice, seats[:kept]) not in chains:
            kept -= 1
        if kept < 0:
            found = chains[(plain_dice, ())] = _plain_by_face(plain_dice, palifico)
            kept = 0
        else:
            found = chains[(plain_dice, seats[:kept])]
        for step in range(kept, len(seats)):
            seat = seats[step]
            found = chains[(plain_dice, seats[:step + 1])] = _convolve_rows(
                found, self.counts(seat, dice[seat], palifico))
        return found

    def kept(self, key: tuple[object, ...], work: Callable[[], np.ndarray]) -> np.ndarray:
        """``work()``, done once for this reading under ``key`` (what it depends on besides
        the reading)."""
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = work()
        return found

    def count(self, seat: int, dice: int, face: int, palifico: bool) -> np.ndarray:
        """P(k of ``seat``'s ``dice`` count toward ``face``), its hands weighed as read (the
        seat must have bid); worked out once (:func:`_count_of`)."""
        weights = self.hands[seat]
        assert weights is not None
        return self.kept(("count", seat, face), lambda: _count_of(weights, dice, face, palifico))

    def seen(self, dice: tuple[int, ...], seat: int, palifico: bool,
             table_reading: float) -> np.ndarray:
        """:func:`seen_by` of this reading, worked out once."""
        return self.kept(("seen", seat, table_reading),
                         lambda: _seen(self, dice, seat, palifico, table_reading))

    def counts(self, seat: int, dice: int, palifico: bool) -> np.ndarray:
        """``[f - 1, k]``: P(k of ``seat``'s ``dice`` count toward face f), its hands
        weighed as read (the seat must have bid)."""
        found = self._counts[seat]
        if found is None:
            weights = self.hands[seat]
            assert weights is not None
            found = self._counts[seat] = _counts_by_face(weights, dice, palifico)
        return found

    def read(self, dice: tuple[int, ...], seat: int, bid: Bid, previous: Bid | None,
             palifico: bool, rules: Rules, reading: PublicReading,
             reads_table: bool = True) -> RoundReading:
        """This reading once ``seat``'s ``bid`` is read (as from the bidder's own dice alone
        unless ``reads_table``)."""
        if reads_table and reading.table_readings[seat] > 0:
            table = choice_table(dice[seat], bid, previous, palifico, rules, reading.sharpness,
                                 reading.held, _seen(self, dice, seat, palifico,
                                                     reading.table_readings[seat]))
        else:
            table = uniform_choice(dice[seat], bid, previous, sum(dice), palifico, rules,
                                   reading.sharpness, reading.held)
        return self.chose(dice[seat], seat, table, palifico, reading.bluffs[seat])

    def chose(self, dice: int, seat: int, table: ChoiceTable, palifico: bool,
              bluff: float) -> RoundReading:
        """This reading once ``seat``, of ``dice`` dice, made the move of ``table``; a bluff
        (any move alike) with the share ``bluff``."""
        return self.made(dice, seat, table.honest(palifico), table.moves, bluff)

    def made(self, dice: int, seat: int, honest: np.ndarray, moves: int,
             bluff: float) -> RoundReading:
        """This reading once ``seat``, of ``dice`` dice, made a move among ``moves`` that an
        honest bidder holding each hand makes with the chance ``honest``; a bluff (any move
        alike) with the share ``bluff``."""
        weights = self.hands[seat]
        if weights is None:
            weights = hand_space(dice).prior
        share = (1.0 - bluff) * honest
        share += bluff / moves
        weights = weights * share
        weights /= weights.sum()
        weights.setflags(write=False)
        after = RoundReading((*self.hands[:seat], weights, *self.hands[seat + 1:]))
        after._counts = [*self._counts[:seat], None, *self._counts[seat + 1:]]
        if self.hands[seat] is not None:  # the other seats' counts and the fair dice stand
            after._chains = {key: chain for key, chain in list(self._chains.items())
                             if seat not in key[1]}  # a copy first: other threads add to it
        return after


_PUBLIC_CACHE: OrderedDict[int, tuple[tuple[object, ...], tuple[tuple[int, Bid], ...],
                                      RoundReading]] = OrderedDict()
"""Readings kept, the most recent last: each with its context (the dice, the round, the
rules, the reading) and the bids it read."""
_PUBLIC_CACHE_SIZE = 32
"""How many readings are kept: one array per seat each (at most 3,003 numbers, a seat of ten
dice), whatever the round's length."""
_PUBLIC_SERIAL = count()


def public_posteriors(dice: tuple[int, ...], bids: tuple[tuple[int, Bid], ...], palifico: bool,
                      rules: Rules, reading: PublicReading) -> tuple[np.ndarray | None, ...]:
    """Per seat, P(its hand is each multiset of :func:`hands.hand_space`) as anyone at the
    table reads it from this round's ``bids`` (None for a seat that has not bid).

    Bids are read in order. Each bidder is taken to choose from their own dice and the other
    dice as the bids before theirs tell (as far as :attr:`PublicReading.table_readings` says),
    so a face the table has bid again is less evidence of the bidder's hand than a face
    they bid first. Only the bids of :func:`read_range` are read: a bid above the table, and
    every bid after it, tells nothing of anyone's dice (:func:`perudo_math.useful_range`),
    nor does a bid past the first :data:`TABLE_READ_BIDS`.
    """
    return round_reading(dice, bids, palifico, rules, reading).hands


def round_reading(dice: tuple[int, ...], bids: tuple[tuple[int, Bid], ...], palifico: bool,
                  rules: Rules, reading: PublicReading) -> RoundReading:
    """:func:`public_posteriors` of a round's ``bids`` (of them, :func:`read_range`), as a
    :class:`RoundReading`. It extends the longest reading kept of a round that ``bids``
    begin with, so following a round bid by bid (a review, a player's every turn) reads each
    bid once, in time linear in the bids; the numbers do not depend on what was kept."""
    bids = read_range(bids, sum(dice))
    context = (dice, palifico, rules, reading)
    start, state = 0, None
    with _KEEPING:
        for serial, (kept_context, kept, kept_state) in _PUBLIC_CACHE.items():
            if (start <= len(kept) <= len(bids)
                    and (not kept or bids[len(kept) - 1] == kept[-1])
                    and kept_context == context and bids[:len(kept)] == kept):
                start, state, hit = len(kept), kept_state, serial
        if state is not None and start == len(bids):
            _PUBLIC_CACHE.move_to_end(hit)
            return state
    state = _read_bids(state or RoundReading(tuple(None for _ in dice)), dice, bids,
                       start, palifico, rules, reading)
    with _KEEPING:
        _PUBLIC_CACHE[next(_PUBLIC_SERIAL)] = (context, bids, state)
        if len(_PUBLIC_CACHE) > _PUBLIC_CACHE_SIZE:
            _PUBLIC_CACHE.popitem(last=False)
    return state


def prefix_readings(dice: tuple[int, ...], bids: tuple[tuple[int, Bid], ...], palifico: bool,
                    rules: Rules, reading: PublicReading) -> list[RoundReading]:
    """Item i: :func:`round_reading` of ``bids[:i]``, for i from 0 to ``len(bids)``, in one
    pass over the bids (what learning from a showdown asks: every bid's reading as its
    bidder made it)."""
    useful = read_range(bids, sum(dice))
    states = [RoundReading(tuple(None for _ in dice))]
    _read_bids(states[0], dice, useful, 0, palifico, rules, reading,
               lambda _, state: states.append(state))
    states.extend([states[-1]] * (len(bids) - len(useful)))
    return states


def _read_bids(state: RoundReading, dice: tuple[int, ...], bids: Sequence[tuple[int, Bid]],
               start: int, palifico: bool, rules: Rules, reading: PublicReading,
               seen: Callable[[int, RoundReading], None] | None = None) -> RoundReading:
    """``state``, the reading of ``bids[:start]``, once the rest of ``bids`` is read; with
    ``seen``, called with each bid's position and the reading just after it."""
    previous = bids[start - 1][1] if start else None
    for position in range(start, len(bids)):
        seat, bid = bids[position]
        state = state.read(dice, seat, bid, previous, palifico, rules, reading)
        if seen is not None:
            seen(position, state)
        previous = bid
    return state


def _count_of(weights: np.ndarray, dice: int, face: int, palifico: bool) -> np.ndarray:
    """P(k of a seat's ``dice`` count toward ``face``), its hands weighed ``weights``."""
    matching = hand_space(dice).matches(palifico)[:, face - 1]
    return np.bincount(matching, weights=weights, minlength=dice + 1)


def seen_by(state: tuple[np.ndarray | None, ...], dice: tuple[int, ...], seat: int,
            palifico: bool, table_reading: float) -> np.ndarray:
    """How ``seat`` sees the dice they cannot see, laid out as
    :func:`hands.uniform_survival`: the table's reading ``state`` (from
    :func:`public_posteriors`) weighed ``table_reading``, uniform dice the rest."""
    return _seen(RoundReading(state), dice, seat, palifico, table_reading)


def _seen(reading: RoundReading, dice: tuple[int, ...], seat: int, palifico: bool,
          table_reading: float) -> np.ndarray:
    """:func:`seen_by` of a :class:`RoundReading`, its seats' counts worked out once."""
    unknown = sum(dice) - dice[seat]
    plain = uniform_survival(unknown, palifico)
    if table_reading <= 0:
        return plain
    hands = reading.hands
    plain_dice = sum(dice[other] for other, weights in enumerate(hands)
                     if other != seat and weights is None)
    count = reading.chain(plain_dice, tuple(other for other, weights in enumerate(hands)
                                            if other != seat and weights is not None
                                            and dice[other]), dice, palifico)
    seen = np.zeros((6, unknown + 2))
    seen[:, :-1] = np.minimum(1.0, np.cumsum(count[:, ::-1], axis=1)[:, ::-1])
    return (1.0 - table_reading) * plain + table_reading * seen


@lru_cache(maxsize=256)
def _plain_by_face(dice: int, palifico: bool) -> np.ndarray:
    """``[f - 1, k]``: P(k of ``dice`` uniform dice count toward face f)."""
    counts = np.array([_plain(dice, face, palifico) for face in FACES])
    counts.setflags(write=False)
    return counts


@lru_cache(maxsize=2 * (MAX_STARTING_DICE + 1))
def _count_indicator(dice: int, palifico: bool) -> np.ndarray:
    """``[h, (f − 1) × (dice + 1) + k]``: 1 when hand h has k dice counting toward face f."""
    matches = hand_space(dice).matches(palifico)
    indicator: np.ndarray = np.zeros((len(matches), 6, dice + 1))
    indicator[np.arange(len(matches))[:, None], np.arange(6)[None, :], matches] = 1.0
    indicator = indicator.reshape(len(matches), -1)
    indicator.setflags(write=False)
    return indicator


def _counts_by_face(weights: np.ndarray, dice: int, palifico: bool) -> np.ndarray:
    """``[f - 1, k]``: :func:`_count_of` for every face at once."""
    return (weights @ _count_indicator(dice, palifico)).reshape(6, dice + 1)


def _convolve_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each row of ``a`` convolved with the same row of ``b``: the count of two independent
    groups of dice, face by face."""
    if a.shape[1] < b.shape[1]:
        a, b = b, a
    rows, length = a.shape
    steps = b.shape[1]
    width = length + steps - 1
    # Term k of a row, a × b[k], shifted k places: each term on its own row of ``terms``,
    # added in order (the same sums, to the last bit, as adding them one after another).
    terms = np.zeros((rows, steps, width + 1))
    shifted = np.ndarray((rows, steps, length), buffer=terms,
                         strides=(terms.strides[0], terms.strides[1] + terms.strides[2],
                                  terms.strides[2]))
    np.multiply(a[:, None, :], b[:, :, None], out=shifted)
    return terms.sum(axis=1)[:, :width]


class TableBeliefs:
    """One player's beliefs about the matching count of each face, after this round's bids:
    the bids of :func:`read_range` (the first :data:`TABLE_READ_BIDS` of its useful range), a
    bid above the table and every bid after it telling nothing of anyone's dice."""

    def __init__(self, situation: Situation, reading: BidReading = BidReading()) -> None:
        if not isinstance(situation, Situation):
            raise wrong_type("TableBeliefs: situation", "a Situation", situation)
        if not isinstance(reading, BidReading):
            raise wrong_type("TableBeliefs: reading", "a BidReading", reading)
        self.situation = situation
        self.reading = reading
        bids = situation.bids
        self._useful = read_range(bids, situation.table_dice)
        self._read = frozenset(seat for seat in {seat for seat, _ in self._useful}
                               if seat != situation.me and reading.reads(seat))
        self._by_seat: dict[int, tuple[tuple[Bid, ...], tuple[Bid | None, ...]]] | None = None
        self._distributions: dict[int, np.ndarray] = {}
        self._tails: dict[int, np.ndarray] = {}
        self._others: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}
        self._round: RoundReading | None = None
        self._publicly: bool | None = None
        self._views: dict[int, np.ndarray] = {}
        self._kept: dict[tuple[object, ...], object] = {}

    def reads_as(self, situation: Situation) -> bool:
        """Whether these beliefs are also ``situation``'s: the same player, hand, dice, round
        kind and rules, and the same bids read (:func:`read_range`), which is all they
        depend on. So the spots of a round past its useful range, each with one more bid
        that tells nothing, share them (a review of such a round weighs hundreds)."""
        mine = self.situation
        return (situation.me == mine.me and situation.hand == mine.hand
                and situation.dice == mine.dice and situation.palifico == mine.palifico
                and situation.rules == mine.rules
                and read_range(situation.bids, situation.table_dice) == self._useful)

    def kept(self, key: tuple[object, ...], work: Callable[[], T]) -> T:
        """``work()``, done once for these beliefs under ``key`` (what it depends on besides
        them): what a caller derives from them alone, asked again by every spot that shares
        them (:meth:`reads_as`)."""
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = work()
        return cast(T, found)

    @property
    def reads_bids(self) -> bool:
        """Whether any bid moved the beliefs away from uniform dice."""
        return bool(self._read)

    def reads_seat(self, seat: int) -> bool:
        """Whether ``seat``'s bids moved the beliefs (it bid, is not me, and is read)."""
        return seat in self._read

    def own_matches(self, face: int) -> int:
        return self.situation.hand.count(face, palifico=self.situation.palifico)

    def seat_counts(self, seat: int, face: int) -> np.ndarray:
        """P(``seat`` holds k dice counting toward ``face``), k = 0 .. that seat's dice."""
        dice = self.situation.dice[seat]
        found = self._round_reading()
        if seat in self._read and found is not None:
            return found.count(seat, dice, face, self.situation.palifico)
        if seat in self._read:
            return read_seat(self.reading, seat, dice, self._seat_bids(seat)[0],
                             self.situation.table_dice, face, self.situation.palifico,
                             self._moves(seat))
        return _plain(dice, face, self.situation.palifico)

    def hand_weights(self, seat: int) -> np.ndarray | None:
        """P(``seat``'s hand is each multiset of :func:`hands.hand_space`) as the table reads
        its bids; None when nothing is read of it hand by hand (its dice taken as uniform)."""
        public = self._public()
        if public is None or seat not in self._read:
            return None
        return public[seat]

    def _public(self) -> tuple[np.ndarray | None, ...] | None:
        """Every seat's hand as the table reads it from the bids (:func:`public_posteriors`),
        when bidders are taken to read the table; None otherwise."""
        found = self._round_reading()
        return None if found is None else found.hands

    def _reads_publicly(self) -> bool:
        """Whether bidders are taken to read the table (:func:`public_posteriors`)."""
        if self._publicly is None:
            self._publicly = (self.reading.reads_table and bool(self._read)
                              and max(self.situation.dice) <= MAX_STARTING_DICE)
        return self._publicly

    def _round_reading(self) -> RoundReading | None:
        if not self._reads_publicly():
            return None
        if self._round is None:
            situation = self.situation
            self._round = round_reading(situation.dice, self._useful, situation.palifico,
                                        situation.rules, self._public_reading())
        return self._round

    def _public_reading(self) -> PublicReading:
        return PublicReading.of(self.reading, len(self.situation.dice))

    def read_steps(self, face: int) -> dict[int, tuple[tuple[int, np.ndarray], ...]]:
        """For each seat whose bids are read, each of its bids (its position in the round)
        with P(the seat holds k dice counting toward ``face``) once the round up to that bid
        is read: the last one is :meth:`seat_counts`. One pass over the bids."""
        situation = self.situation
        dice, palifico = situation.dice, situation.palifico
        steps: dict[int, list[tuple[int, np.ndarray]]] = {seat: [] for seat in self._read}
        if self._reads_publicly():
            def seen(position: int, state: RoundReading) -> None:
                seat = self._useful[position][0]
                if seat in steps:
                    steps[seat].append((position, state.count(seat, dice[seat], face,
                                                              palifico)))

            empty = RoundReading(tuple(None for _ in dice))
            _read_bids(empty, dice, self._useful, 0, palifico, situation.rules,
                       self._public_reading(), seen)
            return {seat: tuple(found) for seat, found in steps.items()}
        positions: dict[int, list[int]] = {seat: [] for seat in self._read}
        for position, (seat, _) in enumerate(self._useful):
            if seat in positions:
                positions[seat].append(position)
        for seat in self._read:
            bids = self._seat_bids(seat)[0]
            moves = self._moves(seat)
            for made, position in enumerate(positions[seat], start=1):
                upto = None if moves is None else Moves(moves.previous[:made], moves.rules,
                                                        moves.sharpness, moves.held)
                steps[seat].append((position, read_seat(
                    self.reading, seat, dice[seat], bids[:made], situation.table_dice, face,
                    palifico, upto)))
        return {seat: tuple(found) for seat, found in steps.items()}

    def view_of(self, seat: int) -> np.ndarray:
        """How ``seat`` sees the dice they cannot see, laid out as
        :func:`hands.uniform_survival`: through the table's reading of the bids as far as
        the reading takes ``seat`` to read them (:func:`seen_by`), else as fair dice."""
        if seat not in self._views:
            situation = self.situation
            found = self._round_reading()
            self._views[seat] = (
                uniform_survival(situation.table_dice - situation.dice[seat],
                                 situation.palifico) if found is None
                else found.seen(situation.dice, seat, situation.palifico,
                                self.reading.table_reading_of(seat)))
        return self._views[seat]

    def _seat_bids(self, seat: int) -> tuple[tuple[Bid, ...], tuple[Bid | None, ...]]:
        """``seat``'s bids of the useful range, and the bid each followed."""
        if self._by_seat is None:
            bids: dict[int, list[Bid]] = {}
            before: dict[int, list[Bid | None]] = {}
            previous: Bid | None = None
            for bidder, bid in self._useful:
                bids.setdefault(bidder, []).append(bid)
                before.setdefault(bidder, []).append(previous)
                previous = bid
            self._by_seat = {bidder: (tuple(made), tuple(before[bidder]))
                             for bidder, made in bids.items()}
        return self._by_seat.get(seat, ((), ()))

    def _moves(self, seat: int) -> Moves | None:
        reading = self.reading
        if reading.sharpness <= 0:
            return None
        return Moves(self._seat_bids(seat)[1], self.situation.rules,
                     reading.sharpness, reading.held)

    def others_counts(self, face: int, *, excluding: tuple[int, ...] = ()) -> np.ndarray:
        """P(k hidden dice count toward ``face``) over every seat but mine and ``excluding``."""
        key = (face, excluding)
        if key in self._others:
            return self._others[key]
        situation = self.situation
        skip = {situation.me, *excluding}
        seats = tuple(seat for seat in situation.active_seats if seat not in skip)
        found = self._round_reading()
        if found is not None:  # the same reading's counts, kept for any spot that reads it
            read = tuple(seat for seat in seats if seat in self._read)
            total = found.kept(("others", face, seats, read),
                               lambda: self._others_counts(face, seats))
        else:
            total = self._others_counts(face, seats)
        self._others[key] = total
        return total

    def _others_counts(self, face: int, seats: tuple[int, ...]) -> np.ndarray:
        situation = self.situation
        plain_dice = sum(situation.dice[seat] for seat in seats if seat not in self._read)
        total = _plain(plain_dice, face, situation.palifico)
        for seat in seats:
            if seat in self._read:
                total = np.convolve(total, self.seat_counts(seat, face))
        return total

    def distribution(self, face: int) -> np.ndarray:
        """P(exactly k dice on the whole table count toward ``face``), k = 0 .. table dice."""
        if face not in self._distributions:
            situation = self.situation
            if not self.reads_bids:
                result = odds(Bid(1, face), situation.hand, situation.table_dice,
                              situation.palifico).distribution
            else:
                result = np.zeros(situation.table_dice + 1)
                others = self.others_counts(face)
                own = self.own_matches(face)
                result[own : own + len(others)] = others
            self._distributions[face] = result
        return self._distributions[face]

    def at_least(self, bid: Bid) -> float:
        """P(the bid is true) under these beliefs."""
        if not self.reads_bids:
            situation = self.situation
            return odds(bid, situation.hand, situation.table_dice, situation.palifico).at_least
        tail = self.tail(bid.face)
        return float(tail[bid.quantity]) if bid.quantity < len(tail) else 0.0

    def tail(self, face: int) -> np.ndarray:
        """P(at least k dice on the table count toward ``face``), k = 0 .. table dice."""
        if face not in self._tails:
            tail = np.minimum(1.0, np.cumsum(self.distribution(face)[::-1])[::-1])
            tail[: self.own_matches(face) + 1] = 1.0  # my own dice make these certain
            tail.setflags(write=False)
            self._tails[face] = tail
        return self._tails[face]

    def exactly(self, bid: Bid) -> float:
        """P(exactly ``bid.quantity`` dice count toward the bid) under these beliefs."""
        distribution = self.distribution(bid.face)
        return float(distribution[bid.quantity]) if bid.quantity < len(distribution) else 0.0
