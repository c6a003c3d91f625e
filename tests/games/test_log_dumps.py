"""A log's stored JSON built from its previous state's (``games.core.eventlog.LogDumps``): the
very text pydantic writes, move after move, across the log's compactions, for states that
branch from one state, for a state loaded from storage, and with its cache full."""

from __future__ import annotations

import json
import random
from importlib import import_module

import pytest

from games.core.eventlog import LogDumps, LogReader

KEYS = ("amapatolli", "chupate2", "macarena", "maquiavelo", "triad")


def _pydantic_log(state: LogReader) -> tuple[list, list]:
    data = json.loads(state.model_dump_json())  # type: ignore[attr-defined]
    return data["log"], data["log_versions"]


def _dumped(dumps: LogDumps, state: LogReader) -> tuple[list, list]:
    log, versions = dumps.log_json(state)
    return json.loads(log), json.loads(versions)


@pytest.mark.parametrize("bound", [1, 3000, 1 << 20])
@pytest.mark.parametrize("key", KEYS)
def test_a_log_dumped_move_after_move_is_pydantics(key, bound):
    game = import_module(f"games.{key}").GAME
    seats = [f"s{i}" for i in range(2 if key == "triad" else 3)]
    dumps = LogDumps(bound)
    rng = random.Random(3)
    # three tables at once (their dumps share the cache) and, at each move, a second branch
    # from the same state (two states extending one node)
    states = [game.new(seats, f"dumps-{key}-{n}") for n in range(3)]
    moves = 0
    while moves < 400 and not all(game.is_over(s) for s in states):
        for i, state in enumerate(states):
            if game.is_over(state):
                continue
            seat = sorted(s for s in game.to_act(state) if game.legal_actions(state, s))[0]
            legal = game.legal_actions(state, seat)
            branch, _ = game.apply(state, seat, rng.choice(legal))
            states[i], _ = game.apply(state, seat, rng.choice(legal))
            for each in (branch, states[i], state):
                assert _dumped(dumps, each) == _pydantic_log(each)
            moves += 1
        if moves % 40 == 0:  # as loaded from storage: an older part packed
            loaded = game.load_state(game.dump_state(states[0]))
            assert _dumped(dumps, loaded) == _pydantic_log(loaded)
            states[0] = loaded
    assert dumps.bytes <= bound or len(dumps._kept) == 1


@pytest.mark.parametrize("key", KEYS)
def test_a_table_playing_keeps_one_log(key):
    """A log extended from a kept one replaces it: a game dumped move after move keeps one
    entry, not one per move (the bot's memory: about one a table), and one more for each time
    its log was compacted (that one is the first to go)."""
    game = import_module(f"games.{key}").GAME
    seats = [f"s{i}" for i in range(2 if key == "triad" else 3)]
    dumps = LogDumps(1 << 20)
    state = game.new(seats, f"one-{key}")
    rng = random.Random(1)
    compactions = 0
    for _ in range(30):
        if game.is_over(state):
            break
        seat = sorted(s for s in game.to_act(state) if game.legal_actions(state, s))[0]
        before = state.log_raw
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        node = state.log_raw
        while len(node) == 4 and node is not before:
            node = node[0]
        compactions += node is not before
        assert _dumped(dumps, state) == _pydantic_log(state)
        assert len(dumps._kept) <= 1 + compactions


def _play(game, state, rng):
    seat = sorted(s for s in game.to_act(state) if game.legal_actions(state, s))[0]
    return game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))[0]


@pytest.mark.parametrize("key", KEYS)
def test_the_bound_is_in_bytes_and_a_table_no_longer_dumped_goes_first(key):
    """The cache counts its bytes exactly (an entry's encoded events and their overhead), stays
    under its bound, and drops first the log of a table whose game stopped being dumped (a
    finished game): the tables playing keep theirs, so their next dumps still hit."""
    game = import_module(f"games.{key}").GAME
    seats = [f"s{i}" for i in range(2 if key == "triad" else 3)]
    dumps = LogDumps(1 << 30)
    rng = random.Random(5)
    ended = game.new(seats, f"ended-{key}")
    for _ in range(4):
        ended = _play(game, ended, rng)
        dumps.log_bytes(ended)
    tables = [game.new(seats, f"live-{key}-{n}") for n in range(3)]
    for _ in range(6):
        for i, state in enumerate(tables):
            if not game.is_over(state):
                tables[i] = _play(game, state, rng)
            dumps.log_bytes(tables[i])
    kept = dumps._kept
    assert dumps.bytes == sum(
        sum(map(len, e[1])) + LogDumps.EVENT_OVERHEAD * len(e[1]) for e in kept.values()
    )
    assert next(iter(kept)) == id(ended.log_raw)  # the oldest: the next to go
    dumps.max_bytes = dumps.bytes - 1
    hits = dumps.hits
    tables[0] = tables[0] if game.is_over(tables[0]) else _play(game, tables[0], rng)
    dumps.log_bytes(tables[0])
    assert dumps.hits == hits + 1
    assert id(ended.log_raw) not in kept
    assert {id(t.log_raw) for t in tables} <= kept.keys()
    assert dumps.bytes <= dumps.max_bytes
    assert dumps.bytes == sum(
        sum(map(len, e[1])) + LogDumps.EVENT_OVERHEAD * len(e[1]) for e in kept.values()
    )


def test_a_table_dumped_move_after_move_hits_at_every_move_but_its_first():
    """The hit rate the cache is for: a table's every dump after its first extends the
    previous one (no compaction within 10 moves of a 40-event log)."""
    game = import_module("games.macarena").GAME
    dumps = LogDumps(1 << 20)
    rng = random.Random(2)
    state = game.new(["a", "b", "c"], "hits")
    for _ in range(10):
        state = _play(game, state, rng)
        dumps.log_bytes(state)
    assert (dumps.hits, dumps.misses) == (9, 1)
    assert len(dumps._kept) == 1
