"""Bounding long rounds (issue 31, point 1) changed no normal spot: on each of 1,200 normal
spots (``tests/normal_spots.py``), a hundred of them in rounds of 25 to 64 bids at tables of
eight to ten players, the coach's advice, every number of it to the last bit, is the one
main gave before this work (``tests/data/normal_decisions.json``)."""

from __future__ import annotations

import json

import pytest

from tests.normal_spots import SPOTS, TABLE, decision, normal_spot

CHUNKS = 12


def stored() -> dict[str, list[str]]:
    return json.loads(TABLE.read_text())


def test_the_table_holds_every_spot_and_reads_rounds_of_many_lengths():
    assert sorted(map(int, stored())) == list(range(SPOTS))
    lengths = {len(normal_spot(number).bids) for number in range(0, SPOTS, 7)}
    assert {0, 1, 10, 20} <= lengths


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_coach_decides_normal_spots_as_before(chunk: int):
    table = stored()
    changed = {number: (table[str(number)], found)
               for number in range(chunk, SPOTS, CHUNKS)
               if (found := decision(number)) != table[str(number)]}
    assert not changed, f"{len(changed)} spots decided otherwise: {changed}"
