"""``python -m practice scenario``: a practice scenario from a seed, as JSON.

With ``--answer``, the learner's action is graded too: its regret and the lifted cups.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from perudo_math.cli import _count, _OneLineParser
from practice.levels import parse_level
from practice.scenarios import THEMES, ScenarioNotFound, generate, grade, parse_action

PROG = "python -m practice scenario"


def _level(text: str) -> int:
    """A scenario level read from the command line: 1, 2 or 3."""
    try:
        return parse_level(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    """The ``scenario`` subcommand's options."""
    parser = _OneLineParser(prog=PROG, description=__doc__)
    parser.add_argument("--seed", type=_count, default=0, help="the scenario's seed")
    parser.add_argument("--theme", choices=THEMES, help="default: the seed picks one")
    parser.add_argument("--level", type=_level, help="1 (clear-cut) to 3 (close call); "
                                                     "default: the seed picks one")
    parser.add_argument("--answer", help="grade this action: dudo, calza or a bid like 5x4")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m practice scenario …``: print the scenario (and the grade of ``--answer``)
    as JSON; 2 on bad input."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments or arguments[0] != "scenario":
        print("usage: python -m practice scenario [--seed N] [--theme T] [--level L] "
              "[--answer A]", file=sys.stderr)
        return 2
    args = build_parser().parse_args(arguments[1:])
    try:
        scenario = generate(args.seed, args.theme, args.level)
        payload = scenario.to_dict()
        if args.answer is not None:
            payload["grade"] = grade(scenario, parse_action(args.answer)).to_dict()
    except (ValueError, ScenarioNotFound) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(payload, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
