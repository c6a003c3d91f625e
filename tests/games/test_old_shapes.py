"""Games stored before issue 26 changed the stored shapes (``current`` -> ``turn``, ``d``/``x``
-> ``draw``/``pass``, ``ce``/``uno`` -> ``announce``, ``call.N`` -> ``catch.N``) still load and
replay identically.

``old_shape_playouts.json`` holds golden playouts as ``main`` @ 157965d wrote them (written by
``bench/old_shape_replay.py --before <that checkout> --write``): the first stored state, every
action text with its events, and stored states along the way. Replaying the old texts here must
give the same events and, at every kept step, the state the old stored JSON loads to.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.old_shape_replay import replay

RENAMED_TURN = ("chupate2", "maquiavelo", "macarena")  # held ``current``
PLAYOUTS = json.loads((Path(__file__).parent / "old_shape_playouts.json").read_text())


def test_the_fixture_holds_old_shapes_of_every_game():
    assert {p["key"] for p in PLAYOUTS} == {
        "amapatolli",
        "chupate2",
        "macarena",
        "maquiavelo",
        "triad",
    }
    texts = {step[1].split(".")[0] for p in PLAYOUTS for step in p["steps"]}
    assert {"d", "x"} <= texts  # Maquiavelo's and Macarena's old draw and pass
    renamed = [json.loads(p["first"]) for p in PLAYOUTS if p["key"] in RENAMED_TURN]
    assert renamed and all("current" in f and "turn" not in f for f in renamed)


@pytest.mark.parametrize(
    "playout", PLAYOUTS, ids=[f"{p['key']}/{p['family']}/{p['seed']}" for p in PLAYOUTS]
)
def test_an_old_stored_game_replays_identically(playout):
    assert replay(playout) == len(playout["steps"]) > 0
