"""What the repositories see of a database, whichever backend it is (SQLite or PostgreSQL).

A write unit (``Database.write(unit)``) is a plain function of a ``Transaction``: it runs whole in
the backend's writer thread, inside a transaction, with ``?`` placeholders and rows readable by
name and by position. For SQLite the transaction IS the ``sqlite3`` connection (no wrapper on
the hot path); for PostgreSQL it is a thin synchronous facade over an asyncpg connection
(``storage/postgres.py``). The SQL the repositories write is the dialect both understand
(``INSERT … ON CONFLICT``, ``RETURNING``, timestamps passed as parameters, ``utc_now``).
"""

from __future__ import annotations

import functools
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, Protocol

Dialect = Literal["sqlite", "postgres"]
Params = Sequence[Any]


class Cursor(Protocol):
    """The result of one statement: its rows (by name and index) and how many it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Transaction(Protocol):
    """What a write unit may do: statements inside the one transaction it runs in."""

    def execute(self, sql: str, parameters: Params = (), /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> Cursor: ...

    def lock(self, key: str) -> None:
        """Hold ``key`` until this transaction ends, against every other writer of any process
        (SQLite: its one write lock already does; PostgreSQL: a transaction advisory lock).
        For read-then-write logic that no row lock or constraint guards (ratings, sequence
        numbers, first-time grants)."""
        ...


class IntegrityError(Exception):
    """A constraint refused a write (PostgreSQL's errors are raised as this)."""


class StorageUnavailable(Exception):
    """The database cannot take this write (or answer this read) right now: a PostgreSQL server
    restarting or failed over, its connections terminated, a SQLite file on a full disk or a
    read-only file system. Nothing of the failed write stands; the same request may succeed
    later (the writer connects again by itself). The backend's own error is the ``__cause__``."""


# Catch these for "a constraint refused it", whichever backend raised it.
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError, IntegrityError)


def timestamp(at: datetime) -> str:
    """The stored text form of a moment: ISO 8601 UTC with milliseconds, as SQLite's
    ``strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`` (the column defaults) writes it."""
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def utc_now(offset: timedelta = timedelta(0)) -> str:
    """Now (plus ``offset``) in the stored text form, passed as a parameter so that one
    statement text serves both dialects. From the clock's seconds, the text of a second made
    once (every move writes one: 5.7 -> ~1.5 us, ``timestamp`` of a datetime took the rest)."""
    now = time.time() + offset.total_seconds()
    second = int(now // 1)
    return f"{_second_text(second)}.{int((now - second) * 1000):03d}Z"


@functools.lru_cache(maxsize=4)
def _second_text(second: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


@dataclass(frozen=True)
class PgTuning:
    """PostgreSQL connection settings (the bot's ``DATABASE_*`` settings). Timeouts in
    milliseconds, 0 = none; they apply to the writer's and the reads' connections (not to
    migrations, which may take longer once)."""

    # A statement running longer is cancelled (its transaction fails whole): a runaway query
    # cannot hold the writer, whose queue every move of the process waits in.
    statement_timeout_ms: int = 15_000
    # A statement waiting longer for a row or advisory lock fails instead of waiting on.
    lock_timeout_ms: int = 5_000
    # Connections of the read pool (the writer has its own).
    read_connections: int = 4

    def server_settings(self) -> dict[str, str]:
        return {
            "statement_timeout": str(self.statement_timeout_ms),
            "lock_timeout": str(self.lock_timeout_ms),
        }
