"""``Action`` as a value type (text and JSON forms that round-trip) and ``Situation``'s JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coach import CALZA, DUDO, Action, ActionKind, InvalidActionError, Situation, advise
from coach.solver import MixedAdvice
from perudo_math import Bid, Hand, PalificoRule, RaiseRule, Rules
from practice.scenarios import generate, grade
from storage.progress import Answer

bids = st.builds(Bid, st.integers(1, 300), st.integers(1, 6))
actions = st.one_of(st.just(DUDO), st.just(CALZA), st.builds(Action.raise_to, bids))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


# --- Action -----------------------------------------------------------------------------


@given(actions)
def test_text_round_trips(action: Action):
    assert Action.parse(str(action)) == action


@given(actions)
def test_dict_round_trips_through_json(action: Action):
    data = json.loads(json.dumps(action.to_dict()))
    assert Action.from_dict(data) == action
    assert data == action.to_dict()


@given(actions, st.sampled_from(["", " ", "\t"]), st.sampled_from(["", " ", "\n"]),
       st.booleans())
def test_words_are_read_in_any_case_and_with_spaces_around(action, before, after, upper):
    text = str(action).upper() if upper and action.bid is None else str(action)
    assert Action.parse(f"{before}{text}{after}") == action


@given(st.text(max_size=12))
def test_any_text_is_an_action_or_an_invalid_action_error(text: str):
    try:
        action = Action.parse(text)
    except InvalidActionError:
        return
    assert Action.parse(str(action)) == action


@given(json_values)
def test_any_json_is_an_action_or_an_invalid_action_error(data: object):
    try:
        action = Action.from_dict(data)  # type: ignore[arg-type]
    except InvalidActionError:
        return
    assert action.to_dict() == data


@given(st.fixed_dictionaries({"action": json_values}, optional={"bid": json_values}))
def test_any_action_shaped_dict_is_read_or_refused_with_a_value_error(data: dict):
    try:
        action = Action.from_dict(data)
    except InvalidActionError:
        return
    assert action.to_dict() == data


def test_the_forms_of_each_kind():
    assert (str(DUDO), str(CALZA), str(Action.raise_to("3xP"))) == ("dudo", "calza", "3xP")
    assert DUDO.to_dict() == {"action": "dudo"}
    assert Action.raise_to("5x4").to_dict() == {"action": "raise", "bid": "5x4"}
    assert Action("dudo") == DUDO and Action("calza").kind is ActionKind.CALZA
    assert Action.parse("3×p") == Action(ActionKind.RAISE, Bid(3, 1))
    assert DUDO.kind == "dudo" and f"{CALZA.kind}" == "calza"  # a kind still reads as its word


@pytest.mark.parametrize(("build", "words"), [
    (lambda: Action("bluff"), "raise, dudo or calza, not 'bluff'"),
    (lambda: Action("raise"), "a raise needs a bid"),
    (lambda: Action("raise", "5x4"), "a raise needs a bid, not '5x4'"),
    (lambda: Action("dudo", Bid(5, 4)), "dudo takes no bid"),
    (lambda: Action.raise_to("5y4"), "cannot read bid '5y4'"),
    (lambda: Action.parse("bluff"), "'bluff' is not dudo, calza or a bid"),
    (lambda: Action.parse("0x4"), "bid quantity must be at least 1"),
    (lambda: Action.parse("raise"), "'raise' is not dudo, calza or a bid"),
    (lambda: Action.parse(4), "an action is written dudo, calza or like 5x4"),
    (lambda: Action.from_dict(["dudo"]), "an action is a JSON object"),
    (lambda: Action.from_dict({"kind": "dudo"}), "no field 'kind'"),
    (lambda: Action.from_dict({"bid": "5x4"}), "needs its kind"),
    (lambda: Action.from_dict({"action": 1}), "raise, dudo or calza, not 1"),
    (lambda: Action.from_dict({"action": "raise"}), "a raise needs a bid"),
    (lambda: Action.from_dict({"action": "raise", "bid": 54}), "written like 5x4, not 54"),
    (lambda: Action.from_dict({"action": "raise", "bid": "9x9"}), "cannot read bid '9x9'"),
    (lambda: Action.from_dict({"action": "dudo", "bid": "5x4"}), "dudo takes no bid"),
    (lambda: Action.from_dict({"action": "dudo", "bid": None}), "written like 5x4, not None"),
    (lambda: Action.from_dict({"action": "Dudo"}), "not 'Dudo'"),
])
def test_bad_actions_are_refused_precisely(build, words):
    with pytest.raises(InvalidActionError) as caught:
        build()
    assert words in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_actions_are_frozen_values():
    action = Action.raise_to("5x4")
    with pytest.raises(AttributeError):
        action.kind = ActionKind.DUDO  # type: ignore[misc]
    assert {action, Action.parse("5x4"), DUDO, Action.parse("DUDO")} == {action, DUDO}


# --- every JSON that holds an action uses Action.to_dict --------------------------------


def action_part(data: dict) -> dict:
    return {key: data[key] for key in ("action", "bid") if key in data}


def test_advice_options_and_scenarios_write_actions_one_way():
    spot = Situation(Rules(), (3, 2, 2), 0, Hand([1, 2, 5]), ((1, Bid(2, 5)), (2, Bid(3, 5))))
    advice = advise(spot)
    data = json.loads(json.dumps(advice.to_dict()))
    assert action_part(data) == advice.action.to_dict()
    for option, written in zip(advice.options, data["options"], strict=True):
        assert action_part(written) == option.action.to_dict()
        assert Action.from_dict(action_part(written)) == option.action

    scenario = generate(7)
    written = json.loads(json.dumps(scenario.to_dict()))
    assert Action.from_dict(written["best"]) == scenario.best
    assert Action.from_dict(written["pure_odds_best"]) == scenario.pure_odds_best
    graded = grade(scenario, "dudo").to_dict()
    assert graded["action"] == DUDO.to_dict() and graded["best"] == scenario.best.to_dict()

    stored = Answer.from_scenario(scenario, grade(scenario, scenario.best))
    assert Action.parse(stored.action) == Action.parse(stored.best) == scenario.best

    mixed = MixedAdvice(((Action.raise_to("1x5"), 0.7), (DUDO, 0.3)), None, "1v1-normal",
                        opening=False)
    assert [action_part(choice) for choice in mixed.to_dict()["choices"]] == [
        {"action": "raise", "bid": "1x5"}, {"action": "dudo"}]


# --- Situation as JSON ------------------------------------------------------------------


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    players = draw(st.integers(2, 10))
    dice = draw(st.lists(st.integers(0, 5), min_size=players, max_size=players)
                .filter(lambda counts: sum(n > 0 for n in counts) >= 2))
    me = draw(st.sampled_from([seat for seat, n in enumerate(dice) if n > 0]))
    hand = draw(st.lists(st.integers(1, 6), min_size=dice[me], max_size=dice[me]))
    bidders = [seat for seat, n in enumerate(dice) if n > 0]
    history = draw(st.lists(st.tuples(st.sampled_from(bidders), bids), max_size=4))
    rules = Rules(
        starting_dice=draw(st.integers(1, 10)),
        raise_rule=draw(st.sampled_from(RaiseRule)),
        palifico=draw(st.sampled_from(PalificoRule)),
        calza=draw(st.booleans()),
        calza_heads_up=draw(st.booleans()),
    )
    return Situation(rules, tuple(dice), me, Hand(hand), tuple(history), draw(st.booleans()))


@given(situations())
def test_situation_json_round_trips(spot: Situation):
    assert Situation.from_json(spot.to_json()) == spot
    assert " " not in spot.to_json()


@given(json_values)
def test_any_json_is_a_situation_or_a_value_error(data: object):
    try:
        Situation.from_json(json.dumps(data))
    except ValueError as error:
        assert str(error).startswith("not a situation")


@given(st.fixed_dictionaries({}, optional={name: json_values for name in
                                           ("rules", "dice", "me", "hand", "bids", "palifico")}))
def test_any_situation_shaped_json_is_read_or_refused_with_a_value_error(data: dict):
    try:
        Situation.from_json(json.dumps(data))
    except ValueError as error:
        assert str(error).startswith("not a situation")


GOOD = {"dice": [2, 3], "me": 0, "hand": [1, 5], "bids": [[1, "2x5"]]}


@pytest.mark.parametrize(("change", "words"), [
    ({"palifico": "false"}, "palifico must be true or false, not 'false'"),
    ({"palifico": 0}, "palifico must be true or false, not 0"),
    ({"dice": "23"}, "dice must be a list"),
    ({"dice": [2, "3"]}, "a seat's dice must be a whole number, not '3'"),
    ({"dice": [2, True]}, "a seat's dice must be a whole number, not True"),
    ({"me": True}, "me (your seat) must be a whole number"),
    ({"me": "0"}, "me (your seat) must be a whole number"),
    ({"me": 0.0}, "me (your seat) must be a whole number"),
    ({"me": 2}, "seat 2 is not at a table of 2"),
    ({"hand": "15"}, "hand must be a list"),
    ({"hand": [1, 5.0]}, "a die of the hand must be a whole number"),
    ({"hand": [1, 7]}, "a die shows 1 (paco) to 6"),
    ({"bids": "2x5"}, "bids must be a list"),
    ({"bids": [[1]]}, "a bid is a [seat, \"5x4\"] pair"),
    ({"bids": [[1, 25]]}, "a bid is a [seat, \"5x4\"] pair"),
    ({"bids": [["1", "2x5"]]}, "a bidder's seat must be a whole number"),
    ({"bids": [[1, "2x9"]]}, "cannot read bid '2x9'"),
    ({"rules": []}, "rule settings must be a mapping"),
    ({"rules": {"calza": "no"}}, "calza must be true or false"),
    ({"rules": {"bluffing": True}}, "unknown rule setting 'bluffing'"),
    ({"seat": 0}, "unknown field 'seat'"),
])
def test_every_field_is_type_checked(change, words):
    with pytest.raises(ValueError, match=r"^not a situation") as caught:
        Situation.from_json(json.dumps({**GOOD, **change}))
    assert words in str(caught.value)


@pytest.mark.parametrize("missing", ["dice", "me", "hand"])
def test_a_missing_field_is_named(missing):
    data = {key: value for key, value in GOOD.items() if key != missing}
    with pytest.raises(ValueError, match=f"'{missing}' is missing"):
        Situation.from_json(json.dumps(data))


@pytest.mark.parametrize("text", ["[" * 100_000, "[" * 100_000 + "]" * 100_000,
                                  '{"dice":' + "[" * 100_000,
                                  '{"rules":' + '{"a":' * 100_000 + "1" + "}" * 100_001])
def test_deeply_nested_json_is_a_value_error_not_a_recursion_error(text):
    with pytest.raises(ValueError, match=r"^not a situation: the JSON is nested too deeply$"):
        Situation.from_json(text)


@pytest.mark.parametrize(("text", "words"), [
    ("", "Expecting value"), ("[1, 2]", "expected a JSON object"), ("null", "not None"),
    (b'{"dice": [2, 2]}', "expected JSON text"),
])
def test_what_is_not_a_situation_object(text, words):
    with pytest.raises(ValueError, match=r"^not a situation") as caught:
        Situation.from_json(text)
    assert words in str(caught.value)


def test_the_optional_fields_take_their_defaults():
    spot = Situation.from_json('{"dice":[2,3],"me":1,"hand":[4,4,6]}')
    assert (spot.rules, spot.bids, spot.palifico) == (Rules(), (), False)
