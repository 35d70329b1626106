"""Shipped heads-up strategy tables: equilibrium play of small two-player rounds.

``coach/solver/data/heads_up_tables.npz`` holds, per solved round (opener's dice, responder's dice,
normal or palifico), the equilibrium profile from :mod:`coach.solver.cfr`, written by
``python -m scripts.build_solver_tables``; ``coach/solver/data/heads_up_tables.json`` holds the
kind of payoff the tables were solved for (``payoff``: ``"game"`` for the shipped tables, see
:mod:`coach.solver.values`; ``"dice"``: die for die) and each table's rule key and figures:
``value``, the opener's equilibrium payoff; with game payoffs ``game_value`` = (1 + value) / 2,
the opener's chance of winning the game from the round's start (the value of that state for
the rounds above it), and ``model_states``, the states its calls lead to that no table
covers; ``opener_loses``, how often the opener loses a die in the round; the exploitability
(of the solver's profile and of exactly what is stored, in payoff units), iterations, solve
time.

Per table the arrays are:

* ``children``: the number of children of each node of the public tree, breadth first (the
  tree is walked with :meth:`coach.solver.games.BidGame.actions`, whose order the builder
  used, and each node's count is checked against the rules as the walk goes);
* ``prob0`` / ``prob1``: per edge of player 0 / 1 (in breadth-first order) and hand, the
  action's probability in 1/65535 steps; all zero at an information set that the player's own
  table play never reaches, where the lookup gives way to :func:`coach.engine.decide.advise`;
* ``value0`` / ``value1``: per node of player 0 / 1 and hand, the player's expected payoff
  from there, both following the table, the opponent's hand read from the bids: with game
  payoffs 2 P(the player wins the game) − 1, with dice payoffs the expected dice won this
  round (float16, NaN where the player's own table play never reaches).

Past 2 dice against 2 the tree is too large to solve exactly: ``abstract/<key>.npz`` (one
file a table) and ``abstract_tables.json`` beside them hold the strategies of abstract
games where a player remembers only the last bids (:mod:`coach.solver.abstract`), written
by ``python -m scripts.build_abstract_tables``. Each table has the same arrays: ``children``
counts the actions of each abstract state, and ``value0`` / ``value1`` are per abstract
state and hand, over the histories the state merges. Its figures include its ``recall``
and its exploitability, exact up to 6 dice on the table. :func:`load_table` reads the
exact table where there is one, else the abstract one (:class:`AbstractTable`).

:func:`heads_up_strategy` reads a :class:`~coach.engine.situation.Situation`;
:class:`CoachTablesBot` plays from the tables and falls back to the coach, and
:func:`advise_with_tables` gives the advice that goes with that play, both where
:class:`~coach.engine.table_play.TablePlay` says the coach plays them;
:func:`phrase_mixed_advice` words a table's mix for the command line.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from coach.engine.decide import Advice, CoachSettings, Option, Reason, advise, weigh_raise
from coach.engine.showdown import Showdown
from coach.engine.situation import CALZA, DUDO, Action, ActionKind, Situation
from coach.engine.table_play import COACH_TABLE_PLAY, TABLES_ANYWHERE, TablePlay
from coach.solver.abstract import Recall, abstract_layout, first_rows
from coach.solver.cfr import (
    Profile,
    SolverGame,
    TreeGame,
    exploitability,
    infoset_values,
    normalise,
    normalise_stages,
    reach,
)
from coach.solver.games import (
    CALZA_CODE,
    DUDO_CODE,
    NO_BID,
    GameTree,
    PerudoRound,
    round_rules_key,
)
from coach.solver.values import INDEX_FILE, Payoff, shipped_values
from perudo_math import Rules

DATA_DIR = INDEX_FILE.parent
TABLES_FILE = DATA_DIR / "heads_up_tables.npz"
ABSTRACT_TABLES_DIR = DATA_DIR / "abstract"
"""One ``<key>.npz`` per abstract table: every file stays small (the largest is 0.3 MB)."""
ABSTRACT_INDEX_FILE = DATA_DIR / "abstract_tables.json"
PROBABILITY_STEPS = 65535
PURIFY_BELOW = 1e-3


def table_key(dice: tuple[int, int], palifico: bool) -> str:
    """A table's name: ``2v1-normal`` is the opener with 2 dice against 1, a normal round."""
    return f"{dice[0]}v{dice[1]}-{'palifico' if palifico else 'normal'}"


