"""The change feed on PostgreSQL (``feed.py``'s protocol): the table changes LISTEN/NOTIFY
carries (``storage/changes.py``: a trigger on ``tables`` notifies every committed change, in
commit order, so no writer can forget to announce one and nothing is announced before it
commits)."""

from __future__ import annotations

from bot.service.feed import OnChange, OnResync, TableChange
from storage.changes import TableChanges


class PostgresFeed:
    shared = True

    def __init__(self, url: str) -> None:
        self.changes = TableChanges(url)

    async def start(self, on_change: OnChange, on_resync: OnResync | None = None) -> None:
        await self.changes.start(
            lambda table_id, version, status: on_change(TableChange(table_id, version, status)),
            on_resync,
        )

    async def publish(self, change: TableChange) -> None:
        return None  # the trigger announces every committed change, in its transaction

    async def close(self) -> None:
        await self.changes.close()
