"""Tables shared by two processes (bot/service/shared.py), with two table services on one
database and an in-process change feed: the owner of a table's guild presents every change,
whoever made it; the database's version guard, not memory, decides a race."""

from __future__ import annotations

import asyncio

import pytest

from bot.errors import TableError
from bot.service import ServiceConfig, TableService
from bot.service.feed import LocalFeed, LocalFeedHub, NoFeed
from storage import open_database
from tests.bot.test_move_path import Listener
from tests.bot.toy_game import TOY

CONFIG = ServiceConfig(cpu_delay_seconds=0)


async def _until(condition, what):
    """Yield to the loop (and the writer thread) until ``condition()``; a generous bound
    against a hang, no timing in the outcome."""
    for _ in range(5000):
        if condition():
            return
        await asyncio.sleep(0.002)
    raise AssertionError(f"never happened: {what}")


@pytest.fixture
async def pair(tmp_path):
    """(owner, other, owner's listener, other's listener, table): the owner runs the guild's
    shard; the other one (shard 0: DMs) owns no guild here. Both on one database."""
    db = await open_database(tmp_path / "shared.db")
    hub = LocalFeedHub()
    heard, silent = Listener(), Listener()
    owner = TableService(db, {"toy": TOY}, heard, CONFIG, feed=hub.feed(), owns=lambda g: True)
    other = TableService(db, {"toy": TOY}, silent, CONFIG, feed=hub.feed(), owns=lambda g: False)
    await owner.load()
    await other.load()
    table = await owner.open(
        guild_id="g",
        channel_id="c",
        game_key="toy",
        host_id="h",
        host_name="Host",
        locale="es",
        options={"pile": 40},
        seed="seed-1",
    )
    await owner.join(table.id, "a", "A")
    await owner.start(table.id, "h")
    yield owner, other, heard, silent, table
    await other.close(drain_seconds=1)
    await owner.close(drain_seconds=1)
    await db.close()


async def test_a_move_made_elsewhere_is_presented_by_the_owner_with_its_events(pair):
    owner, other, heard, silent, table = pair
    await other.act(table.id, "h", 0, "t.1")  # a DM click that reached the other process
    await _until(lambda: heard.calls[-1:] == [(1, "h")], "the owner presenting version 1")
    assert silent.calls == []  # the mover presents nothing of a table it does not own
    live = owner.find(table.id)
    assert live is not None and live.version == 1 and live.state.pile == 39
    assert [e.code for e in live.last_events] == ["took"]  # replayed, not just reloaded
    # The owner moves next; the other's copy catches up from the feed.
    await owner.act(table.id, "a", 1, "t.2")
    await _until(lambda: other.find(table.id).version == 2, "the other catching up")
    await other.act(table.id, "h", 2, "t.1")
    await _until(lambda: heard.calls[-1] == (3, "h"), "the owner presenting version 3")
    assert owner.find(table.id).state.pile == 36 and silent.calls == []


async def test_the_database_decides_a_race_between_processes(tmp_path):
    """The other process hears nothing (its feed is not connected), so its memory is behind:
    a click with the version the player saw is judged against the database, not memory."""
    db = await open_database(tmp_path / "race.db")
    hub = LocalFeedHub()
    owner = TableService(db, {"toy": TOY}, Listener(), CONFIG, feed=hub.feed())
    deaf = TableService(
        db, {"toy": TOY}, Listener(), CONFIG, feed=LocalFeed(hub), owns=lambda g: False
    )
    try:
        await owner.load()
        await deaf.load()
        table = await owner.open(
            guild_id="g", channel_id="c", game_key="toy", host_id="h", host_name="H",
            locale="es", options={"pile": 40}, seed="seed-2",
        )  # fmt: skip
        await owner.join(table.id, "a", "A")
        await owner.start(table.id, "h")
        assert (await deaf.ensure(table.id)).version == 0  # read from the database
        await owner.act(table.id, "h", 0, "t.1")
        # A second click on the old view (version 0): memory agrees with it, the database's
        # version guard refuses it; the copy is caught up, nothing is applied twice.
        with pytest.raises(TableError) as stale:
            await deaf.act(table.id, "h", 0, "t.1")
        assert stale.value.code == "stale"
        assert deaf.find(table.id).version == 1
        # The owner moves again: the deaf copy is behind (1 < 2), and a click showing version
        # 2 is caught up first and applied, not refused as stale.
        await owner.act(table.id, "a", 1, "t.2")
        await deaf.act(table.id, "h", 2, "t.1")
        record = await owner.repo.get(table.id)
        assert record is not None and record.version == 3
        assert [(a.version, a.seat, a.action) for a in await owner.repo.actions(table.id)] == [
            (1, "h", "t.1"),
            (2, "a", "t.2"),
            (3, "h", "t.1"),
        ]
    finally:
        await deaf.close(drain_seconds=1)
        await owner.close(drain_seconds=1)
        await db.close()


async def test_only_the_owner_runs_computer_turns(pair):
    owner, other, heard, silent, table = pair
    # Not a computer table: the other process arms no timer for a guild it does not own.
    await other.act(table.id, "h", 0, "t.1")
    await _until(lambda: owner.find(table.id).version == 1, "the owner catching up")
    assert not other._timers.armed(table.id)
    await _until(lambda: owner._timers.armed(table.id), "the owner arming the turn timer")


async def test_sqlite_has_no_feed():
    feed = NoFeed()
    assert not feed.shared
    await feed.start(lambda change: None)
    await feed.close()
    await asyncio.sleep(0)