@dataclass(frozen=True, slots=True)
class MixedAdvice:
    """Equilibrium play at one information set: each action with its probability (most
    likely first, only actions played), and my expected payoff from here (``None`` when the
    opponent's bids are ones the equilibrium never makes): with ``payoff == "game"``,
    2 P(I win the game) − 1 (see :attr:`win_chance`), with ``"dice"`` the dice this round."""

    choices: tuple[tuple[Action, float], ...]
    value: float | None
    table: str
    opening: bool
    payoff: Payoff = "dice"

    @property
    def win_chance(self) -> float | None:
        """P(I win the game) from here, played this way (game payoffs only)."""
        if self.payoff != "game" or self.value is None:
            return None
        return min(1.0, max(0.0, (1.0 + self.value) / 2.0))

    def probability(self, action: Action) -> float:
        """How often the table plays ``action`` here (0 when never)."""
        return next((p for choice, p in self.choices if choice == action), 0.0)

    def sample(self, rng: random.Random) -> Action:
        """An action drawn with the table's probabilities."""
        draw = rng.random()
        for action, probability in self.choices:
            draw -= probability
            if draw < 0:
                return action
        return self.choices[-1][0]

    def to_dict(self) -> dict[str, Any]:
        """As JSON values: the table, each choice's action, bid and probability, the value."""
        choices = []
        for action, probability in self.choices:
            item: dict[str, Any] = action.to_dict()
            item["probability"] = round(probability, 4)
            choices.append(item)
        value = None if self.value is None else round(self.value, 4)
        data: dict[str, Any] = {"source": "heads-up-table", "table": self.table,
                                "choices": choices, "payoff": self.payoff, "value": value}
        if self.payoff == "game":
            chance = self.win_chance
            data["win_chance"] = None if chance is None else round(chance, 4)
        return data


def phrase_mixed_advice(advice: MixedAdvice) -> str:
    """The advice in plain words, e.g. "Open 1 × 5 with probability 0.70 or 1 × 6 with
    probability 0.30. Played this way, you win the game 47% of the time from here." (with
    dice payoffs: "… this round is worth −0.11 dice to you on average.")."""
    parts = []
    for index, (action, probability) in enumerate(advice.choices):
        if action.bid is None:
            words: str = action.kind
        elif index == 0:
            words = f"{'open' if advice.opening else 'raise to'} {action.bid.pretty()}"
        else:
            words = f"{'' if advice.opening else 'raise to '}{action.bid.pretty()}"
        parts.append(f"{words} with probability {probability:.2f}")
    sentence = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]
    sentence = sentence[0].upper() + sentence[1:] + "."
    if advice.win_chance is not None:
        sentence += (f" Played this way, you win the game {advice.win_chance:.0%} of the time "
                     "from here.")
    elif advice.value is not None and advice.payoff == "dice":
        sentence += (f" Played this way, this round is worth {advice.value:+.2f} dice to you "
                     "on average.")
    return sentence


# Lookup.


