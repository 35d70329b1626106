"""A long round on the pages (issue 31, point 1): its first and last bids shown, the ones
between counted, so that a round typed with thousands of bids is not a page of thousands of
lines; a normal round's bids all shown as before."""

from __future__ import annotations

from perudo_math import Hand
from tests.app.sessions import open_at
from tests.long_round import finished_long_round, long_round
from views import practice_view
from views.text import HEAD_BIDS, LISTED_BIDS, TAIL_BIDS

HAND = Hand([1, 2, 2, 3, 4, 4, 5, 5, 6, 6])
PRACTICE, ODDS, TRACKER = "app_pages/practice.py", "app_pages/odds.py", "app_pages/tracker.py"


def texts(app) -> list[str]:
    return [element.value for element in (*app.markdown, *app.caption)]


def bid_list(app) -> list[str]:
    """The practice page's numbered list of the round's bids, line by line."""
    found = [text for text in texts(app) if text.startswith("1. ")]
    assert len(found) == 1, found
    return found[0].split("  \n")


def practice_link(bids: int) -> tuple[str, int]:
    """A link to seat 9's last decision in a finished round of ``bids`` bids, and how many
    bids it faced (seat 9 bids every tenth)."""
    game = finished_long_round(bids, count=min(30, bids))
    decision = (bids - 10) // 10
    return practice_view.tracked_spot(game, 9, 1, HAND, decision), 10 * decision + 9


def test_a_long_rounds_practice_link_lists_its_first_and_last_bids(app):
    link, faced = practice_link(2999)
    open_at(app, PRACTICE, review=link)
    lines = bid_list(app)
    assert len(lines) == HEAD_BIDS + 1 + TAIL_BIDS
    assert lines[HEAD_BIDS] == f"… {faced - HEAD_BIDS - TAIL_BIDS} bids …"
    assert lines[0].startswith("1. ") and lines[-1].startswith(f"{faced}. ")
    assert lines[-1].endswith("**on the table**")


def test_a_normal_rounds_practice_link_lists_every_bid(app):
    link, faced = practice_link(LISTED_BIDS + 9)
    assert faced == LISTED_BIDS - 1
    open_at(app, PRACTICE, review=link)
    lines = bid_list(app)
    assert [line.split(".")[0] for line in lines] == [str(n) for n in range(1, faced + 1)]
    assert not any("…" in line for line in lines)


def test_the_odds_and_tracker_pages_of_a_long_round_count_the_bids_between(app):
    game = long_round(2999)
    open_at(app, ODDS, game=game.to_code(), me="9")
    said = [text for text in texts(app) if text.startswith("Bids this round: ")]
    assert len(said) == 1 and said[0].count("→") == HEAD_BIDS + TAIL_BIDS
    assert f"… {2999 - HEAD_BIDS - TAIL_BIDS} bids …" in said[0]
    app.switch_page(TRACKER).run()
    assert not app.exception
    line = next(text for text in texts(app) if "bids …" in text)
    assert line.count("→") == HEAD_BIDS + TAIL_BIDS


def test_the_odds_page_of_a_normal_round_says_every_bid(app):
    game = long_round(LISTED_BIDS)
    open_at(app, ODDS, game=game.to_code(), me=str(LISTED_BIDS % 10))
    said = [text for text in texts(app) if text.startswith("Bids this round: ")]
    assert len(said) == 1 and said[0].count("→") == LISTED_BIDS - 1 and "…" not in said[0]
