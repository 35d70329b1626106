"""``python -m coach``: advice for a spot, reviews of games, and matches between bots, as text
for a person on a terminal or as JSON (:mod:`coach.cli_text` words the results).

A match or league stopped by ``--max-seconds`` prints the games played so far and exits 0;
stopped by Ctrl+C, it prints them too and exits 130. Either way ``"stopped"`` says so. A bot
that ends the worker process playing it stops the match with one line naming it, exit 1.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from coach import cli_text
from coach.engine.beliefs import PURE_ODDS, BidReading
from coach.engine.decide import CoachSettings, advise
from coach.engine.situation import Action, Situation
from coach.play.names import (
    BOT_NAMES,
    DEFAULT_EXTRA,
    DEFAULT_GAMES,
    DEFAULT_HERO,
    DEFAULT_OPPONENTS,
    DEFAULT_SIZES,
    MAX_OPPONENTS,
    STYLES,
    Match,
)
from perudo_math import Bid, GameState, Hand, arguments
from perudo_math.checks import is_ascii_digits
from perudo_math.cli import verdict_payload, verdict_text
from perudo_math.legality import check_bid
from perudo_math.limits import MAX_PLAYERS, MAX_TABLE_DICE, MIN_PLAYERS
from perudo_math.rules import SETTING_BY_NAME
from perudo_math.situation import even_split, spoken_in_turn

if TYPE_CHECKING:  # the arena, the league and the review load only in their own commands
    from coach.play.arena import ProgressBar, WorkerLost
    from coach.play.league import LeagueSpec

SPOT_OPTIONS = ("dice", "bid", "palifico", "players", "seat_dice", "history")
"""The options that describe the spot piece by piece, which ``--situation`` replaces."""


MAX_GAMES = 1_000_000
MAX_SEED = 2**63 - 1
MAX_SECONDS = 86_400
MAX_LEAGUE_BOTS = 20
"""Opponents a league plays, and extra matches it adds, at most."""
INTERRUPTED = 130
"""The exit status after Ctrl+C (128 + SIGINT), the partial result printed first."""
WORKER_LOST = 1
"""The exit status when a worker process ended without answering (a bot ended it)."""
DESCRIPTION = ("The coach: advice for a spot, reviews of games, matches and leagues between "
               "bots, and the heads-up solver. A match or league stopped by --max-seconds "
               "prints the games played so far and exits 0; stopped by Ctrl+C, it prints them "
               "too and exits 130. A bot that ends the process playing it is named in one "
               "line, exit 1.")


class Interrupted(Exception):
    """Ctrl+C stopped a match or a league: ``payload`` is the partial result to print as the
    command's arguments, ``namespace``, say."""

    def __init__(self, args: argparse.Namespace, payload: dict[str, object], games: int) -> None:
        super().__init__(f"{args.prog}: interrupted after {games:,} games: the result printed "
                         "is partial")
        self.namespace = args
        self.payload = payload


class Lost(Exception):
    """A worker process of a match or a league ended without answering: ``lost`` says why,
    ``prog`` is the command's name."""

    def __init__(self, args: argparse.Namespace, lost: WorkerLost) -> None:
        super().__init__(str(lost))
        self.prog = args.prog


def build_parser(prog: str = "python -m coach") -> argparse.ArgumentParser:
    parser = arguments.OneLineParser(prog=prog, description=DESCRIPTION,
                                     epilog=arguments.OUTPUT_HELP)
    commands = parser.add_subparsers(dest="command", required=True,
                                     metavar="{advise,review,arena,league,solve}")
    players = arguments.whole_number(MIN_PLAYERS, MAX_PLAYERS)
    _add_advise(commands, players)
    _add_review(commands)
    _add_arena(commands, players)
    _add_league(commands, players)
    # Listed for --help only: main() hands "solve" to its own module before parsing.
    commands.add_parser("solve", add_help=False,
                        help="solve a heads-up round exactly (python -m coach solve --help)")
    return parser


WholeNumber = Callable[[str], int]


