"""Heads-up rounds under imperfect recall: the abstraction that makes large rounds solvable.

The perfect-recall public tree of a round grows past 10^8 nodes at 3 dice against 3
(:func:`coach.solver.games.count_tree`), so larger rounds are solved in an abstract game, as
Neller & Hnath did for Dudo ("Approximating Optimal Dudo Play with Fixed-Strategy Iteration
Counterfactual Regret Minimization", 2011): a player remembers only the last ``bids`` bids
of the history (:class:`Recall`), whose turn it is and, optionally, how many bids were made
(capped at ``depth_cap``). Every player's information set is (my hand, that key).

Because the key holds the last bid and the mover, the rest of the round from an abstract
state (the legal actions, the payoffs) does not depend on which history led there: the
abstract states form a directed acyclic graph (:class:`AbstractGame`), much smaller than the
tree, whose *stages* (nodes grouped by their longest path from the opening, all of one
mover) are solved by the same CFR+ as the tree (:func:`coach.solver.cfr.run_cfr`).

The histories an abstract state merges reach it with different chances of the opponent's
hands, so the value of a state is kept per pair of hands (opener's, responder's): what the
opener expects from there, both playing the profile. A player's counterfactual value at a
state is then the opponent's reach, summed over the merged histories, times that matrix: the
regret of an abstract information set adds the regrets of its histories, which is what
Neller & Hnath's fixed-strategy iteration does one deal at a time. With imperfect recall
CFR has no convergence guarantee, so :func:`full_game_profile` lays an abstract profile on
the perfect-recall tree, where :func:`coach.solver.cfr.exploitability` measures it exactly.

:meth:`AbstractGame.exploitability` pits the profile against *local* best responses: per
abstract state and hand, bottom-up, the action whose counterfactual value (summed over the
merged histories) is largest. That is a real strategy, so its gain is a lower bound on the
exact exploitability (equal to it under perfect recall); under imperfect recall it is not
the best strategy of that recall (its own reach differs across the histories it merges) and
the sum can even be negative. Local responders with a finer recall
(:func:`restricted_exploitability`) tighten the bound, up to the exact value at perfect
recall.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from coach.solver.cfr import Profile, _best_child, normalise_stages, run_cfr
from coach.solver.games import (
    CALZA_CODE,
    DUDO_CODE,
    NO_BID,
    BidGame,
    GameTree,
    LeafGroup,
    OpenerPayoff,
    UtilityCache,
    _subtree_order,
    slot_positions,
)

Visit = Callable[[int, "Stage", np.ndarray], "np.ndarray | None"]
"""Sees a stage's action matrices during a backward pass (see :meth:`AbstractGame._backward`)."""

AbstractKey = tuple[tuple[int, ...], int, int]
"""An abstract state: (the last bids remembered, oldest first; whose turn, 0 for the opener;
the number of bids so far, capped)."""


@dataclass(frozen=True)
class Recall:
    """What a player remembers of the bid history: the last ``bids`` bids, whose turn it is,
    and the number of bids so far up to ``depth_cap`` (0: not remembered).

    ``bids`` is at least 1: the last bid decides the legal raises and what a call settles.
    A recall at least as long as the longest history is perfect recall.
    """

    bids: int
    depth_cap: int = 0

    def __post_init__(self) -> None:
        if self.bids < 1:
            raise ValueError(f"a recall keeps at least the last bid: bids must be 1 or more, "
                             f"not {self.bids}")
        if self.depth_cap < 0:
            raise ValueError(f"a recall's depth cap is 0 (none) or more, not {self.depth_cap}")

    def key(self, history: Sequence[int]) -> AbstractKey:
        """The abstract state of a bid history (bid indices, in order)."""
        depth = len(history)
        return tuple(history[-self.bids:]) if depth else (), depth % 2, min(depth, self.depth_cap)

    def after(self, key: AbstractKey, bid: int) -> AbstractKey:
        """The abstract state after ``bid`` is made at ``key``."""
        bids, mover, depth = key
        return (*bids, bid)[-self.bids:], 1 - mover, min(depth + 1, self.depth_cap)

    @property
    def name(self) -> str:
        """``K3`` (the last 3 bids) or ``K3-D5`` (and the number of bids up to 5)."""
        return f"K{self.bids}" + (f"-D{self.depth_cap}" if self.depth_cap else "")


