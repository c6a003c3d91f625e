"""Who follows a table, with two processes on one database (both backends): "stop following"
is clicked in a DM, which reaches shard 0's process, while the table's owner is the one DMing
its followers. The database decides (the row), the change feed tells the owner (LISTEN/NOTIFY
on PostgreSQL; an in-process hub for SQLite), and the owner stops DMing at once."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.service.feed import LocalFeed, LocalFeedHub, NoFeed
from bot.service.followers import Followers
from storage import SeatInfo, TablesRepo, open_database
from tests.waiting import until, within_guard


def _feeds(target):
    if isinstance(target, str):  # PostgreSQL: real LISTEN/NOTIFY, one connection each
        from bot.service.pg_feed import PostgresFeed

        return [PostgresFeed(target), PostgresFeed(target)]
    hub = LocalFeedHub()
    return [hub.feed(), hub.feed()]


@pytest.fixture
async def two_processes(db_target):
    """(owner's followers, shard 0's followers, a table id) on one database."""
    dbs = [await open_database(db_target), await open_database(db_target)]
    record = await TablesRepo(dbs[0]).create(
        guild_id="g", channel_id="c", game="toy", host_id="h", locale="es", options={},
        seats=[SeatInfo(id="h", name="H")], seed="s",
    )  # fmt: skip
    feeds = _feeds(db_target)
    for feed in feeds:
        await feed.start(lambda change: None)  # what TableService.load does
    owner, shard0 = Followers(dbs[0], feeds[0]), Followers(dbs[1], feeds[1])
    await owner.load()
    await shard0.load()
    yield owner, shard0, record.id
    for followers in (owner, shard0):
        await followers.close()
    for feed in feeds:
        await feed.close()
    for db in dbs:
        await db.close()


async def test_stop_following_in_a_dm_reaches_the_owner_at_once(two_processes):
    owner, shard0, table_id = two_processes
    assert await owner.follow(table_id, "u")  # the public message's button: the owner
    await owner.set_message(table_id, "u", "555")
    assert await shard0.stop(table_id, "u")
    await until(lambda: not owner.follows(table_id, "u"), "the owner hearing the stop")
    assert owner.of(table_id) == {}
    assert not await shard0.stop(table_id, "u")  # twice: not following any more
    # Following again (the owner): shard 0 hears it too, with no DM message yet.
    assert await owner.follow(table_id, "u")
    await until(lambda: shard0.follows(table_id, "u"), "shard 0 hearing the follow")
    assert not await shard0.follow(table_id, "u")  # already following, whoever recorded it
    await owner.idle()
    assert owner.of(table_id) == {"u": None}


async def test_a_dm_message_id_not_yet_stored_survives_a_re_read(two_processes):
    owner, shard0, table_id = two_processes
    await owner.follow(table_id, "a")
    await owner.follow(table_id, "b")
    await owner.set_message(table_id, "a", "1")
    await until(lambda: shard0.follows(table_id, "b"), "shard 0 hearing both")
    await shard0.stop(table_id, "b")
    await until(lambda: not owner.follows(table_id, "b"), "the owner hearing the stop")
    await owner.idle()
    assert owner.of(table_id) == {"a": "1"}


async def test_the_database_decides_whether_someone_follows(two_processes):
    """A process whose memory never heard of the follow (its feed deaf) still stops it."""
    owner, shard0, table_id = two_processes
    feed = shard0._feed
    # Hears nothing; what it changes is still announced (PostgreSQL: by the trigger).
    deaf = Followers(
        shard0.repo.db, LocalFeed(feed.hub) if isinstance(feed, LocalFeed) else NoFeed()
    )
    await deaf.load()
    assert await owner.follow(table_id, "u")
    assert not deaf.follows(table_id, "u")
    assert await deaf.stop(table_id, "u")
    await until(lambda: not owner.follows(table_id, "u"), "the owner hearing the stop")


class _FailingReads:
    """The followers' reads of one process, the first ``failures`` failing (a locked or
    unreachable database)."""

    def __init__(self, repo, failures):
        self.repo, self.failures, self.tries = repo, failures, 0

    async def of_table(self, table_id):
        self.tries += 1
        if self.tries <= self.failures:
            raise sqlite3.OperationalError("database is locked")
        return await self.repo.of_table(table_id)


async def test_a_failed_re_read_is_tried_again_until_it_succeeds(two_processes):
    owner, shard0, table_id = two_processes
    shard0.repo = _FailingReads(shard0.repo, failures=2)
    assert await owner.follow(table_id, "u")
    await until(lambda: shard0.heard == 1, "shard 0 hearing the follow")
    await within_guard(shard0.idle())
    assert shard0.repo.tries == 3  # two failures, then the read that decided
    assert shard0.follows(table_id, "u")


class _HeldReads:
    """The followers' reads of one process, the calls in ``held`` answered only once released
    (reads completing out of order: PostgreSQL reads go through a pool)."""

    def __init__(self, repo, held):
        self.repo, self.calls = repo, 0
        self.release = {call: asyncio.Event() for call in held}
        self.read = {call: asyncio.Event() for call in held}

    async def of_table(self, table_id):
        call, self.calls = self.calls, self.calls + 1
        stored = await self.repo.of_table(table_id)
        if call in self.release:
            self.read[call].set()
            await self.release[call].wait()
        return stored


async def test_an_older_re_read_answered_last_does_not_decide(two_processes):
    owner, shard0, table_id = two_processes
    reader = Followers(shard0.repo.db, NoFeed())  # re-reads only when told to, here
    reads = reader.repo = _HeldReads(reader.repo, held=(0, 2))
    oldest = asyncio.create_task(reader.refresh(table_id))
    await within_guard(reads.read[0].wait())  # it read: nobody follows
    assert await owner.follow(table_id, "u")
    await within_guard(reader.refresh(table_id))  # read and decided
    assert reader.follows(table_id, "u")
    newest = asyncio.create_task(reader.refresh(table_id))
    await within_guard(reads.read[2].wait())
    reads.release[0].set()  # the oldest answers after a newer one decided: stale
    await within_guard(oldest)
    reads.release[2].set()
    await within_guard(newest)
    assert reader.follows(table_id, "u")


async def test_one_process_needs_no_feed(tmp_path):
    db = await open_database(tmp_path / "one.db")
    record = await TablesRepo(db).create(
        guild_id="g", channel_id="c", game="toy", host_id="h", locale="es", options={},
        seats=[SeatInfo(id="h", name="H")], seed="s",
    )  # fmt: skip
    followers = Followers(db, NoFeed())
    await followers.load()
    assert await followers.follow(record.id, "u")
    assert await followers.stop(record.id, "u")
    assert followers.of(record.id) == {} and followers.heard == 0
    await db.close()
