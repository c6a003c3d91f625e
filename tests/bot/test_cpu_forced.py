"""A waited computer seat with one legal action, in a game that lists every action, plays it
without a search (``bot/service/cpu.py``): the search would have chosen it, and no worker job
is made for it."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from bot.registry import load_games
from bot.service import ServiceConfig
from bot.service.choose import choose_action_text
from bot.service.cpu import ComputerTurns
from tests.bot.computer_kit import SEATS, computer_table
from tests.playouts import random_states

GAMES = load_games()


class _Workers:
    """A pool that counts its jobs and runs them here (the choice is the same: pure)."""

    in_process = True

    def __init__(self) -> None:
        self.jobs = 0

    async def run(self, fn: Any, *args: Any) -> Any:
        self.jobs += 1
        return fn(*args)


class _Ctx:
    """Just what ``ComputerTurns`` reads of its context for a search."""

    think_clock = None
    config = ServiceConfig(cpu_think_seconds=0.2)

    def __init__(self) -> None:
        self.workers = _Workers()


def _turns() -> ComputerTurns:
    turns = ComputerTurns.__new__(ComputerTurns)  # (only its searches are used here)
    turns.ctx = _Ctx()  # type: ignore[assignment]
    return turns


def _states(key: str, seed: int) -> list[Any]:
    """States of a random game of ``key`` (two or three computer seats, the game's default
    options), from its start."""
    game = GAMES[key]
    players = max(game.min_players, 2 if seed % 2 else min(3, game.max_players))
    try:
        state = game.new(list(SEATS[:players]), f"forced-{key}-{seed}", {})
    except Exception:  # a game that needs more set-up to start (Triple Triad's hands)
        return []
    return list(random_states(game, state, random.Random(seed), 120))


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_a_waited_seat_with_one_action_plays_it_without_a_search(key: str):
    game = GAMES[key]
    forced = searched = 0
    for seed in range(4):
        for state in _states(key, seed):
            if game.is_over(state):
                continue
            table = computer_table(key, game, state)
            turns = _turns()
            searches = turns._searches(table)
            for seat, waited, args, legal in searches:
                if args is not None:
                    continue
                forced += 1
                assert waited and len(legal) == 1 and game.lists_every_action
                level = table.record.seat(seat).cpu_level or "normal"  # type: ignore[union-attr]
                view = game.view(state, seat)
                texts = [legal[0].encode()]
                for labels_level in {level, "hard"}:
                    chosen = choose_action_text(
                        game,
                        view,
                        texts,
                        labels_level,
                        state.seed,
                        ("cpu", seat, state.version),
                        {},
                    )
                    assert chosen in (None, texts[0]), (key, state.version, seat, chosen)
            chosen_move = await turns.next_move_off_loop(table)
            if searches and searches_forced_first(searches):
                assert turns.ctx.workers.jobs == 0  # type: ignore[attr-defined]
                seat, text, action = chosen_move  # type: ignore[misc]
                assert action is not None and text == action.encode()
            else:
                searched += turns.ctx.workers.jobs  # type: ignore[attr-defined]
    if game.lists_every_action and _states(key, 0):
        assert forced > 0 and searched > 0, (forced, searched)
    else:
        assert forced == 0


def searches_forced_first(searches: list[tuple[str, bool, Any, list[Any]]]) -> bool:
    """Whether the first search asked is a forced one (the move then comes without any job);
    an optional move's search (a call-out) is asked before it."""
    return searches[0][2] is None


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_pending_searches_nothing_and_misses_no_computer_move(key: str, monkeypatch):
    """``pending`` decides whether a computer's loop starts without a search (a search on the
    event loop held it for a computer's optional call-out): every move a computer's search
    would make is pending, every waited computer seat too."""
    game = GAMES[key]
    optional = 0
    for seed in range(3):
        for state, people_to_act in itertools.product(_states(key, seed), (False, True)):
            table = computer_table(key, game, state)
            if people_to_act:  # the seats the game waits on are people's, the others computers
                to_act = game.to_act(state) if not game.is_over(state) else set()
                for seat in table.record.seats:
                    if seat.id in to_act:
                        seat.cpu_level = None
            turns = _turns()
            with monkeypatch.context() as patched:
                patched.setattr(type(game), "choose_action", _no_search)
                pending = turns.pending(table)
                must_act = turns.must_act(table)
            chosen = await turns.next_move_off_loop(table)
            assert pending or chosen is None, (key, state.version, chosen)
            assert pending or not must_act
            if pending and not must_act:
                optional += 1  # an optional move only: its search, in a worker, decides
    if key == "amapatolli":
        assert optional > 0  # its "Ce" windows: every computer may call the holder out


def _no_search(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a computer's search ran in pending()")
