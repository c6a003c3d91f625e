"""One bot-token budget for every shard process: a token bucket in one PostgreSQL row.

Discord's global rate limit is per bot token, whatever the number of processes. Splitting it
statically (each process its shards' share) starves the process whose shard receives every DM
click (shard 0) while the others' share sits unused. Here every process takes its calls from
one bucket instead: it refills at ``per_second`` up to ``burst``, and a process leases a few
tokens at a time (one short transaction with the row locked, so leases are first come, first
served and no process can starve another), using them within ``lease_seconds`` or dropping
them, so that no second ever holds more than ``per_second + burst`` calls of all processes.

The row lives in an UNLOGGED table made on start (no migration: it is not data, a server restart
simply starts a full bucket). Times are the server's ``clock_timestamp()``, one clock for every
process. If the database cannot be reached, a process falls back to ``fallback_per_second``
(its static share) until it can.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import asyncpg

log = logging.getLogger(__name__)

TABLE = "mesa_token_budget"
STRAINED_FOR = 1.0  # seconds a short lease counts as a contested budget (``strained``)
_CREATE = (
    f"CREATE UNLOGGED TABLE IF NOT EXISTS {TABLE} (id INTEGER PRIMARY KEY,"
    " tokens DOUBLE PRECISION NOT NULL, at TIMESTAMPTZ NOT NULL)"
)
_SEED = f"INSERT INTO {TABLE} VALUES (1, $1, clock_timestamp()) ON CONFLICT (id) DO NOTHING"
_READ = (
    f"SELECT tokens, EXTRACT(EPOCH FROM (clock_timestamp() - at)) AS age, clock_timestamp() AS now"
    f" FROM {TABLE} WHERE id = 1 FOR UPDATE"
)
_WRITE = f"UPDATE {TABLE} SET tokens = $1, at = $2 WHERE id = 1"


class PgTokenBudget:
    def __init__(
        self,
        url: str,
        per_second: float,
        *,
        burst: float = 5.0,
        lease: int = 3,
        lease_seconds: float = 0.5,
        fallback_per_second: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url
        self.per_second = per_second
        self.burst = max(1.0, burst)
        self.lease = max(1, lease)
        self.lease_seconds = lease_seconds
        self.fallback_per_second = fallback_per_second or per_second
        self._clock = clock
        self._conn: asyncpg.Connection | None = None
        self._leased = 0
        self._lease_until = 0.0
        self._lock = asyncio.Lock()
        self.leases = 0  # leases taken (tests, metrics)
        # When a lease last got fewer tokens than it asked for (the bucket ran short: every
        # process together near ``per_second``), or the database could not be asked.
        self._short_at: float | None = None

    async def start(self) -> None:
        self._conn = await asyncpg.connect(self.url)
        await self._conn.execute(_CREATE)
        await self._conn.execute(_SEED, self.burst)

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def take(self) -> None:
        """Wait until this process may make one more bot-token call."""
        async with self._lock:
            while True:
                if self._leased > 0 and self._clock() < self._lease_until:
                    self._leased -= 1
                    return
                try:
                    granted = await self._lease_tokens(self.lease)
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                    log.warning(
                        "the shared bot-token budget is unreachable (%s)", type(exc).__name__
                    )
                    self._conn = None
                    self._short_at = self._clock()  # unknown: count it as contested
                    await asyncio.sleep(1 / self.fallback_per_second)
                    return
                if granted < self.lease:
                    self._short_at = self._clock()
                if granted > 0:
                    self.leases += 1
                    self._leased, self._lease_until = (
                        granted - 1,
                        self._clock() + self.lease_seconds,
                    )
                    return
                await asyncio.sleep(1 / self.per_second)  # the bucket is empty: a refill

    def strained(self) -> bool:
        """Whether a lease ran short (or the database was out of reach) within the last
        second: the processes' calls together are near the bot token's limit."""
        return self._short_at is not None and self._clock() - self._short_at < STRAINED_FOR

    async def _lease_tokens(self, want: int) -> int:
        if self._conn is None or self._conn.is_closed():
            await self.start()
        conn = self._conn
        assert conn is not None
        async with conn.transaction():
            row = await conn.fetchrow(_READ)
            available = min(self.burst, row["tokens"] + float(row["age"]) * self.per_second)
            granted = max(0, min(want, int(available)))
            await conn.execute(_WRITE, available - granted, row["now"])
        return granted
