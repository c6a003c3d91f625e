"""The change feed on PostgreSQL (``feed.py``'s protocol): the table and follower changes
LISTEN/NOTIFY carries (``storage/changes.py``: triggers on ``tables`` and ``followers`` notify
every committed change, in commit order, so no writer can forget to announce one and nothing is
announced before it commits)."""

from __future__ import annotations

import logging

from bot.service.feed import OnChange, OnFollowers, OnResync, OnView, TableChange, ViewShown
from storage.changes import VIEWS_CHANNEL, TableChanges

log = logging.getLogger(__name__)


class PostgresFeed:
    shared = True

    def __init__(self, url: str) -> None:
        self.changes = TableChanges(url)
        self._follower_watchers: list[OnFollowers] = []
        self._resyncs: list[OnResync] = []
        self._view_watchers: list[OnView] = []

    async def start(self, on_change: OnChange, on_resync: OnResync | None = None) -> None:
        if on_resync is not None:
            self._resyncs.insert(0, on_resync)
        await self.changes.start(
            lambda table_id, version, status: on_change(TableChange(table_id, version, status)),
            self._resync,
            on_followers=self._followers,
            on_view=self._view,
        )

    def _resync(self) -> None:
        for resync in list(self._resyncs):
            resync()

    def _view(self, payload: str) -> None:
        shown = ViewShown.parse(payload)
        if shown is None:
            log.warning("unreadable view notice %r", payload)
            return
        for watcher in list(self._view_watchers):
            watcher(shown)

    def _followers(self, table_id: int) -> None:
        for watcher in list(self._follower_watchers):
            watcher(table_id)

    async def publish(self, change: TableChange) -> None:
        return None  # the trigger announces every committed change, in its transaction

    def watch_followers(self, on_followers: OnFollowers, on_resync: OnResync | None = None) -> None:
        self._follower_watchers.append(on_followers)
        if on_resync is not None:
            self._resyncs.append(on_resync)

    async def followers_changed(self, table_id: int) -> None:
        return None  # the followers trigger announces it

    def watch_views(self, on_view: OnView) -> None:
        self._view_watchers.append(on_view)

    async def publish_view(self, shown: ViewShown) -> None:
        await self.changes.notify(VIEWS_CHANNEL, shown.payload())

    async def close(self) -> None:
        await self.changes.close()
