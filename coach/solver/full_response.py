"""The exact best response to an abstract strategy in the full game, without its tree.

:func:`coach.solver.cfr.exploitability` needs the perfect-recall tree built, which stops
at about a million nodes (1 die against 3); 2 against 3 has 12 million and 3 against 3 107
million. A best response to a strategy of the abstract game (:mod:`coach.solver.abstract`)
needs no tree: the responder, who remembers everything, is worth at a history
``V[r] = max over its actions`` (its own turn) or ``sum over the other's actions`` (the
other's turn, the other's reach multiplied by the abstract strategy of its state), and at a
call ``V[r] = sum over o of U[r, o] P[o]``, where ``P`` is the other player's reach (the
chance of their hand times their own moves' probabilities) along that history.

So the histories are walked a depth at a time, every history of a depth as one column of
``P`` (``[their hand, history]``): the next depth's columns are the raises', the calls are
settled by one matrix product per bid, and the values come back up by a maximum or a sum
over each history's actions. A depth whose subtrees would hold more than ``batch`` nodes is
split into chunks solved one after the other, which bounds the memory (a few times
:data:`BATCH_BYTES`) whatever the size of the game; the time grows with the tree (3 dice
against 3, 107 million nodes: minutes). It is the tree's own computation
(:func:`coach.solver.cfr.best_response_value`) in another order, checked against it where
the tree fits (``tests/test_solver_abstract.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from coach.solver.abstract import AbstractGame, first_rows
from coach.solver.cfr import Profile
from coach.solver.games import (
    CALZA_CODE,
    DUDO_CODE,
    NO_BID,
    BidGame,
    UtilityCache,
    subtree_counts,
)

BATCH_BYTES = 512 * 2**20
"""What one batch's reach (nodes × the other player's hands × 8 bytes) may take: a solve
holds about four times it at once (the reach, its copy weighed by the strategy, the values)."""


@dataclass(frozen=True)
class _Histories:
    """Histories of one depth: each one's last bid, its last ``K`` bids (-1 before the first)
    and the other player's reach along it (one column each)."""

    depth: int
    last: np.ndarray
    recent: np.ndarray
    reach: np.ndarray

    @property
    def size(self) -> int:
        return int(self.last.size)

    def take(self, rows: slice) -> _Histories:
        return _Histories(self.depth, self.last[rows], self.recent[rows], self.reach[:, rows])


def numbered(abstract: AbstractGame) -> bool:
    """Whether :class:`FullGameResponse` can number ``abstract``'s states in 62 bits (not a
    perfect recall of a long round)."""
    recall = abstract.recall
    return float(len(abstract.game.bids) + 1) ** recall.bids * 2 * (recall.depth_cap + 1) \
        <= 2.0**62


