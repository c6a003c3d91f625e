"""The state is stored every few moves (``bot/service/snapshots.py``): a bot dropped after any
move restores exactly the state it had shown, from the stored state and the logged moves after
it; for every game, with people's, computers' and timers' moves (a seat handed to the computer
among them), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.registry import load_games
from bot.service import ServiceConfig, Table, TableService
from bot.service.snapshots import SNAPSHOT_EVERY, restored
from storage import Database, TablesRepo, open_database
from tests.bot.lobby_kit import open_lobby
from tests.bot.test_tables import RecordingListener
from tests.waiting import computer_idle

GAMES = load_games()
MOVES = 70  # per game: several stored states and the moves between them
TURN_SECONDS = 3600


class Restarts:
    """What a bot started after a ``kill -9`` would load, read at each version the table
    rests at (the injected sleep runs before each computer move; the driver after the
    others): the state restored from storage, against the one in memory."""

    def __init__(self, reader: Database) -> None:
        self.repo = TablesRepo(reader)  # a connection of its own, as a new process has
        self.table: Table | None = None
        self.checked: set[int] = set()
        self.replayed = 0  # checks whose stored state was behind (moves replayed)

    async def sleep(self, seconds: float) -> None:
        if seconds >= TURN_SECONDS:  # a turn timer (the test plays its timeouts itself)
            await asyncio.Event().wait()
        await self.check()  # a computer's delay or fair wait

    async def check(self) -> None:
        table = self.table
        assert table is not None
        async with table.lock:  # (no move meanwhile: a timer's may come at any time)
            assert table.state is not None
            record = await self.repo.get(table.id)
            assert record is not None and record.version == table.version
            loaded = await restored(self.repo, table.game, record)
            assert loaded is not None
            assert table.game.dump_state(loaded) == table.game.dump_state(table.state)
        self.checked.add(record.version)
        self.replayed += record.stored_version < record.version


async def _game(service: TableService, key: str, restarts: Restarts) -> Table:
    game = GAMES[key]
    table = await open_lobby(service, key, host=("h", "Host"), seed=f"snapshots-{key}")
    restarts.table = table
    await service.lobby.add_cpu(table.id, "h")
    if game.max_players > 2:
        await service.lobby.join(table.id, "a", "Ana")
    await service.lobby.start(table.id, "h")
    return table


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_a_bot_dropped_after_any_move_restores_the_state_it_showed(db_target, key):
    db, reader = await open_database(db_target), await open_database(db_target)
    restarts = Restarts(reader)
    # a computer's move waits its delay through ``restarts.sleep``: checked before each
    config = ServiceConfig(cpu_delay_seconds=1, turn_timeout_seconds=TURN_SECONDS)
    service = TableService(db, {key: GAMES[key]}, RecordingListener(), config, sleep=restarts.sleep)
    game = GAMES[key]
    table = await _game(service, key, restarts)
    rng = random.Random(key)
    for _ in range(4 * MOVES):
        await computer_idle(service, table.id)
        if table.record.status != "playing" or table.version >= MOVES:
            break
        await restarts.check()
        state = table.state
        people = [
            s
            for s in game.to_act(state) or state.seats
            if not table.seat(s).is_cpu and game.legal_actions(state, s)
        ]
        if not people:
            continue
        if rng.random() < 0.2:  # the turn timer plays (and after three, hands the seat over)
            await service.timers.expire_turn(table.id)
        else:
            seat = rng.choice(people)
            action = rng.choice(game.legal_actions(state, seat))
            await service.act(table.id, seat, table.version, action.encode())
    await computer_idle(service, table.id)
    await restarts.check()
    assert restarts.checked == set(range(table.version + 1))  # every version a bot could die at
    assert table.version > SNAPSHOT_EVERY and restarts.replayed > 0
    await service.close()
    await db.close()
    await reader.close()


async def test_a_restarted_service_loads_a_table_between_two_stored_states(db_target):
    key = "chupate2"
    restarts = Restarts(await open_database(db_target))
    db = await open_database(db_target)
    config = ServiceConfig(cpu_delay_seconds=0, turn_timeout_seconds=TURN_SECONDS)
    service = TableService(db, {key: GAMES[key]}, RecordingListener(), config)
    table = await _game(service, key, restarts)
    game = GAMES[key]
    rng = random.Random(3)
    while table.version <= SNAPSHOT_EVERY or table.version % SNAPSHOT_EVERY == 0:
        await computer_idle(service, table.id)
        people = [s for s in game.to_act(table.state) if not table.seat(s).is_cpu]
        for seat in people[:1]:
            action = rng.choice(game.legal_actions(table.state, seat))
            await service.act(table.id, seat, table.version, action.encode())
    await computer_idle(service, table.id)
    shown = game.dump_state(table.state)
    version = table.version
    await service.close()
    await db.close()

    db = await open_database(db_target)
    service = TableService(db, {key: GAMES[key]}, RecordingListener(), config)
    row = await service.repo.get(table.id)
    assert row is not None and row.stored_version < row.version == version  # replayed on load
    await service.load()  # (start-up indexes it; its state loads on first use)
    loaded = await service.registry.ensure(table.id)
    assert loaded is not None and loaded.state is not None
    assert loaded.version == version and game.dump_state(loaded.state) == shown
    await service.lobby.cancel(table.id, "h")  # closed between two stored states: it stores one
    row = await service.repo.get(table.id)
    assert row is not None and row.status == "cancelled"
    assert (row.state, row.stored_version) == (shown, version)
    await service.close()
    await db.close()
    await restarts.repo.db.close()
