"""Every command line: one argument module, rule options from the settings, bad input as one
line on stderr with exit status 2, ``--help`` everywhere, and ``coach advise --situation``."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

import coach.cli
import perudo_math.cli
import practice.cli
from coach import Situation, advise
from perudo_math import SETTINGS, Bid, GameState, Hand, Rules, arguments
from perudo_math.rules import SETTING_BY_NAME, SettingKind

PERUDO_MATH, COACH, PRACTICE = perudo_math.cli.main, coach.cli.main, practice.cli.main
SPOT = '{"dice":[2,2],"me":0,"hand":[1,2],"bids":[[1,"1x5"]]}'
TRACKED = GameState.new(["Ana", "Ben"]).bid("2x3").to_code()


def run(main, argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --- bad input: exit 2, one line on stderr, nothing on stdout -----------------------------

BAD_INPUT = [
    (PERUDO_MATH, [], "required: command"),
    (PERUDO_MATH, ["roll"], "invalid choice"),
    (PERUDO_MATH, ["odds", "--hand", "7", "--dice", "5", "--bid", "2x3"], "a die shows 1"),
    (PERUDO_MATH, ["odds", "--hand", "1", "2", "3", "--dice", "2", "--bid", "2x3"],
     "your hand has 3 dice but the table only 2"),
    (PERUDO_MATH, ["odds", "--dice", "5", "--bid", "0x3"], "bid quantity must be at least 1"),
    (PERUDO_MATH, ["odds", "--dice", "5", "--bid", "2x9"], "cannot read bid '2x9'"),
    (PERUDO_MATH, ["odds", "--dice", "0", "--bid", "2x3"], "from 1 to 100, not '0'"),
    (PERUDO_MATH, ["odds", "--dice", "five", "--bid", "2x3"], "expected a whole number"),
    (PERUDO_MATH, ["odds", "--dice", "500", "--bid", "2x3"], "from 1 to 100, not '500'"),
    (PERUDO_MATH, ["odds", "--bid", "2x3"], "required: --dice"),
    (PERUDO_MATH, ["odds", "--dice", "5", "--bid", "2x3", "--raise-rule", "any-face"],
     "unrecognized arguments"),
    (PERUDO_MATH, ["check", "--bid"], "expected one argument"),
    (PERUDO_MATH, ["check", "--bid", "2x3", "--bidder-dice", "0"], "from 1 to 10, not '0'"),
    (PERUDO_MATH, ["check", "--bid", "2x3", "--raise-rule", "up"], "invalid choice: 'up'"),
    (PERUDO_MATH, ["check", "--bid", "2x3", "--starting-dice", "11"], "from 1 to 10"),
    (PERUDO_MATH, ["check", "--bid", "2x3", "--palifico-rule", "never"], "invalid choice"),
    (PERUDO_MATH, ["check", "--bid", "2x3", "--salsa=1"], "ignored explicit argument"),
    (PERUDO_MATH, ["check", "--bid", "2x3", "--no-calza", "--calza-out-of-turn"],
     "--calza-out-of-turn only applies with --calza on"),
    (COACH, [], "required: {advise,review,arena,league,solve}"),
    (COACH, ["advise"], "one of the arguments --hand --situation is required"),
    (COACH, ["advise", "--hand", "1", "9", "--dice", "8", "--players", "3"], "a die shows"),
    (COACH, ["advise", "--hand", "1", "2", "--dice", "1", "--players", "3"], "your hand has 2"),
    (COACH, ["advise", "--hand", "1", "2", "--dice", "3", "--players", "3"],
     "need at least 2 dice"),
    (COACH, ["advise", "--hand", "1", "2", "--dice", "8", "--players", "11"], "from 2 to 10"),
    (COACH, ["advise", "--hand", "1", "2", "--dice", "8"], "required with --hand: --players"),
    (COACH, ["advise", "--hand", "1", "2", "--dice", "8", "--players", "3", "--history", "3x"],
     "cannot read bid"),
    (COACH, ["advise", "--hand", "1", "2", "--dice", "8", "--players", "2", "--bluff", "2"],
     "a probability from 0 to 1"),
    (COACH, ["advise", "--hand", "1", "2", "--dice", "8", "--players", "2", "--bluff", "nan"],
     "a finite number"),
    (COACH, ["advise", "--hand", "1", "2", "--dice", "8", "--players", "2", "--seat-dice",
             "2", "5"], "--seat-dice needs one count per player"),
    (COACH, ["advise", "--hand", "1", "2", "--dice", "8", "--players", "2", "--seat-dice",
             "2", "-6"], "from 0 to 100, not '-6'"),
    (COACH, ["advise", "--hand", "1", "2", "--dice", "8", "--players", "2", "--calza-heads-up",
             "--no-calza"], "--calza-heads-up only applies with --calza on"),
    (COACH, ["advise", "--situation", SPOT, "--hand", "1", "2"], "not allowed with"),
    (COACH, ["advise", "--situation", SPOT, "--bid", "2x3"], "drop --bid"),
    (COACH, ["advise", "--situation", SPOT, "--players", "2"], "drop --players"),
    (COACH, ["advise", "--situation", SPOT, "--palifico"], "drop --palifico"),
    (COACH, ["advise", "--situation", SPOT, "--raise-rule", "any-face"], "drop --raise-rule"),
    (COACH, ["advise", "--situation", SPOT.replace("}", ',"palifico":"false"}')],
     "palifico must be true or false, not 'false'"),
    (COACH, ["advise", "--situation", "[" * 50_000], "nested too deeply"),
    (COACH, ["advise", "--situation", "{'dice': [2, 2]}"], "Expecting property name"),
    (COACH, ["advise", "--situation", '{"dice":[2,2],"me":true,"hand":[1,2]}'],
     "me (your seat) must be a whole number"),
    (COACH, ["arena", "--hero", "nobody"], "unknown bot"),
    (COACH, ["arena", "--hero", "no_such_module_here:bot"], "cannot import bot module"),
    (COACH, ["arena", "--players", "1"], "from 2 to 10"),
    (COACH, ["arena", "--games", "0"], "from 1 to 1000000"),
    (COACH, ["arena", "--jobs", "0"], "expected a whole number from 1 to"),
    (COACH, ["arena", "--starting-dice", "0"], "from 1 to 10"),
    (COACH, ["solve", "--dice", "0", "1", "--game", "perudo"], "from 1 to 3, not '0'"),
    (COACH, ["solve", "--dice", "3", "3", "--game", "perudo"], "at most 4 dice in all"),
    (COACH, ["solve", "--dice", "1", "1", "--game", "chess"], "invalid choice"),
    (COACH, ["solve", "--dice", "1", "one", "--game", "perudo"], "expected a whole number"),
    (COACH, ["solve", "--dice", "1", "1", "--game", "perudo", "--iterations", "0"],
     "from 1 to 1000000"),
    (COACH, ["solve", "--dice", "1", "1", "--game", "perudo", "--iterations", "5", "--method",
             "lp"], "--iterations applies to the cfr method only"),
    (COACH, ["solve", "--dice", "1", "2", "--game", "perudo", "--method", "lp"],
     "the lp method takes at most"),
    (COACH, ["solve", "--dice", "1", "1", "--game", "snyd-normal", "--calza-heads-up"],
     "--calza-heads-up applies to our rules"),
    (COACH, ["solve", "--dice", "1", "1", "--game", "snyd-joker", "--raise-rule", "any-face"],
     "--raise-rule applies to our rules"),
    (COACH, ["solve", "--dice", "1", "1", "--game", "perudo", "--target", "0"],
     "a number from 1e-06 to 1, not '0'"),
    (COACH, ["solve", "--dice", "1", "1", "--game", "perudo", "--target", "inf"], "finite"),
    (COACH, ["solve", "--dice", "1", "1"], "required: --game"),
    (COACH, ["review"], "one of the arguments --game --seed is required"),
    (COACH, ["review", "--game", "zzz", "--hand", "1:2"], "this game link is damaged"),
    (COACH, ["review", "--seed", "3"], "--seed needs --opponents"),
    (COACH, ["review", "--seed", "3", "--opponents", "shark"], "unknown style 'shark'"),
    (COACH, ["review", "--seed", "3", "--opponents", *["odds"] * 6], "1 to 5 opponents"),
    (COACH, ["review", "--seed", "3", "--opponents", "odds", "--moves", "bluff"],
     "move 1 is not a move"),
    (COACH, ["review", "--seed", "3", "--opponents", "odds", "--moves", "dudo.dudo"],
     "dudo, is not legal: no bid to challenge yet"),
    (COACH, ["review", "--seed", "3", "--opponents", "odds", "--hand", "1:23"],
     "--hand and --seat go with --game"),
    (COACH, ["review", "--seed", "3", "--opponents", "odds", "--seat", "2"],
     "--hand and --seat go with --game"),
    (COACH, ["review", "--game", TRACKED, "--hand", "1:23356"], "--game needs --seat"),
    (COACH, ["review", "--game", TRACKED, "--seat", "0", "--hand", "1:23356", "--salsa"],
     "the rule options go with --seed"),
    (COACH, ["review", "--seed", "3", "--opponents", *["reader"] * 5, "--starting-dice", "6"],
     "at most 30 dice"),
    (COACH, ["review", "--seed", "-1", "--opponents", "odds"], "expected a whole number"),
    (PRACTICE, [], "required: command"),
    (PRACTICE, ["quiz"], "invalid choice: 'quiz'"),
    (PRACTICE, ["scenario", "--theme", "bluffing"], "invalid choice: 'bluffing'"),
    (PRACTICE, ["scenario", "--level", "4"], "a level is 1, 2 or 3"),
    (PRACTICE, ["scenario", "--seed", "x"], "expected a whole number from 0 to"),
    (PRACTICE, ["scenario", "--seed", "7", "--answer", "99x9"], "cannot read bid '99x9'"),
    (PRACTICE, ["scenario", "--seed", "7", "--answer", "bluff"], "not dudo, calza or a bid"),
    (PRACTICE, ["scenario", "--seed", "7", "--answer", "1x2"], "not a legal move here"),
    (PRACTICE, ["scenario", "--theme", "calza", "--no-calza"], "calza switched on"),
    (PRACTICE, ["scenario", "--raise-rule", "both"], "invalid choice: 'both'"),
]


@pytest.mark.parametrize(("main", "argv", "words"), BAD_INPUT,
                         ids=[f"{main.__module__}:{' '.join(argv)[:50]}"
                              for main, argv, _ in BAD_INPUT])
def test_bad_input_exits_2_with_one_line_on_stderr(capsys, main, argv, words):
    code, out, err = run(main, argv, capsys)
    assert (code, out) == (2, "")
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("python -m ") and ": error: " in err
    assert words in err and "Traceback" not in err


@pytest.mark.parametrize(("module", "argv"), [
    ("perudo_math", ["odds", "--dice", "3", "--bid", "4xQ"]),
    ("coach", ["advise", "--situation", "{"]),
    ("coach", ["solve", "--dice", "1", "1", "--game", "go"]),
    ("coach.solver.cli", ["--dice", "1"]),
    ("practice", ["scenario", "--level", "9"]),
])
def test_bad_input_from_a_real_process_is_one_line(module, argv):
    done = subprocess.run([sys.executable, "-m", module, *argv], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


# --- --help for every command and subcommand --------------------------------------------

HELP = [(PERUDO_MATH, []), (PERUDO_MATH, ["odds"]), (PERUDO_MATH, ["check"]),
        (COACH, []), (COACH, ["advise"]), (COACH, ["review"]), (COACH, ["arena"]),
        (COACH, ["solve"]),
        (PRACTICE, []), (PRACTICE, ["scenario"])]
RULE_TAKERS = [(PERUDO_MATH, ["check"]), (COACH, ["advise"]), (COACH, ["review"]),
               (COACH, ["arena"]),
               (COACH, ["solve"]), (PRACTICE, ["scenario"])]


@pytest.mark.parametrize(("main", "argv"), HELP,
                         ids=[f"{main.__module__}:{' '.join(argv)}" for main, argv in HELP])
def test_help_works_for_every_command(capsys, main, argv):
    code, out, err = run(main, [*argv, "--help"], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("usage: python -m ")


@pytest.mark.parametrize(("main", "argv"), RULE_TAKERS,
                         ids=[f"{main.__module__}:{' '.join(argv)}" for main, argv in RULE_TAKERS])
def test_every_rule_setting_is_an_option_of_every_command_taking_rules(capsys, main, argv):
    _, out, _ = run(main, [*argv, "--help"], capsys)
    help_text = " ".join(out.split())
    for setting in SETTINGS:
        assert arguments.rule_options(setting)[0] in help_text
    assert "--palifico-rule says which rounds are palifico; --palifico" in help_text


def test_the_coach_lists_solve_among_its_commands(capsys):
    _, out, _ = run(COACH, ["--help"], capsys)
    assert "{advise,review,arena,league,solve}" in out and "solve a heads-up round" in out


# --- the argument module ----------------------------------------------------------------


def parse(argv: list[str]) -> argparse.Namespace:
    parser = arguments.OneLineParser(prog="test")
    arguments.add_rule_options(parser)
    return parser.parse_args(argv)


def other_value(setting) -> tuple[list[str], object]:
    """Options that set ``setting`` away from its default, and the value they set."""
    option = arguments.rule_options(setting)[0]
    match setting.kind:
        case SettingKind.SWITCH:
            return ([option] if not setting.default else ["--no-" + option[2:]],
                    not setting.default)
        case SettingKind.NUMBER:
            value = setting.maximum if setting.default != setting.maximum else setting.minimum
            return [option, str(value)], value
    value = next(choice for choice in setting.choices if choice != setting.default)
    return [option, value], value


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda setting: setting.name)
def test_each_rule_option_sets_its_setting(setting):
    options, value = other_value(setting)
    requires = [] if setting.requires is None else [
        arguments.rule_options(SETTING_BY_NAME[setting.requires])[0]]
    args = parse(options + requires)
    assert arguments.given_rule_options(args)[setting.name] == value
    assert getattr(arguments.rules_from_arguments(args), setting.name) == value


def test_rules_left_out_keep_their_defaults_and_old_names_still_work():
    assert arguments.given_rule_options(parse([])) == {}
    assert arguments.rules_from_arguments(parse([])) == Rules()
    older = arguments.rules_from_arguments(parse(["--one-die-may-change-face"]))
    assert older == Rules(palifico_one_die_may_change_face=True)


def test_palifico_is_the_round_and_palifico_rule_the_setting(capsys):
    _, out, _ = run(PERUDO_MATH, ["check", "--bid", "2xP", "--palifico"], capsys)
    assert json.loads(out)["legal"] is True  # pacos may open a palifico round
    _, out, _ = run(PERUDO_MATH, ["check", "--bid", "2xP", "--palifico-rule", "while-one-die"],
                    capsys)
    assert json.loads(out)["legal"] is False  # a rule setting does not make the round palifico


@pytest.mark.parametrize(("make", "text", "value"), [
    (arguments.whole_number(), "-3", -3),
    (arguments.whole_number(1), "1", 1),
    (arguments.whole_number(2, 10), "10", 10),
    (arguments.whole_number(maximum=5), "5", 5),
    (arguments.die_face, "P", 1),
    (arguments.die_face, " 6 ", 6),
    (arguments.probability, "0", 0.0),
    (arguments.probability, "1", 1.0),
    (arguments.positive_number, "1e-9", 1e-9),
    (arguments.bid, "3×P", Bid(3, 1)),
])
def test_argument_types_read_good_values(make, text, value):
    assert make(text) == value


@pytest.mark.parametrize(("make", "text", "words"), [
    (arguments.whole_number(), "2.0", "expected a whole number, not '2.0'"),
    (arguments.whole_number(), "9" * 5000, "expected a whole number"),
    (arguments.whole_number(1), "0", "a whole number of at least 1, not '0'"),
    (arguments.whole_number(maximum=5), "6", "a whole number of at most 5, not '6'"),
    (arguments.whole_number(2, 10), "1", "a whole number from 2 to 10, not '1'"),
    (arguments.die_face, "0", "a die shows 1 (paco) to 6, not '0'"),
    (arguments.die_face, "Q", "a die shows 1 (paco) to 6"),
    (arguments.probability, "1.01", "a probability from 0 to 1"),
    (arguments.probability, "-0.1", "a probability from 0 to 1"),
    (arguments.probability, "nan", "a finite number"),
    (arguments.probability, "half", "expected a number, not 'half'"),
    (arguments.positive_number, "0", "above 0"),
    (arguments.positive_number, "-inf", "a finite number"),
    (arguments.bid, "5y4", "cannot read bid '5y4'"),
])
def test_argument_types_refuse_bad_values_in_words(make, text, words):
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        make(text)
    assert words in str(caught.value)


def test_errors_are_flattened_to_one_line(capsys):
    assert arguments.one_line("a\nb\r\nc") == "a b c"
    assert arguments.report_error("prog", ValueError("two\nlines")) == 2
    assert capsys.readouterr().err == "prog: error: two lines\n"


# --- coach advise: rule options and --situation -----------------------------------------


def advise_json(capsys, *argv: str) -> dict:
    code, out, err = run(COACH, ["advise", *argv], capsys)
    assert (code, err) == (0, ""), err
    return json.loads(out)


SPOT_ARGS = ["--hand", "1", "1", "5", "2", "3", "--dice", "8", "--bid", "4x5", "--players",
             "3", "--history", "3x5,4x5"]


def test_situation_gives_the_same_advice_as_the_separate_options(capsys):
    spot = Situation(Rules(), (5, 2, 1), 0, Hand([1, 1, 5, 2, 3]), ((1, Bid(3, 5)), (2, Bid(4, 5))))
    assert advise_json(capsys, "--situation", spot.to_json()) == advise_json(capsys, *SPOT_ARGS)


def test_the_readme_situation_is_the_readme_spot(capsys):
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    written = readme.split("--situation '", 1)[1].split("'", 1)[0]
    assert advise_json(capsys, "--situation", written) == advise_json(capsys, *SPOT_ARGS)


@pytest.mark.parametrize("spot", [
    Situation(Rules(), (2, 3, 0, 1), 3, Hand([6]), ((0, Bid(1, 6)), (1, Bid(2, 6)))),
    Situation(Rules(calza_heads_up=True, starting_dice=3), (2, 2), 1, Hand([1, 4]),
              ((0, Bid(2, 4)),)),
    Situation(Rules(raise_rule="any-face"), (1, 3, 2), 0, Hand([5]), ((2, Bid(2, 5)),), True),
    Situation(Rules(), (4, 4, 4), 2, Hand([2, 2, 3, 1])),
], ids=["me-last-seat", "heads-up-calza", "palifico-any-face", "opening"])
def test_situation_advice_is_the_engines(capsys, spot):
    expected = json.loads(json.dumps(advise(spot).to_dict()))
    assert advise_json(capsys, "--situation", spot.to_json()) == expected


def test_rule_options_reach_the_advice(capsys):
    kinds = {option["action"] for option in advise_json(capsys, *SPOT_ARGS)["options"]}
    assert "calza" in kinds
    without = advise_json(capsys, *SPOT_ARGS, "--no-calza")
    assert "calza" not in {option["action"] for option in without["options"]}
    heads_up = ["--hand", "2", "3", "--dice", "4", "--bid", "2x3", "--players", "2"]
    assert "calza" not in {o["action"] for o in advise_json(capsys, *heads_up)["options"]}
    allowed = advise_json(capsys, *heads_up, "--calza-heads-up")
    assert "calza" in {option["action"] for option in allowed["options"]}


def test_rule_options_reach_the_arena_and_the_scenarios(capsys):
    code, out, _ = run(COACH, ["arena", "--players", "2", "--games", "3", "--quiet",
                               "--starting-dice", "1", "--no-calza"], capsys)
    assert code == 0 and json.loads(out)["games"] == 3
    code, out, _ = run(PRACTICE, ["scenario", "--seed", "3", "--raise-rule", "any-face"], capsys)
    assert code == 0 and json.loads(out)["rules"] == {"raise_rule": "any-face"}


def test_solve_takes_the_rule_settings_for_our_rules(capsys):
    code, out, _ = run(COACH, ["solve", "--dice", "1", "1", "--game", "perudo", "--method", "lp",
                               "--calza-heads-up"], capsys)
    assert code == 0 and set(json.loads(out)) == {"value", "exploitability", "seconds",
                                                  "iterations", "target_reached"}
