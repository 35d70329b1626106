"""Practice levels are defined once and checked by one function everywhere."""

from __future__ import annotations

import pytest

from practice.drills import ODDS_TABLE_DICE, generate_drill
from practice.levels import LEVEL_WORDS, LEVELS, check_level, parse_level
from practice.rating import LEVEL_RATINGS, Rating, rate_answer
from practice.scenarios import LEVEL_GAPS, generate
from storage.progress import Answer


def test_the_levels_and_their_words():
    assert LEVELS == (1, 2, 3) and LEVEL_WORDS == "1, 2 or 3"
    assert [check_level(level) for level in LEVELS] == list(LEVELS)
    assert [parse_level(str(level)) for level in LEVELS] == list(LEVELS)


def test_every_per_level_table_covers_the_levels():
    assert set(LEVEL_RATINGS) == set(ODDS_TABLE_DICE) == set(LEVELS)
    assert set(LEVEL_GAPS) == set(LEVELS[:-1])  # the last level is every closer call


@pytest.mark.parametrize("level", [0, 4, -1, True, 2.0, "2"])
def test_one_check_refuses_a_bad_level_everywhere(level):
    message = f"^a level is 1, 2 or 3, not {level!r}$"
    for check in (check_level, lambda lv: generate(1, "calza", lv),
                  lambda lv: generate_drill(1, "odds", lv),
                  lambda lv: rate_answer(Rating(), lv, True),
                  lambda lv: Answer(kind="scenario", theme="calza", level=lv, seed=1,
                                    correct=True)):
        with pytest.raises(ValueError, match=message):
            check(level)


@pytest.mark.parametrize("text", ["0", "4", "x", "", " 2", "²", "02x", "1.0"])
def test_bad_level_texts_are_refused(text):
    with pytest.raises(ValueError, match="a level is 1, 2 or 3"):
        parse_level(text)
