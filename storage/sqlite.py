"""The SQLite backend: PRAGMAs, ``PRAGMA user_version`` migrations, the writer's ``sqlite3``
connection and a query-only aiosqlite read connection (WAL: reads never wait for a write)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite

from storage.checkpoints import WalCheckpoints
from storage.migrations import migration_scripts
from storage.sql import Params
from storage.writer import Observer, Writer

# SQLite's primary result codes for a database that cannot take writes now (the extended codes
# carry them in their low byte): read-only (file or file system), I/O error, disk full, the
# file gone.
_UNAVAILABLE = {
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_CANTOPEN,
}


def unavailable(exc: BaseException) -> bool:
    """A full disk, a read-only file or file system, an I/O error: not the write's fault."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.Error) and code is not None and code & 0xFF in _UNAVAILABLE


class SqliteSession(sqlite3.Connection):
    """The writer's connection: ``sqlite3`` itself is the Transaction units see (no wrapper
    around each statement), plus ``lock``."""

    def lock(self, key: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` holds the database's one write lock already."""


# Frames of write-ahead log after which the writer's own connection checkpoints (see
# ``open_sqlite``): a backstop only, as the checkpoint thread starts the log over every few
# seconds (``storage/checkpoints.py``: ~7,500 frames at 1,000 busy tables).
CHECKPOINT_PAGES = 40_000


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
    for number, script in migration_scripts("sqlite"):
        if number <= current:
            continue
        # executescript commits first; the script and its version bump run in one
        # transaction so a crash leaves either the old or the new schema.
        conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
        current = number
    return current


class SqliteReads:
    """Reads through one query-only aiosqlite connection (its own thread).

    Each read runs whole (execute and fetch) in one call on that thread: a connection's read
    snapshot lasts while any of its statements is active, so a statement left open across a
    hop to the event loop would pin it for the reads queued behind, which could then miss a
    commit made before they were asked."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetchone(self, sql: str, params: Params = ()) -> Any:
        """The first row (for reads of one row: every row is fetched)."""
        rows = await self.conn.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        return list(await self.conn.execute_fetchall(sql, params))

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row is not None else 0

    async def close(self) -> None:
        await self.conn.close()


async def open_sqlite(path: str | Path, observe: Observer | None) -> tuple[SqliteReads, Writer]:
    if str(path) == ":memory:":
        raise ValueError("the writer and the readers need a file to share (WAL); use a path")
    Path(path).parent.mkdir(parents=True, exist_ok=True)

    def connect() -> SqliteSession:
        conn = sqlite3.connect(
            str(path), isolation_level=None, check_same_thread=False, factory=SqliteSession
        )
        conn.row_factory = sqlite3.Row
        _configure(conn)
        # Checkpoints are the checkpoint thread's (``WalCheckpoints``); this one only bounds
        # the log should that thread fall behind.
        conn.execute(f"PRAGMA wal_autocheckpoint = {CHECKPOINT_PAGES}")
        migrate(conn)
        return conn

    def connect_checkpoints() -> sqlite3.Connection:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        _configure(conn)  # its checkpoints sync as the writer's would (synchronous = NORMAL)
        return conn

    # Optimistic: a unit failing is rare (a lost version guard, a busy channel), and every
    # other batch then saves two statements per unit (issue 29: a third of the writer's).
    # A lone statement is its own transaction (SQLite's autocommit): no BEGIN and COMMIT.
    writer = Writer(
        connect,
        observe,
        begin="BEGIN IMMEDIATE",
        unavailable=unavailable,
        optimistic=True,
        autocommit_alone=True,
        housekeeping=WalCheckpoints(connect_checkpoints),
    )
    await writer.start()
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA busy_timeout = 5000")
    # Nothing writes through this connection: it would bypass the writer's ordering.
    await conn.execute("PRAGMA query_only = ON")
    return SqliteReads(conn), writer
