"""``python -m perudo_math``: JSON on stdout, one line and exit 2 on bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from perudo_math.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_as_a_user_runs_it():
    completed = subprocess.run(
        [sys.executable, "-m", "perudo_math", "odds", "--hand", "1", "2", "2", "5", "6",
         "--dice", "20", "--bid", "5x4"],
        capture_output=True, text=True, check=True,
    )
    payload = json.loads(completed.stdout)
    assert payload["bid"] == "5x4"
    assert payload["palifico"] is False
    assert payload["unknown_dice"] == 15
    assert payload["at_least"] == pytest.approx(0.790760, abs=5e-7)
    assert payload["expected"] == pytest.approx(6.0)
    assert len(payload["distribution"]) == 21
    assert sum(payload["distribution"]) == pytest.approx(1.0)
    assert payload["exactly"] == payload["distribution"][5]


def test_odds_palifico(capsys):
    code, out, _ = run(capsys, "odds", "--hand", "1", "5", "--dice", "2", "--bid", "1x5",
                       "--palifico")
    assert code == 0
    assert json.loads(out)["at_least"] == 1.0
    assert json.loads(out)["palifico"] is True


@pytest.mark.parametrize(
    ("argv", "expected"),
    [(["--bid", "7x4", "--previous", "3xP"], {"legal": True}),
     (["--bid", "6x4", "--previous", "3xP"], {"legal": False}),
     (["--bid", "2xP"], {"legal": False}),
     (["--bid", "2xP", "--palifico"], {"legal": True}),
     (["--bid", "6x4", "--previous", "5x3"], {"legal": False}),
     (["--bid", "6x4", "--previous", "5x3", "--raise-rule", "any-face"], {"legal": True}),
     (["--bid", "2x6", "--previous", "2x5", "--palifico", "--bidder-dice", "1",
       "--one-die-may-change-face"], {"legal": True}),
     (["--bid", "2x6", "--previous", "2x5", "--palifico", "--bidder-dice", "1"],
      {"legal": False})],
)
def test_check(capsys, argv, expected):
    code, out, _ = run(capsys, "check", *argv)
    payload = json.loads(out)
    assert code == 0
    assert payload["legal"] is expected["legal"]
    assert payload["reason"]


def test_check_says_why_in_words(capsys):
    _, out, _ = run(capsys, "check", "--bid", "6x4", "--previous", "3xP")
    assert json.loads(out)["reason"] == (
        "after 3 × P you need at least 7 of a face (twice the pacos plus one)")


@pytest.mark.parametrize(
    ("argv", "words"),
    [(["odds", "--hand", "7", "--dice", "5", "--bid", "2x3"], "a die shows 1 (paco) to 6"),
     (["odds", "--hand", "1", "2", "3", "--dice", "2", "--bid", "2x3"],
      "your hand has 3 dice but the table only 2"),
     (["odds", "--dice", "5", "--bid", "0x3"], "bid quantity must be at least 1"),
     (["odds", "--dice", "5", "--bid", "2x9"], "cannot read bid '2x9'"),
     (["odds", "--dice", "0", "--bid", "2x3"], "at least one die"),
     (["odds", "--dice", "five", "--bid", "2x3"], "expected a whole number"),
     (["check", "--bid", "2x3", "--bidder-dice", "0"], "at least one die"),
     (["check", "--bid", "2x3", "--raise-rule", "up"], "invalid choice"),
     (["roll"], "invalid choice")],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and words in err
    assert "Traceback" not in err


def test_bad_input_from_a_real_process_is_one_line():
    completed = subprocess.run(
        [sys.executable, "-m", "perudo_math", "odds", "--dice", "3", "--bid", "4xQ"],
        capture_output=True, text=True,
    )
    assert completed.returncode == 2
    assert completed.stderr.count("\n") == 1 and "Traceback" not in completed.stderr
