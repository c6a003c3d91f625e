"""A 4-player computer game of Ce Amapatolli interrupted half-way finishes exactly like an
uninterrupted one once the service is rebuilt from the same SQLite file."""

import asyncio

from bot.service import ServiceConfig, TableService
from games.amapatolli import GAME
from storage import StandingsRepo, open_database
from tests.bot.lobby_kit import open_lobby
from tests.bot.test_tables import RecordingListener
from tests.waiting import computer_idle


class StopAtVersion:
    """An injected sleep that never returns once the table reaches ``version``."""

    def __init__(self, version: int | None):
        self.version = version
        self.table = None
        self.reached = asyncio.Event()

    async def __call__(self, _seconds):
        if self.version is not None and self.table.version >= self.version:
            self.reached.set()
            await asyncio.Event().wait()  # parked until the service is closed


async def _start(path, sleep):
    db = await open_database(path)
    service = TableService(
        db,
        {"amapatolli": GAME},
        RecordingListener(),
        ServiceConfig(cpu_delay_seconds=0.001, timeouts_before_replacement=1),
        sleep=sleep,
    )
    return db, service


async def _run(path, stop_at):
    sleep = StopAtVersion(stop_at)
    db, service = await _start(path, sleep)
    table = await open_lobby(service, "amapatolli", host=("h", "Host"), seed="restart-42")
    sleep.table = table
    for level in ("normal", "easy", "normal"):
        await service.lobby.add_cpu(table.id, "h", level)
    await service.lobby.start(table.id, "h")
    # The host never plays: the timer hands the seat to the computer, making 4 computers.
    while "h" not in GAME.to_act(table.state):
        await computer_idle(service, table.id) if stop_at is None else await asyncio.sleep(0)
        if sleep.reached.is_set():
            break
    if not sleep.reached.is_set():
        await service.timers.expire_turn(table.id)
    if stop_at is not None:
        await sleep.reached.wait()
        assert table.record.status == "playing"
        await service.close()
        await db.close()
        db, service = await _start(path, StopAtVersion(None))
        [table] = await service.load()
        assert table.version == stop_at
    await computer_idle(service, table.id)
    assert table.record.status == "finished"
    actions = [(a.seat, a.action) for a in await service.repo.actions(table.id)]
    standings = await StandingsRepo(db).leaderboard("g", "amapatolli")
    replayed = await service.replays.replay(table.id)
    await service.close()
    await db.close()
    return table.state, actions, replayed, [(r.user_id, r.played) for r in standings]


async def test_interrupted_game_finishes_like_an_uninterrupted_one(db_targets):
    full_state, full_actions, full_replay, full_standings = await _run(db_targets(), None)
    half = len(full_actions) // 2
    assert half > 5
    state, actions, replayed, standings = await _run(db_targets(), half)
    assert actions == full_actions
    assert state == full_state == full_replay == replayed
    assert GAME.outcome(state) == GAME.outcome(full_state)
    assert standings == full_standings == [("h", 1)]
