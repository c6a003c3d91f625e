"""Table changes on PostgreSQL, for other processes: LISTEN/NOTIFY fed by a trigger on ``tables``
(the bot's change feed, ``bot/service/pg_feed.py``, is built on it).

Why LISTEN/NOTIFY: the database every shard process already shares carries the news, so no
broker (Redis, a message queue) joins the deployment. And it is transactional: the trigger's
``pg_notify`` is delivered only when the move's transaction commits, in commit order, and not
at all if it rolls back, so a hint never arrives before the row it announces, and no writer
(any process, any code path: moves, starts, the end of a game, an operator's UPDATE) can forget
to announce a change. It is not durable: a listener that is disconnected misses what happens
meanwhile, which is why a change is only a hint (``bot/service/feed.py``): a click whose
version disagrees with memory is judged against the database anyway, and once reconnected the
service reads every table it holds again (``on_reconnect``).

The payload is ``<table id>:<version>:<status>`` (a few bytes; NOTIFY allows 8,000). A second
channel carries who follows a table (a row added to or deleted from ``followers``): its payload
is the table id. A third (``mesa_views``) carries what the bot itself sends with ``notify``: a DM
view a process that does not own the table answered in place (``bot/service/feed.ViewShown``).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

CHANNEL = "mesa_tables"
FOLLOWERS_CHANNEL = "mesa_followers"
VIEWS_CHANNEL = "mesa_views"
_INSTALL_LOCK = 0x6D657366  # "mesf": one process (re)creates the trigger at a time
RECONNECT_SECONDS = (0.5, 1.0, 2.0, 5.0)

TRIGGER_SQL = f"""
CREATE OR REPLACE FUNCTION mesa_tables_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', NEW.id::text || ':' || NEW.version::text || ':' || NEW.status);
    RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER mesa_tables_notify
    AFTER UPDATE OF version, status ON tables
    FOR EACH ROW
    WHEN (OLD.version IS DISTINCT FROM NEW.version OR OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION mesa_tables_notify();
CREATE OR REPLACE FUNCTION mesa_followers_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('{FOLLOWERS_CHANNEL}', OLD.table_id::text);
    ELSE
        PERFORM pg_notify('{FOLLOWERS_CHANNEL}', NEW.table_id::text);
    END IF;
    RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER mesa_followers_notify
    AFTER INSERT OR DELETE ON followers
    FOR EACH ROW
    EXECUTE FUNCTION mesa_followers_notify();
"""


Changed = Callable[[int, int, str], None]  # (table id, version, status)
FollowersChanged = Callable[[int], None]  # (table id)
Heard = Callable[[str], None]  # a payload of the bot's own notices


def parse(payload: str) -> tuple[int, int, str] | None:
    parts = payload.split(":")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].lstrip("-").isdigit():
        return None
    return int(parts[0]), int(parts[1]), parts[2]


class TableChanges:
    """One LISTEN connection per process (asyncpg), reconnected if it drops; the trigger
    installed (or replaced) on start."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._on_change: Changed | None = None
        self._on_followers: FollowersChanged | None = None
        self._on_view: Heard | None = None
        # One statement at a time on the LISTEN connection: a notify in flight and the
        # UNLISTENs of close() would otherwise collide ("another operation is in progress").
        self._sending = asyncio.Lock()
        self._on_reconnect: Callable[[], None] | None = None
        self._conn: Any = None
        self._closing = False
        self._reconnect: asyncio.Task[None] | None = None
        self.heard = 0  # notifications received (tests, metrics)

    async def start(
        self,
        on_change: Changed,
        on_reconnect: Callable[[], None] | None = None,
        *,
        on_followers: FollowersChanged | None = None,
        on_view: Heard | None = None,
    ) -> None:
        """Deliver changes to ``on_change`` (and follower changes to ``on_followers``);
        ``on_reconnect`` is called when a dropped LISTEN connection is back (whatever changed
        meanwhile was not heard)."""
        self._on_change = on_change
        self._on_followers = on_followers
        self._on_view = on_view
        self._on_reconnect = on_reconnect
        await self._connect(install=True)

    async def _connect(self, *, install: bool) -> None:
        # Imported by name: a SQLite deployment never loads it (and it ships no type stubs).
        asyncpg = importlib.import_module("asyncpg")
        conn = await asyncpg.connect(self.url)
        try:
            if install:
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", _INSTALL_LOCK)
                    await conn.execute(TRIGGER_SQL)
            await conn.add_listener(CHANNEL, self._notified)
            await conn.add_listener(FOLLOWERS_CHANNEL, self._followers_notified)
            await conn.add_listener(VIEWS_CHANNEL, self._view_notified)
        except BaseException:
            await conn.close()
            raise
        conn.add_termination_listener(self._lost)
        self._conn = conn

    def _notified(self, conn: object, pid: int, channel: str, payload: str) -> None:
        change = parse(payload)
        if change is None:
            log.warning("unreadable table change %r", payload)
            return
        self.heard += 1
        if self._on_change is not None:
            self._on_change(*change)

    def _followers_notified(self, conn: object, pid: int, channel: str, payload: str) -> None:
        if not payload.isdigit():
            log.warning("unreadable followers change %r", payload)
            return
        self.heard += 1
        if self._on_followers is not None:
            self._on_followers(int(payload))

    def _view_notified(self, conn: object, pid: int, channel: str, payload: str) -> None:
        self.heard += 1
        if self._on_view is not None:
            self._on_view(payload)

    async def notify(self, channel: str, payload: str) -> None:
        """Send ``payload`` on ``channel`` now, through the LISTEN connection (outside any
        transaction: a hint, dropped while the connection is down)."""
        conn = self._conn
        if conn is None:
            return
        try:
            async with self._sending:
                await conn.execute("SELECT pg_notify($1, $2)", channel, payload)
        except Exception as exc:  # a hint: the receiver copes without it
            log.info("could not notify %s (%s)", channel, exc)

    def _lost(self, conn: object) -> None:
        if self._closing:
            return
        log.warning("the LISTEN connection to PostgreSQL dropped; reconnecting")
        self._conn = None
        self._reconnect = asyncio.get_running_loop().create_task(
            self._reconnect_loop(), name="pg-feed-reconnect"
        )

    async def _reconnect_loop(self) -> None:
        attempt = 0
        while not self._closing:
            try:
                await self._connect(install=False)
                log.info("LISTEN connection to PostgreSQL back")
                if self._on_reconnect is not None:
                    self._on_reconnect()
                return
            except Exception as exc:  # retried
                delay = RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)]
                log.info("PostgreSQL not reachable (%s); again in %.1f s", exc, delay)
                attempt += 1
                await asyncio.sleep(delay)

    async def close(self) -> None:
        self._closing = True
        if self._reconnect is not None:
            self._reconnect.cancel()
            await asyncio.gather(self._reconnect, return_exceptions=True)
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                async with self._sending:  # after a notify still in flight
                    await conn.remove_listener(CHANNEL, self._notified)
                    await conn.remove_listener(FOLLOWERS_CHANNEL, self._followers_notified)
                    await conn.remove_listener(VIEWS_CHANNEL, self._view_notified)
            finally:
                await conn.close()
