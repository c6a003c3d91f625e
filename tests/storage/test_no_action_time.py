"""Migration 0016 (issue 29): a move's row no longer records when it was written (read by
nothing); a database migrated from 0015 keeps every move, and what the actions' key and foreign
key do, on both backends."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from storage import SeatInfo, TablesRepo, open_database
from storage.migrations import migration_scripts
from storage.postgres import migrate as migrate_postgres
from storage.sqlite import _configure, migrate

NO_ACTION_TIME = 16
SEAT = "310000000000000001"
MOVES = [(7, 1, SEAT, "p 3", 0), (7, 2, "cpu", "d", 1), (8, 1, SEAT, "c 12 4", 0)]
TABLE_SQL = (
    "INSERT INTO tables (id, guild_id, channel_id, game, status, host_id, locale, options,"
    " seats, seed, version) VALUES ({id}, 'g', 'c{id}', 'chupate2', 'finished', 'h', 'es',"
    " '{{}}', '[]', 's', 2)"
)
ACTION_SQL = "INSERT INTO actions (table_id, version, seat, action, by_timer) VALUES "


def _at(path: Path, last: int) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    _configure(conn)
    for number, script in migration_scripts("sqlite")[:last]:
        conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
    return conn


def test_a_sqlite_database_at_0015_keeps_its_moves_and_their_keys(tmp_path):
    conn = _at(tmp_path / "old.db", NO_ACTION_TIME - 1)
    for table_id in (7, 8):
        conn.execute(TABLE_SQL.format(id=table_id))
    conn.executemany(ACTION_SQL + "(?, ?, ?, ?, ?)", MOVES)
    written = conn.execute("SELECT created_at FROM actions").fetchall()
    assert len(written) == 3 and all(at.endswith("Z") for (at,) in written)  # the old rows' time

    assert migrate(conn) == len(migration_scripts("sqlite"))
    columns = [r[1] for r in conn.execute("PRAGMA table_info(actions)")]
    assert columns == ["table_id", "version", "seat", "action", "by_timer"]
    assert conn.execute("SELECT * FROM actions ORDER BY table_id, version").fetchall() == MOVES
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'actions'").fetchone()[0]
    assert "WITHOUT ROWID" in sql  # still one b-tree (0013)
    with pytest.raises(sqlite3.IntegrityError):  # one row per (table, version)
        conn.execute(ACTION_SQL + "(7, 2, 'h', 'x', 0)")
    with pytest.raises(sqlite3.IntegrityError):  # of a table that exists
        conn.execute(ACTION_SQL + "(9, 1, 'h', 'x', 0)")
    conn.execute("DELETE FROM tables WHERE id = 7")  # its moves go with it
    assert conn.execute("SELECT table_id, version FROM actions").fetchall() == [(8, 1)]
    conn.close()


async def test_a_postgres_database_at_0015_keeps_its_moves_and_their_keys(pg_url):
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY)")
        for number, script in migration_scripts("postgres")[: NO_ACTION_TIME - 1]:
            async with conn.transaction():
                if any(line and not line.startswith("--") for line in script.splitlines()):
                    await conn.execute(script)  # (not a SQLite's alone: comments only here)
                await conn.execute("INSERT INTO schema_version VALUES ($1)", number)
        for table_id in (7, 8):
            await conn.execute(TABLE_SQL.format(id=table_id))
        await conn.executemany(ACTION_SQL + "($1, $2, $3, $4, $5)", MOVES)
        assert len(await conn.fetch("SELECT created_at FROM actions")) == 3

        assert await migrate_postgres(conn) == len(migration_scripts("postgres"))
        columns = await conn.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'actions'"
            " ORDER BY ordinal_position"
        )
        assert [r[0] for r in columns] == ["table_id", "version", "seat", "action", "by_timer"]
        rows = await conn.fetch("SELECT * FROM actions ORDER BY table_id, version")
        assert [tuple(r) for r in rows] == MOVES
        with pytest.raises(asyncpg.UniqueViolationError):
            await conn.execute(ACTION_SQL + "(7, 2, 'h', 'x', 0)")
        with pytest.raises(asyncpg.ForeignKeyViolationError):
            await conn.execute(ACTION_SQL + "(9, 1, 'h', 'x', 0)")
        await conn.execute("DELETE FROM tables WHERE id = 7")
        rows = await conn.fetch("SELECT table_id, version FROM actions")
        assert [tuple(r) for r in rows] == [(8, 1)]
    finally:
        await conn.close()


async def test_a_move_is_recorded_and_read_back_without_its_time(db_target):
    db = await open_database(db_target)
    try:
        repo = TablesRepo(db)
        seats = [SeatInfo(id=SEAT, name="Ana"), SeatInfo(id="cpu", name="CPU", cpu_level="easy")]
        table = await repo.create(
            guild_id="g",
            channel_id="c",
            game="chupate2",
            host_id=SEAT,
            locale="es",
            options={},
            seats=seats,
            seed="s",
        )
        await repo.start(table.id, seats, "{}", 0)
        table = await repo.get(table.id)
        assert table is not None
        await repo.record_action(table, seat=SEAT, action="p 3", state_json="{}", version=1)
        moves = await repo.actions(table.id)
        assert [(m.version, m.seat, m.action, m.by_timer) for m in moves] == [
            (1, SEAT, "p 3", False)
        ]
    finally:
        await db.close()
