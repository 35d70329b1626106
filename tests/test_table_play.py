"""Where the coach plays the heads-up tables, one rule for its play and for its advice
(coach.engine.table_play), and the advice it gives there (coach.advise_with_tables)."""

from __future__ import annotations

import itertools
import random

import pytest

from coach import (
    COACH_TABLE_PLAY,
    DUDO,
    TABLES_ANYWHERE,
    CoachSettings,
    Situation,
    TablePlay,
    advise,
    advise_with_tables,
    heads_up_strategy,
    table_strategy,
    weigh_raise,
)
from coach.play.bots import load_bot
from coach.solver.tables import CoachTablesBot
from perudo_math import Bid, Hand, Rules, WrongTypeError, legal_raises

DEFAULT = Rules()


def spot(dice: tuple[int, ...], hand: list[int], bids: tuple[tuple[int, Bid], ...] = (),
         palifico: bool = False, me: int = 0) -> Situation:
    return Situation(DEFAULT, dice, me, Hand(hand), bids, palifico)


def heads_up_spots() -> list[Situation]:
    """Every opening and every first reply, at each shipped table's dice, in both kinds of
    round: the table fits some of them, and the coach plays only those within three dice."""
    spots = []
    for dice, palifico in itertools.product(((1, 1), (2, 1), (1, 2), (2, 2)), (False, True)):
        for hand in itertools.product(range(1, 7), repeat=dice[0]):
            spots.append(spot(dice, list(hand), palifico=palifico))
        table = sum(dice)
        for opening in legal_raises(None, table, palifico=palifico, rules=DEFAULT,
                                    bidder_dice=dice[1])[:6]:
            for hand in itertools.product(range(1, 7), repeat=dice[0]):
                spots.append(spot(dice, list(hand), ((1, opening),), palifico))
    return spots


SPOTS = heads_up_spots()


# --- the rule --------------------------------------------------------------------------------


def test_the_coach_plays_the_tables_up_to_three_dice() -> None:
    assert COACH_TABLE_PLAY.max_dice == 3 and TABLES_ANYWHERE.max_dice is None
    assert COACH_TABLE_PLAY.covers(spot((1, 1), [4]))
    assert COACH_TABLE_PLAY.covers(spot((1, 2), [4]))
    assert not COACH_TABLE_PLAY.covers(spot((2, 2), [4, 5]))
    assert not COACH_TABLE_PLAY.covers(spot((1, 1, 1), [4]))  # three players
    assert not TABLES_ANYWHERE.covers(spot((1, 1, 1), [4]))
    assert TABLES_ANYWHERE.covers(spot((2, 2), [4, 5]))
    assert TablePlay(max_dice=4).covers(spot((2, 2), [4, 5]))


@pytest.mark.parametrize(("value", "error"), [(1, ValueError), (0, ValueError),
                                              ("3", WrongTypeError), (2.5, WrongTypeError)])
def test_a_rule_takes_a_table_of_two_dice_or_more(value: object, error: type) -> None:
    with pytest.raises(error):
        TablePlay(max_dice=value)  # type: ignore[arg-type]


def test_the_league_coach_plays_under_the_same_rule_as_the_advice() -> None:
    coach = load_bot("coach")(random.Random(1))
    assert isinstance(coach, CoachTablesBot) and coach.play is COACH_TABLE_PLAY
    anywhere = load_bot("coach-tables")(random.Random(1))
    assert isinstance(anywhere, CoachTablesBot) and anywhere.play is TABLES_ANYWHERE
    low = load_bot("coach-low-opening")(random.Random(1))
    assert isinstance(low, CoachTablesBot) and low.play is COACH_TABLE_PLAY


def test_the_coach_plays_a_table_exactly_where_its_advice_gives_the_tables_move() -> None:
    """Over every opening and first reply of the shipped tables' rounds: the league's coach
    draws its move from a table where, and only where, the advice is the table's, and the
    move it draws is one the advice's mix plays."""
    bot = load_bot("coach")(random.Random(5))
    assert isinstance(bot, CoachTablesBot)
    from_tables = 0
    for situation in SPOTS:
        before = bot.from_tables
        move = bot(situation)
        advice = advise_with_tables(situation)
        played_table = bot.from_tables > before
        assert played_table == bool(advice.mix), situation
        if played_table:
            assert move in dict(advice.mix), (situation, move)
            from_tables += 1
    assert 0 < from_tables < len(SPOTS)  # the 2v2 spots are the coach's own advice


