"""``python -m perudo_math``: JSON on stdout (bad input: see test_cli.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from perudo_math.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
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
    assert code == (0 if expected["legal"] else 1)  # 2 is for input it cannot read
    assert payload["legal"] is expected["legal"]
    assert payload["reason"]
    assert (payload["refusal"] is None) is expected["legal"]


def test_check_says_why_in_words(capsys):
    _, out, _ = run(capsys, "check", "--bid", "6x4", "--previous", "3xP")
    assert json.loads(out) == {
        "legal": False, "refusal": "ordinary-too-few",
        "reason": "after 3 × P you need at least 7 of a face (twice the pacos plus one)"}


def test_check_never_offers_a_face_above_six():
    """Issue 11's command: after 2 × 6 there is no higher face to offer."""
    completed = subprocess.run(
        [sys.executable, "-m", "perudo_math", "check", "--bid", "2x4", "--previous", "2x6"],
        capture_output=True, text=True,
    )
    assert completed.returncode == 1  # not legal
    payload = json.loads(completed.stdout)
    assert payload == {"legal": False, "refusal": "face-must-rise",
                       "reason": "after 2 × 6 a lower face is not allowed, and 6 is the "
                                 "highest face: bid more 6s, or go to pacos"}
