"""The state's log of recent events: packed when loaded, extended by apply, stored as before."""

from __future__ import annotations

import json
import random

import pytest
from pydantic import ValidationError

from games.chupate2 import GAME
from games.chupate2.events import EVENT_PARAMS, LOG_SIZE
from games.chupate2.rules import EVENT_CODES
from games.chupate2.state import FIELDS, Chupate2State
from games.core import Event, event, eventlog

SEATS = ["ana", "beto", "carla"]


def _played(moves: int, seed: str = "log") -> tuple[Chupate2State, list[tuple[int, Event]]]:
    """A state after ``moves`` random moves and every event of the game with its version."""
    state = GAME.new(SEATS, seed)
    history = list(zip(state.log_versions, state.log, strict=True))
    rng = random.Random(seed)
    for _ in range(moves):
        if state.phase == "over":
            break
        (seat,) = GAME.to_act(state)
        state, events = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        history += [(state.version, e) for e in events]
    return state, history


def len_chain(log: tuple) -> int:
    """The number of event nodes of a log down to its root."""
    n = 0
    while len(log) == 4:
        log, n = log[0], n + 1
    return n


def test_every_event_code_names_its_parameters():
    assert tuple(EVENT_PARAMS) == EVENT_CODES


def test_the_log_holds_the_latest_events_and_stays_bounded():
    for moves in (0, 5, 30, 200):
        state, history = _played(moves)
        assert list(zip(state.log_versions, state.log, strict=True)) == history[-LOG_SIZE:]
        log, nodes = state.log_raw, 0
        while len(log) == 4:  # a chain of (older, count, version, event) nodes
            assert log[1] == len_chain(log)
            log, nodes = log[0], nodes + 1
        assert (
            nodes <= eventlog.max_nodes(LOG_SIZE) and len(log) == 1
        )  # bounded, down to its packed root


def test_a_loaded_log_is_packed_and_reads_and_extends_as_the_original():
    state, _ = _played(40)
    loaded = GAME.load_state(GAME.dump_state(state))
    assert isinstance(loaded.log_raw[0], str) and len(loaded.log_raw) == 1  # one packed text
    (seat,) = GAME.to_act(loaded)
    after, _ = GAME.apply(loaded, seat, GAME.legal_actions(loaded, seat)[0])
    root = after.log_raw
    while len(root) == 4:
        root = root[0]
    assert root is loaded.log_raw  # extended by nodes: the packed root is shared
    assert loaded.log_entries() == state.log_entries() and loaded == state
    for viewer in (None, *SEATS):
        assert GAME.view(loaded, viewer) == GAME.view(state, viewer)
    (seat,) = GAME.to_act(state)
    action = GAME.legal_actions(state, seat)[0]
    assert GAME.apply(loaded, seat, action) == GAME.apply(state, seat, action)


def test_a_stored_log_round_trips_exactly_whatever_its_events_hold():
    """States stored before the packed log (and events the table does not describe: other
    parameters, a code or a seat outside the tables) load and dump to the same JSON."""
    state, _ = _played(12)
    stored = json.loads(GAME.dump_state(state))
    stored["log"] = [
        {"code": "played", "seat": "beto", "params": {"card": "r7a", "colour": "r"}, "to": None},
        {"code": "played", "seat": "beto", "params": {"colour": "r", "card": "r7a"}, "to": None},
        {"code": "drew_cards", "seat": "ana", "params": {"cards": ["Wa", "g1b"]}, "to": ["ana"]},
        {"code": "old_code", "seat": "nobody", "params": {"n": 1, "x": None}, "to": ["zoe"]},
        {"code": "skipped", "seat": None, "params": {"extra": True}, "to": None},
    ]
    stored["log_versions"] = [3, 3, 9, 9, 400]
    text = json.dumps(stored, separators=(",", ":"), ensure_ascii=False)
    loaded = GAME.load_state(text)
    assert GAME.dump_state(loaded) == GAME.dump_state(GAME.load_state(GAME.dump_state(loaded)))
    assert json.loads(GAME.dump_state(loaded)) == stored
    assert loaded.log[3] == Event(
        code="old_code", seat="nobody", params={"n": 1, "x": None}, to=("zoe",)
    )


@pytest.mark.parametrize(
    "bad",
    [
        {"log": [{"code": 3}], "log_versions": [1]},
        {"log": [{"code": "x", "seat": 5}], "log_versions": [1]},
        {"log": [{"code": "x", "params": []}], "log_versions": [1]},
        {"log": [{"code": "x", "to": "ana"}], "log_versions": [1]},
        {"log": [{"code": "x", "what": 1}], "log_versions": [1]},
        {"log": [{"code": "x"}], "log_versions": []},
    ],
)
def test_a_malformed_stored_log_is_refused(bad: dict):
    state, _ = _played(3)
    stored = {**json.loads(GAME.dump_state(state)), **bad}
    with pytest.raises(ValidationError):
        GAME.load_state(json.dumps(stored))


def test_a_state_built_in_code_keeps_its_events():
    state, _ = _played(3)
    fields = {k: getattr(state, k) for k in FIELDS if k != "log_raw"}
    e = event("passed", "ana")
    built = type(state)(**fields, log=[e], log_versions=[7])
    assert built.log == [e] and built.log_versions == [7]
    assert type(state)(**fields).log == []
