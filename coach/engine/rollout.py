"""The rest of the round, sampled: how often a raise ends up costing me a die.

A raise is not over when the next player lets it pass: the bid goes round the table and
may come back to me. :func:`raise_outcomes` plays the rest of the round out many times.
Each time, every other seat's hand is drawn from the table's reading of the bids (uniform
dice where nothing was read), and then every player, me included, plays a fast policy from
their own dice: by default (the coach's ``rollout_call_margin``) they call dudo when they
see the bid false more likely, by that margin, than they see their own raise true, or see
no chance in it; without a margin, when the bid looks true with a chance below their
threshold. Otherwise they raise to the smallest bid of the face likeliest true from their
own dice (the higher face on a tie). The dice they cannot see they see as the table read
the bids before my raise (:meth:`TableBeliefs.view_of`), or as fair dice. They read those
chances to nine decimals (:mod:`coach.engine.steady`): a tie, or a chance at a threshold,
plays the same on every machine.

The same hands serve every raise weighed, so raises are compared on the same dice, and
the draw is seeded from the spot, so the same spot always gets the same numbers.
:func:`play_out` plays all the draws at once with numpy; the tests replay each draw alone,
one bid at a time, with ``perudo_math``'s legality and odds.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from threading import Lock
from typing import NamedTuple, TypeAlias

import numpy as np

from coach.engine.hands import hand_space, uniform_survival
from coach.engine.situation import Situation
from coach.engine.steady import steady_array
from perudo_math import FACES, MAX_STARTING_DICE, Bid, Rules, smallest_raises

ROUNDS_PLAYED = 3
"""A draw still going after this many times round the table is cut off (see ``cut_off``)."""
PAD = MAX_STARTING_DICE
"""As many dice as one seat may hold: how far below zero the dice a bid still needs, beyond
a player's own, can go."""
_FACE_INDEXES = np.arange(6)

HandsOf: TypeAlias = Callable[[int], np.ndarray | None]
ThresholdOf: TypeAlias = Callable[[int], float]
MarginOf: TypeAlias = Callable[[int], float]
ViewOf: TypeAlias = Callable[[int], np.ndarray]
"""How a seat sees the dice it cannot see, laid out as :func:`hands.uniform_survival`."""


def spot_seed(situation: Situation) -> int:
    """A seed that depends on the spot alone."""
    return zlib.crc32(situation.to_json().encode())


def sample_matches(situation: Situation, hands_of: HandsOf, samples: int,
                   rng: np.random.Generator) -> np.ndarray:
    """``matches[seat, draw, f - 1]``: how many of ``seat``'s dice count toward face f in
    each draw. My own hand in every draw; every other seat with dice drawn from
    ``hands_of(seat)`` (weights over :func:`hands.hand_space`; None: uniform dice)."""
    dice, palifico = situation.dice, situation.palifico
    matches = np.zeros((len(dice), samples, 6), dtype=np.int64)
    matches[situation.me] = [situation.hand.count(face, palifico=palifico) for face in FACES]
    for seat in situation.active_seats:
        if seat == situation.me:
            continue
        space = hand_space(dice[seat])
        weights = hands_of(seat)
        rows = drawn_rows(space.prior if weights is None else weights, samples, rng)
        matches[seat] = space.matches(palifico)[rows]
    return matches


def drawn_rows(weights: np.ndarray, samples: int, rng: np.random.Generator) -> np.ndarray:
    """``rng.choice(len(weights), size=samples, p=weights / weights.sum())``, the same rows
    from the same draws of ``rng``: numpy's own steps for a draw with replacement (the
    cumulative sums scaled by their last, then a search of ``samples`` uniform numbers),
    without its checks of the chances, and the sums kept per weights (a seat's hands as
    read, the same for every spot of a round past the bids read). Weights that are not
    chances go to numpy, which says what is wrong with them."""
    cdf = _cdf_of(weights)
    if cdf is None:
        return rng.choice(len(weights), size=samples, p=weights / weights.sum())
    return cdf.searchsorted(rng.random(samples), side="right")


_CDFS: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}
"""Per weights (by identity, the weights held so that it stays theirs): :func:`_cdf_of`."""
_CDFS_KEPT = 32
_CDF_LOCK = Lock()


def _cdf_of(weights: np.ndarray) -> np.ndarray | None:
    """numpy's cumulative chances for a draw weighed ``weights`` (None: not chances)."""
    with _CDF_LOCK:
        kept = _CDFS.get(id(weights))
    if kept is not None and kept[0] is weights:
        return kept[1]
    chances = weights / weights.sum()
    cdf: np.ndarray | None = chances.cumsum()
    assert cdf is not None
    if not (np.isfinite(cdf[-1]) and abs(cdf[-1] - 1.0) <= _SUM_TOLERANCE
            and (chances >= 0).all()):
        cdf = None
    else:
        cdf /= cdf[-1]
        cdf.setflags(write=False)
    if not weights.flags.writeable:  # weights that cannot change are kept
        with _CDF_LOCK:
            if len(_CDFS) >= _CDFS_KEPT:
                _CDFS.clear()
            _CDFS[id(weights)] = (weights, cdf)
    return cdf