def last_bid(key: AbstractKey) -> int:
    """The last bid of an abstract state (``NO_BID`` at the opening)."""
    return key[0][-1] if key[0] else NO_BID


@dataclass(frozen=True, slots=True)
class Stage:
    """Abstract states with the same longest path from the opening (so the same mover), and
    their actions, numbered state after state in the order of :meth:`BidGame.actions`.

    Node positions ``start:stop`` are global; action positions are local to the stage. The
    raises at ``raises`` lead to the global nodes ``children``; ``targets`` lists those
    children once each and ``scatter`` adds the raises' rows into them. ``leaves`` groups
    the calls (their positions are actions of the stage) by the bid they settle.
    """

    mover: int
    start: int
    stop: int
    child_segments: np.ndarray
    child_counts: np.ndarray
    child_rank: np.ndarray
    sum_children: sp.csr_matrix
    later_children: tuple[tuple[np.ndarray, np.ndarray], ...]
    raises: np.ndarray
    children: np.ndarray
    targets: np.ndarray
    scatter: sp.csr_matrix
    leaves: tuple[LeafGroup, ...]

    @property
    def actions(self) -> int:
        return int(self.child_rank.size)


@dataclass(frozen=True)
class AbstractGame:
    """The abstract game of ``game`` under ``recall``: a :class:`~coach.solver.cfr.SolverGame`.

    ``keys[n]`` is node ``n``'s abstract state; node 0 is the opening.
    """

    game: BidGame
    recall: Recall
    keys: tuple[AbstractKey, ...]
    stages: tuple[Stage, ...]

    @property
    def size(self) -> int:
        """How many abstract states (every one is a decision node)."""
        return len(self.keys)

    @property
    def actions(self) -> int:
        """How many (state, action) pairs: the rows of a strategy table."""
        return sum(stage.actions for stage in self.stages)

    @property
    def hand_counts(self) -> tuple[int, int]:
        return len(self.game.hand_sets[0]), len(self.game.hand_sets[1])

    @cached_property
    def index(self) -> dict[AbstractKey, int]:
        """Each abstract state's node."""
        return {key: node for node, key in enumerate(self.keys)}

    @cached_property
    def stage_of(self) -> np.ndarray:
        """Each node's stage."""
        owner = np.zeros(self.size, dtype=np.int64)
        for number, stage in enumerate(self.stages):
            owner[stage.start:stage.stop] = number
        return owner

    # Reach, values, best responses.

    def reach(self, player: int, profile: Profile) -> np.ndarray:
        """``reach[n, h]``: the chance of ``player``'s hand ``h`` times ``player``'s own
        probability of the moves leading to node ``n``, summed over the histories there."""
        weights = self.game.hand_sets[player].weights
        result = np.zeros((self.size, weights.size))
        result[0] = weights
        for stage, strategy in zip(self.stages, profile, strict=True):
            moves = result[stage.start:stage.stop][stage.child_rank]
            if stage.mover == player:
                moves = moves * strategy
            if stage.targets.size:
                result[stage.targets] += stage.scatter @ moves[stage.raises]
        return result

    def joint_reach(self, profile: Profile) -> np.ndarray:
        """``joint[n, h0, h1]``: the chance of the pair of hands times both players' moves
        to node ``n``, summed over the histories there (not the product of the two players'
        sums: each history weighs both at once)."""
        w0, w1 = (hands.weights for hands in self.game.hand_sets)
        result = np.zeros((self.size, *self.hand_counts))
        result[0] = np.outer(w0, w1)
        for stage, strategy in zip(self.stages, profile, strict=True):
            if not stage.targets.size:
                continue
            moves = result[stage.start:stage.stop][stage.child_rank[stage.raises]]
            chosen = strategy[stage.raises]
            moves *= chosen[:, :, None] if stage.mover == 0 else chosen[:, None, :]
            flat = stage.scatter @ moves.reshape(stage.raises.size, -1)
            result[stage.targets] += flat.reshape(-1, *self.hand_counts)
        return result

    def node_reach(self, player: int, profile: Profile) -> list[np.ndarray]:
        full = self.reach(player, profile)
        return [full[stage.start:stage.stop] for stage in self.stages]

    def action_values(self, player: int, profile: Profile) -> list[np.ndarray | None]:
        opponent = self.reach(1 - player, profile)
        result: list[np.ndarray | None] = [None] * len(self.stages)

        def record(number: int, stage: Stage, actions: np.ndarray) -> None:
            if stage.mover == player:
                result[number] = _counterfactual(
                    player, actions, opponent[stage.start:stage.stop][stage.child_rank])

        self._backward(profile, record)
        return result

    def expected_value(self, profile: Profile) -> float:
        """The opener's expected payoff when both follow ``profile``."""
        w0, w1 = (hands.weights for hands in self.game.hand_sets)
        return float(w0 @ self._backward(profile) @ w1)

    def _backward(self, profile: Profile, visit: Visit | None = None) -> np.ndarray:
        """The opener's payoff matrix ``[h0, h1]`` at the opening, both following ``profile``,
        filled last stage first; ``visit(stage number, stage, [action, h0, h1])`` sees each
        stage's action matrices and may return the nodes' matrices instead of the mix."""
        return self.node_values(profile, visit)[0]

    def node_values(self, profile: Profile, visit: Visit | None = None) -> np.ndarray:
        """``[node, h0, h1]``: the opener's payoff from each abstract state for each pair of
        hands, both following ``profile`` (see :meth:`_backward`)."""
        values = np.zeros((self.size, *self.hand_counts))
        for number in range(len(self.stages) - 1, -1, -1):
            stage = self.stages[number]
            actions = np.empty((stage.actions, *self.hand_counts))
            actions[stage.raises] = values[stage.children]
            for group in stage.leaves:
                actions[group.positions] = group.utility
            chosen = visit(number, stage, actions) if visit else None
            values[stage.start:stage.stop] = (
                _mix(stage, profile[number], actions) if chosen is None else chosen)
        return values

    def best_response_value(self, player: int, profile: Profile) -> float:
        """``player``'s payoff from the local best response (per abstract state and hand,
        bottom-up) to the other player's ``profile``: at most the exact best response's."""
        opponent = self.reach(1 - player, profile)

        def respond(number: int, stage: Stage, actions: np.ndarray) -> np.ndarray | None:
            if stage.mover != player:
                return None
            gains = _counterfactual(player, actions,
                                    opponent[stage.start:stage.stop][stage.child_rank])
            return _chosen(stage, player, actions, _best_actions(stage, gains))

        opening = self._backward(profile, respond)
        w0, w1 = (hands.weights for hands in self.game.hand_sets)
        value = float(w0 @ opening @ w1)
        return value if player == 0 else -value

    def exploitability(self, profile: Profile) -> float:
        """NashConv / 2 of ``profile`` against local best responses: a lower bound on the
        exact exploitability (see the module notes), which CFR+ stops on."""
        return (self.best_response_value(0, profile) + self.best_response_value(1, profile)) / 2


