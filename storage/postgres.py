"""The PostgreSQL backend (asyncpg), behind the same API as SQLite's.

Writes: the writer thread (``storage/writer.py``, the same group commit as SQLite) runs an event
loop of its own with its own asyncpg connection; ``PgSession`` is the synchronous Transaction the
write units see, each statement one ``loop.run_until_complete`` inside that thread. So a move is
still ONE round trip from the bot's event loop, the repositories' units are the SQLite ones
unchanged, and nothing waits for a row lock on the bot's loop. Several processes write to one
server at once; what keeps them correct is the database: version-guarded ``UPDATE``s (a second
writer waits for the first's row lock, then finds the version moved and fails as StaleVersion),
constraints, and ``lock`` (a transaction advisory lock) where logic reads then writes.

Reads: an asyncpg pool on the bot's loop, its connections read-only
(``default_transaction_read_only``), each read seeing the last committed data.

SQL is written once with ``?`` placeholders; ``_translate`` turns them into ``$1, $2, …`` (outside
quoted literals) in one place, cached per statement text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Iterable, Iterator
from functools import lru_cache
from typing import Any, TypeVar

import asyncpg

from storage.migrations import migration_scripts
from storage.outage import quiet_asyncpg_pool
from storage.sql import IntegrityError, Params, PgTuning, StorageUnavailable
from storage.writer import Observer, Writer

T = TypeVar("T")
log = logging.getLogger(__name__)
_MIGRATION_LOCK = 0x6D657361  # "mesa": one process migrates at a time
_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


@lru_cache(maxsize=1024)
def _translate(sql: str) -> tuple[str, bool]:
    """(``sql`` with ``?`` as ``$n``, whether it returns rows)."""
    out: list[str] = []
    number = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        elif char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    text = "".join(out)
    head = text.lstrip().split(None, 1)[0].upper() if text.strip() else ""
    returns_rows = head in ("SELECT", "WITH", "VALUES") or " RETURNING " in f" {text.upper()} "
    return text, returns_rows


def _rowcount(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgCursor:
    """A statement's rows (asyncpg Records: by name and by index) and its row count."""

    __slots__ = ("_rows", "_next", "rowcount")

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    def fetchone(self) -> Any:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[Any]:
        rest = self._rows[self._next :]
        self._next = len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


# A connection the server dropped (restarted, terminated the backend).
_LOST = (
    OSError,
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.AdminShutdownError,
    asyncpg.CannotConnectNowError,
    asyncpg.InterfaceError,
)
# The database cannot take a write now: a connection lost or refused, the server shutting down
# or starting up, or a failover that left us on a read-only standby.
_UNAVAILABLE = (*_LOST, asyncpg.PostgresConnectionError, asyncpg.ReadOnlySQLTransactionError)
# Connecting again while the server is away must not hold the writer for asyncpg's 60 s.
CONNECT_TIMEOUT_SECONDS = 5.0


def unavailable(exc: BaseException) -> bool:
    return isinstance(exc, _UNAVAILABLE)


async def _configure(conn: asyncpg.Connection) -> None:
    """A number given for a TEXT column is stored as its text, as SQLite's column affinity
    does (asyncpg refuses it otherwise, e.g. a Discord id passed as an int)."""
    await conn.set_type_codec("text", schema="pg_catalog", encoder=str, decoder=str, format="text")


async def _connect(url: str, settings: dict[str, str] | None = None) -> asyncpg.Connection:
    conn = await asyncpg.connect(url, server_settings=settings, timeout=CONNECT_TIMEOUT_SECONDS)
    await _configure(conn)
    return conn


def retryable(exc: BaseException) -> bool:
    """Another process's transaction made this one fail; running it again may succeed."""
    return isinstance(exc, asyncpg.DeadlockDetectedError | asyncpg.SerializationError)


