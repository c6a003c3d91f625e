"""Spectators: who follows which table (kept in memory, persisted for restarts), and the DM that
shows each of them the table.

Several shard processes: the follow button is in the table's public message (its owner's
shard), but "stop following" is clicked in a DM, which Discord delivers to shard 0's process.
Whether someone follows is therefore decided by the database (the row added or deleted), and
the change feed (``feed.py``; LISTEN/NOTIFY on PostgreSQL) tells the other processes, which read
that table's followers again: the owner stops DMing at once. One process (SQLite): the memory
here is the only copy and nothing else is needed.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.service.feed import ChangeFeed, NoFeed
from storage import Database, FollowersRepo

log = logging.getLogger(__name__)
T = TypeVar("T")

# A failed re-read is tried again (the database is the truth, and the change is not announced
# twice): after this long, doubling up to the cap.
RETRY_FIRST_SECONDS = 0.05
RETRY_MAX_SECONDS = 5.0


class Followers:
    def __init__(self, db: Database, feed: ChangeFeed | None = None) -> None:
        self.repo = FollowersRepo(db)
        self._feed: ChangeFeed = feed or NoFeed()
        self._by_table: dict[int, dict[str, str | None]] = {}  # follower -> DM message id
        self._loaded = False
        # table -> ticket of the re-read asked last (it decides). Tickets never repeat: a
        # count restarting per table could match a slower, older read still under way.
        self._asked: dict[int, int] = {}
        self._tickets = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.heard = 0  # follower changes heard from other processes (tests)

    async def load(self) -> None:
        if not self._loaded:
            self._by_table = await self.repo.all()
            self._loaded = True
            self._feed.watch_followers(self._heard, self._resync)

    def of(self, table_id: int) -> dict[str, str | None]:
        return dict(self._by_table.get(table_id, {}))

    def follows(self, table_id: int, user_id: str) -> bool:
        return user_id in self._by_table.get(table_id, {})

    async def follow(self, table_id: int, user_id: str) -> bool:
        """Start following; False when already following (recorded by any process)."""
        added = await self.repo.add(table_id, user_id)
        if added or not self.follows(table_id, user_id):
            self._by_table.setdefault(table_id, {}).setdefault(user_id, None)
        if added:
            await self._feed.followers_changed(table_id)
        return added

    async def stop(self, table_id: int, user_id: str) -> bool:
        """Stop following; False when not following (recorded by any process)."""
        removed = await self.repo.remove(table_id, user_id)
        self._drop(table_id, user_id)
        if removed:
            await self._feed.followers_changed(table_id)
        return removed

    def _drop(self, table_id: int, user_id: str) -> None:
        followers = self._by_table.get(table_id, {})
        followers.pop(user_id, None)
        if not followers:
            self._by_table.pop(table_id, None)

    async def set_message(self, table_id: int, user_id: str, message_id: str | None) -> None:
        if self.follows(table_id, user_id):
            self._by_table[table_id][user_id] = message_id
            await self.repo.set_message(table_id, user_id, message_id)

    def forget_table(self, table_id: int) -> None:
        """The table ended: its rows go with it (nothing more will be shown)."""
        self._by_table.pop(table_id, None)

    # ----- other processes' changes ---------------------------------------------------------
    def _heard(self, table_id: int) -> None:
        self.heard += 1
        self._spawn(self.refresh(table_id))

    def _resync(self) -> None:
        """Follower changes may have been missed (the feed's connection is back)."""
        self._spawn(self.reload())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro, name="followers-refresh")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def refresh(self, table_id: int) -> None:
        """Read ``table_id``'s followers again from the database (the truth); when several
        reads overlap, the one asked last (which sees the latest commit) decides. A read that
        fails is tried again until it succeeds or a later one is asked. A DM message id known
        here and not yet stored is kept."""
        asked = self._asked[table_id] = next(self._tickets)

        def decides() -> bool:
            return self._asked.get(table_id) == asked

        stored = await _retrying(
            lambda: self.repo.of_table(table_id), f"the followers of table {table_id}", decides
        )
        if stored is None or not decides():
            return  # a later read decides
        del self._asked[table_id]
        known = self._by_table.get(table_id, {})
        merged = {u: m if m is not None else known.get(u) for u, m in stored.items()}
        if merged:
            self._by_table[table_id] = merged
        else:
            self._by_table.pop(table_id, None)

    async def reload(self) -> None:
        found = await _retrying(self.repo.all, "the followers", lambda: True)
        if found is not None:
            self._by_table = found

    async def idle(self) -> None:
        """Wait until the changes heard are read (tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        """Stop the re-reads under way (one retrying against a database that is closing)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def _retrying(
    read: Callable[[], Awaitable[T]], what: str, wanted: Callable[[], bool]
) -> T | None:
    """``read()``'s result, tried again after a failure (after ``RETRY_FIRST_SECONDS``, doubling
    up to ``RETRY_MAX_SECONDS``; logged once per outage) while ``wanted()``; None once not."""
    delay = RETRY_FIRST_SECONDS
    while True:
        try:
            return await read()
        except Exception:
            if delay == RETRY_FIRST_SECONDS:
                log.exception("reading %s failed; retrying", what)
        if not wanted():
            return None
        await asyncio.sleep(delay)
        delay = min(delay * 2, RETRY_MAX_SECONDS)
        if not wanted():
            return None
