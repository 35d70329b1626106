"""Bounding long rounds (issue 31, point 1) changed no normal spot, and no change since has:
on each of 1,200 normal spots (``tests/normal_spots.py``), a hundred of them in rounds of 25
to 64 bids at tables of eight to ten players, the coach's advice is the stored one
(``tests/data/normal_decisions.json``): the same reason, the same options in the same
order, every number within ``TOLERANCE`` (nine decimals), on any machine."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.normal_spots import SPOTS, TABLE, decision, differences, normal_spot

CHUNKS = 12


def stored() -> dict[str, dict[str, Any]]:
    return json.loads(TABLE.read_text())


def test_the_table_holds_every_spot_and_reads_rounds_of_many_lengths():
    assert sorted(map(int, stored())) == list(range(SPOTS))
    lengths = {len(normal_spot(number).bids) for number in range(0, SPOTS, 7)}
    assert {0, 1, 10, 20} <= lengths


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_coach_decides_normal_spots_as_before(chunk: int):
    table = stored()
    changed = {number: found for number in range(chunk, SPOTS, CHUNKS)
               if (found := differences(table[str(number)], decision(number)))}
    assert not changed, f"{len(changed)} spots advised otherwise: {changed}"


def copy(advice: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(advice))


def test_a_number_off_by_more_than_the_tolerance_or_another_move_is_told():
    advice = decision(5)
    nudged = copy(advice)
    nudged["options"][0][1] += 2e-9
    assert differences(advice, nudged) == [
        f".options[0][1]: {advice['options'][0][1]!r} now {nudged['options'][0][1]!r}"]
    nudged["options"][0][1] -= 1e-9
    assert differences(advice, nudged) == []
    recoded = copy(advice)
    recoded["reason"]["code"] = "raise-safer"
    assert differences(advice, recoded) == [".reason.code: 'opening' now 'raise-safer'"]
    fewer = copy(advice)
    del fewer["reason"]["challenge"]
    assert differences(advice, fewer)
    typed = copy(advice)
    typed["options"][0][3] = True  # p_true 1 stored; a flag is not a number
    assert differences(advice, typed)
    swapped = json.loads(json.dumps(advice))
    swapped["options"][:2] = swapped["options"][1::-1]
    assert differences(advice, swapped)
    shorter = json.loads(json.dumps(advice))
    shorter["options"].pop()
    assert differences(advice, shorter) == [
        f".options: {advice['options']!r} now {shorter['options']!r}"]