def _session_loop() -> asyncio.AbstractEventLoop:
    """The writer thread's own event loop: uvloop's where it is installed (a dependency on Linux
    and macOS), asyncio's otherwise. Every statement is one ``run_until_complete`` on it (a
    task, loop turns, the socket's round trip): uvloop's compiled loop takes a quarter of the
    thread's instructions a statement off (callgrind, an INSERT: 184k -> 137k)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


class PgSession:
    """The writer thread's connection: a synchronous Transaction over asyncpg, on an event loop
    owned by (and only ever run in) the writer thread."""

    def __init__(self, url: str, settings: dict[str, str] | None = None) -> None:
        self._url = url
        self._settings = settings
        self._loop = _session_loop()
        try:
            self._conn: asyncpg.Connection = self._run(_connect(url, settings))
        except BaseException:
            self._loop.close()
            raise

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self._loop.run_until_complete(coro)

    @property
    def in_transaction(self) -> bool:
        """False on a connection the server dropped (its transaction went with it)."""
        if self._conn.is_closed():
            return False
        try:
            return bool(self._conn.is_in_transaction())
        except AttributeError:  # asyncpg: a connection lost mid-operation has no protocol
            return False

    def execute(self, sql: str, parameters: Params = (), /) -> PgCursor:
        text, returns_rows = _translate(sql)
        if text.startswith("BEGIN"):
            self._begin(text)
            return PgCursor([], 0)
        try:
            if returns_rows:
                rows = self._run(self._conn.fetch(text, *parameters))
                return PgCursor(rows, len(rows))
            status = self._run(self._conn.execute(text, *parameters))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc
        return PgCursor([], _rowcount(status))

    def _begin(self, text: str) -> None:
        """Start a transaction; on a connection the server dropped (a restart, a terminated
        backend), connect again first: nothing of a transaction was lost, none had begun."""
        try:
            self._run(self._conn.execute(text))
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.debug("database connection lost (%s); connecting again", exc)
            with contextlib.suppress(Exception):
                self._conn.terminate()
            self._conn = self._run(_connect(self._url, self._settings))
            self._run(self._conn.execute(text))

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> PgCursor:
        text, _ = _translate(sql)
        try:
            self._run(self._conn.executemany(text, [tuple(p) for p in parameters]))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc
        return PgCursor([], -1)

    def lock(self, key: str) -> None:
        self._run(self._conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key))

    def rollback(self) -> None:
        self._run(self._conn.execute("ROLLBACK"))

    def close(self) -> None:
        try:
            self._run(self._conn.close())
        finally:
            self._loop.close()


@contextlib.contextmanager
def _unavailable() -> Iterator[None]:
    """A read that failed again after the pool replaced its connection: the server is away."""
    try:
        yield
    except _UNAVAILABLE as exc:
        raise StorageUnavailable(str(exc) or type(exc).__name__) from exc


class PgReads:
    """Reads through a pool of read-only connections on the caller's event loop."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def fetchone(self, sql: str, params: Params = ()) -> Any:
        text = _translate(sql)[0]
        try:
            return await self.pool.fetchrow(text, *params)
        except _LOST:  # the pool replaces a dropped connection; a read is safe to repeat
            with _unavailable():
                return await self.pool.fetchrow(text, *params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        text = _translate(sql)[0]
        try:
            return list(await self.pool.fetch(text, *params))
        except _LOST:
            with _unavailable():
                return list(await self.pool.fetch(text, *params))

    async def schema_version(self) -> int:
        return int(await self.pool.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))

    async def close(self) -> None:
        await self.pool.close()


def _has_statement(script: str) -> bool:
    """Whether a migration's text holds any SQL but comments (asyncpg refuses an empty query)."""
    return any(line.strip() and not line.lstrip().startswith("--") for line in script.splitlines())


async def migrate(conn: asyncpg.Connection) -> int:
    """Apply every migration newer than the ``schema_version`` table says, each with its version
    row in one transaction; one process at a time (a session advisory lock)."""
    await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
        for number, script in migration_scripts("postgres"):
            if number <= current:
                continue
            async with conn.transaction():
                if _has_statement(script):  # (one SQLite's alone is comments here)
                    await conn.execute(script)
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
            current = number
        return current
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)


async def open_postgres(
    url: str, observe: Observer | None, tuning: PgTuning | None = None
) -> tuple[PgReads, Writer]:
    tuning = tuning or PgTuning()
    settings = tuning.server_settings()
    conn = await asyncpg.connect(url)
    try:
        await migrate(conn)
    finally:
        await conn.close()
    writer = Writer(
        lambda: PgSession(url, settings),
        observe,
        begin="BEGIN",
        retryable=retryable,
        unavailable=unavailable,
        optimistic=True,
    )
    await writer.start()
    quiet_asyncpg_pool()  # its reconnect tracebacks at DEBUG: an outage is one line
    try:
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=max(1, tuning.read_connections),
            # Nothing writes through these: it would bypass the writer's ordering.
            server_settings={**settings, "default_transaction_read_only": "on"},
            init=_configure,
        )
    except BaseException:
        await writer.stop()
        raise
    return PgReads(pool), writer