def _counterfactual(player: int, matrices: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """``[action, hand]``: ``player``'s payoff matrices weighted by the opponent's reach."""
    if player == 0:
        return np.einsum("aij,aj->ai", matrices, opponent)
    return -np.einsum("aij,ai->aj", matrices, opponent)


def _mix(stage: Stage, strategy: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """``[node, h0, h1]``: the actions' payoff matrices mixed by the mover's strategy."""
    weighted = actions * (strategy[:, :, None] if stage.mover == 0 else strategy[:, None, :])
    flat = stage.sum_children @ weighted.reshape(stage.actions, -1)
    return flat.reshape(-1, *actions.shape[1:])


def _best_actions(stage: Stage, gains: np.ndarray) -> np.ndarray:
    """Per node and hand, the position of the (first) action of largest value."""
    best = _best_child(stage, gains)
    choice = np.full(best.shape, -1, dtype=np.int64)
    for slot in range(int(stage.child_counts.max()) - 1, -1, -1):
        ranks = np.flatnonzero(stage.child_counts > slot)
        positions = stage.child_segments[ranks] + slot
        hit = gains[positions] >= best[ranks]
        choice[ranks] = np.where(hit, positions[:, None], choice[ranks])
    return choice


def _chosen(stage: Stage, player: int, actions: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """``[node, h0, h1]``: the payoff matrices of the actions ``player`` chose per hand."""
    if player == 0:
        hands = np.arange(choice.shape[1])[None, :]
        return actions[choice, hands, :]
    picked = actions[choice, :, np.arange(choice.shape[1])[None, :]]  # [node, h1, h0]
    return picked.transpose(0, 2, 1)


# Building the abstract game.


def build_abstract(game: BidGame, recall: Recall,
                   payoff: OpenerPayoff | None = None) -> AbstractGame:
    """Enumerate the abstract states of ``game`` under ``recall`` and group them in stages;
    the calls pay ``payoff`` if given (see :func:`coach.solver.games.relabel`), else the
    game's own payoff."""
    layout = abstract_layout(game, recall)
    stages = _stages(game, list(layout.keys), layout.codes, layout.targets, layout.longest,
                     UtilityCache(game, payoff))
    return AbstractGame(game, recall, layout.keys, stages)


@dataclass(frozen=True)
class Layout:
    """The abstract states of a game under a recall in node order (by longest path from the
    opening, as :func:`build_abstract` numbers them), each with its actions' codes (in the
    order of :meth:`BidGame.actions`) and the nodes its raises lead to (-1 for a call):
    what a table lookup needs, without the payoff matrices."""

    keys: tuple[AbstractKey, ...]
    codes: list[tuple[int, ...]]
    targets: list[list[int]]
    longest: np.ndarray


def first_rows(movers: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Where each state's first action is among its mover's actions, the states taken in
    node order with ``counts`` actions each: the row layout of ``prob0`` / ``prob1``."""
    rows = np.zeros(counts.size, dtype=np.int64)
    for player in (0, 1):
        own = movers == player
        rows[own] = np.cumsum(counts[own]) - counts[own]
    return rows


def abstract_layout(game: BidGame, recall: Recall) -> Layout:
    """Walk ``game``'s abstract states under ``recall`` and number them."""
    root: AbstractKey = recall.key(())
    keys, index = [root], {root: 0}
    codes_of: list[tuple[int, ...]] = []
    targets_of: list[list[int]] = []
    for key in keys:  # grows while it is walked: breadth first
        codes = game.actions(last_bid(key), key[1])
        targets = []
        for code in codes:
            if code < 0:
                targets.append(-1)
                continue
            child = recall.after(key, code)
            if child not in index:
                index[child] = len(keys)
                keys.append(child)
            targets.append(index[child])
        codes_of.append(codes)
        targets_of.append(targets)
    order = _by_longest_path(targets_of)
    renumber = np.empty(len(keys), dtype=np.int64)
    renumber[order] = np.arange(len(keys))
    return Layout(tuple(keys[node] for node in order), [codes_of[node] for node in order],
                  [[int(renumber[t]) if t >= 0 else -1 for t in targets_of[node]]
                   for node in order], _longest_paths(targets_of)[order])


def count_abstract(game: BidGame, recall: Recall) -> int:
    """How many abstract states :func:`build_abstract` would make, without making them.

    A state is a whole history while it is shorter than ``recall.bids`` (counted as paths
    from the opening in the graph of (last bid, mover) pairs), else its last ``recall.bids``
    bids with the mover (a path of that length from any pair reached, one path per state)
    and, below the depth cap, the depth: matrix products on that graph of at most
    ``2 × bids + 1`` pairs, quick where the abstract game would not fit in memory.
    """
    order = _subtree_order(game)
    number = {pair: index for index, pair in enumerate(order)}
    step = np.zeros((len(order), len(order)))
    for (last, mover), index in number.items():
        for code in game.raises(last, mover):
            step[index, number[code, 1 - mover]] += 1
    histories = np.zeros(len(order))
    histories[number[NO_BID, 0]] = 1.0
    reached_at: list[np.ndarray] = []  # the pairs reached after exactly d bids, d = 0, 1, ...
    reached = histories > 0
    total = 0.0
    while reached.any() and len(reached_at) <= len(order):
        if len(reached_at) < recall.bids:
            total += histories.sum()
            histories = histories @ step
        reached_at.append(reached)
        reached = (reached.astype(float) @ step) > 0

    def suffixes(starts: np.ndarray) -> float:
        paths = starts.astype(float)
        for _ in range(recall.bids - 1):
            paths = paths @ step
        return float(paths.sum())

    capped = np.zeros(len(order), dtype=bool)  # where suffixes start whose depth is capped
    for first in range(1, len(reached_at)):
        if first + recall.bids - 1 < recall.depth_cap:
            total += suffixes(reached_at[first])
        else:
            capped |= reached_at[first]
    return round(total + suffixes(capped))


def _longest_paths(targets_of: list[list[int]]) -> np.ndarray:
    """Each node's longest path from node 0, in actions (Kahn's order on the graph)."""
    incoming = np.zeros(len(targets_of), dtype=np.int64)
    for targets in targets_of:
        for target in targets:
            if target >= 0:
                incoming[target] += 1
    longest = np.zeros(len(targets_of), dtype=np.int64)
    ready = deque([0])
    while ready:
        node = ready.popleft()
        for target in targets_of[node]:
            if target < 0:
                continue
            longest[target] = max(longest[target], longest[node] + 1)
            incoming[target] -= 1
            if incoming[target] == 0:
                ready.append(target)
    return longest


def _by_longest_path(targets_of: list[list[int]]) -> np.ndarray:
    """The nodes sorted by longest path from the opening (ties by discovery order)."""
    return np.argsort(_longest_paths(targets_of), kind="stable")


def _stages(game: BidGame, keys: list[AbstractKey], codes_of: list[tuple[int, ...]],
            targets_of: list[list[int]], longest: np.ndarray,
            utilities: UtilityCache) -> tuple[Stage, ...]:
    """Slice the renumbered nodes into stages with their index arrays."""
    bounds = np.flatnonzero(np.diff(longest)) + 1
    starts = [0, *bounds.tolist()]
    stops = [*bounds.tolist(), len(keys)]
    stages = []
    for start, stop in zip(starts, stops, strict=True):
        mover = keys[start][1]
        counts = np.array([len(codes_of[node]) for node in range(start, stop)], dtype=np.int64)
        segments = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
        rank = np.repeat(np.arange(counts.size), counts)
        codes = np.array([code for node in range(start, stop) for code in codes_of[node]],
                         dtype=np.int64)
        children = np.array([t for node in range(start, stop) for t in targets_of[node]],
                            dtype=np.int64)
        raises = np.flatnonzero(children >= 0)
        targets, inverse = np.unique(children[raises], return_inverse=True)
        scatter = sp.csr_matrix((np.ones(raises.size), (inverse, np.arange(raises.size))),
                                shape=(targets.size, raises.size))
        summing = sp.csr_matrix((np.ones(rank.size), (rank, np.arange(rank.size))),
                                shape=(counts.size, rank.size))
        bids = np.array([last_bid(keys[start + r]) for r in range(counts.size)],
                        dtype=np.int64)[rank]
        leaves = []
        for kind in (DUDO_CODE, CALZA_CODE):
            calls = np.flatnonzero(codes == kind)
            for bid in np.unique(bids[calls]):
                leaves.append(LeafGroup(calls[bids[calls] == bid],
                                             utilities.get(int(bid), kind, mover)))
        stages.append(Stage(mover, start, stop, segments, counts, rank, summing,
                            slot_positions(segments, counts), raises, children[raises],
                            targets, scatter, tuple(leaves)))
    return tuple(stages)


# Solving, and measuring in the full game.


@dataclass(frozen=True)
class AbstractSolution:
    """An abstract game solved by CFR+: its profile and figures."""

    abstract: AbstractGame
    profile: Profile
    value: float
    abstract_exploitability: float
    iterations: int
    seconds: float


def solve_abstract(abstract: AbstractGame, iterations: int | None = None,
                   target: float | None = 1e-4, check_every: int = 25,
                   time_limit: float | None = None, max_iterations: int = 100_000,
                   average_power: float = 2.0) -> AbstractSolution:
    """CFR+ on the abstract game (:func:`coach.solver.cfr.run_cfr`); ``target`` is on
    :meth:`AbstractGame.exploitability`, a lower bound only: a fixed ``iterations`` is the
    honest stop under imperfect recall."""
    start = time.perf_counter()
    run = run_cfr(abstract, iterations, target, check_every, max_iterations, time_limit,
                  average_power=average_power)
    return AbstractSolution(abstract, run.profile, abstract.expected_value(run.profile),
                            run.exploitability, run.iterations, time.perf_counter() - start)


def tree_keys(tree: GameTree, recall: Recall) -> list[AbstractKey]:
    """The abstract state of every node of the perfect-recall tree (leaves: their parent's
    state after the call, which no table reads)."""
    keys: list[AbstractKey] = [recall.key(())]
    for node in range(1, tree.size):
        parent = keys[int(tree.parent[node])]
        code = int(tree.action[node])
        keys.append(recall.after(parent, code) if code >= 0 else parent)
    return keys


def full_game_profile(tree: GameTree, abstract: AbstractGame, profile: Profile) -> Profile:
    """The abstract ``profile`` played in the perfect-recall tree: each tree node takes the
    strategy of its abstract state (the actions are in the same order at both)."""
    keys = tree_keys(tree, abstract.recall)
    node_of = np.array([abstract.index.get(key, -1) for key in keys], dtype=np.int64)
    stage_of = abstract.stage_of
    offsets = _action_offsets(abstract)
    flat = [np.concatenate([strategy for stage, strategy in zip(abstract.stages, profile,
                                                                strict=True)
                            if stage.mover == mover]) for mover in (0, 1)]
    result = []
    for level in tree.levels[:-1]:
        nodes = node_of[level.start + level.internal]
        slot = np.arange(level.child_rank.size) - level.child_segments[level.child_rank]
        stage = stage_of[nodes]
        first = offsets[stage] + _local_segment(abstract, nodes, stage)
        result.append(flat[level.mover][first[level.child_rank] + slot])
    return result


def _action_offsets(abstract: AbstractGame) -> np.ndarray:
    """Per stage, where its actions start among its mover's actions of all stages."""
    offsets = np.zeros(len(abstract.stages), dtype=np.int64)
    running = [0, 0]
    for number, stage in enumerate(abstract.stages):
        offsets[number] = running[stage.mover]
        running[stage.mover] += stage.actions
    return offsets


def _local_segment(abstract: AbstractGame, nodes: np.ndarray, stages: np.ndarray) -> np.ndarray:
    """Where each node's first action is within its stage."""
    segments = np.concatenate([stage.child_segments for stage in abstract.stages])
    return segments[nodes]


def restrict(fine: AbstractGame, coarse: AbstractGame, profile: Profile) -> Profile:
    """``profile`` of the ``coarse`` abstraction played on the ``fine`` one, whose keys keep
    at least as much (each fine state takes its coarse state's strategy)."""
    offsets = _action_offsets(coarse)
    flat = [np.concatenate([strategy for stage, strategy in zip(coarse.stages, profile,
                                                                strict=True)
                            if stage.mover == mover]) for mover in (0, 1)]
    result = []
    for stage in fine.stages:
        keys = fine.keys[stage.start:stage.stop]
        nodes = np.array([coarse.index[_coarser(key, coarse.recall)] for key in keys],
                         dtype=np.int64)
        owners = coarse.stage_of[nodes]
        first = offsets[owners] + _local_segment(coarse, nodes, owners)
        slot = np.arange(stage.actions) - stage.child_segments[stage.child_rank]
        result.append(flat[stage.mover][first[stage.child_rank] + slot])
    return result


def _coarser(key: AbstractKey, recall: Recall) -> AbstractKey:
    """The state ``recall`` keeps of a finer state ``key``."""
    bids, mover, depth = key
    return bids[-recall.bids:] if bids else (), mover, min(depth, recall.depth_cap)


def restricted_exploitability(game: BidGame, coarse: AbstractGame, profile: Profile,
                              recall: Recall) -> float:
    """A lower bound on the exact exploitability of the ``coarse`` ``profile``: the gain of
    best responses that remember ``recall`` (finer than ``coarse.recall``)."""
    fine = build_abstract(game, recall)
    return fine.exploitability(restrict(fine, coarse, profile))


# Tables.


def abstract_arrays(abstract: AbstractGame, steps: Profile) -> dict[str, np.ndarray]:
    """What a table of an abstract strategy stores: each state's action count (``children``,
    in node order, to check the rebuilt game against) and per player ``prob0`` / ``prob1``,
    the quantised probabilities (:func:`coach.solver.tables.quantise`) of that player's
    actions, stage after stage, one column per hand."""
    arrays = {"children": np.concatenate([stage.child_counts for stage in abstract.stages])
              .astype(np.uint8)}
    for player in (0, 1):
        arrays[f"prob{player}"] = np.concatenate(
            [np.rint(step) for stage, step in zip(abstract.stages, steps, strict=True)
             if stage.mover == player]).astype(np.uint16)
    return arrays


def abstract_values(abstract: AbstractGame, profile: Profile) -> dict[str, np.ndarray]:
    """Per player ``value0`` / ``value1``: at each of that player's states (node order) and
    for each of their hands, the player's expected payoff from there, both following
    ``profile``: over the histories the state merges and the other's hands, weighed by how
    likely each (history, other's hand) is given the player's hand (:meth:`joint_reach`).
    Float16; NaN where the state cannot be reached holding that hand."""
    values = abstract.node_values(profile)
    joint = abstract.joint_reach(profile)
    arrays = {}
    for player in (0, 1):
        nodes = np.concatenate([np.arange(stage.start, stage.stop)
                                for stage in abstract.stages if stage.mover == player])
        weighed = (joint[nodes] * values[nodes]).sum(axis=2 - player)
        weight = joint[nodes].sum(axis=2 - player)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = weighed / weight
        sign = 1.0 if player == 0 else -1.0
        arrays[f"value{player}"] = np.where(weight > 0, sign * mean, np.nan).astype(np.float16)
    return arrays


def abstract_profile(abstract: AbstractGame, arrays: dict[str, np.ndarray]) -> Profile:
    """The profile a table stores, on ``abstract`` rebuilt with the table's game and recall
    (normalised; uniform where a hand's row is all zero, a state its play never reaches)."""
    counts = np.concatenate([stage.child_counts for stage in abstract.stages])
    if not np.array_equal(counts, arrays["children"]):
        raise ValueError("the table was built for another abstract game")
    offsets = _action_offsets(abstract)
    profile = []
    for number, stage in enumerate(abstract.stages):
        rows = arrays[f"prob{stage.mover}"][offsets[number]:offsets[number] + stage.actions]
        profile.append(rows.astype(float))
    return normalise_stages(abstract, profile)