def _add_advise(commands: arguments.Subcommands, players: WholeNumber) -> None:
    command = arguments.add_command(
        commands, "advise", run_advise,
        "what to do now, with every option's risk; an illegal bid is refused as check refuses "
        "it (exit status 2)", advice_text)
    spot = command.add_mutually_exclusive_group(required=True)
    spot.add_argument("--hand", nargs="+", type=arguments.die_face, metavar="DIE",
                      help="your dice, 1 (paco) to 6; --dice and --players are then needed")
    spot.add_argument("--situation", type=arguments.parsed_by(Situation.from_json),
                      metavar="JSON",
                      help="the whole spot as compact JSON, as Situation.to_json writes it "
                           '(e.g. {"dice":[2,3],"me":0,"hand":[1,5],"bids":[[1,"2x5"]]}), '
                           "instead of --hand and the options after it")
    command.add_argument("--dice", type=arguments.whole_number(1, MAX_TABLE_DICE),
                         help=f"all dice on the table, yours included: 1 to {MAX_TABLE_DICE}")
    command.add_argument("--bid", type=arguments.bid, help="the current bid; none: you open")
    command.add_argument("--palifico", action="store_true",
                         help="the round is a palifico round (not a rule setting: see "
                              "--palifico-rule)")
    command.add_argument("--players", type=players,
                         help=f"players still in the game, you included: {MIN_PLAYERS} to "
                              f"{MAX_PLAYERS}")
    command.add_argument("--seat-dice", nargs="+",
                         type=arguments.whole_number(0, MAX_TABLE_DICE), metavar="N",
                         help="dice of each player from you clockwise, 0 to "
                              f"{MAX_TABLE_DICE} each (default: even split)")
    command.add_argument("--history",
                         help="this round's bids in order, like 3x4,4x5 (the last one was "
                              "made by the player before you)")
    command.add_argument("--pure-odds", action="store_true",
                         help="ignore what the bids say about the bidders' dice")
    command.add_argument("--bluff", type=arguments.probability, default=None,
                         help="how often the others bluff, 0 to 1 (default 0.6)")
    arguments.add_rule_options(command)


def _add_review(commands: arguments.Subcommands) -> None:
    command = arguments.add_command(
        commands, "review", run_review,
        "a game reviewed move by move: each of your decisions beside the coach's best",
        lambda args, payload: cli_text.review_text(payload))
    source = command.add_mutually_exclusive_group(required=True)
    source.add_argument("--game", type=arguments.parsed_by(GameState.from_code), metavar="CODE",
                        help="a game kept in the tracker: its code (the link's game=...), "
                             "with --seat and a --hand for each round to review")
    source.add_argument("--seed", type=arguments.whole_number(0, MAX_SEED),
                        help=f"a game played in the app against the bots: its seed, 0 to "
                             f"{MAX_SEED}, with --opponents and --moves (the rule options as "
                             "it was played)")
    command.add_argument("--seat", type=arguments.whole_number(0, MAX_PLAYERS - 1),
                         help=f"with --game: your seat, 0 (the first player) to "
                              f"{MAX_PLAYERS - 1}")
    command.add_argument("--hand", action="append", default=[], metavar="ROUND:DICE",
                         type=arguments.parsed_by(_round_hand),
                         help="with --game: your dice in one round, like 3:24456 (round 3, "
                              "1 for a paco); repeat for each round you entered")
    command.add_argument("--opponents", nargs="+", metavar="STYLE",
                         type=arguments.parsed_by(_style),
                         help=f"with --seed: the bots from seat 1 on, 1 to {MAX_OPPONENTS} of "
                              f"{', '.join(STYLES)}")
    command.add_argument("--moves", default="", type=arguments.parsed_by(_moves),
                         help="with --seed: your moves in order, like 3x4.dudo.5xP")
    arguments.add_rule_options(command)


def _round_hand(text: str) -> tuple[int, Hand]:
    number, colon, dice = text.partition(":")
    if not colon or not is_ascii_digits(number, 4) or not is_ascii_digits(dice, 10):
        raise ValueError(f"a round's hand is ROUND:DICE, like 3:24456, not {text[:40]!r}")
    return int(number), Hand(int(face) for face in dice)


def _moves(text: str) -> tuple[Action, ...]:
    from coach.play.bot_game import BotGame

    return BotGame.read_moves(text)


def _style(text: str) -> str:
    if text not in STYLES:
        raise ValueError(f"unknown style {text[:40]!r}: use one of {', '.join(STYLES)}")
    return text


