"""Helpers of the game tracker: the table, round lines, the log, refusals in words.

Player names reach markdown only through :mod:`views.text` (``name_of``), so a name such as
``**Bob**`` or ``[x](http://e.com)`` shows exactly as typed, isolated from the words around
it. What a name may be is :mod:`perudo_math.names`' rule: :func:`name_problems` words its
refusals.

Whether a move is allowed is :class:`perudo_math.GameState`'s decision alone: its refusals are
data (a :class:`~perudo_math.MoveRefusal` code and the seats, count or bid verdict it
concerns) and :func:`refusal_text` words them in the user's language.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from coach.engine.profiles import OpponentProfiles
from coach.engine.showdown import Showdown
from perudo_math import (
    CALL_KINDS,
    MAX_MOVES,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    Bid,
    BidMade,
    CalzaCalled,
    DudoCalled,
    GameState,
    Hand,
    MoveRefusal,
    NameRefusal,
    RefusedMove,
    RoundResult,
    RulesChanged,
    name_key,
    roll_for_first_opener,
    table_refusals,
)
from views.dice import glyphs
from views.i18n import t, tn
from views.rules_view import refusal_text as bid_refusal_text
from views.rules_view import setting_line
from views.text import elided, name_markdown, player_name

QUANTITY_ROW = 5
"""How many candidate quantities the bid row offers at once: with the ‹ and › buttons, seven
buttons share one line of a 390 px phone and two-digit quantities still read in full."""
LOG_PAGE = 10
"""How many finished rounds the log draws at first, and how many more each tap shows: a
long game's log stays quick to draw."""
SEPARATOR = " — "
ARROW = " → "
TURN_MARK = "▶"
DIE_HELD = "●"
DIE_LOST = "○"

_roll_rng = random.SystemRandom()


def name_of(game: GameState, seat: int | None) -> str:
    """The name at ``seat`` as literal markdown (:func:`views.text.player_name`). ``seat`` is
    one the game names (its opener, turn, last bidder, winner, a refused move's seat), which
    the state types ``int | None``: ``None`` (the game over, no bid yet) is never asked."""
    assert seat is not None
    return player_name(game, seat)


# --- setting up a game -----------------------------------------------------------------------


def name_problems(names: Sequence[str]) -> list[str]:
    """What stops a game from starting with these names (in seat order), in words."""
    problems = []
    if len(names) < MIN_PLAYERS:
        problems.append(t("tracker.setup.error.too_few", min=MIN_PLAYERS))
    if len(names) > MAX_PLAYERS:
        problems.append(t("tracker.setup.error.too_many", max=MAX_PLAYERS))
    for refused in table_refusals(names):
        seat = (refused.seat or 0) + 1
        if refused.refusal is NameRefusal.SAME:
            problems.append(t("tracker.setup.error.duplicate", name=name_markdown(refused.name),
                              first=(refused.same_as or 0) + 1, seat=seat))
        elif refused.refusal is NameRefusal.TOO_LONG:
            problems.append(t("tracker.setup.error.too_long", seat=seat, max=MAX_NAME_LENGTH))
        else:
            problems.append(t(f"tracker.setup.error.{refused.refusal.value}", seat=seat))
    return problems


def seated_names(names: Sequence[str], chosen: Sequence[int] = ()) -> list[str]:
    """The names of the seats that take part: the set-up's rows, less the rows at the end
    with no visible name that no choice (me, the opener: their row indexes in ``chosen``)
    points at."""
    keep = len(names)
    while keep and not name_key(names[keep - 1]) and keep - 1 not in chosen:
        keep -= 1
    return list(names[:keep])


def roll_opener(seats: int) -> int:
    """The first opener, rolled for: highest sum of two dice, ties reroll."""
    return roll_for_first_opener(_roll_rng, seats)