_SUM_TOLERANCE = 1e-8
"""Within numpy's tolerance (the square root of the float epsilon) on chances summing to 1:
weights scaled by their sum never come near it."""


@lru_cache(maxsize=256)
def raise_steps(table_dice: int, palifico: bool, rules: Rules,
                bidder_dice: int | None) -> np.ndarray:
    """``steps[f - 1, q, g - 1]``: the smallest legal quantity on face g after q × f, or 0
    when no bid of g can follow it within the table (q from 1 to one past ``table_dice``,
    which stands for every bid above the table)."""
    raw = _raw_steps(table_dice + 2, palifico, rules, bidder_dice)[:, :table_dice + 2]
    steps = np.where(raw <= table_dice, raw, 0)
    steps.setflags(write=False)
    return steps


_RAW_STEPS: dict[tuple[bool, Rules, int | None], np.ndarray] = {}
"""Per round kind, rules and bidder's dice: :func:`_raises_after` of every quantity asked so
far, the same whatever the table (a game's rounds shrink the table a die at a time)."""
_RAW_STEPS_KEPT = 64
_RAW_LOCK = Lock()


def _raw_steps(quantities: int, palifico: bool, rules: Rules,
               bidder_dice: int | None) -> np.ndarray:
    """``[f - 1, q, g - 1]``: :func:`_raises_after` of q × f on g, for q below
    ``quantities`` (row 0 empty); grown as larger tables ask, each row worked out once."""
    key = (palifico, rules, bidder_dice)
    with _RAW_LOCK:
        found = _RAW_STEPS.get(key)
    if found is not None and found.shape[1] >= quantities:
        return found
    have = 1 if found is None else found.shape[1]
    grown = np.zeros((6, quantities, 6), dtype=np.int64)
    if found is not None:
        grown[:, :have] = found
    for face in range(1, 7):
        for quantity in range(have, quantities):
            grown[face - 1, quantity] = _raises_after(quantity, face, palifico, rules,
                                                      bidder_dice)
    grown.setflags(write=False)
    with _RAW_LOCK:
        if len(_RAW_STEPS) >= _RAW_STEPS_KEPT:
            _RAW_STEPS.clear()
        kept = _RAW_STEPS.get(key)
        if kept is None or kept.shape[1] < quantities:
            _RAW_STEPS[key] = grown
    return grown


def forget_steps() -> None:
    """Forget every table of raises, and the draws' sums kept (for measuring cold calls)."""
    raise_steps.cache_clear()
    _raises_after.cache_clear()
    with _RAW_LOCK:
        _RAW_STEPS.clear()
    with _CDF_LOCK:
        _CDFS.clear()


@lru_cache(maxsize=16_384)
def _raises_after(quantity: int, face: int, palifico: bool, rules: Rules,
                  bidder_dice: int | None) -> tuple[int, ...]:
    """The smallest legal quantity on each face g after ``quantity`` × ``face`` (0: none):
    the same whatever the table, so a table of another size reuses it."""
    raises = smallest_raises(Bid(quantity, face), palifico=palifico, rules=rules,
                             bidder_dice=bidder_dice)
    return tuple(raises[to].quantity if to in raises else 0 for to in range(1, 7))


def turns_after_me(situation: Situation) -> list[int]:
    """Who plays, in order, after my raise: :data:`ROUNDS_PLAYED` times round the table."""
    seats, seat = [], situation.me
    for _ in range(len(situation.active_seats) * ROUNDS_PLAYED):
        seat = situation.next_seat(seat)
        seats.append(seat)
    return seats


@lru_cache(maxsize=1024)
def padded_survival(unknown: int, palifico: bool, table_dice: int) -> np.ndarray:
    """:func:`hands.uniform_survival`, padded (:func:`padded`)."""
    return padded(uniform_survival(unknown, palifico), table_dice)


def padded(survival: np.ndarray, table_dice: int) -> np.ndarray:
    """``survival`` (laid out as :func:`hands.uniform_survival`) read at ``needed + PAD``
    for any needed from −PAD to the table's dice: 1 where my dice already make the bid, 0
    past the unseen dice."""
    out = np.zeros((6, PAD + table_dice + 2))
    out[:, PAD:PAD + survival.shape[1]] = survival
    out[:, :PAD + 1] = 1.0
    out.setflags(write=False)
    return out


