"""The league (issue 10): the coach against every league bot at 2, 3, 5 and 6 players, a coach
among coaches, and the pure-odds coach against liars, as JSON and as a markdown table.

    .venv/bin/python -m benchmarks.league [GAMES] [--jobs N] [--seed S] [--max-seconds S]
                                          [--out league.json] [--hero coach]
                                          [--opponents BOT ...] [--sizes N ...]
                                          [--no-extra]

GAMES is the games per match (default 2,000). The JSON goes to ``--out`` and the table next
to it with the suffix ``.md``. It runs the same runner as ``python -m coach league``
(:func:`coach.play.league.run_league`); Ctrl+C or ``--max-seconds`` keeps the matches played.
Nothing here asserts: the figures are measured.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from coach.play.arena import ProgressBar, StopReason
from coach.play.league import (
    DEFAULT_EXTRA,
    DEFAULT_GAMES,
    DEFAULT_HERO,
    DEFAULT_OPPONENTS,
    DEFAULT_SIZES,
    LeagueSpec,
    league_markdown,
    run_league,
)
from perudo_math import MAX_PLAYERS, MIN_PLAYERS, arguments

PROG = "python -m benchmarks.league"
MAX_GAMES = 1_000_000


def build_parser() -> argparse.ArgumentParser:
    parser = arguments.OneLineParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="?", type=arguments.whole_number(1, MAX_GAMES),
                        default=DEFAULT_GAMES,
                        help=f"games per match, 1 to {MAX_GAMES:,} (default {DEFAULT_GAMES:,})")
    cores = os.cpu_count() or 1
    parser.add_argument("--jobs", type=arguments.whole_number(1, cores), default=1,
                        help=f"worker processes, 1 to {cores} (default 1)")
    parser.add_argument("--seed", type=arguments.whole_number(0, 2**63 - 1), default=0,
                        help="0 to 2**63 - 1 (default 0)")
    parser.add_argument("--max-seconds", type=arguments.whole_number(1, 7 * 86_400),
                        help="stop after this many seconds, 1 to 604,800 (default: no limit)")
    parser.add_argument("--out", type=Path, default=Path("league.json"),
                        help="the JSON file; the markdown table goes beside it (.md)")
    parser.add_argument("--hero", default=DEFAULT_HERO)
    parser.add_argument("--opponents", nargs="+", default=list(DEFAULT_OPPONENTS))
    parser.add_argument("--sizes", nargs="+", default=list(DEFAULT_SIZES),
                        type=arguments.whole_number(MIN_PLAYERS, MAX_PLAYERS),
                        help=f"table sizes, {MIN_PLAYERS} to {MAX_PLAYERS}")
    parser.add_argument("--no-extra", action="store_true",
                        help="leave out the coach among coaches and the pure-odds coach "
                             "against liars")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    extra = () if args.no_extra else DEFAULT_EXTRA
    spec = LeagueSpec(args.hero, tuple(args.opponents), tuple(args.sizes), extra, args.games,
                      args.seed)
    deadline = None if args.max_seconds is None else time.monotonic() + args.max_seconds
    bar = ProgressBar()
    began = time.perf_counter()
    try:
        result = run_league(spec, args.jobs, bar, deadline)
    except ValueError as error:
        return arguments.report_error(PROG, error)
    finally:
        bar.finish()
    payload = {**result.to_dict(), "seconds": round(time.perf_counter() - began, 1),
               "jobs": args.jobs}
    args.out.write_text(json.dumps(payload, indent=1) + "\n")
    markdown = args.out.with_suffix(".md")
    markdown.write_text(league_markdown(result))
    print(f"wrote {args.out} and {markdown}", file=sys.stderr)
    return 130 if result.stopped is StopReason.INTERRUPTED else 0


if __name__ == "__main__":
    sys.exit(main())
