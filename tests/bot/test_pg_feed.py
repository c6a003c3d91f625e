"""The PostgreSQL change feed (LISTEN/NOTIFY fed by a trigger on ``tables``) on a real server:
a committed change is heard by every listener, a rolled-back one by none."""

from __future__ import annotations

import asyncio

import asyncpg

from bot.service.feed import TableChange
from bot.service.pg_feed import PostgresFeed
from storage.changes import VIEWS_CHANNEL, TableChanges, parse
from tests.waiting import until

SCHEMA = (
    "CREATE TABLE tables (id BIGINT PRIMARY KEY, version INTEGER NOT NULL, status TEXT NOT NULL);"
    " CREATE TABLE followers (table_id BIGINT NOT NULL, user_id TEXT NOT NULL,"
    " message_id TEXT, PRIMARY KEY (table_id, user_id))"
)


async def _heard(changes: list[TableChange], count: int) -> None:
    await until(lambda: len(changes) >= count, f"{count} changes heard", poll=0.005)


def test_payloads():
    assert parse("12:40:playing") == (12, 40, "playing")
    assert parse("garbage") is None and parse("x:1:playing") is None


async def test_committed_changes_reach_every_process_rolled_back_ones_none(pg_url):
    conn = await asyncpg.connect(pg_url)
    first, second = PostgresFeed(pg_url), PostgresFeed(pg_url)
    heard_first: list[TableChange] = []
    heard_second: list[TableChange] = []
    try:
        await conn.execute(SCHEMA)
        await conn.execute("INSERT INTO tables VALUES (1, 0, 'lobby'), (2, 0, 'lobby')")
        await first.start(heard_first.append)
        await second.start(heard_second.append)  # the trigger is created once, replaced once
        await conn.execute("UPDATE tables SET status = 'playing' WHERE id = 1")
        await conn.execute("UPDATE tables SET version = 1 WHERE id = 1")
        async with conn.transaction():
            await conn.execute("UPDATE tables SET version = 5 WHERE id = 2")
        try:
            async with conn.transaction():
                await conn.execute("UPDATE tables SET version = 9 WHERE id = 1")
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
        await conn.execute("UPDATE tables SET status = status WHERE id = 1")  # no change: silent
        await conn.execute("UPDATE tables SET version = 2, status = 'finished' WHERE id = 1")
        want = [
            TableChange(1, 0, "playing"),
            TableChange(1, 1, "playing"),
            TableChange(2, 5, "lobby"),
            TableChange(1, 2, "finished"),
        ]
        await _heard(heard_first, 4)
        await _heard(heard_second, 4)
        assert heard_first == want and heard_second == want
    finally:
        await first.close()
        await second.close()
        await conn.close()


async def test_a_dropped_listen_connection_comes_back_and_asks_for_a_resync(pg_url):
    conn = await asyncpg.connect(pg_url)
    feed = PostgresFeed(pg_url)
    heard: list[TableChange] = []
    resyncs: list[bool] = []
    try:
        await conn.execute(SCHEMA)
        await conn.execute("INSERT INTO tables VALUES (1, 0, 'playing')")
        await feed.start(heard.append, lambda: resyncs.append(True))
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )  # what a server restart or a failover does to the LISTEN connection
        await until(lambda: resyncs, "the resync after the LISTEN connection was dropped")
        assert resyncs == [True]
        await conn.execute("UPDATE tables SET version = 1 WHERE id = 1")
        await _heard(heard, 1)
        assert heard == [TableChange(1, 1, "playing")]
    finally:
        await feed.close()
        await conn.close()


async def test_close_waits_for_a_notify_in_flight(pg_url):
    """A word sent just before the process closes its feed: close() must not UNLISTEN on the
    connection while the NOTIFY is still running there (asyncpg refuses a second operation)."""
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute(SCHEMA)
    finally:
        await conn.close()
    for _ in range(5):
        changes = TableChanges(pg_url)
        await changes.start(lambda *change: None)
        sending = [asyncio.create_task(changes.notify(VIEWS_CHANNEL, "word")) for _ in range(3)]
        await asyncio.sleep(0)  # the first NOTIFY is now on the wire
        await changes.close()  # raised InterfaceError before close took the sending lock
        await asyncio.gather(*sending)
