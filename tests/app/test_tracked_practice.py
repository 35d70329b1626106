"""Issue 14: a costly move of a real game kept in the tracker becomes a practice spot.

Only the player's own dice are known in a tracked game: the spot is the table as it stood,
the coach weighs it, and the reveal says how the round ended at the table instead of lifting
cups nobody entered. The link exists only for a finished round, whose cups were lifted.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from streamlit.testing.v1 import AppTest

from coach import Action
from coach.review import review, tracked_decisions
from perudo_math import Bid, GameState, Hand
from perudo_math.game import MAX_CODE_LENGTH
from practice.scenarios import grade
from tests.app.sessions import open_at
from tests.app.test_tracker_page import (
    bid,
    call,
    enter_hand,
    game,
    open_panel,
    open_tracker,
    set_up,
)
from views import practice_view
from views.i18n import format_percent, translate

PRACTICE = "app_pages/practice.py"
FIVE_FOURS = [1, 1, 4, 4, 4]
"""Ann's hand: five fours counting the pacos, so any bid of a few fours is certainly true."""


def costly_dudo(at: AppTest) -> GameState:
    """Ann (me) holds five fours and calls dudo on Cid's 1 × 4: she certainly loses a die."""
    open_tracker(at)
    set_up(at, ["Ann", "Bob", "Cid"], opener=0, me=0)
    enter_hand(at, FIVE_FOURS)
    bid(at, "1x2")
    bid(at, "1x3")
    bid(at, "1x4")
    call(at, "dudo", 7)  # seven fours counted: Ann loses a die
    return game(at)


def practice_links(at: AppTest) -> list:
    return [link.proto for link in at.get("page_link")
            if link.proto.label == translate("en", "review.practise")]


def all_text(at: AppTest) -> str:
    return "\n".join(m.value for m in [*at.markdown, *at.caption])


def test_a_costly_move_of_a_tracked_round_links_to_its_practice_spot(app: AppTest) -> None:
    state = costly_dudo(app)
    open_panel(app, "review")
    reviewed = review(tracked_decisions(state, 0, {1: Hand(FIVE_FOURS)}))
    assert [str(move.played) for move in reviewed.moves] == ["1x2", "dudo"]
    assert reviewed.moves[1].verdict.value == "costly"
    spot = practice_view.tracked_spot(state, 0, 1, Hand(FIVE_FOURS), 1)
    links = practice_links(app)
    assert [link.query_string for link in links] == [f"review={quote(spot, safe='~')}"]

    practice = AppTest.from_file(app._script_path, default_timeout=60)
    practice.context = {"locale": "en-US"}
    open_at(practice, PRACTICE, review=spot)
    scenario = practice_view.find_scenario(practice.session_state["practice_spot"], state.rules)
    assert scenario.showdown == (Bid(1, 4), 7) and not scenario.cups
    assert scenario.hand == (1, 1, 4, 4, 4) and scenario.hidden[1:] == ((), ())
    assert scenario.last_bid == Bid(1, 4) and scenario.true_count == 7
    practice.button(key="practice_dudo").click().run()
    assert not practice.exception
    graded = practice.session_state["practice_answer"]["grade"]
    assert graded.reveal is None and not graded.correct
    text = all_text(practice)
    assert ("At the table, the round ended on 1 × 4 with 7 matching dice: 1 × 4 was true."
            in text)
    assert translate("en", "practice.cups.tracked") in text
    best, dudo = scenario.options[0], scenario.option(Action("dudo"))
    assert graded.outcome.value == "wrong"  # as wrong as graded: the line only compares
    assert (f"Chance of losing a die, before the dice were shown: {format_percent(dudo.lose, 'en')}"
            f" for your dudo, {format_percent(best.lose, 'en')} for the coach's "
            f"{best.action.bid.pretty()}: {round(graded.regret * 100)} points of risk added."
            in text.split("\n"))


def test_no_link_while_the_round_is_played(app: AppTest) -> None:
    state = costly_dudo(app)
    enter_hand(app, [1, 4, 4, 4])  # round 2, Ann opens with four dice
    bid(app, "1x2")
    bid(app, "1x3")
    bid(app, "1x4")  # Cid; Ann's next move would face it, the round is not over
    open_panel(app, "review")
    assert len(practice_links(app)) == 1  # round 1's dudo only
    with pytest.raises(ValueError, match="not over"):
        practice_view.tracked_spot(game(app), 0, 2, Hand([1, 4, 4, 4]), 0)
    assert state.round_number == 2


def test_the_spot_in_french_when_the_round_ended_on_another_face(app: AppTest) -> None:
    state = (GameState.new(["Ann", "Bob", "Cid"]).bid("1x2").bid("1x3").bid("1x4").bid("1x5")
             .dudo(0))  # Ann raised to 1 × 5; Bob's dudo found no five: Ann loses
    spot = practice_view.tracked_spot(state, 0, 1, Hand(FIVE_FOURS), 1)
    open_at(app, PRACTICE, lang="fr", review=spot)
    scenario = practice_view.find_scenario(app.session_state["practice_spot"], state.rules)
    assert scenario.last_bid == Bid(1, 4) and scenario.true_count is None
    app.button(key="practice_dudo").click().run()
    assert not app.exception
    text = all_text(app)
    assert ("À la table, la manche s'est terminée sur 1 × 5 avec 0 dé qui compte. Les 4 "
            "n'ont pas été comptés\u00a0: on ne sait pas si 1 × 4 était vraie." in text)
    assert translate("fr", "practice.cups.tracked") in text
    assert "Dés qui comptent pour" not in text  # no count metric: it is not known
    assert grade(scenario, "dudo").reveal is None


def valid_code() -> str:
    return GameState.new(["Ann", "Bob"]).bid("2x4").dudo(1).to_code()


@pytest.mark.parametrize("text", [
    "t~garbage~0~1~11444~0",
    f"t~{valid_code()}~9~1~11444~0",  # no such seat
    f"t~{valid_code()}~0~2~11444~0",  # round 2 is not over
    f"t~{valid_code()}~0~1~11444~7",  # no such decision
    f"t~{valid_code()}~0~1~99~0",  # no such faces
    f"t~{valid_code()}~0~1~{'1' * 5000}~0",
    f"t~{valid_code()}~0~{'9' * 5000}~11444~0",
    "t~" * 3000,
])
def test_a_hostile_tracked_spot_link_is_refused_for_little_work(app: AppTest, text: str,
                                                                 monkeypatch) -> None:
    """Bounded by counting, not by a clock: the game code is replayed at most twice (the link,
    then the spot it names), never longer than a code may be."""
    replayed: list[int] = []
    from_code = GameState.from_code.__func__

    def counted(cls, code, *args, **kwargs):
        replayed.append(len(code))
        return from_code(cls, code, *args, **kwargs)

    monkeypatch.setattr(GameState, "from_code", classmethod(counted))
    open_at(app, PRACTICE, review=text)
    assert len(replayed) <= 2 and all(length <= MAX_CODE_LENGTH for length in replayed)
    assert translate("en", "practice.notice.bad_link") in [w.value for w in app.warning] or (
        translate("en", "practice.error.game_spot") in [e.value for e in app.error])
