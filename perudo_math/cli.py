"""``python -m perudo_math``: exact odds and legality checks, as text or JSON."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from perudo_math import arguments
from perudo_math.bid import PACO, Bid, face_plural
from perudo_math.hand import Hand
from perudo_math.legality import Verdict, check_bid
from perudo_math.limits import MAX_STARTING_DICE, MAX_TABLE_DICE

DESCRIPTION = "Exact odds of a bid, and whether a bid is legal."
ILLEGAL = 1
"""The exit status of ``check`` for a bid that is not legal (0: legal; 2: unreadable input)."""


def build_parser(prog: str = "python -m perudo_math") -> argparse.ArgumentParser:
    parser = arguments.OneLineParser(prog=prog, description=DESCRIPTION,
                                     epilog=arguments.OUTPUT_HELP)
    commands = parser.add_subparsers(dest="command", required=True)

    odds_cmd = arguments.add_command(commands, "odds", run_odds,
                                     "exact odds of a bid from your hand", odds_text)
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

    check_cmd = arguments.add_command(
        commands, "check", run_check,
        "is a bid a legal opening or raise (exit status 0: legal, 1: not legal)", check_text,
        status=lambda payload: 0 if payload["legal"] else ILLEGAL)
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
    return verdict_payload(verdict)


def verdict_payload(verdict: Verdict) -> dict[str, object]:
    """A verdict as JSON values: legal or not, the refusal's code (``None`` when legal) and
    its words."""
    refusal = None if verdict.refusal is None else verdict.refusal.value
    return {"legal": verdict.legal, "refusal": refusal, "reason": verdict.reason}


# --- words for a person -------------------------------------------------------------------


def verdict_text(payload: dict[str, Any], bid: Bid) -> str:
    """A verdict in one line: its words, and the refusal's code when the bid is refused."""
    if payload["legal"]:
        return payload["reason"]
    return f"{bid.pretty()} is not legal ({payload['refusal']}): {payload['reason']}"


def check_text(args: argparse.Namespace, payload: dict[str, Any]) -> str:
    return verdict_text(payload, args.bid)


def odds_text(args: argparse.Namespace, payload: dict[str, Any]) -> str:
    """The bid's chances in a sentence, then how many dice of its face the table may hold."""
    bid: Bid = args.bid
    faces = face_plural(bid.face)
    if payload["palifico"]:
        jokers = " (a palifico round: pacos are not jokers)"
    else:
        jokers = "" if bid.face == PACO else f" (pacos count as {faces})"
    lines = [
        f"{bid.pretty()} is true {arguments.percent(payload['at_least'])} of the time, exactly "
        f"right {arguments.percent(payload['exactly'])} of the time.",
        f"Expected on the table: {payload['expected']:.1f} {faces}{jokers}; "
        f"{payload['unknown_dice']} of its {args.dice} dice are unknown to you.",
        "",
    ]
    distribution = payload["distribution"]
    rows = [[faces, "exactly", "at least"]]
    for count, chance in enumerate(distribution):
        if chance >= 0.0005:  # the counts that print above 0.0%
            rows.append([str(count), arguments.percent(chance),
                         arguments.percent(sum(distribution[count:]))])
    lines.append(arguments.columns(rows, right={0, 1, 2}))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, prog: str = "python -m perudo_math") -> int:
    """``python -m perudo_math …``: 0 (``check``: 1 for a bid that is not legal), or 2 after
    one line on stderr for bad input."""
    return arguments.run_command(build_parser(prog), argv)
