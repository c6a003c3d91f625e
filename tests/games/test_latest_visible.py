"""``LogReader.latest_visible`` (games/core/eventlog.py) reads a log from its newest event back:
the same events as filtering the whole log and keeping the last ones, for every viewer (a seat,
the public, a stranger: another seat's private events never), in a log built move by move and in
one loaded from its stored JSON (partly packed)."""

from __future__ import annotations

import random

import pytest

from bot.registry import load_games
from games.core.eventlog import LogReader

GAMES = load_games()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_latest_visible_events_are_the_filtered_logs_last_ones(key):
    game = GAMES[key]
    seats = [f"s{i}" for i in range(2 if key == "triad" else max(game.min_players, 3))]
    state = game.new(seats, f"latest-{key}", None)
    assert isinstance(state, LogReader)  # every game keeps its log so
    rng = random.Random(11)
    checked = 0
    for _ in range(120):
        for shown in (state, game.load_state(game.dump_state(state))):
            for viewer in (None, *seats, "stranger"):
                whole = [e for e in shown.log if e.visible_to(viewer)]
                for count in (0, 1, 3, 20, 500):
                    assert shown.latest_visible(viewer, count) == whole[-count:]
                    checked += 1
        movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
        if not movers or game.outcome(state) is not None:
            break
        seat = rng.choice(movers)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert checked and state.log  # the log was read with events in it


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_visible_entries_are_the_filtered_logs_entries(key):
    """``LogReader.visible_entries``: every entry of the log a viewer may see, with its version,
    as filtering ``log_entries`` gives them, in a log built move by move and in one loaded from
    its stored JSON (partly packed)."""
    game = GAMES[key]
    seats = [f"s{i}" for i in range(2 if key == "triad" else max(game.min_players, 3))]
    state = game.new(seats, f"entries-{key}", None)
    rng = random.Random(12)
    checked = 0
    for _ in range(120):
        for shown in (state, game.load_state(game.dump_state(state))):
            for viewer in (None, *seats, "stranger"):
                pairs = [(v, e) for v, e in shown.log_entries() if e.visible_to(viewer)]
                events, versions = shown.visible_entries(viewer)
                assert events == [e for _, e in pairs] and versions == [v for v, _ in pairs]
                checked += bool(pairs)
        movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
        if not movers or game.outcome(state) is not None:
            break
        seat = rng.choice(movers)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert checked  # entries were compared