def run_review(args: argparse.Namespace) -> dict[str, object]:
    from coach.play.bot_game import ME, BotGame, BotTable
    from coach.review import move_outcomes, review, tracked_decisions

    if args.game is not None:
        if args.opponents or args.moves:
            raise ValueError("--opponents and --moves go with --seed, not --game")
        if args.seat is None:
            raise ValueError("--game needs --seat: yours, 0 for the first player")
        if arguments.given_rule_options(args):
            raise ValueError("the rule options go with --seed: a tracked game's code holds "
                             "its rules")
        hands: dict[int, Hand] = {}
        for number, hand in args.hand:
            if number in hands:
                raise ValueError(f"--hand: round {number} is given twice")
            hands[number] = hand
        if not hands:
            raise ValueError("--game needs your dice for at least one round: --hand ROUND:DICE")
        decisions = tracked_decisions(args.game, args.seat, hands)
        outcomes = move_outcomes(args.game, args.seat, hands)
    else:
        if args.hand or args.seat is not None:
            raise ValueError("--hand and --seat go with --game: in a game against the bots "
                             "you are seat 0 and your dice are known")
        if not args.opponents:
            raise ValueError("--seed needs --opponents: the bots you played")
        game = BotGame(args.seed, tuple(args.opponents), arguments.rules_from_arguments(args),
                       args.moves)
        table = BotTable(game)
        decisions = [(decision.situation, decision.action) for decision in table.decisions]
        outcomes = move_outcomes(table.state, ME)
    return review(decisions, outcomes=outcomes).to_dict()


def _bot_help(role: str, default: str) -> str:
    return f"{role}: one of {', '.join(BOT_NAMES)} or module:attribute (default {default})"


def _add_common_match_options(command: argparse.ArgumentParser, games_default: int,
                              what: str) -> None:
    """The options a match and a league share: games, seed, jobs, time limit, quiet."""
    command.add_argument("--games", type=arguments.whole_number(1, MAX_GAMES),
                         default=games_default,
                         help=f"{what}, 1 to {MAX_GAMES:,} (default {games_default:,})")
    command.add_argument("--seed", type=arguments.whole_number(0, MAX_SEED), default=0,
                         help=f"0 to {MAX_SEED} (default 0)")
    cores = os.cpu_count() or 1
    command.add_argument("--jobs", type=arguments.whole_number(1, cores), default=1,
                         help=f"worker processes, 1 to this machine's {cores} cores "
                              "(default 1)")
    command.add_argument("--max-seconds", type=arguments.whole_number(1, MAX_SECONDS),
                         metavar="S",
                         help=f"stop after S seconds, 1 to {MAX_SECONDS:,}, and print the "
                              "games played so far (default: no limit)")
    command.add_argument("--quiet", action="store_true",
                         help="no progress bar (drawn on stderr only when it is a terminal)")


def _add_arena(commands: arguments.Subcommands, players: WholeNumber) -> None:
    command = arguments.add_command(commands, "arena", run_match, "whole games between bots",
                                    lambda args, payload: cli_text.match_text(payload))
    command.add_argument("--players", type=players, default=5,
                         help=f"{MIN_PLAYERS} to {MAX_PLAYERS} (default 5)")
    command.add_argument("--hero", default="coach", help=_bot_help("the hero", "coach"))
    command.add_argument("--opponents", default="probability",
                         help=_bot_help("every other seat", "probability"))
    _add_common_match_options(command, 1000, "games")
    arguments.add_rule_options(command)


