"""``python -m practice scenario``: a practice scenario from a seed, as JSON.

With ``--answer``, the learner's action is graded too: its regret and the lifted cups.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from coach.engine.situation import Action
from perudo_math import arguments
from practice.levels import parse_level
from practice.scenarios import THEMES, ScenarioNotFound, generate, grade

PROG = "python -m practice"
MAX_SEED = 2**63 - 1


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    """``python -m practice`` and its ``scenario`` subcommand."""
    parser = arguments.OneLineParser(prog=prog, description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    scenario = arguments.add_command(commands, "scenario", run_scenario,
                                     "a practice scenario from a seed, graded with --answer")
    scenario.add_argument("--seed", type=arguments.whole_number(0, MAX_SEED), default=0,
                          help=f"the scenario's seed, 0 to {MAX_SEED} (default 0)")
    scenario.add_argument("--theme", choices=THEMES, help="default: the seed picks one")
    scenario.add_argument("--level", type=arguments.parsed_by(parse_level),
                          help="1 (clear-cut) to 3 (close call); default: the seed picks one")
    scenario.add_argument("--answer", type=arguments.parsed_by(Action.parse),
                          help="grade this action: dudo, calza or a bid like 5x4")
    arguments.add_rule_options(scenario)
    return parser


def run_scenario(args: argparse.Namespace) -> dict[str, object]:
    """The scenario as JSON values, with the grade of ``--answer`` when given."""
    scenario = generate(args.seed, args.theme, args.level, arguments.rules_from_arguments(args))
    payload = scenario.to_dict()
    if args.answer is not None:
        payload["grade"] = grade(scenario, args.answer).to_dict()
    return payload


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """``python -m practice scenario …``: 0, or 2 after one line on stderr for bad input."""
    return arguments.run_command(build_parser(prog), argv, errors=(ValueError, ScenarioNotFound))


if __name__ == "__main__":
    sys.exit(main())
