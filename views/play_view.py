"""Words of a game against the bots (the play page) and of a game's review.

The table, the turn and a round's result are the tracker's own words (``views.tracker_view``)
over the game's state, whose players are named here in the page's language: "You" and
each bot by its style ("Reader", "Liar 2" when two share a style).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from coach.play.bot_game import ME, BotTable, PlayedRound, Step
from perudo_math import GameState, RoundResult
from views import tracker_view
from views.dice import glyphs
from views.i18n import t, tn
from views.tracker_view import SEPARATOR, name_of
from views.tracker_view import palifico_banner as table_palifico_banner

PACES = {"slow": 1.6, "normal": 0.9, "fast": 0.35, "instant": 0.0}
"""Seconds between two bot moves shown, by the pace the player chose."""
DEFAULT_PACE = "normal"


def player_names(styles: Sequence[str]) -> list[str]:
    """"You", then each bot by its style, numbered from the second of a style on."""
    seen: Counter[str] = Counter()
    names = [t("play.you")]
    for style in styles:
        seen[style] += 1
        label = t(f"play.style.{style}")
        names.append(label if seen[style] == 1 else f"{label} {seen[style]}")
    return names


def opening_face(table: BotTable) -> int:
    """The face to open on, picked for the player: the one they hold most, pacos counted
    toward it (a normal round never opens on pacos), the higher on a tie."""
    game, hand = table.state, table.my_hand
    faces = range(1, 7) if game.palifico else range(2, 7)
    return max(faces, key=lambda face: (hand.count(face, palifico=game.palifico), face))


def step_text(game: GameState, step: Step) -> str:
    """``Reader bids **4 × 5**``, ``Liar calls dudo``; "You" when it was my move."""
    who = "me" if step.seat == ME else "bot"
    name = name_of(game, step.seat)
    if step.action.kind == "raise":
        assert step.action.bid is not None
        return t(f"play.step.{who}.bid", name=name, bid=step.action.bid.pretty())
    return t(f"play.step.{who}.{step.action.kind}", name=name)


def cups_lines(game: GameState, played: PlayedRound) -> list[str]:
    """Every cup lifted: each player's dice, the dice counted for the bid marked."""
    face, palifico = played.result.bid.face, played.result.palifico
    lines = []
    for seat, hand in enumerate(played.hands):
        if not len(hand):
            continue
        counted = hand.count(face, palifico=palifico)
        dice = glyphs(sorted(hand.faces))
        lines.append(t("play.cups.line", name=name_of(game, seat), dice=dice,
                       counted=tn("play.cups.counted", counted) if counted
                       else t("play.cups.none")))
    return lines


def showdown_markdown(game: GameState, played: PlayedRound) -> str:
    """The round's end: the result line, then every cup."""
    title = t("play.cups.title", number=played.number)
    return "  \n".join([f"**{title}**", result_text(game, played.result),
                        *cups_lines(game, played)])


def round_header(game: GameState) -> str:
    """``Round 3 — 17 dice on the table — you open — palifico``: the tracker's header, said
    to the player when they open."""
    opens = (t("play.round.you_open") if game.opener == ME
             else t("tracker.round.opens", name=name_of(game, game.opener)))
    parts = [t("tracker.round.number", number=game.round_number),
             tn("common.dice_on_table", game.table_dice), opens]
    if game.palifico:
        parts.append(t("tracker.round.palifico"))
    return SEPARATOR.join(parts)


def palifico_banner(game: GameState) -> str | None:
    """The tracker's palifico banner, said to the player when they open it."""
    if game.palifico and not game.is_over and game.last_bid is None and game.opener == ME:
        text = t("play.palifico.you_open")
        if game.rules.palifico_one_die_may_change_face:
            text = " ".join([text, t("tracker.palifico.one_die")])
        return text
    return table_palifico_banner(game)


def result_text(game: GameState, result: RoundResult) -> str:
    """``Dudo by Reader on 6 × 5: 4 counted — you lose a die``: the tracker's words, the
    player's own moves and losses said to them."""
    return tracker_view.result_text(game, result, me=ME)


def winner_text(game: GameState) -> str:
    winner = game.winner
    return t("play.won") if winner == ME else t("play.lost", name=name_of(game, winner))