def _add_league(commands: arguments.Subcommands, players: WholeNumber) -> None:
    command = arguments.add_command(
        commands, "league", run_league_command,
        "the hero against each opponent at each table size, plus set matches",
        lambda args, payload: cli_text.league_text(payload))
    command.add_argument("--hero", default=DEFAULT_HERO, help=_bot_help("the hero", "coach"))
    command.add_argument("--opponents", nargs="+", default=list(DEFAULT_OPPONENTS),
                         metavar="BOT",
                         help=f"1 to {MAX_LEAGUE_BOTS} bots, each played in every seat but "
                              f"the hero's (default {' '.join(DEFAULT_OPPONENTS)})")
    command.add_argument("--sizes", nargs="+", type=players, default=list(DEFAULT_SIZES),
                         metavar="PLAYERS",
                         help=f"table sizes, {MIN_PLAYERS} to {MAX_PLAYERS} players "
                              f"(default {' '.join(map(str, DEFAULT_SIZES))})")
    extra = command.add_mutually_exclusive_group()
    default_extra = "; ".join(f"{m.hero} {m.opponent} {m.players}" for m in DEFAULT_EXTRA)
    extra.add_argument("--extra", nargs=3, action="append", metavar=("HERO", "OPPONENT",
                                                                     "PLAYERS"),
                       help=f"a match to add, repeatable up to {MAX_LEAGUE_BOTS} times "
                            f"(default: {default_extra})")
    extra.add_argument("--no-extra", action="store_true", help="no match beyond the grid")
    command.add_argument("--out", type=Path, metavar="FILE",
                         help="write the JSON there (default: stdout)")
    _add_common_match_options(command, DEFAULT_GAMES, "games per match")
    arguments.add_rule_options(command)


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
    dice = (even_split(len(hand), args.dice, args.players) if args.seat_dice is None
            else _seat_dice(args, len(hand)))
    spoken = (args.history or "").replace(" ", "").split(",")
    bids = [Bid.parse(text) for text in spoken if text]
    if args.bid is not None and (not bids or bids[-1] != args.bid):
        bids.append(args.bid)
    return legal_round(Situation(arguments.rules_from_arguments(args), dice, 0, hand,
                                 spoken_in_turn(bids, len(dice)), args.palifico))


def _situation_alone(args: argparse.Namespace) -> Situation:
    """``--situation``'s spot, refusing the options that would say it again."""
    given = [f"--{name.replace('_', '-')}" for name in SPOT_OPTIONS
             if getattr(args, name) not in (None, False)]
    given += [arguments.rule_options(SETTING_BY_NAME[name])[0]
              for name in arguments.given_rule_options(args)]
    if given:
        raise ValueError(f"--situation already holds the whole spot, its rules included: "
                         f"drop {given[0]}")
    return legal_round(args.situation)


def legal_round(situation: Situation) -> Situation:
    """``situation``, once each of its bids is checked as ``check`` checks it (the rules in
    play, the round, the bidder's dice): ValueError with ``check``'s refusal code and words
    for the first one refused."""
    previous = None
    for seat, bid in situation.bids:
        verdict = check_bid(bid, previous, palifico=situation.palifico, rules=situation.rules,
                            bidder_dice=situation.dice[seat])
        if not verdict.legal:
            raise ValueError(verdict_text(verdict_payload(verdict), bid))
        previous = bid
    return situation


def _seat_dice(args: argparse.Namespace, mine: int) -> tuple[int, ...]:
    """``--seat-dice``, checked against ``--players``, ``--dice`` and my hand."""
    dice = tuple(args.seat_dice)
    if len(dice) != args.players or dice[0] != mine or sum(dice) != args.dice:
        raise ValueError("--seat-dice needs one count per player, yours first, adding up "
                         "to --dice")
    return dice


def run_advise(args: argparse.Namespace) -> dict[str, object]:
    if args.pure_odds:
        reading = PURE_ODDS
    elif args.bluff is not None:
        reading = BidReading.from_bluff_level(args.bluff)
    else:
        reading = BidReading()
    return advise(situation_from_args(args), CoachSettings(reading=reading)).to_dict()


def advice_text(args: argparse.Namespace, payload: dict[str, object]) -> str:
    last = situation_from_args(args).last_bid
    return cli_text.advice_text(payload, None if last is None else str(last))


def _deadline(args: argparse.Namespace) -> float | None:
    return None if args.max_seconds is None else time.monotonic() + args.max_seconds


@contextmanager
def _progress(args: argparse.Namespace) -> Iterator[ProgressBar | None]:
    """A progress bar on stderr when it is a terminal and not ``--quiet`` (a file or a pipe
    would keep every frame), its line ended however the run ends."""
    from coach.play.arena import ProgressBar

    bar = None if args.quiet or not sys.stderr.isatty() else ProgressBar()
    try:
        yield bar
    finally:
        if bar is not None:
            bar.finish()


@contextmanager
def _workers_watched(args: argparse.Namespace) -> Iterator[None]:
    """A worker that ends without answering as :class:`Lost` (exit status 1, not 2: the
    arguments were fine, the process playing a bot was not)."""
    from coach.play.arena import WorkerLost

    try:
        yield
    except WorkerLost as lost:
        raise Lost(args, lost) from None


