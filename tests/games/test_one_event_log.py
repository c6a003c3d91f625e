"""One event log for the five games (issue 26, item 3; ``games.core.eventlog``).

Every state keeps its latest events with the version each produced, stored as ``log`` and
``log_versions``. Rows stored before that (Amapatolli, Maquiavelo and Macarena had ``log``
without versions; Triple Triad had no log) still load, and a game rebuilt from its actions still
ends as such a row stored it (``Game.same_end``, what ``/replay`` checks).
"""

from __future__ import annotations

import json
import random
from importlib import import_module

import pytest

from bot.service.choose import game_ref
from bot.service.replay import Deal, public_views
from games.core import Game
from games.core.engine import UNKNOWN_VERSION, Event
from games.core.eventlog import LogReader, extend

KEYS = ("amapatolli", "chupate2", "macarena", "maquiavelo", "triad")
UNVERSIONED = ("amapatolli", "macarena", "maquiavelo")  # stored ``log`` without versions
PLAYERS = {"triad": 2}


def _game(key: str) -> Game:
    return import_module(f"games.{key}").GAME


def _played(key: str, moves: int, seed: int = 11):
    """A game of ``key`` after ``moves`` random moves (or its end), with its actions."""
    game = _game(key)
    seats = [f"s{i}" for i in range(PLAYERS.get(key, 3))]
    state = game.new(seats, f"log-{key}")
    rng = random.Random(seed)
    actions = []
    for _ in range(moves):
        if game.is_over(state):
            break
        seat = sorted(game.to_act(state))[0]
        action = rng.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        actions.append((seat, action.encode()))
    return game, seats, state, actions


def _old_row(game: Game, state, key: str) -> str:
    """``state`` as its game stored it before one log: no versions (no log at all in Triad)."""
    data = json.loads(game.dump_state(state))
    del data["log_versions"]
    if key == "triad":
        del data["log"]
    return json.dumps(data)


@pytest.mark.parametrize("key", KEYS)
def test_every_state_logs_its_events_with_the_version_they_produced(key):
    game, _, state, _ = _played(key, 12)
    assert isinstance(state, LogReader)
    entries = state.log_entries()
    assert entries and len(entries) <= type(state).log_size
    versions = [v for v, _ in entries]
    assert versions == sorted(versions) and versions[-1] == state.version
    last = state.events_since(state.version - 1)
    assert last and last == [e for v, e in entries if v == state.version]
    stored = json.loads(game.dump_state(state))
    assert stored["log_versions"] == versions
    assert stored["log"] == [e.model_dump(mode="json") for _, e in entries]
    loaded = game.load_state(game.dump_state(state))
    assert loaded == state and loaded.log_entries() == entries


@pytest.mark.parametrize("key", UNVERSIONED)
def test_a_row_stored_without_versions_loads_them_as_unknown(key):
    game, _, state, _ = _played(key, 12)
    old = game.load_state(_old_row(game, state, key))
    assert old.log == state.log
    assert old.log_versions == [UNKNOWN_VERSION] * len(state.log)
    assert old.events_since(0) == []  # older than every move
    again = json.loads(game.dump_state(old))  # stored again, they stay unknown
    assert again["log_versions"] == [UNKNOWN_VERSION] * len(state.log)
    seat = sorted(game.to_act(old))[0]
    after, events = game.apply(old, seat, game.legal_actions(old, seat)[0])
    assert after.events_since(old.version) == events[-type(after).log_size :]


def test_a_triad_row_stored_without_a_log_loads_with_an_empty_one():
    game, _, state, _ = _played("triad", 4)
    old = game.load_state(_old_row(game, state, "triad"))
    assert old.log == [] and old.log_versions == []
    assert old.board == state.board and old.hands == state.hands


@pytest.mark.parametrize("key", KEYS)
def test_a_rebuilt_game_ends_as_an_old_row_stored_it(key):
    game, seats, state, actions = _played(key, 400)
    rows = [game.dump_state(state)]
    if key != "chupate2":  # Chúpate 2 always stored its versions
        rows.append(_old_row(game, state, key))
    for row in rows:
        assert game.same_end(row, state)
        deal = Deal(game_ref(game), seats, f"log-{key}", {}, {})
        result = public_views(deal, actions, row)
        assert result.failed_at is None and result.matches, key


@pytest.mark.parametrize("key", KEYS)
def test_same_end_still_tells_a_different_end(key):
    game, _, state, _ = _played(key, 12)
    data = json.loads(game.dump_state(state))
    other_version = {**data, "version": data["version"] + 1}
    assert not game.same_end(json.dumps(other_version), state)
    shifted = {**data, "log_versions": [v + 1 for v in data["log_versions"]]}
    assert not game.same_end(json.dumps(shifted), state)  # a known version must be equal
    fewer = {**data, "log": data["log"][1:], "log_versions": data["log_versions"][1:]}
    assert not game.same_end(json.dumps(fewer), state)
    if key in UNVERSIONED:  # unknown versions match, different events do not
        unknown = {**data, "log_versions": [UNKNOWN_VERSION] * len(data["log"])}
        assert game.same_end(json.dumps(unknown), state)
        del unknown["log_versions"]
        unknown["log"] = [*data["log"][1:], data["log"][0]]
        assert data["log"] == unknown["log"] or not game.same_end(json.dumps(unknown), state)


@pytest.mark.parametrize("key", KEYS)
def test_the_stored_json_is_the_states_own_pydantic_dump(key):
    """``dump_state`` writes the log with orjson: the very text of ``model_dump_json`` at every
    move (a deal's commitment is a digest of it), and for events whose parameters orjson writes
    its own way or refuses (it falls back to pydantic)."""
    game = _game(key)
    seats = [f"s{i}" for i in range(PLAYERS.get(key, 3))]
    state = game.new(seats, f"stored-{key}")
    rng = random.Random(5)
    for _ in range(60):
        assert game.dump_state(state) == state.model_dump_json()
        if game.is_over(state):
            break
        seat = sorted(game.to_act(state))[0]
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    odd = [
        {"n": 2.5, "big": 10**12, "text": 'ñ "quoted" \\ \n \u2028 ✓', "none": None},
        {"nested": [[1, "a"], {"k": [True, False]}], "tuple": (1, 2)},
        {"set": {1}},  # orjson refuses a set: pydantic writes it
        {"huge": 2**70},  # beyond orjson's 64 bits
        {1: "a non-string key"},
    ]
    for params in odd:
        event = Event("odd", seats[0], params, (seats[0],))
        logged = game.copy_state(state)
        logged.log_raw = extend(state.log_raw, state.version, [event], type(state).log_size)
        assert game.dump_state(logged) == logged.model_dump_json()
