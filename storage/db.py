"""The database: PRAGMAs, numbered migrations, one writer thread and one read connection.

Writes go through ``Database.write(unit)``: ``unit`` is a plain function of a ``sqlite3``
connection that the writer thread (``storage/writer.py``) runs whole inside a transaction, so a
write is one event-loop round trip however many statements it has, and the write lock is never
held while waiting for the event loop. Reads go through ``Database.conn``, a separate aiosqlite
connection (its own thread): in WAL mode they never wait for a write, and see only committed data.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TypeVar

import aiosqlite

from storage.writer import Observer, Writer, WriteStats

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
T = TypeVar("T")


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


def _configure(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA busy_timeout = 5000")


def _schema_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row is not None else 0


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration newer than ``PRAGMA user_version``; returns the new version."""
    current = _schema_version(conn)
    for number, script in migration_scripts():
        if number <= current:
            continue
        # executescript commits first; the script and its version bump run in one
        # transaction so a crash leaves either the old or the new schema.
        conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
        current = number
    return current


class Database:
    """The writer thread (every change) and a read-only aiosqlite connection (``conn``)."""

    def __init__(self, conn: aiosqlite.Connection, writer: Writer) -> None:
        self.conn = conn
        self._writer = writer
        # (name, locale) last written per player: ``PlayersRepo.upsert`` skips a write that
        # would change nothing (a click would otherwise cost a transaction of its own).
        self.players_written: dict[str, tuple[str, str | None]] = {}

    async def write(self, unit: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``unit(conn)`` in the writer thread inside a transaction; its result once
        committed. If ``unit`` raises, none of its changes stand and the error is raised here.

        Cancelling the caller does not cancel the unit: once queued it runs (callers that keep
        memory in step with the database, like the move path, wait for it; see moves.py)."""
        return await self._writer.submit(unit)

    @property
    def write_stats(self) -> WriteStats:
        return self._writer.stats

    async def schema_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row is not None else 0

    async def migrate(self) -> int:
        future = self._writer.submit(migrate, transactional=False)
        return int(await future)

    async def close(self) -> None:
        await self._writer.stop()
        await self.conn.close()


async def open_database(path: str | Path, *, observe: Observer | None = None) -> Database:
    """Open (creating if needed) the SQLite file at ``path``, configured and migrated.

    ``observe(name, ms)`` hears the time each write transaction held the write lock."""
    if str(path) == ":memory:":
        raise ValueError("the writer and the readers need a file to share (WAL); use a path")
    Path(path).parent.mkdir(parents=True, exist_ok=True)

    def setup(conn: sqlite3.Connection) -> None:
        _configure(conn)
        migrate(conn)

    writer = Writer(str(path), setup, observe)
    await writer.start()
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA busy_timeout = 5000")
    # Nothing writes through this connection: it would bypass the writer's ordering.
    await conn.execute("PRAGMA query_only = ON")
    return Database(conn, writer)