RAISE_EXAMPLE = (Bid(3, 5), Bid(4, 2))
"""The set-up's example of the raise rule: after 3 × 5, may the next player bid 4 × 2? No
under ``same-face``, yes under ``any-face`` (a test checks it with the legality rules)."""


def raise_question() -> str:
    """The set-up's question that tells the raise rules apart, on :data:`RAISE_EXAMPLE`."""
    previous, bid = RAISE_EXAMPLE
    return t("tracker.setup.raise", previous=previous.pretty(), bid=bid.pretty())


# --- the table -------------------------------------------------------------------------------


def round_header(game: GameState) -> str:
    """``Round 3 — 17 dice on the table — Bob opens — palifico``."""
    parts = [
        t("tracker.round.number", number=game.round_number),
        tn("common.dice_on_table", game.table_dice),
        t("tracker.round.opens", name=name_of(game, game.opener)),
    ]
    if game.palifico:
        parts.append(t("tracker.round.palifico"))
    return SEPARATOR.join(parts)


def round_key(game: GameState) -> tuple[object, ...]:
    """What tells the round being played apart from the other rounds of the game: the
    players, the rules the game started with, the opener and every move made before the
    round began. Undoing a bid or changing a rule keeps it; undoing the call that ended a
    round, or a call entered again, changes it."""
    start = len(game.history)
    while start and isinstance(game.history[start - 1], BidMade | RulesChanged):
        start -= 1
    return (game.start_rules or game.rules, tuple(player.name for player in game.players),
            game.opener, game.history[:start])


def round_starts(game: GameState) -> Iterator[GameState]:
    """``game`` as it stood when each of its rounds began, in order (the round being played
    last), replayed one round at a time: a round may hold thousands of bids."""
    state, done = game.restart(), 0
    yield state
    for index, event in enumerate(game.history):
        if isinstance(event, DudoCalled | CalzaCalled):
            state, done = state.replay(game.history[done:index + 1]), index + 1
            if not state.is_over:
                yield state


def round_keys(game: GameState) -> dict[int, tuple[object, ...]]:
    """Each round of ``game`` played so far, by number: its :func:`round_key`."""
    return {state.round_number: round_key(state) for state in round_starts(game)}


def hands_by_round(game: GameState, me: int,
                   kept: Mapping[object, Sequence[int]]) -> dict[int, Hand]:
    """The hands of ``kept`` (by :func:`round_key`) that belong to a round of ``game``, by
    round number, each the size ``me`` held then (a hand typed with another count is left
    out: it cannot be that round's)."""
    found: dict[int, Hand] = {}

    def look(state: GameState) -> None:
        hand = kept.get(round_key(state))
        if hand is not None and len(hand) == state.players[me].dice:
            found[state.round_number] = Hand(hand)

    for state in round_starts(game):
        look(state)
    return found


def palifico_banner(game: GameState) -> str | None:
    """What a palifico round changes, said at its start and while it lasts (``None``: not a
    palifico round): pacos are not jokers, and the face of the opening bid is frozen."""
    if not game.palifico or game.is_over:
        return None
    if game.last_bid is None:
        text = t("tracker.palifico.open", name=name_of(game, game.opener))
    else:
        text = t("tracker.palifico.frozen", faces=t(f"face.plural.{game.last_bid.face}"))
    if game.rules.palifico_one_die_may_change_face:
        text = " ".join([text, t("tracker.palifico.one_die")])
    return text


def hand_note(game: GameState, me: int | None, hand: Sequence[int]) -> str | None:
    """My dice for this round as the advice will read them, or that they are still to be
    entered (``None``: no seat said, no dice left, or the game is over)."""
    if me is None or game.is_over:
        return None
    held = game.players[me].dice
    if held == 0:
        return None
    if not hand:
        return tn("tracker.hand.missing", held, round=game.round_number)
    dice = glyphs(sorted(hand))
    if len(hand) != held:
        return tn("tracker.hand.wrong_count", held, dice=dice)
    return t("tracker.hand.entered", dice=dice)


