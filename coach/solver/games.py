"""Two-player bidding rounds as data for the heads-up solver, and their public game tree.

A round is played by the *opener* (player 0) and the *responder* (player 1), who take turns:
the opener must bid, then each player raises the last bid, calls dudo (the round ends and
the bid is settled) or, where the rules allow it, calls calza. Each player's private hand
is dealt at random; bids and calls are public, so an information set is (my hand, the bid
history) and the public tree is the tree of bid histories.

Two families of rounds are defined here:

* :class:`PerudoRound`: our rules (docs/RULES.md), read through :mod:`perudo_math` so that the
  rules stay data: legal raises come from :func:`perudo_math.legal_quantities`, counting
  from :meth:`perudo_math.Hand.count`, normal and palifico rounds, the paco conversions,
  the same-face raise rule and calza under ``calza_heads_up``. Bids above the dice on the
  table are left out: they are certainly false, so no player ever gains by making one.
* :class:`LinearBidGame`: thomasahle/snyd's game, one linear bid order 1×1 < 1×2 < … < 1×6
  < 2×1 < … and "liar" for dudo; with ``jokers`` the ones are wild and cannot be bid.

Payoffs are the opener's, zero-sum, and come in two kinds (:data:`coach.solver.values.PAYOFFS`):

* ``"dice"`` (the default, and snyd's): +1 per die the opener wins (the responder loses one, or
  a right calza wins one back), −1 per die the opener loses; a die is a die, the last one too;
* ``"game"`` (:class:`PerudoRound` only): ``2 V − 1``, where ``V`` is the opener's chance of
  winning the game from the state the round leads to (:mod:`coach.solver.values`): losing
  one's last die loses the game, and winning a round can hand the other player a palifico
  opening. With no heads-up calza every round ends with one die lost, so the two payoffs
  differ by a positive scale and a shift: the equilibrium strategies are the same, only the
  values change. With ``calza_heads_up`` a right calza's die is worth what the state it
  leads to is worth, and the strategies differ too.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Protocol

import numpy as np
import scipy.sparse as sp

from coach.solver.values import PAYOFFS, Payoff, StateValues, after_call, heads_up_value
from perudo_math import (
    Bid,
    CallKind,
    Hand,
    RaiseRule,
    Rules,
    calza_refusal,
    dudo_refusal,
    legal_quantities,
    settle_round,
)

DUDO_CODE = -1
"""The action code of a dudo (a "liar" call) in :attr:`GameTree.action`."""
CALZA_CODE = -2
"""The action code of a calza in :attr:`GameTree.action`."""
NO_BID = -1
"""The bid index before the opening bid."""

OpenerPayoff = Callable[[Bid, CallKind, int, int], float]
"""``payoff(bid, kind, caller, count)``: the opener's payoff when ``caller`` (0 or 1) calls
``kind`` (``"dudo"`` or ``"calza"``) on ``bid`` and ``count`` dice match."""


@dataclass(frozen=True, slots=True)
class HandSet:
    """Every hand of ``dice`` six-sided dice as a sorted tuple of faces, with its chance."""

    dice: int
    hands: tuple[tuple[int, ...], ...]
    weights: np.ndarray

    @classmethod
    def of(cls, dice: int) -> HandSet:
        """All sorted hands of ``dice`` dice; a hand's weight is its multinomial chance."""
        hands = tuple(itertools.combinations_with_replacement(range(1, 7), dice))
        weights = np.array([_arrangements(hand) for hand in hands], dtype=float) / 6.0**dice
        return cls(dice, hands, weights)

    def index(self, faces: Sequence[int]) -> int:
        """The position of the hand showing ``faces`` (in any order)."""
        return self.hands.index(tuple(sorted(faces)))

    def __len__(self) -> int:
        return len(self.hands)


def _arrangements(hand: tuple[int, ...]) -> int:
    """How many ordered rolls give the sorted ``hand``."""
    count = math.factorial(len(hand))
    for face in set(hand):
        count //= math.factorial(hand.count(face))
    return count


