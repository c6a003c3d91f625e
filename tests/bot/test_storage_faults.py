"""The table service while its database cannot take writes (issue 27): a move is refused as
``StorageUnavailable`` with nothing changed in memory; a turn timeout that could not be saved
leaves no trace (no timeout counted, no seat handed to the computer) and is played again once
the database is back; a computer's move is tried again, so its table goes on by itself."""

from __future__ import annotations

import asyncio

import pytest

from storage import StorageUnavailable
from tests.bot.test_tables import _open, _service
from tests.bot.toy_game import TOY
from tests.waiting import computer_idle, until


def _read_only(db, on: bool):
    sql = f"PRAGMA query_only = {'ON' if on else 'OFF'}"
    return db._writer.submit(lambda conn: conn.execute(sql).fetchall(), transactional=False)


async def test_a_move_not_saved_changes_nothing_in_memory(tmp_path):
    db, service = await _service(tmp_path / "t.db", turn_timeout_seconds=3600)
    table = await _open(service, pile=40)
    await service.lobby.join(table.id, "a", "Ana")
    await service.lobby.start(table.id, "h")
    version, state = table.version, table.state
    seat = table.state.seats[table.state.turn]
    await _read_only(db, True)
    with pytest.raises(StorageUnavailable):
        await service.act(table.id, seat, version, "t.1")
    assert table.version == version and table.state == state
    await _read_only(db, False)
    await service.act(table.id, seat, version, "t.1")
    assert table.version == version + 1
    await service.close()
    await db.close()


async def test_a_timeout_not_saved_leaves_no_trace_and_is_played_once_back(tmp_path):
    db, service = await _service(tmp_path / "t.db", turn_timeout_seconds=3600)
    table = await _open(service, pile=40)
    await service.lobby.join(table.id, "a", "Ana")
    await service.lobby.start(table.id, "h")
    seat = table.state.seats[table.state.turn]
    meta_before = dict(table.record.meta)
    await _read_only(db, True)
    with pytest.raises(StorageUnavailable):
        await service.timers.expire_turn(table.id)
    assert table.record.meta == meta_before
    assert not table.seat(seat).is_cpu
    await _read_only(db, False)
    assert await service.timers.expire_turn(table.id) == [seat]
    assert table.record.meta["timeouts"][seat] == 1
    await service.close()
    await db.close()


async def test_a_computer_turn_not_saved_is_tried_again_until_the_database_is_back(
    tmp_path, monkeypatch
):
    monkeypatch.setattr("bot.service.cpu.RETRY_SECONDS", 0.05)
    db, service = await _service(tmp_path / "t.db")
    table = await _open(service, pile=40)
    await service.lobby.add_cpu(table.id, "h", "easy")
    await service.lobby.start(table.id, "h")
    await computer_idle(service, table.id)
    assert "h" in TOY.to_act(table.state)
    await service.act(table.id, "h", table.version, "t.1")
    # Queued before the computer's move (its search runs first): that move is not saved.
    read_only = _read_only(db, True)
    await read_only
    stuck_at = table.version
    await asyncio.sleep(0.5)  # several attempts meanwhile
    assert table.version == stuck_at and "h" not in TOY.to_act(table.state)
    await _read_only(db, False)
    # The computer plays on by itself once writes succeed.
    await until(lambda: table.version > stuck_at, "the computer's move saved", poll=0.05)
    await service.close()
    await db.close()
