"""``python -m coach``: advice for a spot, and matches between bots, as JSON."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

from coach.engine.beliefs import PURE_ODDS, BidReading
from coach.engine.decide import CoachSettings, advise
from coach.engine.situation import Situation
from coach.play.arena import ArenaSpec, IllegalMove, ProgressBar, run_arena
from coach.play.bots import BUILTIN_BOTS
from perudo_math import MAX_PLAYERS, MIN_PLAYERS, Bid, Hand, Rules
from perudo_math.cli import _bid, _count, _die, _OneLineParser


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog="python -m coach", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser,
                                     metavar="{advise,arena,solve}")

    advise_cmd = commands.add_parser("advise", help="what to do now, with every option's risk")
    advise_cmd.add_argument("--hand", nargs="+", type=_die, required=True, metavar="DIE")
    advise_cmd.add_argument("--dice", type=_count, required=True,
                            help="all dice on the table, yours included")
    advise_cmd.add_argument("--bid", type=_bid, help="the current bid; none: you open")
    advise_cmd.add_argument("--palifico", action="store_true")
    advise_cmd.add_argument("--players", type=_count, required=True,
                            help="players still in the game, you included")
    advise_cmd.add_argument("--seat-dice", nargs="+", type=_count, metavar="N",
                            help="dice of each player from you clockwise (default: even split)")
    advise_cmd.add_argument("--history", default="",
                            help="this round's bids in order, like 3x4,4x5 (the last one was "
                                 "made by the player before you)")
    advise_cmd.add_argument("--pure-odds", action="store_true",
                            help="ignore what the bids say about the bidders' dice")
    advise_cmd.add_argument("--bluff", type=float, default=None,
                            help="how often the others bluff, 0 to 1 (default 0.6)")

    arena_cmd = commands.add_parser("arena", help="whole games between bots")
    arena_cmd.add_argument("--players", type=_count, default=5)
    arena_cmd.add_argument("--games", type=_count, default=1000)
    arena_cmd.add_argument("--seed", type=_count, default=0)
    arena_cmd.add_argument("--hero", default="coach",
                           help=f"one of {', '.join(BUILTIN_BOTS)} or module:attribute")
    arena_cmd.add_argument("--opponents", default="probability")
    arena_cmd.add_argument("--jobs", type=_count, default=1, help="worker processes")
    arena_cmd.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def situation_from_args(args: argparse.Namespace) -> Situation:
    """Seat 0 is me; the history's bids were made in turn, the last by the seat before me."""
    hand = Hand(args.hand)
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {args.players}")
    if args.dice < len(hand):
        raise ValueError(f"your hand has {len(hand)} dice but the table only {args.dice}: "
                         "the table count includes your own dice")
    dice = _seat_dice(args, len(hand))
    bids = [Bid.parse(text) for text in args.history.replace(" ", "").split(",") if text]
    if args.bid is not None and (not bids or bids[-1] != args.bid):
        bids.append(args.bid)
    seats = len(dice)
    history = tuple(((seats - len(bids) + index) % seats, bid) for index, bid in enumerate(bids))
    return Situation(Rules(), dice, 0, hand, history, args.palifico)


def _seat_dice(args: argparse.Namespace, mine: int) -> tuple[int, ...]:
    if args.seat_dice is not None:
        dice = tuple(args.seat_dice)
        if len(dice) != args.players or dice[0] != mine or sum(dice) != args.dice:
            raise ValueError("--seat-dice needs one count per player, yours first, adding up "
                             "to --dice")
        return dice
    others = args.dice - mine
    opponents = args.players - 1
    if others < opponents:
        raise ValueError(f"{opponents} other players need at least {opponents} dice between "
                         f"them, but the table has only {others} besides yours")
    share, extra = divmod(others, opponents)
    return (mine, *(share + (seat < extra) for seat in range(opponents)))


def run_advise(args: argparse.Namespace) -> dict[str, object]:
    if args.pure_odds:
        reading = PURE_ODDS
    elif args.bluff is not None:
        reading = BidReading.from_bluff_level(args.bluff)
    else:
        reading = BidReading()
    return advise(situation_from_args(args), CoachSettings(reading=reading)).to_dict()


def run_match(args: argparse.Namespace) -> dict[str, object]:
    spec = ArenaSpec(args.hero, args.opponents, args.players, args.games, args.seed)
    if args.jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
    progress = None if args.quiet else ProgressBar()
    results = run_arena(spec, jobs=args.jobs, progress=progress)
    return {"games": spec.games, "players": spec.players, "seed": spec.seed,
            "results": [result.to_dict() for result in results]}


SUBCOMMAND_MODULES = {"solve": "coach.solver.cli"}
"""Subcommands with a parser of their own, each in a module with ``main(argv) -> int``."""


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] in SUBCOMMAND_MODULES:
        module = importlib.import_module(SUBCOMMAND_MODULES[arguments[0]])
        return module.main(arguments[1:])
    parser = build_parser()
    args = parser.parse_args(arguments)
    command = {"advise": run_advise, "arena": run_match}[args.command]
    try:
        payload = command(args)
    except (ValueError, IllegalMove) as error:
        print(f"{parser.prog} {args.command}: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(payload, ensure_ascii=False))
    return 0
