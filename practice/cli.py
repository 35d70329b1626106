"""``python -m practice scenario``: a practice scenario from a seed, as text or JSON.

The spot is shown as the learner sees it; the answer (every cup, the true count, the coach's
move and its options) only with ``--reveal``, or once ``--answer`` is graded: its regret and
the lifted cups.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from coach.cli_text import move_of, move_said, options_table, pretty
from coach.engine.situation import Action
from perudo_math import arguments
from perudo_math.arguments import percent
from practice.levels import parse_level
from practice.scenarios import THEMES, ScenarioNotFound, generate, grade

PROG = "python -m practice"
MAX_SEED = 2**63 - 1
DESCRIPTION = "Practice scenarios from a seed, as the Practice page deals them."
ANSWER = ("hidden", "showdown", "true_count", "best", "pure_odds_best", "gap", "options")
"""What a scenario's JSON holds that the learner must not see before answering."""


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    """``python -m practice`` and its ``scenario`` subcommand."""
    parser = arguments.OneLineParser(prog=prog, description=DESCRIPTION,
                                     epilog=arguments.OUTPUT_HELP)
    commands = parser.add_subparsers(dest="command", required=True)
    scenario = arguments.add_command(
        commands, "scenario", run_scenario,
        "a practice scenario from a seed: the spot, graded with --answer, solved with --reveal",
        scenario_text)
    scenario.add_argument("--seed", type=arguments.whole_number(0, MAX_SEED), default=0,
                          help=f"the scenario's seed, 0 to {MAX_SEED} (default 0)")
    scenario.add_argument("--theme", choices=THEMES, help="default: the seed picks one")
    scenario.add_argument("--level", type=arguments.parsed_by(parse_level),
                          help="1 (clear-cut) to 3 (close call); default: the seed picks one")
    scenario.add_argument("--answer", type=arguments.parsed_by(Action.parse),
                          help="grade this action: dudo, calza or a bid like 5x4 (the answer "
                               "is then shown)")
    scenario.add_argument("--reveal", action="store_true",
                          help="show the answer: every cup, the true count, the coach's move "
                               "and its options")
    arguments.add_rule_options(scenario)
    return parser


def run_scenario(args: argparse.Namespace) -> dict[str, object]:
    """The scenario as JSON values, the answer left out unless revealed or graded; with the
    grade of ``--answer`` when given."""
    scenario = generate(args.seed, args.theme, args.level, arguments.rules_from_arguments(args))
    payload = scenario.to_dict()
    if args.answer is not None:
        payload["grade"] = grade(scenario, args.answer).to_dict()
    elif not args.reveal:
        for key in ANSWER:
            del payload[key]
    return payload


# --- words for a person -------------------------------------------------------------------


def _seat(seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat}"


def _loses_or_wins(seat: int | None, me: int, verb: str) -> list[str]:
    """``you lose a die``, ``seat 3 loses a die``; nothing for no seat."""
    if seat is None:
        return []
    return [f"you {verb}" if seat == me else f"seat {seat} {verb.replace(' ', 's ', 1)}"]


def _dice(hand: Sequence[int]) -> str:
    return " ".join(map(str, hand)) or "none"


def spot_lines(payload: dict[str, Any]) -> list[str]:
    """The spot as the learner sees it."""
    me = payload["seat"]
    rules = ", ".join(f"{name.replace('_', ' ')} {value}"
                      for name, value in payload["rules"].items())
    round_kind = "a palifico round (pacos are not jokers)" if payload["palifico"] \
        else "a normal round"
    counts = ", ".join(f"{_seat(seat, me)}: {count}"
                       for seat, count in enumerate(payload["seat_dice"]) if count)
    bids = ", ".join(f"{_seat(seat, me)}: {pretty(bid)}"
                     for seat, bid in zip(payload["bidders"], payload["history"], strict=True))
    return [
        f"Scenario {payload['seed']}: {payload['theme']}, level {payload['level']}"
        + (f" ({rules})." if rules else "."),
        f"You are seat {me}, {payload['players']} players still in, {payload['dice']} dice on "
        f"the table, {round_kind}.",
        f"Dice per seat: {counts}.",
        f"Your dice: {_dice(payload['hand'])}.",
        f"This round's bids: {bids}.",
    ]


def answer_lines(payload: dict[str, Any]) -> list[str]:
    """Every cup, the count, the coach's move and its options table."""
    me, last = payload["seat"], payload["last_bid"]
    lines = []
    if payload["cups"]:
        cups = "; ".join(f"{_seat(seat, me)}: {_dice(hand)}"
                         for seat, hand in enumerate(payload["hidden"]) if hand)
        lines.append(f"The cups: {cups}.")
    if payload["true_count"] is not None:
        lines.append(f"The table holds {payload['true_count']} for {pretty(last)}.")
    best, plain = payload["best"], payload["pure_odds_best"]
    lines.append(f"The coach's move: {move_said(move_of(best))}"
                 + ("" if plain == best else
                    f" (from the dice alone it would be {move_said(move_of(plain))})") + ".")
    return [*lines, "", options_table(payload["options"], last)]


def grade_lines(payload: dict[str, Any]) -> list[str]:
    """How the answer was graded, and what the lifted cups said of it."""
    graded, me = payload["grade"], payload["seat"]
    played = move_said(move_of(graded["action"]))
    verdict = ("the coach's move" if graded["is_best"]
               else "right: close to the coach's" if graded["correct"] else "not the best")
    risk = f"Your {played} loses a die {_risk(graded['lose'], graded['gain'])}"
    if graded["is_best"]:
        risk += ": no risk added."
    else:
        risk += (f"; the coach's {move_said(move_of(graded['best']))} loses one "
                 f"{_risk(graded['best_lose'], graded['best_gain'])}: "
                 f"{graded['regret'] * 100:.1f} points of risk added.")
    lines = [f"Your answer, {played}, is {verdict}.", risk]
    reveal = graded["reveal"]
    if reveal is None:
        return lines
    outcome = (_loses_or_wins(reveal["loser"], me, "lose a die")
               + _loses_or_wins(reveal["gainer"], me, "win one back"))
    if reveal["raise_count"] is not None:
        lines.append(f"The table holds {reveal['raise_count']} for your {played}: called, "
                     f"{' and '.join(outcome) or 'no one loses a die'}.")
    else:
        lines.append(f"The cups lifted: {' and '.join(outcome) or 'no one loses a die'}.")
    return lines


def _risk(lose: float, gain: float) -> str:
    back = f" and wins one back {percent(gain)}" if gain > 0 else ""
    return f"{percent(lose)} of the time{back}"


def scenario_text(args: argparse.Namespace, payload: dict[str, Any]) -> str:
    lines = spot_lines(payload)
    if "best" not in payload:
        return "\n".join([*lines, "Your move: dudo, calza or a raise. Answer with --answer, "
                                  "or see the coach's with --reveal."])
    lines += ["", *answer_lines(payload)]
    if "grade" in payload:
        lines += ["", *grade_lines(payload)]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """``python -m practice scenario …``: 0, or 2 after one line on stderr for bad input."""
    return arguments.run_command(build_parser(prog), argv, errors=(ValueError, ScenarioNotFound))


if __name__ == "__main__":
    sys.exit(main())