# --- the advice where the coach plays a table -----------------------------------------------


def test_the_tables_moves_lead_with_the_coachs_own_numbers() -> None:
    checked = 0
    for situation in SPOTS:
        mixed = table_strategy(situation)
        if mixed is None:
            continue
        checked += 1
        plain = advise(situation)
        advice = advise_with_tables(situation)
        assert advice.mix == mixed.choices
        assert advice.action == mixed.choices[0][0]
        lead = [option.action for option in advice.options[:len(mixed.choices)]]
        assert lead == [action for action, _ in mixed.choices]
        for option in advice.options[:len(mixed.choices)]:
            listed = plain.option(option.action)
            bid = option.action.bid
            assert option == (listed if listed is not None or bid is None
                              else weigh_raise(situation, bid))
        rest = [option for option in plain.options if option.action not in dict(mixed.choices)]
        assert list(advice.options[len(mixed.choices):]) == rest
        assert advice.reason.code == ("table-pure" if len(mixed.choices) == 1 else "table-mix")
        assert advice.reason.numbers["table"] == mixed.table
        assert advice.reason.numbers.get("win_chance") == mixed.win_chance
        assert advice.reads_bids == plain.reads_bids
    assert checked > 100


def test_where_the_coach_plays_its_own_advice_nothing_changes() -> None:
    for situation in (spot((2, 2), [3, 5]), spot((1, 1, 1), [4]), spot((3, 3), [2, 5, 5]),
                      spot((2, 3), [1, 2])):
        assert table_strategy(situation) is None
        assert advise_with_tables(situation) == advise(situation)


def test_a_wider_rule_plays_the_four_dice_tables_too() -> None:
    situation = spot((2, 2), [3, 5])
    mixed = heads_up_strategy(situation)
    assert mixed is not None
    assert advise_with_tables(situation, play=TABLES_ANYWHERE).mix == mixed.choices
    assert advise_with_tables(situation).mix == ()


def test_the_settings_read_the_bids_or_not_but_the_move_stays_the_tables() -> None:
    from coach import PURE_ODDS

    situation = spot((1, 2), [5], ((1, Bid(1, 2)),))
    read = advise_with_tables(situation)
    plain = advise_with_tables(situation, CoachSettings(reading=PURE_ODDS))
    assert read.mix == plain.mix and read.action == plain.action
    assert read.reads_bids and not plain.reads_bids
    assert read.option(DUDO) != plain.option(DUDO)  # the risks are each reading's own


def test_the_advice_as_json_says_the_mix() -> None:
    situation = spot((1, 2), [5], ((1, Bid(1, 2)),))
    data = advise_with_tables(situation).to_dict()
    mixed = heads_up_strategy(situation)
    assert mixed is not None
    assert [item["probability"] for item in data["mix"]] == [
        round(share, 4) for _, share in mixed.choices]
    assert data["mix"][0] == {**mixed.choices[0][0].to_dict(),
                              "probability": round(mixed.choices[0][1], 4)}
    assert data["reason"]["code"] == "table-mix"
    assert "mix" not in advise(situation).to_dict()


def test_a_table_move_that_is_not_legal_here_leaves_the_coachs_advice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables follow the rules they were built under; should a move of theirs not be
    legal in a spot, the coach gives (and the bot plays) its own advice there."""
    situation = spot((1, 2), [5], ((1, Bid(1, 2)),))
    mixed = table_strategy(situation)
    assert mixed is not None and len(mixed.choices) > 1
    refused = mixed.choices[-1][0]
    legal = Situation.is_legal
    monkeypatch.setattr(Situation, "is_legal",
                        lambda self, action: action != refused and legal(self, action))
    assert table_strategy(situation) is None
    assert advise_with_tables(situation).mix == ()
    bot = load_bot("coach")(random.Random(1))
    assert isinstance(bot, CoachTablesBot)
    bot(situation)
    assert bot.from_tables == 0
