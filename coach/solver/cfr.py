"""Heads-up endgame solver: equilibrium strategies of two-player rounds with few dice.

Two exact-game solvers work on the public tree of :mod:`coach.solver.games`:

* :func:`solve_cfr`: CFR+ (regret matching+, alternating updates, linear averaging),
  vectorised with numpy over the private hands and over every node of a tree level;
* :func:`solve_lp`: the sequence-form linear program, solved by HiGHS through
  :func:`scipy.optimize.linprog`; exact to the solver's tolerance, for small trees.

A *profile* is a list over the tree's levels: ``profile[d][c, h]`` is the probability that
the player to move at depth ``d`` (player ``d % 2``) holding hand ``h`` takes the edge into
node ``c`` of level ``d + 1`` (positions are local to the level). It gives both players'
behaviour strategies. :func:`exploitability` is exact: a best response per (node, hand) is
taken bottom-up against the other player's strategy, and the result is NashConv / 2.

Payoffs are the opener's (player 0's), zero-sum, as the game's leaves give them
(:mod:`coach.solver.games`): die for die, or 2 P(win the game) − 1 from the state the round
leads to (:mod:`coach.solver.values`). Values and exploitabilities are in those units.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import scipy.sparse as sp

from coach.solver.games import BidGame, GameTree, Level, Segments, build_tree

Profile = list[np.ndarray]


@dataclass(frozen=True)
class Solution:
    """A solved round: the (average) profile, its value for the opener and how exact it is."""

    tree: GameTree
    profile: Profile
    value: float
    exploitability: float
    iterations: int
    seconds: float
    method: str

    def to_dict(self) -> dict[str, object]:
        """The figures as JSON values."""
        return {"game": self.tree.game.name, "dice": list(self.tree.game.dice),
                "payoff": getattr(self.tree.game, "payoff", "dice"),
                "method": self.method, "iterations": self.iterations, "value": self.value,
                "exploitability": self.exploitability, "seconds": round(self.seconds, 3)}


# Strategies and reach.


def uniform_profile(tree: GameTree) -> Profile:
    """Every legal action equally likely, for every hand."""
    profile = []
    for level in _internal_levels(tree):
        hands = len(tree.hand_sets[level.mover])
        share = 1.0 / level.child_counts[level.child_rank]
        profile.append(np.repeat(share[:, None], hands, axis=1))
    return profile


def normalise(tree: GameTree, weights: Profile) -> Profile:
    """Per (node, hand), ``weights`` scaled to sum to one; uniform where they sum to zero."""
    return [_normalise_level(level, level_weights)
            for level, level_weights in zip(_internal_levels(tree), weights, strict=True)]


def _normalise_level(level: Segments, weights: np.ndarray) -> np.ndarray:
    """Per node and hand, ``weights`` over its actions scaled to sum to one (uniform where
    they sum to zero): regret matching, and the average strategy from its sums."""
    sums = level.sum_children @ weights
    positive = sums > 0
    scale = np.divide(1.0, sums, out=np.zeros_like(sums), where=positive)
    result = weights * scale[level.child_rank]
    if not positive.all():
        uniform = 1.0 / level.child_counts[level.child_rank]
        result += (~positive)[level.child_rank] * uniform[:, None]
    return result


def reach(tree: GameTree, player: int, profile: Profile) -> list[np.ndarray]:
    """``reach[d][n, h]``: chance of ``player``'s hand ``h`` times ``player``'s own
    probability of the moves leading to node ``n`` of level ``d``."""
    levels = [tree.weights[player][None, :]]
    for level, strategy in zip(_internal_levels(tree), profile, strict=True):
        step = levels[-1][level.parent]
        if level.mover == player:
            step = step * strategy
        levels.append(step)
    return levels


def counterfactual_values(tree: GameTree, player: int, profile: Profile,
                          opponent_reach: list[np.ndarray] | None = None,
                          best: bool = False) -> list[np.ndarray]:
    """``values[d][n, h]``: ``player``'s counterfactual value of node ``n`` with hand ``h``
    (the payoff weighted by the opponent's reach, chance included).

    With ``best``, ``player`` takes the best action per (node, hand) instead of following
    ``profile``: the values of a best response.
    """
    if opponent_reach is None:
        opponent_reach = reach(tree, 1 - player, profile)
    hands = len(tree.hand_sets[player])
    values = [np.zeros((level.size, hands)) for level in tree.levels]
    for depth in range(len(tree.levels) - 1, -1, -1):
        level = tree.levels[depth]
        _leaf_values(level, player, opponent_reach[depth], values[depth])
        if level.internal.size == 0:
            continue
        children = values[depth + 1]
        if level.mover != player:
            node = level.sum_children @ children
        elif best:
            node = _best_child(level, children)
        else:
            node = level.sum_children @ (profile[depth] * children)
        values[depth][level.internal] = node
    return values


def _best_child(level: Segments, children: np.ndarray) -> np.ndarray:
    """Per internal node and hand, the largest value among its children."""
    best = children[level.child_segments]
    for positions, ranks in level.later_children:
        best[ranks] = np.maximum(best[ranks], children[positions])
    return best


def _leaf_values(level: Level, player: int, opponent_reach: np.ndarray,
                 out: np.ndarray) -> None:
    """Fill the values of the leaves of ``level`` for ``player``."""
    for group in level.leaf_groups:
        weights = opponent_reach[group.positions]
        if player == 0:
            out[group.positions] = weights @ group.utility.T
        else:
            out[group.positions] = -(weights @ group.utility)


def expected_value(tree: GameTree, profile: Profile) -> float:
    """The opener's expected payoff when both players follow ``profile``."""
    values = counterfactual_values(tree, 0, profile)
    return float(tree.weights[0] @ values[0][0])


def best_response_value(tree: GameTree, player: int, profile: Profile) -> float:
    """``player``'s payoff from an exact best response to the other player's ``profile``."""
    values = counterfactual_values(tree, player, profile, best=True)
    return float(tree.weights[player] @ values[0][0])


def nash_conv(tree: GameTree, profile: Profile) -> float:
    """How much both players together gain by best responding: zero at an equilibrium."""
    return best_response_value(tree, 0, profile) + best_response_value(tree, 1, profile)


def exploitability(tree: GameTree, profile: Profile) -> float:
    """NashConv / 2: the average gain of a best response, in payoff units."""
    return nash_conv(tree, profile) / 2.0


def infoset_values(tree: GameTree, profile: Profile, player: int) -> list[np.ndarray]:
    """``values[d][n, h]``: ``player``'s expected payoff at node ``n`` holding ``h`` when both
    follow ``profile`` from there, the opponent's hand read from the bids by Bayes' rule.
    NaN where the opponent's moves have probability zero under ``profile``."""
    opponent_reach = reach(tree, 1 - player, profile)
    values = counterfactual_values(tree, player, profile, opponent_reach)
    result = []
    for level_values, level_reach in zip(values, opponent_reach, strict=True):
        mass = level_reach.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            result.append(np.where(mass > 1e-12, level_values / mass, np.nan))
    return result


def _internal_levels(tree: GameTree) -> tuple[Level, ...]:
    """The levels whose nodes have children: one profile entry each."""
    return tree.levels[:-1]


# CFR+.

Progress = Callable[[int, float], None]


class SolverGame(Protocol):
    """What CFR+ needs of a game: its decision stages and, for a profile (one array per
    stage, ``[action, hand]``), each player's reach and counterfactual values.

    :class:`TreeGame` is the perfect-recall public tree; :mod:`coach.solver.abstract` gives
    the imperfect-recall abstraction of larger rounds the same shape.
    """

    @property
    def stages(self) -> Sequence[Segments]:
        """The decision stages, in an order where every action leads to a later stage."""
        ...

    @property
    def hand_counts(self) -> tuple[int, int]:
        """How many private hands each player has."""
        ...

    def node_reach(self, player: int, profile: Profile) -> list[np.ndarray]:
        """Per stage, ``[node, hand]``: the chance of ``player``'s hand times ``player``'s own
        probability of reaching the node."""
        ...

    def action_values(self, player: int, profile: Profile) -> list[np.ndarray | None]:
        """Per stage where ``player`` moves, ``[action, hand]``: ``player``'s counterfactual
        value of taking the action (``None`` at the other player's stages)."""
        ...

    def exploitability(self, profile: Profile) -> float:
        """How much a best response gains against ``profile`` (NashConv / 2)."""
        ...


@dataclass(frozen=True)
class TreeGame:
    """The perfect-recall public tree as a :class:`SolverGame`: a stage per internal level."""

    tree: GameTree

    @property
    def stages(self) -> tuple[Level, ...]:
        return _internal_levels(self.tree)

    @property
    def hand_counts(self) -> tuple[int, int]:
        return len(self.tree.hand_sets[0]), len(self.tree.hand_sets[1])

    def node_reach(self, player: int, profile: Profile) -> list[np.ndarray]:
        levels = reach(self.tree, player, profile)
        return [levels[depth][level.internal] for depth, level in enumerate(self.stages)]

    def action_values(self, player: int, profile: Profile) -> list[np.ndarray | None]:
        values = counterfactual_values(self.tree, player, profile)
        return [values[depth + 1] if level.mover == player else None
                for depth, level in enumerate(self.stages)]

    def exploitability(self, profile: Profile) -> float:
        return exploitability(self.tree, profile)


def normalise_stages(game: SolverGame, weights: Profile) -> Profile:
    """Per node and hand of every stage of ``game``, ``weights`` scaled to sum to one."""
    return [_normalise_level(stage, stage_weights)
            for stage, stage_weights in zip(game.stages, weights, strict=True)]


def uniform_stages(game: SolverGame) -> Profile:
    """Every legal action equally likely, for every hand, at every stage of ``game``."""
    return [np.repeat((1.0 / stage.child_counts[stage.child_rank])[:, None],
                      game.hand_counts[stage.mover], axis=1) for stage in game.stages]


def solve_cfr(tree: GameTree, iterations: int | None = None, target: float | None = 1e-4,
              check_every: int = 25, max_iterations: int = 100_000,
              time_limit: float | None = None, progress: Progress | None = None,
              average_power: float = 2.0) -> Solution:
    """Run CFR+ for ``iterations`` iterations, or until the average profile's exploitability
    is at most ``target`` (checked every ``check_every`` iterations), ``max_iterations`` or
    ``time_limit`` seconds. ``progress(iteration, exploitability)`` hears every check.

    Iteration t's strategy enters the average with weight t ** ``average_power`` (CFR+ uses
    1; 2 converges faster on these games)."""
    start = time.perf_counter()
    run = run_cfr(TreeGame(tree), iterations, target, check_every, max_iterations,
                  time_limit, progress, average_power)
    return Solution(tree, run.profile, expected_value(tree, run.profile), run.exploitability,
                    run.iterations, time.perf_counter() - start, "cfr+")


@dataclass(frozen=True)
class CfrRun:
    """What :func:`run_cfr` ends with: the average profile and its measured exploitability."""

    profile: Profile
    exploitability: float
    iterations: int


def run_cfr(game: SolverGame, iterations: int | None = None, target: float | None = 1e-4,
            check_every: int = 25, max_iterations: int = 100_000,
            time_limit: float | None = None, progress: Progress | None = None,
            average_power: float = 2.0) -> CfrRun:
    """CFR+ on any :class:`SolverGame`, stopping as :func:`solve_cfr` says; ValueError for
    a count below 1 or a time limit not above 0 (no iteration, or a loop without end)."""
    _check_stops(iterations, check_every, max_iterations, time_limit)
    start = time.perf_counter()
    solver = _CfrPlus(game, average_power)
    done, gap = 0, float("inf")
    limit = iterations if iterations is not None else max_iterations
    while done < limit:
        steps = min(check_every, limit - done)
        for _ in range(steps):
            done += 1
            solver.iterate(done)
        if iterations is None or done == limit:
            gap = game.exploitability(solver.average())
            if progress:
                progress(done, gap)
            if iterations is None and target is not None and gap <= target:
                break
        if time_limit is not None and time.perf_counter() - start > time_limit:
            break
    profile = solver.average()
    if iterations is not None and done < limit:
        gap = game.exploitability(profile)
    return CfrRun(profile, gap, done)


def _check_stops(iterations: int | None, check_every: int, max_iterations: int,
                 time_limit: float | None) -> None:
    """ValueError unless every count is 1 or more and the time limit above 0."""
    for name, count in (("iterations", iterations), ("check_every", check_every),
                        ("max_iterations", max_iterations)):
        if count is not None and count < 1:
            raise ValueError(f"run_cfr: {name} must be 1 or more, not {count}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"run_cfr: time_limit must be above 0 seconds, not {time_limit}")


class _CfrPlus:
    """CFR+ state: cumulative positive regrets and the weighted sum of past strategies.

    On an imperfect-recall game the regrets of an information set add up the counterfactual
    regrets of every history it merges (as Neller & Hnath's fixed-strategy iteration CFR
    does); the convergence guarantee of perfect recall is then lost, so callers measure.
    """

    def __init__(self, game: SolverGame, average_power: float) -> None:
        self.game = game
        self.average_power = average_power
        self.stages = game.stages
        self.current = uniform_stages(game)
        self.regrets = [np.zeros_like(strategy) for strategy in self.current]
        self.totals = [np.zeros_like(strategy) for strategy in self.current]

    def iterate(self, iteration: int) -> None:
        """One iteration: update the opener, then the responder against the opener's update."""
        for player in (0, 1):
            self._accumulate_average(player, float(iteration) ** self.average_power)
            self._update_regrets(player)

    def _accumulate_average(self, player: int, weight: float) -> None:
        own = self.game.node_reach(player, self.current)
        for index, stage in enumerate(self.stages):
            if stage.mover == player:
                self.totals[index] += weight * own[index][stage.child_rank] * self.current[index]

    def _update_regrets(self, player: int) -> None:
        values = self.game.action_values(player, self.current)
        for index, stage in enumerate(self.stages):
            action_values = values[index]
            if action_values is None:
                continue
            node = stage.sum_children @ (self.current[index] * action_values)
            regret = np.maximum(self.regrets[index] + action_values - node[stage.child_rank],
                                0.0)
            self.regrets[index] = regret
            self.current[index] = _normalise_level(stage, regret)

    def average(self) -> Profile:
        return [_normalise_level(stage, totals)
                for stage, totals in zip(self.stages, self.totals, strict=True)]


# The sequence-form linear program.


def solve_lp(tree: GameTree) -> Solution:
    """Solve the round exactly (to HiGHS's tolerance) as a sequence-form LP.

    The opener's realisation plan ``x`` and the responder's dual variables ``z`` maximise
    the opener's guaranteed value; the responder's plan is read from the duals.
    """
    import scipy.optimize  # slow to import, and only the LP needs it

    start = time.perf_counter()
    plans = (_SequenceForm(tree, 0), _SequenceForm(tree, 1))
    hands = (len(tree.hand_sets[0]), len(tree.hand_sets[1]))
    payoff_t = _payoff_matrix_transposed(tree, plans)
    x_size = hands[0] * plans[0].sequences
    z_size = hands[1] * plans[1].rows
    constraints_y = sp.kron(sp.identity(hands[1]), plans[1].constraints.T)
    a_ub = sp.hstack([-payoff_t, constraints_y], format="csr")
    constraints_x = sp.kron(sp.identity(hands[0]), plans[0].constraints)
    a_eq = sp.hstack([constraints_x, sp.csr_matrix((constraints_x.shape[0], z_size))],
                     format="csr")
    b_eq = np.tile(plans[0].right_hand_side, hands[0])
    cost = np.concatenate([np.zeros(x_size), -np.tile(plans[1].right_hand_side, hands[1])])
    bounds: list[tuple[float | None, float | None]] = (
        [(0, None)] * x_size + [(None, None)] * z_size)
    result = scipy.optimize.linprog(cost, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq,
                                    b_eq=b_eq, bounds=bounds, method="highs")
    if result.status != 0:
        raise RuntimeError(f"the linear program failed: {result.message}")
    assert result.x is not None  # solved: status 0
    x = result.x[:x_size].reshape(hands[0], plans[0].sequences)
    y = -result.ineqlin.marginals.reshape(hands[1], plans[1].sequences)
    profile = _behaviour(tree, plans, (np.maximum(x, 0.0), np.maximum(y, 0.0)))
    return Solution(tree, profile, expected_value(tree, profile), exploitability(tree, profile),
                    0, time.perf_counter() - start, "lp")


class _SequenceForm:
    """One player's sequences (the empty one, then each of the player's edges) and the
    constraints a realisation plan satisfies, for a single hand."""

    def __init__(self, tree: GameTree, player: int) -> None:
        depth = tree.depth
        owned = (depth >= 1) & ((depth - 1) % 2 == player)
        self.sequence = np.where(owned, np.cumsum(owned), 0)
        self.sequences = int(owned.sum()) + 1
        self.last = self._last_sequences(tree)
        nodes = np.flatnonzero((tree.child_count > 0) & (depth % 2 == player))
        self.rows = 1 + nodes.size
        self.constraints = self._constraint_matrix(tree, nodes)
        self.right_hand_side = np.zeros(self.rows)
        self.right_hand_side[0] = 1.0

    def _last_sequences(self, tree: GameTree) -> np.ndarray:
        """For each node, the player's last sequence on the path to it (0: none yet)."""
        last = np.zeros(tree.size, dtype=np.int64)
        for level in tree.levels[1:]:
            nodes = np.arange(level.start, level.stop)
            own = self.sequence[nodes]
            last[nodes] = np.where(own > 0, own, last[tree.parent[nodes]])
        return last

    def _constraint_matrix(self, tree: GameTree, nodes: np.ndarray) -> sp.csr_matrix:
        """Row 0: the empty sequence is 1; then per node, its children sum to its parent."""
        rows, cols, vals = [0], [0], [1.0]
        for row, node in enumerate(nodes, start=1):
            first = tree.first_child[node]
            children = np.arange(first, first + tree.child_count[node])
            rows.extend([row] * (children.size + 1))
            cols.extend([*self.sequence[children].tolist(), int(self.last[node])])
            vals.extend([1.0] * children.size + [-1.0])
        return sp.csr_matrix((vals, (rows, cols)), shape=(self.rows, self.sequences))


def _payoff_matrix_transposed(tree: GameTree,
                              plans: tuple[_SequenceForm, _SequenceForm]) -> sp.csr_matrix:
    """``A.T``: rows (responder hand, sequence), columns (opener hand, sequence); the opener's
    payoff with both chances folded in."""
    w0, w1 = tree.weights
    h0, h1 = len(w0), len(w1)
    rows, cols, vals = [], [], []
    for level in tree.levels:
        for group in level.leaf_groups:
            leaves = level.start + group.positions
            s0, s1 = plans[0].last[leaves], plans[1].last[leaves]
            weighted = group.utility * w0[:, None] * w1[None, :]
            hand0, hand1 = np.meshgrid(np.arange(h0), np.arange(h1), indexing="ij")
            rows.append((hand1[None] * plans[1].sequences + s1[:, None, None]).ravel())
            cols.append((hand0[None] * plans[0].sequences + s0[:, None, None]).ravel())
            vals.append(np.broadcast_to(weighted, (leaves.size, h0, h1)).ravel())
    shape = (h1 * plans[1].sequences, h0 * plans[0].sequences)
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=shape)


def _behaviour(tree: GameTree, plans: tuple[_SequenceForm, _SequenceForm],
               realisation: tuple[np.ndarray, np.ndarray]) -> Profile:
    """Behaviour strategies from realisation plans: each edge's plan over its parent's."""
    weights = []
    for level in _internal_levels(tree):
        plan, table = plans[level.mover], realisation[level.mover]
        children = np.arange(level.stop, level.stop + level.parent.size)
        weights.append(table[:, plan.sequence[children]].T)
    return normalise(tree, weights)


# Convenience.


def solve(game: BidGame, method: str = "cfr", **options: Any) -> Solution:
    """Build ``game``'s tree and solve it with ``"cfr"`` (CFR+) or ``"lp"``."""
    tree = build_tree(game)
    if method == "lp":
        return solve_lp(tree)
    if method == "cfr":
        return solve_cfr(tree, **options)
    raise ValueError(f"method must be cfr or lp, not {method!r}")