class FullGameResponse:
    """Best responses in ``abstract``'s full game to strategies of ``abstract``, the calls
    paid as the game pays them (``abstract`` built with another ``payoff`` is measured on
    the game's own)."""

    def __init__(self, abstract: AbstractGame, batch: int | None = None) -> None:
        """``batch``: the nodes solved at once, by default as many as :data:`BATCH_BYTES`
        holds for the larger hand set."""
        hands = max(len(hand_set) for hand_set in abstract.game.hand_sets)
        batch = BATCH_BYTES // (8 * hands) if batch is None else batch
        if batch < 1:
            raise ValueError(f"a batch holds 1 node or more, not {batch}")
        self.abstract = abstract
        self.game = abstract.game
        self.recall = abstract.recall
        self.batch = batch
        game = self.game
        self.base = len(game.bids) + 1
        if not numbered(abstract):
            raise ValueError(f"{self.recall.name}: too long a recall to number its states "
                             "(a palifico round's perfect recall: measure it on its tree)")
        self.actions = [_action_table(game, mover) for mover in (0, 1)]
        self.sizes = _subtree_sizes(game)
        self.utilities = UtilityCache(game)
        codes = np.array([self._code(key) for key in abstract.keys], dtype=np.int64)
        self.sorted_codes = np.sort(codes)
        self.node_of_code = np.argsort(codes)
        movers = np.array([key[1] for key in abstract.keys], dtype=np.int64)
        counts = np.concatenate([stage.child_counts for stage in abstract.stages])
        self.first_row = first_rows(movers, counts)

    def value(self, player: int, profile: Profile) -> float:
        """``player``'s payoff from an exact best response to the other's ``profile``."""
        if player not in (0, 1):
            raise ValueError(f"a player is 0 (the opener) or 1, not {player!r}")
        other = 1 - player
        flat = np.concatenate([strategy for stage, strategy in
                               zip(self.abstract.stages, profile, strict=True)
                               if stage.mover == other])
        weights = [hands.weights for hands in self.game.hand_sets]
        root = _Histories(0, np.array([NO_BID]), np.full((1, self.recall.bids), -1),
                          weights[other][:, None].copy())
        values = self._solve(root, player, flat)
        return float(weights[player] @ values[:, 0])

    def exploitability(self, profile: Profile) -> float:
        """NashConv / 2 of ``profile`` in the full game, as
        :func:`coach.solver.cfr.exploitability` measures it on the tree."""
        return (self.value(0, profile) + self.value(1, profile)) / 2.0

    # Internals.

    def _code(self, key: tuple[tuple[int, ...], int, int]) -> int:
        bids, mover, depth = key
        padded = (-1,) * (self.recall.bids - len(bids)) + tuple(bids)
        code = 0
        for bid in padded:
            code = code * self.base + bid + 1
        return (code * 2 + mover) * (self.recall.depth_cap + 1) + depth

    def _nodes(self, histories: _Histories) -> np.ndarray:
        """Each history's abstract state."""
        code = np.zeros(histories.size, dtype=np.int64)
        for column in range(self.recall.bids):
            code = code * self.base + histories.recent[:, column] + 1
        depth = min(histories.depth, self.recall.depth_cap)
        code = (code * 2 + histories.depth % 2) * (self.recall.depth_cap + 1) + depth
        found = np.searchsorted(self.sorted_codes, code)
        if np.any(found >= self.sorted_codes.size) or np.any(
                self.sorted_codes[np.minimum(found, self.sorted_codes.size - 1)] != code):
            raise ValueError("a history reaches no state of the abstract game")
        return self.node_of_code[found]

    def _subtree(self, histories: _Histories) -> np.ndarray:
        return self.sizes[histories.depth % 2][histories.last + 1]

    def _solve(self, histories: _Histories, player: int, flat: np.ndarray) -> np.ndarray:
        """``[player's hand, history]``: the best response's value, weighted by the other's
        reach, of each history."""
        children, combine = self._expand(histories, player, flat)
        if children.size == 0:
            return combine(np.zeros((len(self.game.hand_sets[player]), 0)))
        sizes = self._subtree(children)
        if sizes.sum() <= self.batch:
            return combine(self._solve(children, player, flat))
        parts, start, held = [], 0, 0
        for index, size in enumerate(sizes.tolist()):
            if held and held + size > self.batch:
                parts.append(self._solve(children.take(slice(start, index)), player, flat))
                start, held = index, 0
            held += size
        parts.append(self._solve(children.take(slice(start, children.size)), player, flat))
        return combine(np.concatenate(parts, axis=1))

    def _expand(self, histories: _Histories, player: int, flat: np.ndarray,
                ) -> tuple[_Histories, Callable[[np.ndarray], np.ndarray]]:
        """The histories one bid deeper, and how their values make these histories'."""
        mover = histories.depth % 2
        codes_of, counts_of = self.actions[mover]
        counts = counts_of[histories.last + 1]
        if not counts.all():  # reduceat below needs an action everywhere, as the rules give
            raise ValueError("a history without any action: the rules left a player stuck")
        segments = np.concatenate(([0], np.cumsum(counts)[:-1]))
        parent = np.repeat(np.arange(histories.size), counts)
        slot = np.arange(parent.size) - segments[parent]
        codes = codes_of[histories.last[parent] + 1, slot]
        reach = histories.reach[:, parent]
        if mover != player:
            rows = self.first_row[self._nodes(histories)][parent] + slot
            reach = reach * flat[rows].T
        raises = np.flatnonzero(codes >= 0)
        recent = np.concatenate((histories.recent[parent[raises], 1:], codes[raises, None]),
                                axis=1) if self.recall.bids > 1 else codes[raises, None]
        children = _Histories(histories.depth + 1, codes[raises], recent, reach[:, raises])
        hands = len(self.game.hand_sets[player])
        leaves = np.flatnonzero(codes < 0)
        leaf_values = np.empty((hands, leaves.size))
        bids = histories.last[parent[leaves]]
        for kind in (DUDO_CODE, CALZA_CODE):
            for bid in np.unique(bids[codes[leaves] == kind]).tolist():
                at = np.flatnonzero((codes[leaves] == kind) & (bids == bid))
                utility = self.utilities.get(bid, kind, mover)
                matrix = utility if player == 0 else -utility.T
                leaf_values[:, at] = matrix @ reach[:, leaves[at]]
        del reach

        def combine(child_values: np.ndarray) -> np.ndarray:
            values = np.empty((hands, parent.size))
            values[:, raises] = child_values
            values[:, leaves] = leaf_values
            if mover == player:
                return np.maximum.reduceat(values, segments, axis=1)
            return np.add.reduceat(values, segments, axis=1)

        return children, combine


def _action_table(game: BidGame, mover: int) -> tuple[np.ndarray, np.ndarray]:
    """``codes[last + 1, slot]``, each action of ``mover`` after bid ``last`` (``NO_BID``
    first) in the game's order, and ``counts[last + 1]``."""
    rows = [game.actions(last, mover) for last in range(NO_BID, len(game.bids))]
    counts = np.array([len(row) for row in rows], dtype=np.int64)
    codes = np.zeros((len(rows), int(counts.max())), dtype=np.int64)
    for index, row in enumerate(rows):
        codes[index, :len(row)] = row
    return codes, counts


def _subtree_sizes(game: BidGame) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~coach.solver.games.subtree_counts` as one array per mover, ``[last + 1]``."""
    sizes = [np.zeros(len(game.bids) + 1, dtype=np.int64) for _ in (0, 1)]
    for (last, mover), count in subtree_counts(game).items():
        sizes[mover][last + 1] = count
    return sizes[0], sizes[1]