def pips(held: int, starting: int) -> str:
    """A player's dice as dots: ``●●●○○`` for 3 of 5."""
    return DIE_HELD * held + DIE_LOST * max(starting - held, 0)


def players_table(game: GameState, me: int | None) -> str:
    """Every seat with its dice; the turn marked, the eliminated greyed and struck out."""
    lines = [
        f"| {t('tracker.players.col.player')} | {t('tracker.players.col.dice')} |",
        "|:---|:---|",
    ]
    turn = game.turn
    for seat, player in enumerate(game.players):
        name = name_of(game, seat)
        if seat == me:
            name = t("tracker.players.me", name=name)
        if player.dice == 0:
            name_cell = f":gray[~~{name}~~]"
            dice_cell = f":gray[{t('tracker.players.out')}]"
        else:
            name_cell = f"{TURN_MARK} **{name}**" if seat == turn else name
            dice_cell = f"{pips(player.dice, game.rules.starting_dice)} {player.dice}"
        lines.append(f"| {name_cell} | {dice_cell} |")
    return "\n".join(lines)


def turn_line(game: GameState, me: int | None) -> str:
    """Whose turn it is, and the bid on the table."""
    turn = game.turn
    mine = turn == me
    who = t("tracker.turn.mine") if mine else t("tracker.turn.player", name=name_of(game, turn))
    if game.last_bid is None:
        return SEPARATOR.join([who, t("tracker.turn.opening")])
    last = t("tracker.turn.last_bid", name=name_of(game, game.last_bidder),
             bid=game.last_bid.pretty())
    return SEPARATOR.join([last, who])


def bids_line(game: GameState, bids: Sequence[tuple[int, Bid]]) -> str:
    """``Ann 3 × 4 → Bob 4 × 4``; a long round's first and last bids (:func:`elided`)."""
    first, skipped, last = elided(bids)
    spoken = [f"{name_of(game, seat)} {bid.pretty()}" for seat, bid in first]
    if skipped:
        spoken.append(tn("common.bids_skipped", skipped))
    spoken += [f"{name_of(game, seat)} {bid.pretty()}" for seat, bid in last]
    return ARROW.join(spoken)


# --- bidding ---------------------------------------------------------------------------------


def lowest_quantity(game: GameState, face: int) -> int | None:
    """The smallest legal quantity on ``face`` for the player to act, ``None``: no legal bid."""
    smallest = game.smallest_raises().get(face)
    return None if smallest is None else smallest.quantity


def face_refusal(game: GameState, face: int) -> RefusedMove:
    """Why the smallest bid one could try on a face that has no legal bid is refused."""
    probe = game.last_bid.quantity + 1 if game.last_bid is not None else 1
    refused = game.bid_refusal(Bid(probe, face))
    assert refused is not None, f"face {face} has a legal bid"
    return refused


def face_switch(game: GameState, face: int) -> RulesChanged | None:
    """The change of one setting under which ``face``, which has no legal bid now, would
    have one (tried on :func:`face_refusal`'s bid); ``None`` when it has one, or none helps."""
    if game.turn is None or lowest_quantity(game, face) is not None:
        return None
    probe = game.last_bid.quantity + 1 if game.last_bid is not None else 1
    changes = game.changes_allowing(BidMade(None, Bid(probe, face)))
    return changes[0] if changes else None


def call_switch(game: GameState, kind: str, caller: int | None) -> RulesChanged | None:
    """The change of one setting under which ``caller`` (``None``: the player to act) may
    call ``kind`` (dudo or calza), refused now; ``None`` when no single setting allows it."""
    call = (DudoCalled if kind == "dudo" else CalzaCalled)(caller, 0)
    changes = game.changes_allowing(call)
    return changes[0] if changes else None


# --- refused moves ---------------------------------------------------------------------------