class BidGame:
    """A two-player bidding round: the bid ladder, the legal raises, counting and calza.

    Subclasses set :attr:`dice` (opener's, responder's), :attr:`bids` (the ladder in a
    fixed order) and implement :meth:`raises` and :meth:`matches`.
    """

    dice: tuple[int, int]
    name: str
    rules: Rules = Rules()
    """The settings a call is settled under (:func:`perudo_math.settle_round`)."""

    @property
    def bids(self) -> tuple[Bid, ...]:
        """The bid ladder in a fixed order (a subclass works it out once)."""
        raise NotImplementedError

    def raises(self, last: int, mover: int) -> tuple[int, ...]:
        """The bid indices ``mover`` may bid after bid index ``last`` (``NO_BID``: opening)."""
        raise NotImplementedError

    def matches(self, hand: tuple[int, ...], bid: Bid) -> int:
        """How many dice of ``hand`` count toward ``bid``."""
        raise NotImplementedError

    def calza_gain(self, caller: int) -> float | None:
        """What a right calza earns ``caller`` (in dice), or ``None`` when calza is not allowed."""
        return None

    def opener_payoff(self, bid: Bid, kind: CallKind, caller: int, count: int) -> float:
        """The opener's payoff when ``caller`` calls ``kind`` on ``bid`` and ``count`` dice
        match: die for die, as :func:`perudo_math.settle_round` settles it."""
        settled = settle_round(bid, bidder=1 - caller, caller=caller, kind=kind, count=count,
                               dice=self.dice, rules=self.rules)
        won = settled.loser == 1 or settled.gainer == 0
        lost = settled.loser == 0 or settled.gainer == 1
        return float(won) - float(lost)

    @property
    def total_dice(self) -> int:
        return self.dice[0] + self.dice[1]

    @cached_property
    def bid_index(self) -> dict[Bid, int]:
        """Each bid's position on the ladder."""
        return {bid: index for index, bid in enumerate(self.bids)}

    @cached_property
    def hand_sets(self) -> tuple[HandSet, HandSet]:
        return HandSet.of(self.dice[0]), HandSet.of(self.dice[1])

    def actions(self, last: int, mover: int) -> tuple[int, ...]:
        """Every action code at a node, in the tree's order: raises, then dudo, then calza."""
        codes = list(self.raises(last, mover))
        last_bidder = None if last == NO_BID else 1 - mover
        if dudo_refusal(self.rules, caller=mover, turn=mover, last_bidder=last_bidder) is None:
            codes.append(DUDO_CODE)
            if self.calza_gain(mover) is not None:
                codes.append(CALZA_CODE)
        return tuple(codes)

    def count_table(self, player: int) -> np.ndarray:
        """``table[bid, hand]``: the matching dice of each of ``player``'s hands for each bid."""
        hands = self.hand_sets[player].hands
        return np.array([[self.matches(hand, bid) for hand in hands] for bid in self.bids],
                        dtype=np.int64)


@dataclass(frozen=True)
class LinearBidGame(BidGame):
    """thomasahle/snyd's game: bids (q, f) in one linear order, any higher bid may follow.

    Without ``jokers`` every face 1–6 is biddable and counts only itself; with ``jokers`` the
    ones are wild (count toward every face) and only faces 2–6 are biddable.
    """

    dice: tuple[int, int] = (1, 1)
    jokers: bool = False
    name: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", "snyd-joker" if self.jokers else "snyd-normal")

    @cached_property
    def bids(self) -> tuple[Bid, ...]:
        faces = range(2, 7) if self.jokers else range(1, 7)
        return tuple(Bid(q, f) for q in range(1, self.total_dice + 1) for f in faces)

    def raises(self, last: int, mover: int) -> tuple[int, ...]:
        return tuple(range(last + 1, len(self.bids)))

    def matches(self, hand: tuple[int, ...], bid: Bid) -> int:
        return Hand(hand).count(bid.face, palifico=not self.jokers)


