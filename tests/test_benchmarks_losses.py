"""The loss tally plays the arena's games and counts every die of them."""

from __future__ import annotations

from benchmarks.losses import CAUSES, report, tally
from coach.play.arena import ArenaSpec, play_match


def test_tally_plays_the_arenas_games_and_counts_one_die_a_round() -> None:
    spec = ArenaSpec("probability", "n3", players=3, games=12, seed=5)
    found = tally(spec)
    assert found.games == 12
    assert found.hero_wins == play_match(spec).hero_wins  # the same games, seat for seat
    for players in (3, 2):
        rounds = sum(found.counts[side, players, "rounds"] for side in ("hero", "others"))
        assert rounds > 0 and rounds % players == 0
        changed = sum(found.counts[side, players, cause]
                      for side in ("hero", "others") for cause in CAUSES)
        assert changed == rounds // players  # neither bot calls calza: one die lost a round
    assert "probability vs 2 x n3" in report(spec, found)