def play_out(situation: Situation, bids: Sequence[Bid], matches: np.ndarray,
             threshold_of: ThresholdOf, cut_off: float,
             view_of: ViewOf | None = None,
             call_margin: float | MarginOf | None = None,
             called_at_once: np.ndarray | None = None) -> np.ndarray:
    """``lost[i, d]``: 1 when, in draw d of ``matches``, the round after my raise to
    ``bids[i]`` ends with me losing a die, 0 when with someone else losing one, ``cut_off``
    when it is still going. Every raise and every draw are played at once. Each seat sees
    the dice it cannot see as ``view_of(seat)`` says (None: as fair dice). A seat calls dudo
    when the bid looks true to it with a chance below ``threshold_of(seat)``, or, given a
    ``call_margin``, when it sees the bid false more likely, by that margin, than it sees its
    raise true (``threshold_of`` then plays no part) or sees no chance in the bid; and always
    when it has no raise. ``called_at_once``, when given (shaped as the result), is set to 1
    where the player after me called my raise at once and 0 elsewhere."""
    dice, me, palifico, rules = (situation.dice, situation.me, situation.palifico,
                                 situation.rules)
    table = situation.table_dice
    draws = matches.shape[1]
    totals = matches[list(situation.active_seats)].sum(axis=0).ravel()
    lost = np.full(len(bids) * draws, cut_off)
    # The games still going (raise i in draw d is game i * draws + d), their draws and their
    # bids, the face as its index (face − 1); one past the table stands for every bid above
    # it. The bidder is the same for every game: the one who played last.
    live = np.arange(len(bids) * draws)
    draw = np.tile(np.arange(draws), len(bids))
    quantity = np.repeat([min(bid.quantity, table + 1) for bid in bids], draws).astype(np.int64)
    face_index = np.repeat([bid.face - 1 for bid in bids], draws).astype(np.int64)
    bidder = me
    # Per seat, flat for numpy's fast take: P(true) at [face index * width + PAD + needed],
    # the smallest raises at [face index * rows + quantity], and the threshold.
    width, rows_per_face = PAD + table + 2, table + 2
    seats: dict[int, tuple[np.ndarray, np.ndarray, float, float]] = {}
    margin_of = _per_seat(call_margin)

    def tables_of(seat: int) -> tuple[np.ndarray, np.ndarray, float, float]:
        """A seat's tables, worked out when it first plays: most draws end at the first
        turn or two, and the view of a seat that never plays costs the most."""
        found = seats.get(seat)
        if found is None:
            found = seats[seat] = (
                steady_array(padded_survival(table - dice[seat], palifico, table)
                             if view_of is None else padded(view_of(seat), table)).ravel(),
                raise_steps(table, palifico, rules, dice[seat]).reshape(-1, 6),
                threshold_of(seat), 0.0 if margin_of is None else margin_of(seat))
        return found

    offsets = _FACE_INDEXES * width + PAD
    for turn, actor in enumerate(turns_after_me(situation)):
        survival, steps, threshold, margin = tables_of(actor)
        own = matches[actor].take(draw, axis=0)
        row_starts = np.arange(0, own.size, 6)  # [game, face] of a game's row, flat
        p_now = survival.take(face_index * width + PAD + quantity
                              - own.ravel().take(row_starts + face_index))
        after = steps.take(face_index * rows_per_face + quantity, axis=0)
        p_after = survival.take(offsets + after - own)
        p_after[after == 0] = -1.0
        best = 5 - np.argmax(p_after[:, ::-1], axis=1)  # ties: the higher face
        picked = row_starts + best
        p_raised = p_after.ravel().take(picked)
        if call_margin is None:
            calls = (p_now < threshold) | (p_raised < 0)
        else:
            calls = (1.0 - p_now - margin > p_raised) | (p_raised < 0) | (p_now <= 0.0)
        raised = after.ravel().take(picked)
        if turn == 0 and called_at_once is not None:
            called_at_once[...] = calls.reshape(called_at_once.shape)
        if calls.any():
            holds = totals.take(draw[calls] * 6 + face_index[calls]) >= quantity[calls]
            lost[live[calls]] = np.where(holds, actor == me, bidder == me)
            going = ~calls
            live, draw, raised, best = live[going], draw[going], raised[going], best[going]
            if not len(live):
                break
        quantity, face_index, bidder = raised, best, actor
    return lost.reshape(len(bids), draws)


def _per_seat(margin: float | MarginOf | None) -> MarginOf | None:
    """A margin for every seat, or each seat's own."""
    if margin is None or callable(margin):
        return margin
    value = float(margin)
    return lambda seat: value


class RaiseOutcomes(NamedTuple):
    """Per raise, over the draws: P(I lose a die this round), and P(the player after me
    calls it at once)."""

    lose: np.ndarray
    called: np.ndarray


def raise_outcomes(situation: Situation, raises: Sequence[Bid], hands_of: HandsOf,
                   threshold_of: ThresholdOf, samples: int,
                   view_of: ViewOf | None = None,
                   call_margin: float | MarginOf | None = None) -> RaiseOutcomes:
    """Each of ``raises`` over ``samples`` draws of the other hands (:func:`sample_matches`),
    the rest of the round played out (:func:`play_out`). A round still going at the cut-off
    counts one chance in the number of players."""
    matches = sample_matches(situation, hands_of, samples,
                             np.random.default_rng(spot_seed(situation)))
    cut_off = 1.0 / len(situation.active_seats)
    called = np.zeros((len(raises), samples))
    lost = play_out(situation, raises, matches, threshold_of, cut_off, view_of, call_margin,
                    called)
    return RaiseOutcomes(lost.mean(axis=1), called.mean(axis=1))
