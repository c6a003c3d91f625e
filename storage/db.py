"""The database: one writer thread for every change and reads that never wait for a write,
over SQLite (the embedded default, ``storage/sqlite.py``) or PostgreSQL (``storage/postgres.py``).

Writes go through ``Database.write(unit)``: ``unit`` is a plain function of a ``Transaction``
(``storage/sql.py``) that the writer thread (``storage/writer.py``) runs whole inside a
transaction, so a write is one event-loop round trip however many statements it has, and no lock
is ever held while waiting for the event loop. Reads go through ``fetchone`` / ``fetchall``
(SQLite: a query-only aiosqlite connection in WAL mode; PostgreSQL: a read-only asyncpg pool):
they never wait for a write, and see only committed data.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from storage.kept import KeptAtMost, of_people
from storage.migrations import migration_scripts
from storage.rows import as_model
from storage.sql import Dialect, Params, PgTuning, Transaction, is_postgres_url
from storage.sqlite import open_sqlite
from storage.writer import Observer, Writer, WriteStats

__all__ = ["Database", "open_database", "migration_scripts"]
T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


class Reads(Protocol):
    async def fetchone(self, sql: str, params: Params = ()) -> Any: ...

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]: ...

    async def schema_version(self) -> int: ...

    async def close(self) -> None: ...


class Database:
    """The writer thread (every change) and the backend's reads."""

    def __init__(self, reads: Reads, writer: Writer, dialect: Dialect) -> None:
        self.reads = reads
        self.dialect: Dialect = dialect
        self._writer = writer
        # (name, locale) last written per player: ``PlayersRepo.upsert`` skips a write that
        # would change nothing (a click would otherwise cost a transaction of its own). Of the
        # people met lately only: a miss costs that write once (storage/kept.py).
        self.players_written: KeptAtMost[str, tuple[str, str | None]] = of_people()
        # (user, game) whose card ledger has rows: ``CollectionsRepo.ensure_starter`` skips
        # them (a ledger is never deleted from, so once seen it stays true). Of the people met
        # lately only: a miss costs one writer transaction that finds the ledger (a read).
        self.ledgers_known: KeptAtMost[tuple[str, str], None] = of_people()

    async def write(self, unit: Callable[[Transaction], T]) -> T:
        """Run ``unit(tx)`` in the writer thread inside a transaction; its result once
        committed. If ``unit`` raises, none of its changes stand and the error is raised here.

        Cancelling the caller does not cancel the unit: once queued it runs (callers that keep
        memory in step with the database, like the move path, wait for it; see moves.py)."""
        result: T = await self.submit(unit)
        return result

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One statement as a write of its own; the number of rows it changed. Alone in its
        batch it runs without BEGIN and COMMIT where the backend allows (SQLite: a statement
        is a transaction of its own; ``Writer.autocommit_alone``)."""
        changed: int = await self._writer.submit(
            lambda conn: conn.execute(sql, params).rowcount, statement=True
        )
        return changed

    def submit(
        self,
        unit: Callable[[Transaction], T],
        *,
        decided: bool = False,
        key: Hashable | None = None,
        covers: Hashable | None = None,
        statement: bool = False,
    ) -> asyncio.Future[T]:
        """``write``'s unit queued now; the writer's own future, settled once committed: for a
        caller that starts a write and awaits it later, and directly (each coroutine or task
        in between costs a turn of the event loop: under load, a loop lag each). ``decided``:
        a future its awaiters cannot cancel (``storage/writer.Decided``); ``key``/``covers``:
        a unit another one of its batch makes redundant; ``statement``: the unit runs exactly
        one statement (``Writer.submit``)."""
        return self._writer.submit(
            unit, decided=decided, key=key, covers=covers, statement=statement
        )

    async def fetchone(self, sql: str, params: Params = ()) -> Any:
        """The first row of a read (by name and by index), or None. ``?`` placeholders."""
        return await self.reads.fetchone(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        return await self.reads.fetchall(sql, params)

    async def models(self, model: type[M], sql: str, params: Params = ()) -> list[M]:
        """Every row of a read as ``model`` (``storage/rows.py``'s ``as_model``: each column
        fills the field of its name)."""
        return [as_model(model, row) for row in await self.reads.fetchall(sql, params)]

    @property
    def write_stats(self) -> WriteStats:
        return self._writer.stats

    async def schema_version(self) -> int:
        return await self.reads.schema_version()

    async def close(self) -> None:
        await self._writer.stop()
        await self.reads.close()


async def open_database(
    target: str | Path, *, observe: Observer | None = None, tuning: PgTuning | None = None
) -> Database:
    """Open (creating if needed) and migrate the database at ``target``: a PostgreSQL URL
    (``postgresql://…``) or the path of a SQLite file.

    ``observe(name, ms)`` hears the time each write transaction took; ``tuning``: PostgreSQL's
    timeouts and read pool (ignored by SQLite)."""
    if is_postgres_url(target):
        # Imported only here: a SQLite bot never loads asyncpg (less start-up, and a host
        # without it still runs the embedded default).
        from storage.postgres import open_postgres

        reads_pg, writer = await open_postgres(str(target), observe, tuning)
        return Database(reads_pg, writer, "postgres")
    reads, writer = await open_sqlite(target, observe)
    return Database(reads, writer, "sqlite")
