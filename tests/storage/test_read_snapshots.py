"""SQLite reads share one aiosqlite connection. A connection's read snapshot lasts as long as any
of its statements is active, so a read whose statement stayed open across a hop to the event
loop would pin the snapshot for every read queued behind it: a read started after a commit
could miss it (CI saw a follower change never heard, tests/bot/test_followers_shared.py)."""

from __future__ import annotations

import asyncio
import sqlite3

from storage import SeatInfo, TablesRepo, open_database


async def test_a_read_queued_after_a_commit_sees_it_while_other_reads_are_in_flight(tmp_path):
    path = tmp_path / "reads.db"
    db = await open_database(path)
    record = await TablesRepo(db).create(
        guild_id="g", channel_id="c", game="toy", host_id="h", locale="es", options={},
        seats=[SeatInfo(id="h", name="H")], seed="s",
    )  # fmt: skip
    # A row to read: a read with rows left keeps its statement active until they are fetched.
    await db.write(
        lambda tx: tx.execute(
            "INSERT INTO followers (table_id, user_id) VALUES (?, ?)", (record.id, "early")
        )
    )

    def commit_elsewhere() -> int:
        # Runs on the reads' own thread, between the first read and the last one: another
        # process (its own connection) commits a follower.
        other = sqlite3.connect(path, isolation_level=None)
        try:
            other.execute(
                "INSERT INTO followers (table_id, user_id) VALUES (?, ?)", (record.id, "late")
            )
        finally:
            other.close()
        return 1

    await db.reads.conn.create_function("commit_elsewhere", 0, commit_elsewhere)
    query = "SELECT user_id FROM followers WHERE table_id = ? ORDER BY user_id"
    # Queued in this order on the reads' thread: a read, the commit, a read.
    before = asyncio.create_task(db.fetchall(query, (record.id,)))
    commit = asyncio.create_task(db.fetchone("SELECT commit_elsewhere()"))
    after = asyncio.create_task(db.fetchall(query, (record.id,)))
    await asyncio.gather(before, commit, after)
    assert sorted(r["user_id"] for r in after.result()) == ["early", "late"]
    await db.close()
