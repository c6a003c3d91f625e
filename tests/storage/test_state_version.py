"""Migration 0017 (issue 29): a table's row says which version its stored state is
(``state_version``); a move writes the state only when given one, and a row written before the
migration has its state at its own version, on both backends."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from storage import SeatInfo, TablesRepo, open_database
from storage.migrations import migration_scripts
from storage.postgres import migrate as migrate_postgres
from storage.sqlite import _configure, migrate

STATE_VERSION = 17
OLD_ROW = (
    "INSERT INTO tables (id, guild_id, channel_id, game, status, host_id, locale, options,"
    " seats, seed, state, version) VALUES (7, 'g', 'c', 'chupate2', 'playing', 'h', 'es',"
    " '{}', '[]', 's', '{\"at\": 5}', 5)"
)


def test_a_sqlite_row_from_before_0017_has_its_state_at_its_version(tmp_path: Path):
    conn = sqlite3.connect(tmp_path / "old.db", isolation_level=None)
    _configure(conn)
    for number, script in migration_scripts("sqlite")[: STATE_VERSION - 1]:
        conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
    conn.execute(OLD_ROW)
    assert migrate(conn) == len(migration_scripts("sqlite"))
    assert conn.execute("SELECT state, version, state_version FROM tables").fetchall() == [
        ('{"at": 5}', 5, 5)
    ]
    conn.close()


async def test_a_postgres_row_from_before_0017_has_its_state_at_its_version(pg_url):
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY)")
        for number, script in migration_scripts("postgres")[: STATE_VERSION - 1]:
            async with conn.transaction():
                if any(line and not line.startswith("--") for line in script.splitlines()):
                    await conn.execute(script)
                await conn.execute("INSERT INTO schema_version VALUES ($1)", number)
        await conn.execute(OLD_ROW)
        assert await migrate_postgres(conn) == len(migration_scripts("postgres"))
        row = await conn.fetchrow("SELECT state, version, state_version FROM tables")
        assert tuple(row) == ('{"at": 5}', 5, 5)
    finally:
        await conn.close()


async def test_a_move_writes_the_state_and_its_version_only_when_given_one(db_target):
    db = await open_database(db_target)
    try:
        repo = TablesRepo(db)
        seats = [SeatInfo(id="1", name="Ana"), SeatInfo(id="cpu", name="CPU", cpu_level="easy")]
        table = await repo.create(
            guild_id="g",
            channel_id="c",
            game="chupate2",
            host_id="1",
            locale="es",
            options={},
            seats=seats,
            seed="s",
        )
        await repo.start(table.id, seats, '{"at": 0}', 0)
        record = await repo.get(table.id)
        assert record is not None and (record.state, record.stored_version) == ('{"at": 0}', 0)
        await repo.record_action(record, seat="1", action="p 3", state_json=None, version=1)
        record = await repo.get(table.id)
        assert record is not None
        assert (record.state, record.state_version, record.version) == ('{"at": 0}', 0, 1)
        await repo.record_action(record, seat="cpu", action="d", state_json='{"at": 2}', version=2)
        record = await repo.get(table.id)
        assert record is not None
        assert (record.state, record.state_version, record.version) == ('{"at": 2}', 2, 2)
        assert [a.version for a in await repo.actions(table.id, after=1)] == [2]
        await repo.record_action(record, seat="1", action="p 4", state_json=None, version=3)
        await repo.close(table.id, state=('{"at": 3}', 3))  # closed between two stored states
        record = await repo.get(table.id)
        assert record is not None and record.status == "cancelled"
        assert (record.state, record.stored_version, record.version) == ('{"at": 3}', 3, 3)
    finally:
        await db.close()
