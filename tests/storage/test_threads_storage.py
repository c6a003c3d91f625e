"""Where a table lives (migration 0007_threads, storage/threads.py): tables bound for a thread
are not held to one open table per channel, inline ones still are; each step of a placement is
stored, and the tables a kill left half-placed are found."""

import pytest

from storage import ChannelBusy, SeatInfo, TablesRepo, TableThreadsRepo, open_database

SEATS = [SeatInfo(id="1", name="Ana")]


async def _new(repo: TablesRepo, channel: str = "c1", parent: str | None = None):
    return await repo.create(
        guild_id="g",
        channel_id=channel,
        game="amapatolli",
        host_id="1",
        locale="es",
        options={},
        seats=SEATS,
        seed="s",
        parent_channel_id=parent,
    )


async def test_any_number_of_thread_tables_per_channel_and_one_inline(db_target):
    db = await open_database(db_target)
    tables, threads = TablesRepo(db), TableThreadsRepo(db)
    inline = await _new(tables)
    bound = [await _new(tables, parent="c1") for _ in range(5)]  # beside the inline one
    for n, record in enumerate(bound):
        await threads.set_line(record.id, f"line{n}")
        if n < 4:
            await threads.move(record.id, f"line{n}")  # its thread has the line's id
    assert await threads.unplaced() == [bound[4].id]  # stored, line posted, thread not yet
    stored = await tables.get(bound[0].id)
    assert (stored.channel_id, stored.parent_channel_id, stored.parent_message_id) == (
        "line0",
        "c1",
        "line0",
    )
    with pytest.raises(ChannelBusy):  # inline after all: the channel has its inline table
        await threads.inline(bound[4].id, "c1")
    await tables.close(inline.id)
    await threads.inline(bound[4].id, "c1")
    moved = await tables.get(bound[4].id)
    assert (moved.channel_id, moved.parent_channel_id, moved.parent_message_id) == (
        "c1",
        None,
        None,
    )
    assert await threads.unplaced() == []
    with pytest.raises(ChannelBusy):
        await _new(tables)
    await threads.inherit(moved.id, "c1", "line9")
    assert (await tables.get(moved.id)).parent_message_id == "line9"
    await db.close()


async def test_a_thread_archive_due_is_stored_until_cleared_and_outlives_a_reopen(db_target):
    db = await open_database(db_target)
    tables, threads = TablesRepo(db), TableThreadsRepo(db)
    first, second = [await _new(tables, parent="c1") for _ in range(2)]
    for n, record in enumerate((first, second)):
        await threads.set_line(record.id, f"line{n}")
        await threads.move(record.id, f"line{n}")
    assert await threads.archives_due() == []
    await threads.archive_at(second.id, 2000.5)
    await threads.archive_at(first.id, 1000.25)
    await db.close()
    db = await open_database(db_target)  # a restart
    threads = TableThreadsRepo(db)
    assert await threads.archives_due() == [
        (first.id, "line0", 1000.25),
        (second.id, "line1", 2000.5),
    ]
    await threads.archive_at(first.id, None)
    assert await threads.archives_due() == [(second.id, "line1", 2000.5)]
    await db.close()