def heads_up_strategy(situation: Situation) -> MixedAdvice | None:
    """The table's mixed strategy for the player to move, or ``None`` when no table fits.

    A table fits when exactly two players hold dice, the (opener's, other's) dice counts and
    the round type have a table built under the same round rules (see
    :func:`coach.solver.games.round_rules_key`), the bids alternate from the opener, are all
    legal and within the dice on the table, and the table stores a strategy there for my
    hand: an exact table where my own table play reaches this point, an abstract one where
    it reaches the state of the last bids (whatever came before them).
    """
    if not situation.heads_up:
        return None
    opener = situation.bids[0][0] if situation.bids else situation.me
    other = next(seat for seat in situation.active_seats if seat != opener)
    dice = (situation.dice[opener], situation.dice[other])
    table = load_table(table_key(dice, situation.palifico))
    if table is None or table.rules_key != round_rules_key(situation.rules, dice):
        return None
    seats = [opener if index % 2 == 0 else other for index in range(len(situation.bids) + 1)]
    if seats[-1] != situation.me or any(seat != bid_seat for seat, (bid_seat, _) in
                                        zip(seats, situation.bids, strict=False)):
        return None
    return table.advice([bid for _, bid in situation.bids], situation.hand.faces)


def table_strategy(situation: Situation, play: TablePlay = COACH_TABLE_PLAY,
                   ) -> MixedAdvice | None:
    """The table's mixed strategy where the coach plays the tables (``play``, see
    :meth:`~coach.engine.table_play.TablePlay.covers`) and one fits, with every move legal
    here; ``None`` otherwise (the coach plays its own advice)."""
    if not play.covers(situation):
        return None
    mixed = heads_up_strategy(situation)
    if mixed is None or not all(situation.is_legal(action) for action, _ in mixed.choices):
        return None
    return mixed


def advise_with_tables(situation: Situation, settings: CoachSettings | None = None,
                       play: TablePlay = COACH_TABLE_PLAY) -> Advice:
    """The coach's advice as the coach plays: :func:`~coach.engine.decide.advise` under
    ``settings``, except where it plays a table (:func:`table_strategy`, under ``play``).

    There the table's moves lead the options, most likely first, each with the coach's own
    numbers for it (the chance it costs a die...: :func:`~coach.engine.decide.weigh_raise`
    for a raise the coach did not list), followed by the coach's other options; ``mix``
    holds how often the table plays each, and the reason is ``table-mix`` (``table-pure``
    when it plays one move only), with the table's name and my chance of winning the game
    played this way (``win_chance``; ``value``, the dice, for die-for-die tables), when the
    bids so far are ones the table plays.
    """
    settings = settings or CoachSettings()
    advice = advise(situation, settings)
    mixed = table_strategy(situation, play)
    if mixed is None:
        return advice
    played = [advice.option(action) or _weighed_raise(situation, action, settings)
              for action, _ in mixed.choices]
    others = tuple(option for option in advice.options if option.action not in
                   {action for action, _ in mixed.choices})
    numbers: dict[str, Any] = {"lose": played[0].lose, "table": mixed.table}
    if mixed.win_chance is not None:
        numbers["win_chance"] = mixed.win_chance
    elif mixed.value is not None:
        numbers["value"] = mixed.value
    code = "table-pure" if len(mixed.choices) == 1 else "table-mix"
    return Advice((*played, *others), Reason(code, numbers), advice.reads_bids,
                  mix=mixed.choices)


def _weighed_raise(situation: Situation, action: Action, settings: CoachSettings) -> Option:
    """The coach's numbers for a table's raise it did not list itself."""
    assert action.bid is not None  # dudo and calza are always among the coach's options
    return weigh_raise(situation, action.bid, settings)