_REFUSAL_KEYS: dict[MoveRefusal, str] = {
    MoveRefusal.GAME_OVER: "tracker.refuse.over",
    MoveRefusal.NO_SUCH_SEAT: "tracker.refuse.no_seat",
    MoveRefusal.PLAYER_OUT: "tracker.refuse.out",
    MoveRefusal.NOT_YOUR_TURN: "tracker.refuse.not_turn.bid",
    MoveRefusal.NO_BID_YET: "tracker.refuse.no_bid",
    MoveRefusal.SALSA_OFF: "tracker.refuse.not_turn.dudo",
    MoveRefusal.CALZA_OFF: "tracker.refuse.calza_off",
    MoveRefusal.CALZA_OUT_OF_TURN_OFF: "tracker.refuse.not_turn.calza",
    MoveRefusal.CALZA_HEADS_UP: "tracker.refuse.heads_up",
    MoveRefusal.BAD_COUNT: "tracker.refuse.count_missing",
    MoveRefusal.COUNT_ABOVE_TABLE: "tracker.refuse.count_high",
    MoveRefusal.GAME_TOO_LONG: "tracker.refuse.game_too_long",
    MoveRefusal.SETTING_FIXED: "tracker.refuse.setting_fixed",
    MoveRefusal.RULE_UNCHANGED: "tracker.refuse.rule_unchanged",
}
"""The catalog key of each refusal that is not about the bid itself (those are worded by
:func:`views.rules_view.refusal_text`) nor about one's own bid (one key per call)."""

_NAMES_THE_TURN = frozenset(
    {MoveRefusal.NOT_YOUR_TURN, MoveRefusal.SALSA_OFF, MoveRefusal.CALZA_OUT_OF_TURN_OFF})
"""The refusals whose text names the player whose turn it is, not the one who tried."""


def refusal_text(game: GameState, refused: RefusedMove) -> str:
    """A move the engine refused, in the user's language (names as literal markdown)."""
    if refused.verdict is not None:
        return bid_refusal_text(refused.verdict)
    if refused.code is MoveRefusal.OWN_BID:
        return t(f"tracker.refuse.own_bid.{refused.move}", name=name_of(game, refused.seat))
    params: dict[str, object] = {}
    if refused.code in _NAMES_THE_TURN:
        params["name"] = name_of(game, refused.turn)
    elif refused.code is MoveRefusal.PLAYER_OUT:
        params["name"] = name_of(game, refused.seat)
    elif refused.code is MoveRefusal.COUNT_ABOVE_TABLE:
        params["count"] = refused.count
        assert refused.table_dice is not None  # a count above the table says the table's
        params["table"] = tn("common.dice_on_table", refused.table_dice)
    elif refused.code is MoveRefusal.GAME_TOO_LONG:
        params.update(moves=MAX_MOVES, rounds=MAX_ROUNDS)
    elif refused.setting is not None:
        params["setting"] = t(f"settings.{refused.setting}.label")
    return t(_REFUSAL_KEYS[refused.code], **params)


def rule_cause(game: GameState, change: RulesChanged) -> str:
    """That a refusal comes from one setting of this table, which ``change`` would allow."""
    setting = t(f"settings.{change.setting}.label")
    if isinstance(change.value, bool):
        return t(f"tracker.refuse.rule.{'on' if change.value else 'off'}", setting=setting)
    now = game.rules.to_dict()[change.setting]
    return t("tracker.refuse.rule.choice", setting=setting,
             now=t(f"settings.{change.setting}.{now}"),
             other=t(f"settings.{change.setting}.{change.value}"))


def switch_label(change: RulesChanged, bid: Bid) -> str:
    """The button that makes ``change`` for this game and records ``bid``."""
    setting = t(f"settings.{change.setting}.label")
    if isinstance(change.value, bool):
        return t(f"tracker.rules.switch.{'on' if change.value else 'off'}", setting=setting,
                 bid=bid.pretty())
    return t("tracker.rules.switch.choice", value=t(f"settings.{change.setting}.{change.value}"),
             bid=bid.pretty())


