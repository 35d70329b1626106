"""``python -m perudo_math``: exact odds and legality checks as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from perudo_math.bid import Bid
from perudo_math.hand import Hand
from perudo_math.legality import check_bid
from perudo_math.probability import odds
from perudo_math.rules import RaiseRule, Rules


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _bid(text: str) -> Bid:
    try:
        return Bid.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _die(text: str) -> int:
    face = {"P": "1", "p": "1"}.get(text.strip(), text.strip())
    if face not in {"1", "2", "3", "4", "5", "6"}:
        raise argparse.ArgumentTypeError(f"a die shows 1 (paco) to 6, not {text!r}")
    return int(face)


def _count(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog="python -m perudo_math", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser)

    odds_cmd = commands.add_parser("odds", help="exact odds of a bid from your hand")
    odds_cmd.add_argument("--hand", nargs="*", type=_die, default=[], metavar="DIE",
                          help="your own dice, 1 (paco) to 6")
    odds_cmd.add_argument("--dice", type=_count, required=True,
                          help="all dice on the table, yours included")
    odds_cmd.add_argument("--bid", type=_bid, required=True, help="the bid, like 5x4 or 3xP")
    odds_cmd.add_argument("--palifico", action="store_true", help="pacos are not jokers")

    check_cmd = commands.add_parser("check", help="is a bid a legal opening or raise")
    check_cmd.add_argument("--bid", type=_bid, required=True, help="the bid, like 7x4")
    check_cmd.add_argument("--previous", type=_bid, help="the bid before it; none: an opening")
    check_cmd.add_argument("--palifico", action="store_true", help="a palifico round")
    check_cmd.add_argument("--raise-rule", choices=[rule.value for rule in RaiseRule],
                           default=RaiseRule.SAME_FACE.value)
    check_cmd.add_argument("--bidder-dice", type=_count, help="dice the bidder holds")
    check_cmd.add_argument("--one-die-may-change-face", action="store_true",
                           help="in palifico, a player with one die may change the face")
    return parser


def run_odds(args: argparse.Namespace) -> dict[str, object]:
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
    rules = Rules(
        raise_rule=RaiseRule(args.raise_rule),
        palifico_one_die_may_change_face=args.one_die_may_change_face,
    )
    verdict = check_bid(args.bid, args.previous, palifico=args.palifico, rules=rules,
                        bidder_dice=args.bidder_dice)
    return {"legal": verdict.legal, "reason": verdict.reason}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    command = {"odds": run_odds, "check": run_check}[args.command]
    try:
        payload = command(args)
    except ValueError as error:
        print(f"{parser.prog} {args.command}: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(payload, ensure_ascii=False))
    return 0