class _Table:
    """What every table shares: its game and rules, and the mixed strategy it stores at a
    point of the round (found by the subclass's :meth:`_locate`)."""

    def __init__(self, key: str, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        self.key = key
        self.meta = meta
        self.game = PerudoRound(tuple(meta["dice"]), meta["palifico"],
                                Rules.from_dict(meta["rules"]))
        self.rules_key = meta["rules_key"]
        self.payoff: Payoff = meta.get("payoff", "dice")
        self.probabilities = (arrays["prob0"], arrays["prob1"])
        self.values = (arrays["value0"], arrays["value1"])

    def advice(self, bids: list, faces: tuple[int, ...]) -> MixedAdvice | None:
        """The mixed strategy after ``bids`` for the mover holding ``faces``, if stored."""
        mover = len(bids) % 2
        hands = self.game.hand_sets[mover]
        if len(faces) != hands.dice:
            return None
        history = self._codes(bids)
        if history is None:
            return None
        located = self._locate(history)
        if located is None:
            return None
        first_row, value_row = located
        codes = self.game.actions(history[-1] if history else NO_BID, mover)
        hand = hands.index(faces)
        weights = self.probabilities[mover][first_row:first_row + len(codes), hand].astype(float)
        if weights.sum() <= 0:
            return None
        weights /= weights.sum()
        choices = sorted(((self._action(code), float(w)) for code, w in zip(codes, weights,
                                                                           strict=True)
                          if w > 0), key=lambda choice: -choice[1])
        value = float(self.values[mover][value_row, hand])
        return MixedAdvice(tuple(choices), None if np.isnan(value) else value, self.key,
                           opening=not bids, payoff=self.payoff)

    def _codes(self, bids: list) -> list[int] | None:
        """The bids as the game's codes, ``None`` unless each is a legal raise of the last."""
        history, last = [], NO_BID
        for index, bid in enumerate(bids):
            code = self.game.bid_index.get(bid)
            if code is None or code not in self.game.raises(last, index % 2):
                return None
            history.append(code)
            last = code
        return history

    def _locate(self, history: list[int]) -> tuple[int, int] | None:
        """Where the mover's rows are after ``history``: the first action's row among the
        mover's action rows and the row of the mover's values; ``None`` if not stored."""
        raise NotImplementedError

    def _action(self, code: int) -> Action:
        if code == DUDO_CODE:
            return DUDO
        if code == CALZA_CODE:
            return CALZA
        return Action(ActionKind.RAISE, self.game.bids[code])


class StrategyTable(_Table):
    """One shipped exact table, ready for walks from the opening to any bid history."""

    def __init__(self, key: str, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        super().__init__(key, meta, arrays)
        children = arrays["children"].astype(np.int64)
        self.children = children
        self.first_child = np.concatenate(([1], 1 + np.cumsum(children)[:-1]))
        depth = _depths(children)
        self.depth = depth
        self.edge_row = _ranks(np.where(depth >= 1, (depth - 1) % 2, -1))
        self.node_row = _ranks(np.where(children > 0, depth % 2, -1))

    def _locate(self, history: list[int]) -> tuple[int, int] | None:
        node = self._walk(history)
        if node is None:
            return None
        return int(self.edge_row[int(self.first_child[node])]), int(self.node_row[node])

    def _walk(self, history: list[int]) -> int | None:
        """The node reached by ``history`` from the opening, each node's count of actions
        checked against the rules on the way."""
        node, last = 0, NO_BID
        for index, code in enumerate(history):
            codes = self.game.actions(last, index % 2)
            if len(codes) != self.children[node]:
                return None
            node, last = int(self.first_child[node]) + codes.index(code), code
        if len(self.game.actions(last, len(history) % 2)) != self.children[node]:
            return None
        return node


class AbstractTable(_Table):
    """One shipped table of an abstract game (:mod:`coach.solver.abstract`): the mover's
    strategy depends on the last ``recall`` bids only, whatever came before them."""

    def __init__(self, key: str, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        missing = [name for name in ("dice", "palifico", "rules", "rules_key", "recall_bids",
                                     "depth_cap") if name not in meta]
        if missing:
            raise ValueError(f"{key}: the table's figures lack {', '.join(missing)}")
        super().__init__(key, meta, arrays)
        self.recall = Recall(meta["recall_bids"], meta["depth_cap"])
        layout = abstract_layout(self.game, self.recall)
        counts = np.array([len(codes) for codes in layout.codes], dtype=np.int64)
        if not np.array_equal(counts, arrays["children"].astype(np.int64)):
            raise ValueError(f"{key}: the table was built for another abstract game")
        movers = np.array([state[1] for state in layout.keys], dtype=np.int64)
        for player in (0, 1):
            hands = len(self.game.hand_sets[player])
            own = movers == player
            shapes = {"prob": (int(counts[own].sum()), hands), "value": (int(own.sum()), hands)}
            for name, shape in shapes.items():
                if arrays[f"{name}{player}"].shape != shape:
                    raise ValueError(f"{key}: {name}{player} is shaped "
                                     f"{arrays[f'{name}{player}'].shape}, not {shape}")
        self.node = {state: node for node, state in enumerate(layout.keys)}
        self.first_row = first_rows(movers, counts)
        self.value_row = _ranks(movers)

    def _locate(self, history: list[int]) -> tuple[int, int] | None:
        node = self.node.get(self.recall.key(history))
        if node is None:
            return None
        return int(self.first_row[node]), int(self.value_row[node])


def _depths(children: np.ndarray) -> np.ndarray:
    """Each node's depth in a breadth-first numbering with ``children`` per node."""
    depth = np.zeros(children.size, dtype=np.int64)
    start, stop, level = 0, 1, 0
    while start < children.size:
        depth[start:stop] = level
        start, stop, level = stop, stop + int(children[start:stop].sum()), level + 1
    return depth


def _ranks(owner: np.ndarray) -> np.ndarray:
    """For each position, its rank among the positions with the same owner (0 or 1)."""
    rank = np.full(owner.size, -1, dtype=np.int64)
    for player in (0, 1):
        mask = owner == player
        rank[mask] = np.arange(int(mask.sum()))
    return rank


@cache
def _index() -> dict[str, Any]:
    if not INDEX_FILE.exists():
        return {"tables": {}}
    return json.loads(INDEX_FILE.read_text(encoding="utf-8"))


@cache
def _abstract_index() -> dict[str, Any]:
    if not ABSTRACT_INDEX_FILE.exists():
        return {"tables": {}}
    return json.loads(ABSTRACT_INDEX_FILE.read_text(encoding="utf-8"))


@cache
def load_table(key: str) -> StrategyTable | AbstractTable | None:
    """The shipped table ``key`` (see :func:`table_key`): the exact one where there is one,
    else the abstract one; ``None`` if there is neither."""
    meta = _index()["tables"].get(key)
    if meta is not None and TABLES_FILE.exists():
        with np.load(TABLES_FILE, allow_pickle=False) as data:
            arrays = {name: data[f"{key}.{name}"] for name in _ARRAY_NAMES}
        return StrategyTable(key, meta, arrays)
    meta = _abstract_index()["tables"].get(key)
    path = ABSTRACT_TABLES_DIR / f"{key}.npz"
    if meta is not None and path.exists():
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in _ARRAY_NAMES}
        return AbstractTable(key, meta, arrays)
    return None


def available_tables() -> dict[str, dict[str, Any]]:
    """Each shipped exact table's figures, by key."""
    return dict(_index()["tables"])


def abstract_tables() -> dict[str, dict[str, Any]]:
    """Each shipped abstract table's figures, by key (:mod:`scripts.build_abstract_tables`)."""
    return dict(_abstract_index()["tables"])


# The bot.


class CoachTablesBot:
    """Plays the shipped equilibrium when a table fits (sampling its mixed strategy), the
    ``fallback`` bot otherwise: by default the coach's :func:`~coach.engine.decide.advise`.

    It plays a table only where ``play`` says the coach does (by default wherever one fits;
    the league's ``coach`` plays them as the app advises, under
    :data:`~coach.engine.table_play.COACH_TABLE_PLAY`). It counts its decisions:
    ``decisions`` in all, ``heads_up`` with two players left and ``from_tables`` played from
    a table. A fallback bot's ``observe`` hears every showdown.
    """

    def __init__(self, rng: random.Random | None = None,
                 settings: CoachSettings | None = None,
                 fallback: Callable[[Situation], Action] | None = None,
                 play: TablePlay = TABLES_ANYWHERE) -> None:
        self.rng = rng or random.Random()
        self.settings = settings or CoachSettings()
        self.fallback = fallback
        self.play = play
        self.decisions = self.heads_up = self.from_tables = 0

    def __call__(self, situation: Situation) -> Action:
        self.decisions += 1
        self.heads_up += situation.heads_up
        mixed = table_strategy(situation, self.play)
        if mixed is not None:
            self.from_tables += 1
            return mixed.sample(self.rng)
        if self.fallback is not None:
            return self.fallback(situation)
        return advise(situation, self.settings).action

    def observe(self, showdown: Showdown) -> None:
        """Pass a showdown on to the fallback bot, when it learns from them."""
        observe = getattr(self.fallback, "observe", None)
        if observe is not None:
            observe(showdown)


# Writing tables (used by python -m scripts.build_solver_tables).

_ARRAY_NAMES = ("children", "prob0", "prob1", "value0", "value1")


def quantise(game: GameTree | SolverGame, profile: Profile,
             threshold: float = PURIFY_BELOW) -> Profile:
    """The profile with actions below ``threshold`` dropped (the CFR+ average keeps a trace of
    early iterations), in 1/65535 steps, and zero where the mover's own play never reaches
    (so a lookup there declines). The result is unnormalised: see :func:`normalise`. The
    game is a tree or any :class:`~coach.solver.cfr.SolverGame` (an abstract game too)."""
    solver_game = TreeGame(game) if isinstance(game, GameTree) else game
    kept = normalise_stages(solver_game, [np.where(stage >= threshold, stage, 0.0)
                                          for stage in profile])
    steps = [np.rint(stage * PROBABILITY_STEPS) for stage in kept]
    rounded = normalise_stages(solver_game, steps)
    for player in (0, 1):
        own = solver_game.node_reach(player, rounded)
        for index, stage in enumerate(solver_game.stages):
            if stage.mover == player:
                reached = own[index][stage.child_rank] > 0
                steps[index] = np.where(reached, steps[index], 0.0)
    return steps


def table_arrays(tree: GameTree, steps: Profile) -> tuple[dict[str, np.ndarray], float]:
    """The arrays stored for a table, and the exploitability of exactly what is stored."""
    shipped = normalise(tree, steps)
    arrays: dict[str, np.ndarray] = {"children": tree.child_count.astype(np.uint8)}
    for player in (0, 1):
        levels = [(depth, level) for depth, level in enumerate(tree.levels[:-1])
                  if level.mover == player]
        arrays[f"prob{player}"] = np.concatenate(
            [steps[depth] for depth, _ in levels]).astype(np.uint16)
        values = infoset_values(tree, shipped, player)
        own = reach(tree, player, shipped)
        stored = [np.where(own[depth][level.internal] > 0, values[depth][level.internal],
                           np.nan) for depth, level in levels]
        arrays[f"value{player}"] = np.concatenate(stored).astype(np.float16)
    return arrays, exploitability(tree, shipped)


def write_tables(tables: dict[str, tuple[dict[str, np.ndarray], dict[str, Any]]],
                 directory: Path = DATA_DIR, payoff: Payoff = "game") -> None:
    """Write every table's arrays into one compressed ``.npz`` and the figures as JSON, with
    the kind of payoff the tables were solved for."""
    directory.mkdir(parents=True, exist_ok=True)
    flat: dict[str, Any] = {f"{key}.{name}": array for key, (arrays, _) in tables.items()
            for name, array in arrays.items()}
    np.savez_compressed(directory / TABLES_FILE.name, **flat)
    index = {"format": 2, "payoff": payoff,
             "tables": {key: meta for key, (_, meta) in tables.items()}}
    text = json.dumps(index, indent=1, sort_keys=True)
    (directory / INDEX_FILE.name).write_text(text + "\n", encoding="utf-8")
    _index.cache_clear()
    load_table.cache_clear()
    shipped_values.cache_clear()
