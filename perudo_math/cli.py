"""``python -m perudo_math``: exact odds and legality checks as JSON."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from perudo_math import arguments
from perudo_math.hand import Hand
from perudo_math.legality import check_bid
from perudo_math.limits import MAX_STARTING_DICE, MAX_TABLE_DICE


def build_parser(prog: str = "python -m perudo_math") -> argparse.ArgumentParser:
    parser = arguments.OneLineParser(prog=prog, description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    odds_cmd = arguments.add_command(commands, "odds", run_odds,
                                     "exact odds of a bid from your hand")
    odds_cmd.add_argument("--hand", nargs="*", type=arguments.die_face, default=[],
                          metavar="DIE",
                          help="your own dice, 1 (paco) to 6, at most as many as --dice")
    odds_cmd.add_argument("--dice", type=arguments.whole_number(1, MAX_TABLE_DICE),
                          required=True,
                          help=f"all dice on the table, yours included: 1 to {MAX_TABLE_DICE}")
    odds_cmd.add_argument("--bid", type=arguments.bid, required=True,
                          help="the bid, like 5x4 or 3xP")
    odds_cmd.add_argument("--palifico", action="store_true",
                          help="a palifico round: pacos are not jokers")

    check_cmd = arguments.add_command(commands, "check", run_check,
                                      "is a bid a legal opening or raise")
    check_cmd.add_argument("--bid", type=arguments.bid, required=True, help="the bid, like 7x4")
    check_cmd.add_argument("--previous", type=arguments.bid,
                           help="the bid before it; none: an opening")
    check_cmd.add_argument("--palifico", action="store_true",
                           help="the round is a palifico round (not a rule setting: see "
                                "--palifico-rule)")
    check_cmd.add_argument("--bidder-dice", type=arguments.whole_number(1, MAX_STARTING_DICE),
                           help=f"dice the bidder holds, 1 to {MAX_STARTING_DICE}")
    arguments.add_rule_options(check_cmd)
    return parser


def run_odds(args: argparse.Namespace) -> dict[str, object]:
    from perudo_math.probability import odds  # numpy: only the odds need it

    result = odds(args.bid, Hand(args.hand), args.dice, palifico=args.palifico)
    return {
        "bid": str(result.bid),
        "palifico": result.palifico,
        "unknown_dice": result.unknown_dice,
        "at_least": result.at_least,
        "exactly": result.exactly,
        "expected": result.expected,
        "distribution": [float(p) for p in result.distribution],
    }


def run_check(args: argparse.Namespace) -> dict[str, object]:
    verdict = check_bid(args.bid, args.previous, palifico=args.palifico,
                        rules=arguments.rules_from_arguments(args), bidder_dice=args.bidder_dice)
    return {"legal": verdict.legal, "reason": verdict.reason}


def main(argv: Sequence[str] | None = None, prog: str = "python -m perudo_math") -> int:
    """``python -m perudo_math …``: 0, or 2 after one line on stderr for bad input."""
    return arguments.run_command(build_parser(prog), argv)