@dataclass(frozen=True)
class PerudoRound(BidGame):
    """One heads-up round under our rules: ``dice`` are (opener's, responder's) dice.

    ``payoff`` is ``"dice"`` or ``"game"`` (see the module notes); a game payoff reads the
    value of each state a call leads to from ``values`` (P(I win the game) at the start of a
    round), by default :func:`coach.solver.values.heads_up_value`, the shipped tables'.
    """

    dice: tuple[int, int] = (1, 1)
    palifico: bool = False
    rules: Rules = field(default_factory=Rules)
    payoff: Payoff = "dice"
    values: StateValues | None = field(default=None, compare=False, repr=False)
    name: str = field(init=False)

    def __post_init__(self) -> None:
        if self.payoff not in PAYOFFS:
            raise ValueError(f"a payoff is one of {', '.join(PAYOFFS)}, not {self.payoff!r}")
        object.__setattr__(self, "name", "palifico" if self.palifico else "perudo")

    @cached_property
    def bids(self) -> tuple[Bid, ...]:
        return tuple(sorted(Bid(q, f) for q in range(1, self.total_dice + 1)
                            for f in range(1, 7)))

    @cached_property
    def _raise_cache(self) -> dict[tuple[int, int], tuple[int, ...]]:
        return {}

    def raises(self, last: int, mover: int) -> tuple[int, ...]:
        key = (last, mover)
        if key not in self._raise_cache:
            previous = None if last == NO_BID else self.bids[last]
            spans = legal_quantities(previous, self.total_dice, palifico=self.palifico,
                                     rules=self.rules, bidder_dice=self.dice[mover])
            found = (self.bid_index[Bid(q, face)] for face, span in spans.items() for q in span)
            self._raise_cache[key] = tuple(sorted(found))
        return self._raise_cache[key]

    def matches(self, hand: tuple[int, ...], bid: Bid) -> int:
        return Hand(hand).count(bid.face, palifico=self.palifico)

    def calza_gain(self, caller: int) -> float | None:
        return self._calza_gains[caller]

    def opener_payoff(self, bid: Bid, kind: CallKind, caller: int, count: int) -> float:
        if self.payoff == "dice":
            return super().opener_payoff(bid, kind, caller, count)
        after = after_call(self.rules, self.dice, self.palifico, bid, caller, kind, count)
        return 2.0 * after.chance(0, self.state_values) - 1.0

    @cached_property
    def state_values(self) -> StateValues:
        """Where a game payoff reads the value of the next round's start."""
        return heads_up_value if self.values is None else self.values

    @cached_property
    def _calza_gains(self) -> tuple[float | None, float | None]:
        return heads_up_calza_gain(self.rules, self.dice, 0), heads_up_calza_gain(
            self.rules, self.dice, 1)


def heads_up_calza_gain(rules: Rules, dice: tuple[int, int], caller: int) -> float | None:
    """What a right calza earns ``caller`` (0 or 1 die) in a heads-up round with ``dice``, or
    ``None`` when the rules forbid calza there: both as :mod:`perudo_math` decides them."""
    other = 1 - caller
    if calza_refusal(rules, caller=caller, turn=caller, last_bidder=other, players_left=2):
        return None
    bid = Bid(1, 2)  # any bid: a calza is right when the count equals its quantity
    right = settle_round(bid, bidder=other, caller=caller, kind="calza", count=bid.quantity,
                         dice=dice, rules=rules)
    return 1.0 if right.gainer == caller else 0.0