def allow_label(change: RulesChanged) -> str:
    """The button that makes ``change`` for this game (the move refused waits for its tap)."""
    setting = t(f"settings.{change.setting}.label")
    if isinstance(change.value, bool):
        return t(f"tracker.rules.allow.{'on' if change.value else 'off'}", setting=setting)
    return t("tracker.rules.allow.choice", value=t(f"settings.{change.setting}.{change.value}"))


def change_text(change: RulesChanged) -> str:
    """A rule change as the log and the page tell it: from here on, the setting's line."""
    return t("tracker.rules.changed", rule=setting_line(change.setting, change.value))


# --- dudo and calza --------------------------------------------------------------------------


def call_look(game: GameState, caller: int | None) -> tuple[object, ...]:
    """What the call's entry draws for ``game`` and ``caller``, the count typed aside: the
    callers offered (and the move their box belongs to), and each call's refusal with the
    setting that would allow it. Two equal looks draw the same elements, so
    a bid that leaves the look alike need not redraw the entry."""
    offered = tuple(callers(game))
    if len(offered) == 1:  # no choice to draw: the player to act calls
        offered = ()
    move = len(game.history) if offered else None
    refusals = []
    for kind in CALL_KINDS:
        refused = game.call_refusal(kind, caller)
        refusals.append((kind, refused is None, None if refused is None else (
            refusal_text(game, refused), call_switch(game, kind, caller))))
    return (offered, move, game.rules.calza, tuple(refusals))


def callers(game: GameState) -> list[int]:
    """The seats the tracker offers as caller: the turn first, then anyone the engine lets
    call dudo or calza out of turn."""
    if game.turn is None:
        return []
    others = [seat for seat in game.active_seats if seat != game.turn
              and (game.dudo_refusal(seat) is None or game.calza_refusal(seat) is None)]
    return [game.turn, *others]


def count_label(game: GameState) -> str:
    """The label of the revealed-count stepper: which dice count for the bid on the table."""
    bid = game.last_bid
    assert bid is not None  # a call counts for the bid on the table
    faces = t(f"face.plural.{bid.face}")
    if game.palifico and not bid.is_paco:
        kind = "palifico"
    else:
        kind = "plain" if bid.is_paco or game.palifico else "jokers"
    return t(f"tracker.call.count.{kind}", faces=faces, bid=bid.pretty())


# --- what happened ---------------------------------------------------------------------------


def result_text(game: GameState, result: RoundResult, me: int | None = None) -> str:
    """``Dudo by Ann on 6 × 5: 4 counted — Bob loses a die`` (markdown, names literal); the
    moves and losses of ``me``, when given, said to them (``you lose a die``)."""
    counted = tn("tracker.result.counted", result.count)
    if result.caller == me:
        head = t(f"tracker.result.me.{result.kind}", bid=result.bid.pretty(), counted=counted)
    else:
        head = t(f"tracker.result.{result.kind}", caller=name_of(game, result.caller),
                 bid=result.bid.pretty(), counted=counted)
    parts = [head]
    if result.kind == "calza":
        parts.append(t("tracker.result.calza_right" if result.calza_right
                       else "tracker.result.calza_wrong"))
    if result.loser is not None:
        key = "out" if result.eliminated is not None else "loses"
        parts.append(t(f"tracker.result.me.{key}") if result.loser == me
                     else t(f"tracker.result.{key}", name=name_of(game, result.loser)))
    elif result.gainer is not None:
        parts.append(t("tracker.result.me.gains") if result.gainer == me
                     else t("tracker.result.gains", name=name_of(game, result.gainer)))
    else:
        parts.append(t("tracker.result.me.full") if result.caller == me
                     else t("tracker.result.full", name=name_of(game, result.caller)))
    return SEPARATOR.join(parts)


