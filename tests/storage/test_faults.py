"""The database goes away (issue 27): a PostgreSQL server stopped and started again, a SQLite
file on a full disk or a read-only file. Every write meanwhile fails promptly as
``StorageUnavailable`` with nothing of it saved; reads the database can still serve are served;
the writer and the read pool come back by themselves, with nothing lost that was committed.

SQLite's full disk is ``PRAGMA max_page_count`` on the writer's connection (SQLite then fails
exactly as on a full disk: SQLITE_FULL); its read-only file is ``PRAGMA query_only`` there
(SQLITE_READONLY, as a file system remounted read-only). ``bench/faults.py`` does both on a real
full / read-only file system (a tmpfs)."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import time

import pytest

from storage import PlayersRepo, SeatInfo, StorageUnavailable, TablesRepo, open_database
from tests.pg_server import EmbeddedPostgres

SEATS = [SeatInfo(id="a", name="A"), SeatInfo(id="b", name="B")]


async def _playing(repo: TablesRepo):
    record = await repo.create(
        guild_id="g",
        channel_id="c",
        game="triad",
        host_id="a",
        locale="es",
        options={},
        seats=SEATS,
        seed="s",
    )
    await repo.start(record.id, SEATS, '{"v": 0}', 0)
    return await repo.get(record.id)


def _raw(db, sql: str):
    """A statement on the writer's own connection, outside any transaction (a PRAGMA)."""
    return db._writer.submit(lambda conn: conn.execute(sql).fetchall(), transactional=False)


async def _move(repo: TablesRepo, table, version: int) -> None:
    # random hex: deflated as SQLite stores a large state (storage/stored_state.py), it still
    # needs pages a full disk lacks
    pad = random.Random(version).randbytes(10000).hex()
    await repo.record_action(
        table, seat="a", action=f"m{version}", state_json='{"pad": "' + pad + '"}',
        version=version,
    )  # fmt: skip


async def test_sqlite_on_a_full_disk_fails_writes_keeps_reads_and_recovers(tmp_path):
    db = await open_database(tmp_path / "full.db")
    try:
        repo = TablesRepo(db)
        table = await _playing(repo)
        await _move(repo, table, 1)
        await _raw(db, "VACUUM")  # no free page left in the file either (the migrations')
        pages = (await _raw(db, "PRAGMA page_count"))[0][0]
        await _raw(db, f"PRAGMA max_page_count = {pages}")  # the disk is full now
        for _ in range(3):  # every attempt is answered, none saved
            with pytest.raises(StorageUnavailable) as caught:
                await _move(repo, await repo.get(table.id), 2)
            assert isinstance(caught.value.__cause__, sqlite3.Error)
            assert caught.value.__cause__.sqlite_errorcode & 0xFF == sqlite3.SQLITE_FULL
        # Several writes in one batch: all fail alike, none half-saved.
        results = await asyncio.gather(
            *(PlayersRepo(db).upsert(f"p{n}", "x" * 5000, "es") for n in range(5)),
            _move(repo, await repo.get(table.id), 2),
            return_exceptions=True,
        )
        assert all(isinstance(r, StorageUnavailable) for r in results), results
        # Reads are served meanwhile, and show only what was committed.
        assert (await repo.get(table.id)).version == 1
        assert (await db.fetchone("SELECT COUNT(*) FROM actions"))[0] == 1
        assert (await db.fetchone("SELECT COUNT(*) FROM players WHERE user_id LIKE 'p%'"))[0] == 0
        await _raw(db, "PRAGMA max_page_count = 1073741823")  # space returns
        await _move(repo, await repo.get(table.id), 2)
        assert (await repo.get(table.id)).version == 2
    finally:
        await db.close()


async def test_sqlite_on_a_read_only_file_fails_writes_keeps_reads_and_recovers(tmp_path):
    db = await open_database(tmp_path / "ro.db")
    try:
        repo = TablesRepo(db)
        table = await _playing(repo)
        await _raw(db, "PRAGMA query_only = ON")
        with pytest.raises(StorageUnavailable) as caught:
            await _move(repo, table, 1)
        assert caught.value.__cause__.sqlite_errorcode & 0xFF == sqlite3.SQLITE_READONLY
        assert (await repo.get(table.id)).version == 0
        await _raw(db, "PRAGMA query_only = OFF")
        await _move(repo, await repo.get(table.id), 1)
        assert (await repo.get(table.id)).version == 1
    finally:
        await db.close()


async def test_a_constraint_error_is_not_taken_for_an_unavailable_database(tmp_path):
    db = await open_database(tmp_path / "c.db")
    try:
        with pytest.raises(sqlite3.IntegrityError):
            await db.write(lambda tx: tx.execute("INSERT INTO actions (table_id) VALUES (NULL)"))
    finally:
        await db.close()


@pytest.fixture
def own_pg_server():
    """A server of this test's own (stopped and started again, the session's must not be)."""
    server = EmbeddedPostgres()
    try:
        server.start()
        yield server
    finally:
        server.stop()


async def test_postgres_restarted_fails_writes_then_serves_again_by_itself(own_pg_server, caplog):
    caplog.set_level(logging.DEBUG)
    server = own_pg_server
    url = server.create_database()
    db = await open_database(url)
    try:
        repo = TablesRepo(db)
        table = await _playing(repo)
        await _move(repo, table, 1)
        current = await repo.get(table.id)  # as the bot holds it in memory
        await asyncio.to_thread(server.stop_server)
        # The server is gone: writes and reads are answered (promptly), none saved.
        for _ in range(3):
            with pytest.raises(StorageUnavailable):
                await asyncio.wait_for(_move(repo, current, 2), 30)
        with pytest.raises(StorageUnavailable):
            await asyncio.wait_for(repo.get(table.id), 30)
        await asyncio.to_thread(server.start_server)
        back = time.monotonic()
        # The same Database (no reopening): the writer and the pool connect again by
        # themselves; the first write after the restart may still meet a dropped connection.
        while True:
            try:
                await _move(repo, await repo.get(table.id), 2)
                break
            except StorageUnavailable:
                assert time.monotonic() - back < 30, "the writer never connected again"
                await asyncio.sleep(0.1)
        stored = await repo.get(table.id)
        assert stored.version == 2
        count = await db.fetchone("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table.id,))
        assert count[0] == 2  # the move before the restart, and the one after: nothing else
        # The log: one line when it went away, one when it came back; tracebacks at DEBUG only.
        told = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert not [r.getMessage() for r in told if r.exc_info]
        said = [r.getMessage() for r in told if r.name == "storage.outage"]
        assert len(said) == 2, said
        assert said[0].startswith("database unavailable") and "available again" in said[1]
    finally:
        await db.close()
