"""The database connection: PRAGMAs, numbered migrations and transactions."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

import aiosqlite

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migration_scripts() -> list[tuple[int, str]]:
    """The numbered SQL migrations shipped in ``storage/migrations``, in order."""
    found = []
    for entry in resources.files("storage.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found


class Database:
    """One aiosqlite connection; every multi-row change goes through ``transaction()``."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        # One connection serves every task: transactions must take turns on it, or a second
        # BEGIN lands inside the first ("cannot start a transaction within a transaction").
        self._write_lock = asyncio.Lock()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` if the block raises."""
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.rollback()
                raise
            else:
                await self.conn.commit()

    async def schema_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row is not None else 0

    async def migrate(self) -> int:
        """Apply every migration newer than ``PRAGMA user_version``; returns the new version."""
        current = await self.schema_version()
        for number, script in migration_scripts():
            if number <= current:
                continue
            # executescript commits first; the script and its version bump run in one
            # transaction so a crash leaves either the old or the new schema.
            await self.conn.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
            current = number
        return current

    async def close(self) -> None:
        await self.conn.close()


async def open_database(path: str | Path) -> Database:
    """Open (creating if needed) the SQLite file at ``path``, configured and migrated."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA synchronous = NORMAL")
    await conn.execute("PRAGMA busy_timeout = 5000")
    db = Database(conn)
    await db.migrate()
    return db