@dataclass(frozen=True, slots=True)
class LoggedRound:
    """One finished round: its number, whether it was palifico, its bids, its end and the
    rules the table changed during it (before its call)."""

    number: int
    palifico: bool
    bids: tuple[tuple[int, Bid], ...]
    result: RoundResult
    changes: tuple[RulesChanged, ...] = ()


def finished_rounds(game: GameState) -> list[LoggedRound]:
    """Every finished round, most recent first, rebuilt from the game's history."""
    rounds: list[LoggedRound] = []
    bids: list[tuple[int, Bid]] = []
    changes: list[RulesChanged] = []
    for event in game.history:
        if isinstance(event, BidMade):
            assert event.seat is not None  # the history records every move's seat
            bids.append((event.seat, event.bid))
            continue
        if isinstance(event, RulesChanged):
            changes.append(event)
            continue
        result = game.results[len(rounds)]
        rounds.append(LoggedRound(len(rounds) + 1, result.palifico, tuple(bids), result,
                                  tuple(changes)))
        bids, changes = [], []
    return rounds[::-1]


def log_entry(game: GameState, entry: LoggedRound) -> str:
    """A round of the log as markdown: heading line, bids, result."""
    title = t("tracker.round.number", number=entry.number)
    if entry.palifico:
        title = SEPARATOR.join([title, t("tracker.round.palifico")])
    changes = [change_text(change) for change in entry.changes]
    return "  \n".join([f"**{title}**", *changes, bids_line(game, entry.bids),
                        result_text(game, entry.result)])


def showdowns(game: GameState) -> list[Showdown]:
    """Every finished round as the coach learns from it: the bids and the count entered."""
    return [Showdown(entry.bids, entry.palifico, entry.result.caller, entry.result.kind,
                     entry.result.count)
            for entry in reversed(finished_rounds(game)) if entry.bids]


def profiles_of(game: GameState) -> OpponentProfiles:
    """What the showdowns of this game have told of each player."""
    profiles = OpponentProfiles()
    for showdown in showdowns(game):
        profiles.observe(showdown)
    return profiles


def bluffs_of(game: GameState) -> tuple[tuple[int, float], ...]:
    """Per player a showdown has judged, the share of bluffs the advice reads them with."""
    profiles = profiles_of(game)
    return tuple((seat, round(profiles.bluff(seat), 3)) for seat in range(len(game.players))
                 if profiles.held(seat)[1])


def held_lines(game: GameState) -> list[str]:
    """``Bob's bids held 3 times out of 4``: per player whose bids a showdown judged."""
    profiles = profiles_of(game)
    lines = []
    for seat in range(len(game.players)):
        held, judged = profiles.held(seat)
        if not judged:
            continue
        name = name_of(game, seat)
        if judged == 1:
            lines.append(t("tracker.held.single.yes", name=name) if held
                         else t("tracker.held.single.no", name=name))
        else:
            lines.append(tn("tracker.held", held, name=name, judged=judged))
    return lines


def winner_text(game: GameState) -> str:
    """``Ann wins the game!``"""
    return t("tracker.winner", name=name_of(game, game.winner))


__all__ = [
    "LOG_PAGE",
    "QUANTITY_ROW",
    "RAISE_EXAMPLE",
    "LoggedRound",
    "allow_label",
    "bids_line",
    "bluffs_of",
    "call_look",
    "call_switch",
    "callers",
    "change_text",
    "count_label",
    "face_refusal",
    "face_switch",
    "finished_rounds",
    "hand_note",
    "held_lines",
    "log_entry",
    "lowest_quantity",
    "name_of",
    "name_problems",
    "palifico_banner",
    "pips",
    "players_table",
    "profiles_of",
    "raise_question",
    "refusal_text",
    "result_text",
    "roll_opener",
    "round_header",
    "round_key",
    "rule_cause",
    "seated_names",
    "showdowns",
    "switch_label",
    "turn_line",
    "winner_text",
]
