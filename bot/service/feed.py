"""The change feed: how one bot process hears that another changed a table.

Several shard processes share one PostgreSQL database. Any of them may move any table (Discord
delivers every DM interaction to shard 0), but only the process that runs the table's guild's
shard presents it, runs its turn timer and plays its computer seats. That process learns of a
move made elsewhere from the feed, catches its copy up from the database and takes over
(``bot/service/shared.py``). A change is only a hint ("table 12 is at version 40 now"): the
database stays the truth, so a lost or repeated hint costs a reload, never a wrong game.

The feed also carries who follows a table (``followers.py``): "stop following" is clicked in a
DM, so shard 0's process records it while the owner is the one DMing the followers; the owner
reads that table's followers again when it hears of the change.

Implementations: ``NoFeed`` (SQLite: one process, nobody else writes), ``LocalFeedHub``
(several services in one process: tests), ``PostgresFeed`` (LISTEN/NOTIFY, ``pg_feed.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class TableChange:
    """A table's row changed: its version (a move, a start) or its status (start, end)."""

    table_id: int
    version: int
    status: str


OnChange = Callable[[TableChange], None]


@dataclass(frozen=True)
class ViewShown:
    """A process that does not own a table answered a click on a player's DM view in place
    (``message_id`` shows that view now, ``digest`` what it shows; None when it showed a page
    or a draft), or could not (``message_id`` None): the owner, which presents that view, then
    knows whether editing it again would show the same thing."""

    table_id: int
    seat: str
    version: int
    message_id: int | None
    digest: str | None
    clickable: bool = True  # the answer shows buttons (a finished game's view shows none)

    def payload(self) -> str:
        return (
            f"{self.table_id}:{self.seat}:{self.version}:"
            f"{self.message_id if self.message_id is not None else ''}:{self.digest or ''}:"
            f"{int(self.clickable)}"
        )

    @classmethod
    def parse(cls, payload: str) -> ViewShown | None:
        parts = payload.split(":")
        if len(parts) != 6 or not parts[0].isdigit() or not parts[2].isdigit():
            return None
        if (parts[3] and not parts[3].isdigit()) or parts[5] not in ("0", "1"):
            return None
        return cls(
            table_id=int(parts[0]),
            seat=parts[1],
            version=int(parts[2]),
            message_id=int(parts[3]) if parts[3] else None,
            digest=parts[4] or None,
            clickable=parts[5] == "1",
        )


OnResync = Callable[[], None]  # changes may have been missed: read what you hold again
OnFollowers = Callable[[int], None]  # a table's followers changed (its id)
OnView = Callable[[ViewShown], None]


class ChangeFeed(Protocol):
    @property
    def shared(self) -> bool:
        """Whether other processes write the same tables (the database is the truth, not
        this process's memory)."""
        ...

    async def start(self, on_change: OnChange, on_resync: OnResync | None = None) -> None:
        """Begin delivering other writers' changes to ``on_change`` (on the event loop);
        ``on_resync`` when some may have been missed (a dropped connection is back)."""
        ...

    async def publish(self, change: TableChange) -> None:
        """Tell the others about a committed change of ours (a no-op when the database
        announces every change itself, as the PostgreSQL trigger does)."""
        ...

    def watch_followers(self, on_followers: OnFollowers, on_resync: OnResync | None = None) -> None:
        """Also deliver other writers' follower changes (once ``start`` ran); ``on_resync`` as
        for tables."""
        ...

    async def followers_changed(self, table_id: int) -> None:
        """Tell the others that ``table_id``'s followers changed (committed; a no-op when the
        database announces it itself)."""
        ...

    def watch_views(self, on_view: OnView) -> None:
        """Also deliver the DM views other processes answered in place (``ViewShown``)."""
        ...

    async def publish_view(self, shown: ViewShown) -> None:
        """Tell the others (the table's owner) about a DM view this process answered."""
        ...

    async def close(self) -> None: ...


class NoFeed:
    """SQLite: one process owns the database; nothing to hear, nobody to tell."""

    shared = False

    async def start(self, on_change: OnChange, on_resync: OnResync | None = None) -> None:
        return None

    async def publish(self, change: TableChange) -> None:
        return None

    def watch_followers(self, on_followers: OnFollowers, on_resync: OnResync | None = None) -> None:
        return None

    async def followers_changed(self, table_id: int) -> None:
        return None

    def watch_views(self, on_view: OnView) -> None:
        return None

    async def publish_view(self, shown: ViewShown) -> None:
        return None

    async def close(self) -> None:
        return None


class LocalFeedHub:
    """Feeds for several table services of one process (unit tests of the cross-process
    path): what one publishes, the others hear, after the publisher's call returns (as a
    NOTIFY arrives after its transaction commits)."""

    def __init__(self) -> None:
        self._feeds: list[LocalFeed] = []

    def feed(self) -> LocalFeed:
        feed = LocalFeed(self)
        self._feeds.append(feed)
        return feed

    def _send(self, origin: LocalFeed, change: TableChange) -> None:
        loop = asyncio.get_running_loop()
        for feed in self._feeds:
            if feed is not origin and feed.on_change is not None:
                loop.call_soon(feed.on_change, change)

    def _send_view(self, origin: LocalFeed, shown: ViewShown) -> None:
        loop = asyncio.get_running_loop()
        for feed in self._feeds:
            if feed is not origin:
                for watcher in feed.view_watchers:
                    loop.call_soon(watcher, shown)

    def _send_followers(self, origin: LocalFeed, table_id: int) -> None:
        loop = asyncio.get_running_loop()
        for feed in self._feeds:
            if feed is not origin and feed.on_change is not None:
                for watcher in feed.follower_watchers:
                    loop.call_soon(watcher, table_id)


class LocalFeed:
    shared = True

    def __init__(self, hub: LocalFeedHub) -> None:
        self.hub = hub
        self.on_change: OnChange | None = None
        self.follower_watchers: list[OnFollowers] = []
        self.view_watchers: list[OnView] = []

    async def start(self, on_change: OnChange, on_resync: OnResync | None = None) -> None:
        self.on_change = on_change

    async def publish(self, change: TableChange) -> None:
        self.hub._send(self, change)

    def watch_followers(self, on_followers: OnFollowers, on_resync: OnResync | None = None) -> None:
        self.follower_watchers.append(on_followers)

    async def followers_changed(self, table_id: int) -> None:
        self.hub._send_followers(self, table_id)

    def watch_views(self, on_view: OnView) -> None:
        self.view_watchers.append(on_view)

    async def publish_view(self, shown: ViewShown) -> None:
        self.hub._send_view(self, shown)

    async def close(self) -> None:
        self.on_change = None
