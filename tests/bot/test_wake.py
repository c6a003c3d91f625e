"""Turn deadlines across a restart (issue 16, 4b): each move stores the table's next deadline,
and a restarted service resumes every turn with the time it had left (not a full turn, which
made every timer fire together one turn after a restart); deadlines that passed while the bot
was down are spread out, and a table left unloaded by a lazy start-up wakes, loads and plays
its timer move by itself."""

from __future__ import annotations

import asyncio
import sqlite3
import time

from bot.service import ServiceConfig, TableService
from storage import open_database
from tests.bot.test_tables import RecordingListener
from tests.bot.toy_game import TOY
from tests.waiting import within_guard

TURN = 60
MOVED_AT = 1_800_000_000.0  # the wall clock the service is given when the moves are made


class Sleeps:
    """The timers' sleep, recorded; a sleep of 0 returns (the timer plays), any other waits
    until the service closes."""

    def __init__(self) -> None:
        self.asked: list[float] = []
        self.changed = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        self.changed.set()
        if seconds > 0:
            await asyncio.Event().wait()

    async def wait_for(self, count: int, seconds: float | None = None) -> None:
        """Until ``count`` sleeps (of ``seconds``, if given) were asked for."""
        while len([s for s in self.asked if seconds in (None, s)]) < count:
            self.changed.clear()
            await within_guard(self.changed.wait())


async def _service(path, sleep=asyncio.sleep, listener=None, clock=time.time):
    db = await open_database(path)
    config = ServiceConfig(cpu_delay_seconds=0, turn_timeout_seconds=TURN)
    listener = listener or RecordingListener()
    return db, TableService(db, {"toy": TOY}, listener, config, sleep=sleep, clock=clock)


async def _playing_tables(path, count: int) -> list[int]:
    """``count`` toy tables of two people, one move made each at ``MOVED_AT`` (so a deadline is
    stored)."""
    db, service = await _service(path, sleep=Sleeps(), clock=lambda: MOVED_AT)
    ids = []
    for n in range(count):
        table = await service.lobby.open(
            guild_id="g",
            channel_id=f"c{n}",
            game_key="toy",
            host_id="h",
            host_name="Host",
            locale="es",
            options={"pile": 30},
            seed=f"seed-{n}",
        )
        await service.lobby.join(table.id, "a", "Ana")
        await service.lobby.start(table.id, "h")
        seat = TOY.to_act(table.state).pop()
        await service.act(table.id, seat, table.version, "t.1")
        ids.append(table.id)
    await service.close()
    await db.close()
    return ids


def _set_wake(path, table_id: int, wake_at: float) -> None:
    conn = sqlite3.connect(path)
    conn.execute("UPDATE tables SET wake_at = ? WHERE id = ?", (wake_at, table_id))
    conn.commit()
    conn.close()


def _stored_wake(path, table_id: int) -> float:
    conn = sqlite3.connect(path)
    [(wake_at,)] = conn.execute("SELECT wake_at FROM tables WHERE id = ?", (table_id,))
    conn.close()
    return wake_at


async def test_a_move_stores_its_deadline_and_a_restart_resumes_with_the_time_left(tmp_path):
    path = tmp_path / "w.db"
    [table_id] = await _playing_tables(path, 1)
    assert _stored_wake(path, table_id) == MOVED_AT + TURN
    restarted_at = MOVED_AT + 35  # 35 s of the turn went by while it was down

    sleeps = Sleeps()
    db, service = await _service(path, sleep=sleeps, clock=lambda: restarted_at)
    [table] = await service.load()
    await sleeps.wait_for(1)
    assert sleeps.asked[0] == 25  # the time left, not a full turn of 60 s
    assert table.id == table_id
    await service.close()
    await db.close()


async def test_overdue_deadlines_are_spread_and_unloaded_tables_wake_and_play_their_timer(
    tmp_path,
):
    path = tmp_path / "w.db"
    ids = await _playing_tables(path, 3)
    for table_id in ids:
        _set_wake(path, table_id, MOVED_AT - 100)  # all passed while the bot was down

    sleeps = Sleeps()
    db, service = await _service(path, sleep=sleeps, clock=lambda: MOVED_AT)
    assert await service.load(lazy=True) == []  # nothing loaded at start-up
    assert service.registry.unloaded_count == 3
    # Each woke by itself, loaded, and its timer was armed with the 0 s it had left (then the
    # next player's turn gets a full one).
    await sleeps.wait_for(3, seconds=0.0)
    await sleeps.wait_for(3, seconds=TURN)  # each timer moved, the next turn armed in full
    assert service.registry.unloaded_count == 0
    assert sorted(sleeps.asked) == [0.0, 0.0, 0.0, TURN, TURN, TURN]
    for table_id in ids:
        rows = await service.repo.actions(table_id)
        assert [r.by_timer for r in rows] == [False, True]  # one timer move each, none twice
    await service.close()
    await db.close()


async def test_a_channel_load_loads_that_channels_table_alone(tmp_path):
    """A slash command's check (``MesaTree.interaction_check``) loads the channel's table if
    start-up left it unloaded, and nothing else: no table of another channel is loaded, and a
    channel without a table loads none."""
    path = tmp_path / "w.db"
    ids = await _playing_tables(path, 3)  # channels c0, c1, c2; deadlines ahead: none wakes
    sleeps = Sleeps()
    db, service = await _service(path, sleep=sleeps, clock=lambda: MOVED_AT)
    assert await service.load(lazy=True) == []
    registry = service.registry
    assert registry.unloaded_count == 3

    await registry.load_channel("nowhere")
    assert registry.unloaded_count == 3
    await registry.load_channel("c1")
    assert registry.unloaded_count == 2
    assert registry.find(ids[1]) is not None
    assert registry.find(ids[0]) is None and registry.find(ids[2]) is None
    assert registry.in_channel("c1") is registry.find(ids[1])
    await registry.load_channel("c1")  # loaded already: the same table
    assert registry.unloaded_count == 2
    assert registry.in_channel("c1") is registry.find(ids[1])
    await service.close()
    await db.close()
