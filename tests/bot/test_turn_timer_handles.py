"""Turn timers on the loop's own clock (the bot's ``asyncio.sleep``): each is a loop timer
handle, not a sleeping task (issue 29). A timer that runs out plays the turn by itself; a move
before it cancels it; closing the service leaves nothing armed nor running."""

from __future__ import annotations

import asyncio

from bot.__main__ import loop_factory
from bot.service import ServiceConfig, TableService
from storage import open_database
from tests.bot.lobby_kit import open_lobby
from tests.bot.test_tables import RecordingListener
from tests.bot.toy_game import TOY
from tests.waiting import until


async def _playing(path):
    db = await open_database(path)
    service = TableService(
        db, {"toy": TOY}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    table = await open_lobby(service, "toy", host=("h", "Host"), seed="seed-1", options={})
    await service.lobby.join(table.id, "a", "Ana")
    await service.lobby.start(table.id, "h")
    return db, service, table


def _sleeping_tasks() -> list[asyncio.Task]:
    return [t for t in asyncio.all_tasks() if t.get_name().startswith("timer-")]


async def test_a_timer_is_a_loop_handle_that_plays_the_turn_when_it_runs_out(tmp_path):
    db, service, table = await _playing(tmp_path / "t.db")
    try:
        assert service.timers.armed(table.id)  # a full turn (the settings' default)
        assert _sleeping_tasks() == []  # armed without a task
        seat, version = TOY.to_act(table.state).pop(), table.version
        service.timers.restart(table, 0.01)  # the time a turn had left: runs out now
        await until(lambda: table.version > version, "the timer's move")
        rows = await service.repo.actions(table.id)
        assert [(r.seat, r.by_timer) for r in rows] == [(seat, True)]
        assert table.record.meta["timeouts"][seat] == 1
        # the next turn is armed in full, as a handle again
        await until(lambda: service.timers.armed(table.id), "the next turn's timer")
        await until(lambda: not _sleeping_tasks(), "the timeout's own task ending")
    finally:
        await service.close()
        await db.close()


async def test_a_move_before_the_timer_runs_out_cancels_it(tmp_path):
    db, service, table = await _playing(tmp_path / "t.db")
    try:
        seat = TOY.to_act(table.state).pop()
        service.timers.restart(table, 0.05)
        await service.act(table.id, seat, table.version, "t.1")  # re-arms in full
        version = table.version
        await asyncio.sleep(0.2)  # past the cancelled deadline: it does not fire
        assert table.version == version
        rows = await service.repo.actions(table.id)
        assert [r.by_timer for r in rows] == [False]
        assert service.timers.armed(table.id)
    finally:
        await service.close()
        await db.close()


async def test_closing_the_service_disarms_every_timer(tmp_path):
    db, service, table = await _playing(tmp_path / "t.db")
    assert service.timers.armed(table.id)
    await service.close()
    assert not service.timers.armed(table.id)
    assert service.timers.tasks() == []
    await db.close()


async def _a_moved_deadline(path) -> None:
    """A move moves the deadline later: the armed handle is kept (no new timer), fires at the
    old time into a re-arm for the rest, and the turn times out at the new deadline, not the
    old one. A shorter time than the handle's arms a new handle."""
    db, service, table = await _playing(path)
    loop = asyncio.get_running_loop()
    timers = service.timers
    arms: list[float] = []  # when each timer armed for the table fires
    later = timers.ctx.later

    def counted_later(seconds, callback, *args):
        armed = later(seconds, callback, *args)
        arms.append(armed.when())
        return armed

    timers.ctx.later = counted_later  # type: ignore[method-assign]
    try:
        seat, version = TOY.to_act(table.state).pop(), table.version
        timers.restart(table, 0.05)
        assert len(arms) == 1  # shorter than the full turn's handle: a new one
        start = loop.time()
        timers.restart(table, 0.3)  # a move moved the deadline
        assert len(arms) == 1  # the handle kept
        await until(lambda: len(arms) == 2, "the early handle armed again for the rest")
        assert table.version == version  # not timed out at the old deadline
        assert arms[1] >= start + 0.3 - 0.01
        await until(lambda: table.version > version, "the timeout at the new deadline")
        assert loop.time() >= start + 0.3
        rows = await service.repo.actions(table.id)
        assert [(r.seat, r.by_timer) for r in rows] == [(seat, True)]
    finally:
        await service.close()
        await db.close()


async def test_a_moved_deadline_keeps_the_handle_and_the_turn_times_out_at_the_new_one(
    tmp_path,
):
    await _a_moved_deadline(tmp_path / "t.db")


def test_a_moved_deadline_keeps_the_handle_on_uvloop_too(tmp_path):
    """The bot's loop (``bot.__main__.loop_factory``): uvloop's timer handles are no
    ``asyncio.TimerHandle``, and are kept all the same."""
    factory = loop_factory()
    assert factory is not None  # uvloop is a dependency
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(_a_moved_deadline(tmp_path / "t.db"))


async def test_a_table_nobody_waits_on_is_disarmed_and_its_left_handle_plays_nothing(tmp_path):
    db, service, table = await _playing(tmp_path / "t.db")
    try:
        version = table.version
        service.timers.restart(table, 0.05)
        seats = table.record.seats
        table.record.seats = [s.model_copy(update={"cpu_level": "easy"}) for s in seats]
        service.timers.restart(table)  # nobody waited on: disarmed, its handle left
        assert not service.timers.armed(table.id)
        await asyncio.sleep(0.2)  # past the left handle's time
        assert table.version == version
        assert not service.timers.armed(table.id)
        table.record.seats = seats
        service.timers.restart(table, 0.05)  # waited on again: armed again
        assert service.timers.armed(table.id)
        await until(lambda: table.version > version, "the timeout")
    finally:
        await service.close()
        await db.close()