def _say_stuck(args: argparse.Namespace, stuck: Sequence[str]) -> None:
    for what in stuck:
        print(f"{args.prog}: {what}", file=sys.stderr)


def run_match(args: argparse.Namespace) -> dict[str, object]:
    from coach.play.arena import ArenaSpec, StopReason, play_match

    spec = ArenaSpec(args.hero, args.opponents, args.players, args.games, args.seed,
                     arguments.rules_from_arguments(args))
    with _workers_watched(args), _progress(args) as bar:
        result = play_match(spec, args.jobs, bar, _deadline(args))
    _say_stuck(args, result.stuck)
    payload = result.to_dict()
    if result.stopped is StopReason.INTERRUPTED:
        raise Interrupted(args, payload, result.played)
    return payload


def run_league_command(args: argparse.Namespace) -> dict[str, object]:
    from coach.play.arena import StopReason
    from coach.play.league import run_league

    spec = _league_spec(args)
    if args.out is not None and not args.out.parent.is_dir():
        raise ValueError(f"--out: no folder {str(args.out.parent)!r} to write into")
    with _workers_watched(args), _progress(args) as bar:
        result = run_league(spec, args.jobs, bar, _deadline(args))
    _say_stuck(args, result.stuck)
    payload = result.to_dict()
    if args.out is not None:
        try:
            args.out.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
        except OSError as error:
            raise ValueError(f"--out: cannot write {str(args.out)!r}: {error.strerror}"
                             ) from None
        payload = {"out": str(args.out), "matches": len(result.rows),
                   "stopped": payload["stopped"]}
    if result.stopped is StopReason.INTERRUPTED:
        raise Interrupted(args, payload, sum(row.games for row in result.rows))
    return payload


def _league_spec(args: argparse.Namespace) -> LeagueSpec:
    from coach.play.league import LeagueSpec

    if len(args.opponents) > MAX_LEAGUE_BOTS:
        raise ValueError(f"--opponents: at most {MAX_LEAGUE_BOTS} bots, not "
                         f"{len(args.opponents)}")
    if args.no_extra:
        extra: tuple[Match, ...] = ()
    elif args.extra is None:
        extra = DEFAULT_EXTRA
    elif len(args.extra) > MAX_LEAGUE_BOTS:
        raise ValueError(f"--extra: at most {MAX_LEAGUE_BOTS} matches, not {len(args.extra)}")
    else:
        extra = tuple(_extra_match(*given) for given in args.extra)
    return LeagueSpec(args.hero, tuple(args.opponents), tuple(args.sizes), extra, args.games,
                      args.seed, arguments.rules_from_arguments(args))


def _extra_match(hero: str, opponent: str, players: str) -> Match:
    try:
        count = arguments.whole_number(MIN_PLAYERS, MAX_PLAYERS)(players)
    except argparse.ArgumentTypeError as error:
        raise ValueError(f"--extra {hero} {opponent} PLAYERS: {error}") from None
    return Match(hero, opponent, count)


SUBCOMMAND_MODULES = {"solve": "coach.solver.cli"}
"""Subcommands with a parser of their own, each in a module with ``main(argv) -> int``."""


def main(argv: Sequence[str] | None = None, prog: str = "python -m coach") -> int:
    """``python -m coach …``: 0; 2 after one line on stderr for bad input or a failing bot;
    1 after one line naming the bot that ended its worker process; 130 after Ctrl+C (a match
    or league prints its partial result first)."""
    arguments_given = list(sys.argv[1:] if argv is None else argv)
    try:
        if arguments_given and arguments_given[0] in SUBCOMMAND_MODULES:
            module = importlib.import_module(SUBCOMMAND_MODULES[arguments_given[0]])
            return module.main(arguments_given[1:], prog=f"{prog} {arguments_given[0]}")
        return arguments.run_command(build_parser(prog), arguments_given,
                                     errors=(ValueError,))  # BotFailure included
    except Lost as lost:
        arguments.report_error(lost.prog, lost)
        return WORKER_LOST
    except Interrupted as stop:
        arguments.print_output(stop.namespace, stop.payload)
        print(stop, file=sys.stderr)
        return INTERRUPTED
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return INTERRUPTED
