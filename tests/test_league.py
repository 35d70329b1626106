"""The league: the arena's matches in a grid of opponents and table sizes, plus set matches;
its rows, their fair shares, the partial league a deadline or Ctrl+C leaves, the command
line and the benchmark script."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coach.cli import main
from coach.play import StopReason, play_match
from coach.play.arena import ArenaSpec
from coach.play.league import (
    DEFAULT_EXTRA,
    LeagueSpec,
    Match,
    MatchRow,
    league_markdown,
    run_league,
)
from perudo_math import Rules

ROOT = Path(__file__).resolve().parent.parent
SMALL = LeagueSpec("n3", ("random", "probability"), (2, 3), (Match("n3", "n3", 3),), games=4,
                   seed=2)


def test_the_grid_then_the_extra_matches_each_once():
    spec = LeagueSpec("n3", ("random", "probability", "random"), (2, 3, 2),
                      (Match("n3", "random", 2), Match("probability", "n3", 5)))
    assert spec.matches == (Match("n3", "random", 2), Match("n3", "random", 3),
                            Match("n3", "probability", 2), Match("n3", "probability", 3),
                            Match("probability", "n3", 5))
    assert LeagueSpec().matches[-2:] == DEFAULT_EXTRA
    assert [str(match) for match in DEFAULT_EXTRA] == ["coach vs 4 coach",
                                                       "coach-pure-odds vs 4 liar"]


def test_each_row_is_the_arena_s_match():
    result = run_league(SMALL)
    assert result.stopped is None and len(result.rows) == 5
    for row in result.rows:
        match = row.match
        alone = play_match(ArenaSpec(match.hero, match.opponent, match.players, 4, seed=2))
        assert (row.games, row.wins) == (alone.played, alone.hero_wins)
        assert row.fair_share == 1 / match.players


def test_the_same_league_whatever_the_jobs():
    assert run_league(SMALL).rows == run_league(SMALL, jobs=2).rows


def test_a_row_tells_whether_the_lower_bound_reaches_the_fair_share():
    strong = MatchRow(Match("a", "b", 2), games=2000, wins=1300)
    weak = MatchRow(Match("a", "b", 2), games=2000, wins=700)
    close = MatchRow(Match("a", "b", 5), games=100, wins=22)
    assert (strong.at_least_fair, strong.verdict) == (True, "above")
    assert (weak.at_least_fair, weak.verdict) == (False, "below")
    assert (close.at_least_fair, close.verdict) == (False, "unclear")
    payload = strong.to_dict()
    assert payload == {"hero": "a", "opponent": "b", "players": 2, "games": 2000,
                       "wins": 1300, "win_rate": 0.65, "ci95": payload["ci95"],
                       "fair_share": 0.5, "at_least_fair": True, "stopped": None}
    assert payload["ci95"][0] > 0.5
    assert MatchRow(Match("a", "b", 2), 0, 0).verdict == "unclear"


def test_a_deadline_keeps_the_matches_played_and_the_one_cut_short():
    spec = LeagueSpec("random", ("random", "n3"), (2,), (), games=10**6,
                      rules=Rules(starting_dice=1))
    result = run_league(spec, deadline=time.monotonic() + 1)
    assert result.stopped is StopReason.TIME_LIMIT and len(result.rows) == 1
    row = result.rows[0]
    assert row.stopped is StopReason.TIME_LIMIT and 0 < row.games < 10**6
    assert result.to_dict()["matches_planned"] == 2


def test_ctrl_c_keeps_the_league_so_far():
    calls: list[tuple[int, int, str]] = []

    def progress(done: int, total: int, label: str) -> None:
        calls.append((done, total, label))
        if label.startswith("match 2/") and done >= 6:
            raise KeyboardInterrupt

    result = run_league(SMALL, progress=progress)
    assert result.stopped is StopReason.INTERRUPTED
    assert [row.games for row in result.rows] == [4, 2]
    assert calls[0] == (1, 20, "match 1/5: n3 vs random")
    assert calls[-1][:2] == (6, 20)


def test_unknown_bots_are_refused_before_any_game():
    calls = []
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        run_league(LeagueSpec("n3", ("random", "nobody"), (2,), (), 3),
                   progress=lambda *given: calls.append(given))
    assert calls == []


def test_the_markdown_table():
    text = league_markdown(run_league(SMALL))
    lines = text.splitlines()
    assert lines[0] == ("| match | players | games | win rate | 95 % interval | fair share | "
                        "verdict |")
    assert len(lines) == 2 + 5
    assert lines[2].startswith("| n3 vs random | 2 | 4 | ") and "| 0.500 |" in lines[2]
    assert "n3 vs 2 n3 | 3 |" in lines[-1]


def test_the_command_line(capsys, tmp_path, monkeypatch):
    argv = ["league", "--hero", "n3", "--opponents", "random", "probability", "--sizes", "2",
            "3", "--extra", "n3", "n3", "3", "--games", "4", "--seed", "2"]
    assert main([*argv, "--quiet"]) == 0
    out, err = capsys.readouterr()
    payload = json.loads(out)
    assert err == "" and payload["stopped"] is None and len(payload["matches"]) == 5
    assert payload["matches"] == [row.to_dict() for row in run_league(SMALL).rows]
    first = payload["matches"][0]
    assert {"hero", "opponent", "players", "games", "wins", "win_rate", "ci95", "fair_share",
            "at_least_fair"} <= set(first)

    out_file = tmp_path / "league.json"
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the bar is drawn on a terminal
    assert main([*argv, "--out", str(out_file)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == {"out": str(out_file), "matches": 5, "stopped": None}
    assert json.loads(out_file.read_text()) == payload
    assert "20/20 games" in err and "match 5/5: n3 vs 2 n3" in err


def test_the_command_line_with_a_time_limit(capsys):
    assert main(["league", "--hero", "random", "--opponents", "random", "n3", "--sizes", "2",
                 "--no-extra", "--games", "1000000", "--starting-dice", "1", "--max-seconds",
                 "1", "--quiet", "--jobs", "2"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["stopped"] == "time-limit" and len(payload["matches"]) == 1
    assert payload["matches"][0]["stopped"] == "time-limit"


def test_the_benchmark_script_runs_the_same_league(tmp_path):
    out = tmp_path / "league.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "league.py"), "4", "--seed", "2", "--hero",
         "n3", "--opponents", "random", "probability", "--sizes", "2", "3", "--no-extra",
         "--out", str(out)],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    payload = json.loads(out.read_text())
    grid = [row.to_dict() for row in run_league(LeagueSpec(
        "n3", ("random", "probability"), (2, 3), (), games=4, seed=2)).rows]
    assert payload["matches"] == grid
    table = out.with_suffix(".md").read_text()
    assert table.startswith("| match | players | games |")


def test_the_league_opponents_are_built_in_bots():
    from coach.play.bots import BUILTIN_BOTS, N3Bot, load_bot
    from coach.play.opponents import OPPONENTS

    assert set(OPPONENTS) == {"reader", "liar", "tight", "mix", "planner", "adaptive"}
    for name, factory in OPPONENTS.items():
        assert load_bot(name) is factory is BUILTIN_BOTS[name]
    assert BUILTIN_BOTS["n3"] is N3Bot  # the built-ins stay what they are