def round_rules_key(rules: Rules, dice: tuple[int, int]) -> dict[str, object]:
    """The rule settings that shape a heads-up round with ``dice``; tables match on these.

    Salsa, calza out of turn and the palifico setting do not change a heads-up round once it
    is known whether the round is palifico; the starting dice matter only through a right
    calza's gain.
    """
    gains = [heads_up_calza_gain(rules, dice, caller) for caller in (0, 1)]
    calza = gains[0] is not None
    key: dict[str, object] = {
        "raise_rule": str(RaiseRule(rules.raise_rule)),
        "palifico_one_die_may_change_face": rules.palifico_one_die_may_change_face,
        "calza_heads_up": calza,
    }
    if calza:
        key["calza_gains"] = [int(gain) for gain in gains if gain is not None]  # both or none
    return key


class Segments(Protocol):
    """Decision nodes whose actions are numbered node after node, as a solver reads them.

    :class:`Level` is one (its internal nodes and the edges into the next level), and so is
    a stage of an abstract game (:mod:`coach.solver.abstract`); the CFR+ solver
    (:mod:`coach.solver.cfr`) works on anything shaped this way.
    """

    @property
    def mover(self) -> int:
        """The player who acts at every node here."""
        ...

    @property
    def child_segments(self) -> np.ndarray:
        """Per node, where its first action is."""
        ...

    @property
    def child_counts(self) -> np.ndarray:
        """Per node, how many actions it has (at least one)."""
        ...

    @property
    def child_rank(self) -> np.ndarray:
        """Per action, its node's rank."""
        ...

    @property
    def sum_children(self) -> sp.csr_matrix:
        """Adds rows over actions up into their nodes."""
        ...

    @property
    def later_children(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """Per slot k >= 1: the k-th actions' positions and their nodes' ranks."""
        ...


@dataclass(frozen=True, slots=True)
class LeafGroup:
    """Leaves of one level that settle the same bid the same way: their utility for player 0."""

    positions: np.ndarray
    utility: np.ndarray
    """``utility[h0, h1]``: the opener's payoff for each pair of hands."""


@dataclass(frozen=True, slots=True)
class Level:
    """The nodes at one depth of the public tree; the mover at internal nodes is ``depth % 2``.

    Positions are local to the level. ``child_segments`` gives, for each internal node, where
    its children start in the next level (every internal node has at least one child);
    ``parent`` gives, for each node of the next level, its parent's local position here and
    ``child_rank`` its parent's rank among the internal nodes. ``sum_children`` adds rows
    of the next level up into their parents; ``later_children[k - 1]`` lists the k-th child
    (from 0) of every internal node that has one, with the node's rank.
    """

    depth: int
    start: int
    stop: int
    internal: np.ndarray
    child_segments: np.ndarray
    child_counts: np.ndarray
    parent: np.ndarray
    child_rank: np.ndarray
    sum_children: sp.csr_matrix
    later_children: tuple[tuple[np.ndarray, np.ndarray], ...]
    leaf_groups: tuple[LeafGroup, ...]

    @property
    def size(self) -> int:
        return self.stop - self.start

    @property
    def mover(self) -> int:
        return self.depth % 2


@dataclass(frozen=True)
class GameTree:
    """The public tree of a :class:`BidGame`, numbered breadth first.

    Node 0 is the opening; node ``n``'s children are ``first_child[n]`` onwards, in the order
    of :meth:`BidGame.actions`. ``action[n]`` is the action that led to ``n``: a bid index,
    ``DUDO_CODE`` or ``CALZA_CODE``; ``bid[n]`` the last bid at ``n`` (the settled one at a
    leaf). Every edge into a node at depth ``d + 1`` is a move of player ``d % 2``.
    """

    game: BidGame
    parent: np.ndarray
    action: np.ndarray
    bid: np.ndarray
    depth: np.ndarray
    first_child: np.ndarray
    child_count: np.ndarray
    levels: tuple[Level, ...]

    @property
    def size(self) -> int:
        return len(self.parent)

    @property
    def hand_sets(self) -> tuple[HandSet, HandSet]:
        return self.game.hand_sets

    @property
    def weights(self) -> tuple[np.ndarray, np.ndarray]:
        return self.game.hand_sets[0].weights, self.game.hand_sets[1].weights

    def child(self, node: int, code: int) -> int | None:
        """The child of ``node`` reached by action ``code``, or ``None`` if not legal there."""
        codes = self.game.actions(int(self.bid[node]), int(self.depth[node]) % 2)
        if self.child_count[node] == 0 or code not in codes:
            return None
        return int(self.first_child[node]) + codes.index(code)


def build_tree(game: BidGame) -> GameTree:
    """Enumerate every bid history of ``game`` breadth first (children in action order)."""
    parent, action, bid, depth = [-1], [NO_BID], [NO_BID], [0]
    child_count: list[int] = []
    frontier = [0]
    level_bounds = [0]
    while frontier:
        level_bounds.append(len(parent))
        next_frontier = []
        for node in frontier:
            while len(child_count) < node:
                child_count.append(0)
            last, mover = bid[node], depth[node] % 2
            codes = game.actions(last, mover)
            child_count.append(len(codes))
            for code in codes:
                parent.append(node)
                action.append(code)
                bid.append(code if code >= 0 else last)
                depth.append(depth[node] + 1)
                if code >= 0:
                    next_frontier.append(len(parent) - 1)
        frontier = next_frontier
    child_count.extend([0] * (len(parent) - len(child_count)))
    counts = np.array(child_count, dtype=np.int64)
    first = np.concatenate(([1], 1 + np.cumsum(counts)[:-1])).astype(np.int64)
    arrays = {name: np.array(values, dtype=np.int64)
              for name, values in (("parent", parent), ("action", action), ("bid", bid),
                                   ("depth", depth))}
    levels = _levels(game, arrays, counts, first, level_bounds)
    return GameTree(game, arrays["parent"], arrays["action"], arrays["bid"], arrays["depth"],
                    first, counts, levels)


def _levels(game: BidGame, arrays: dict[str, np.ndarray], counts: np.ndarray,
            first: np.ndarray, bounds: list[int]) -> tuple[Level, ...]:
    """Slice the breadth-first numbering into levels, with their per-level index arrays."""
    size = len(counts)
    bounds = sorted(set(bounds) | {size})
    utilities = UtilityCache(game)
    levels = []
    for depth, (start, stop) in enumerate(itertools.pairwise(bounds)):
        local_counts = counts[start:stop]
        internal = np.flatnonzero(local_counts > 0)
        next_start = stop
        child_parent = arrays["parent"][next_start:next_start + int(local_counts.sum())] - start
        groups = _leaf_groups(arrays, start, stop, depth, utilities)
        segments = first[start + internal] - next_start
        child_counts = local_counts[internal]
        rank = np.repeat(np.arange(internal.size), child_counts)
        summing = sp.csr_matrix((np.ones(rank.size), (rank, np.arange(rank.size))),
                                shape=(internal.size, rank.size))
        levels.append(Level(depth, start, stop, internal, segments, child_counts, child_parent,
                            rank, summing, slot_positions(segments, child_counts), groups))
    return tuple(levels)


def opener_die_lost(game: BidGame) -> OpenerPayoff:
    """A payoff of 1 where the opener loses a die and 0 elsewhere: a game relabelled with it
    (:func:`relabel`) gives how often the opener loses the round."""

    def lost(bid: Bid, kind: CallKind, caller: int, count: int) -> float:
        settled = settle_round(bid, bidder=1 - caller, caller=caller, kind=kind, count=count,
                               dice=game.dice, rules=game.rules)
        return float(settled.loser == 0)

    return lost


def relabel(tree: GameTree, payoff: OpenerPayoff) -> GameTree:
    """The same tree with every leaf paying ``payoff`` instead: evaluating a profile on it
    (:func:`coach.solver.cfr.expected_value`) gives the expectation of any statistic of the
    round's outcome, such as the chance that the opener loses a die."""
    utilities = UtilityCache(tree.game, payoff)
    levels = []
    for level in tree.levels:
        groups = []
        for group in level.leaf_groups:
            leaf = level.start + int(group.positions[0])
            kind, bid = int(tree.action[leaf]), int(tree.bid[leaf])
            groups.append(LeafGroup(group.positions, utilities.get(bid, kind, 1 - level.mover)))
        levels.append(replace(level, leaf_groups=tuple(groups)))
    return replace(tree, levels=tuple(levels))


def slot_positions(segments: np.ndarray,
                    counts: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Per child slot k >= 1: the k-th children's positions and their parents' ranks."""
    slots = []
    for slot in range(1, int(counts.max(initial=0))):
        ranks = np.flatnonzero(counts > slot)
        slots.append((segments[ranks] + slot, ranks))
    return tuple(slots)


def _leaf_groups(arrays: dict[str, np.ndarray], start: int, stop: int, depth: int,
                 utilities: UtilityCache) -> tuple[LeafGroup, ...]:
    """Group the leaves of one level by (kind of call, bid settled)."""
    codes = arrays["action"][start:stop]
    bids = arrays["bid"][start:stop]
    caller = (depth - 1) % 2
    groups = []
    for kind in (DUDO_CODE, CALZA_CODE):
        positions = np.flatnonzero(codes == kind)
        for bid in np.unique(bids[positions]):
            chosen = positions[bids[positions] == bid]
            groups.append(LeafGroup(chosen, utilities.get(int(bid), kind, caller)))
    return tuple(groups)


class UtilityCache:
    """The opener's payoff matrices, one per (bid, kind of call, caller), from
    :meth:`BidGame.opener_payoff` (or ``payoff(bid, kind, caller, count)`` when given)."""

    def __init__(self, game: BidGame, payoff: OpenerPayoff | None = None) -> None:
        self.game = game
        self.payoff = payoff or game.opener_payoff
        self.counts = (game.count_table(0), game.count_table(1))
        self.cache: dict[tuple[int, int, int], np.ndarray] = {}

    def get(self, bid: int, kind: int, caller: int) -> np.ndarray:
        key = (bid, kind, caller)
        if key not in self.cache:
            self.cache[key] = self._compute(bid, kind, caller)
        return self.cache[key]

    def _compute(self, bid: int, kind: int, caller: int) -> np.ndarray:
        total = self.counts[0][bid][:, None] + self.counts[1][bid][None, :]
        call: CallKind = "dudo" if kind == DUDO_CODE else "calza"
        by_count = np.array([self.payoff(self.game.bids[bid], call, caller, count)
                             for count in range(self.game.total_dice + 1)])
        return by_count[total]


def count_tree(game: BidGame) -> int:
    """How many nodes :func:`build_tree` would make for ``game``, without building it.

    The subtree below a bid depends only on (last bid, mover), so a memoised count over
    those pairs is exact and cheap even where the tree itself would not fit in memory.
    """
    return subtree_counts(game)[(NO_BID, 0)]


def subtree_counts(game: BidGame) -> dict[tuple[int, int], int]:
    """For each reachable (last bid, mover): the nodes of the subtree below it (its own
    node, its calls and every raise's subtree), memoised over those pairs."""
    counts: dict[tuple[int, int], int] = {}
    for last, mover in _subtree_order(game):
        total = 1
        for code in game.actions(last, mover):
            total += counts[(code, 1 - mover)] if code >= 0 else 1
        counts[(last, mover)] = total
    return counts


def _subtree_order(game: BidGame) -> list[tuple[int, int]]:
    """Every reachable (last bid, mover), children before parents (iterative depth first)."""
    order: list[tuple[int, int]] = []
    seen = {(NO_BID, 0)}
    stack: list[tuple[tuple[int, int], bool]] = [((NO_BID, 0), False)]
    while stack:
        state, expanded = stack.pop()
        if expanded:
            order.append(state)
            continue
        stack.append((state, True))
        last, mover = state
        for code in game.raises(last, mover):
            child = (code, 1 - mover)
            if child not in seen:
                seen.add(child)
                stack.append((child, False))
    return order
