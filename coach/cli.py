"""``python -m coach``: advice for a spot, and matches between bots, as JSON."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from coach.engine.beliefs import PURE_ODDS, BidReading
from coach.engine.decide import CoachSettings, advise
from coach.engine.situation import Situation
from coach.play.arena import ArenaSpec, ProgressBar, run_arena
from coach.play.bots import BUILTIN_BOTS
from perudo_math import Bid, Hand, arguments
from perudo_math.limits import MAX_PLAYERS, MIN_PLAYERS
from perudo_math.rules import SETTING_BY_NAME

SPOT_OPTIONS = ("dice", "bid", "palifico", "players", "seat_dice", "history")
"""The options that describe the spot piece by piece, which ``--situation`` replaces."""


MAX_GAMES = 1_000_000
MAX_SEED = 2**63 - 1


def build_parser() -> argparse.ArgumentParser:
    parser = arguments.OneLineParser(prog="python -m coach", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True,
                                     metavar="{advise,arena,solve}")
    players = arguments.whole_number(MIN_PLAYERS, MAX_PLAYERS)

    advise_cmd = arguments.add_command(commands, "advise", run_advise,
                                       "what to do now, with every option's risk")
    spot = advise_cmd.add_mutually_exclusive_group(required=True)
    spot.add_argument("--hand", nargs="+", type=arguments.die_face, metavar="DIE",
                      help="your dice, 1 (paco) to 6; --dice and --players are then needed")
    spot.add_argument("--situation", type=arguments.parsed_by(Situation.from_json),
                      metavar="JSON",
                      help="the whole spot as compact JSON, as Situation.to_json writes it "
                           '(e.g. {"dice":[2,3],"me":0,"hand":[1,5],"bids":[[1,"2x5"]]}), '
                           "instead of --hand and the options after it")
    advise_cmd.add_argument("--dice", type=arguments.whole_number(),
                            help="all dice on the table, yours included")
    advise_cmd.add_argument("--bid", type=arguments.bid, help="the current bid; none: you open")
    advise_cmd.add_argument("--palifico", action="store_true",
                            help="the round is a palifico round (not a rule setting: see "
                                 "--palifico-rule)")
    advise_cmd.add_argument("--players", type=players,
                            help="players still in the game, you included")
    advise_cmd.add_argument("--seat-dice", nargs="+", type=arguments.whole_number(minimum=0),
                            metavar="N",
                            help="dice of each player from you clockwise (default: even split)")
    advise_cmd.add_argument("--history",
                            help="this round's bids in order, like 3x4,4x5 (the last one was "
                                 "made by the player before you)")
    advise_cmd.add_argument("--pure-odds", action="store_true",
                            help="ignore what the bids say about the bidders' dice")
    advise_cmd.add_argument("--bluff", type=arguments.probability, default=None,
                            help="how often the others bluff, 0 to 1 (default 0.6)")
    arguments.add_rule_options(advise_cmd)

    arena_cmd = arguments.add_command(commands, "arena", run_match, "whole games between bots")
    arena_cmd.add_argument("--players", type=players, default=5)
    arena_cmd.add_argument("--games", type=arguments.whole_number(1, MAX_GAMES), default=1000,
                           help=f"1 to {MAX_GAMES:,} (default 1,000)")
    arena_cmd.add_argument("--seed", type=arguments.whole_number(0, MAX_SEED), default=0,
                           help=f"0 to {MAX_SEED} (default 0)")
    arena_cmd.add_argument("--hero", default="coach",
                           help=f"one of {', '.join(BUILTIN_BOTS)} or module:attribute")
    arena_cmd.add_argument("--opponents", default="probability")
    cores = os.cpu_count() or 1
    arena_cmd.add_argument("--jobs", type=arguments.whole_number(1, cores), default=1,
                           help=f"worker processes, 1 to this machine's {cores} cores")
    arena_cmd.add_argument("--quiet", action="store_true", help="no progress bar")
    arguments.add_rule_options(arena_cmd)

    # Listed for --help only: main() hands "solve" to its own module before parsing.
    commands.add_parser("solve", add_help=False,
                        help="solve a heads-up round exactly (python -m coach solve --help)")
    return parser


def situation_from_args(args: argparse.Namespace) -> Situation:
    """The spot of ``--situation``, or of ``--hand`` and the options after it: then seat 0 is
    me, and the history's bids were made in turn, the last by the seat before me."""
    if args.situation is not None:
        return _situation_alone(args)
    missing = [f"--{name}" for name in ("dice", "players") if getattr(args, name) is None]
    if missing:
        raise ValueError(f"the following arguments are required with --hand: "
                         f"{', '.join(missing)}")
    hand = Hand(args.hand)
    if args.dice < len(hand):
        raise ValueError(f"your hand has {len(hand)} dice but the table only {args.dice}: "
                         "the table count includes your own dice")
    dice = _seat_dice(args, len(hand))
    spoken = (args.history or "").replace(" ", "").split(",")
    bids = [Bid.parse(text) for text in spoken if text]
    if args.bid is not None and (not bids or bids[-1] != args.bid):
        bids.append(args.bid)
    seats = len(dice)
    history = tuple(((seats - len(bids) + index) % seats, bid) for index, bid in enumerate(bids))
    return Situation(arguments.rules_from_arguments(args), dice, 0, hand, history, args.palifico)


def _situation_alone(args: argparse.Namespace) -> Situation:
    """``--situation``'s spot, refusing the options that would say it again."""
    given = [f"--{name.replace('_', '-')}" for name in SPOT_OPTIONS
             if getattr(args, name) not in (None, False)]
    given += [arguments.rule_options(SETTING_BY_NAME[name])[0]
              for name in arguments.given_rule_options(args)]
    if given:
        raise ValueError(f"--situation already holds the whole spot, its rules included: "
                         f"drop {given[0]}")
    return args.situation


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
    spec = ArenaSpec(args.hero, args.opponents, args.players, args.games, args.seed,
                     arguments.rules_from_arguments(args))
    progress = None if args.quiet else ProgressBar()
    results = run_arena(spec, jobs=args.jobs, progress=progress)
    return {"games": spec.games, "players": spec.players, "seed": spec.seed,
            "results": [result.to_dict() for result in results]}


SUBCOMMAND_MODULES = {"solve": "coach.solver.cli"}
"""Subcommands with a parser of their own, each in a module with ``main(argv) -> int``."""


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m coach …``: 0, or 2 after one line on stderr for bad input."""
    arguments_given = list(sys.argv[1:] if argv is None else argv)
    if arguments_given and arguments_given[0] in SUBCOMMAND_MODULES:
        module = importlib.import_module(SUBCOMMAND_MODULES[arguments_given[0]])
        return module.main(arguments_given[1:])
    return arguments.run_command(build_parser(), arguments_given)  # IllegalMove is a ValueError
