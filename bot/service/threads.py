"""Where each table lives (issue 28): its channel or thread, and its one line in the channel
``/play`` was typed in. Written before Discord shows it (``bot/ui/threads.py`` makes the threads
and lines and calls these); the live table follows each change."""

from __future__ import annotations

from collections.abc import Callable

from bot.errors import TableError
from bot.service.models import Table
from storage import ChannelBusy, TableRecord, TablesRepo, TableThreadsRepo


class TableHomes:
    def __init__(
        self, threads: TableThreadsRepo, tables: TablesRepo, find: Callable[[int], Table | None]
    ) -> None:
        self._threads = threads
        self._tables = tables
        self._find = find  # the live table, if loaded

    async def set_line(self, table_id: int, message_id: str) -> None:
        """The table's short line in its parent channel (a thread started from it has its id)."""
        await self._threads.set_line(table_id, message_id)
        self._update(table_id, parent_message_id=message_id)

    async def move(self, table_id: int, channel_id: str) -> None:
        """The table lives in ``channel_id`` now (its thread); its message is posted there anew."""
        await self._threads.move(table_id, channel_id)
        self._update(table_id, channel_id=channel_id, message_id=None)

    async def inline(self, record: TableRecord) -> TableRecord:
        """No thread after all: the table lives in the channel ``/play`` was typed in, held to
        one open table per channel again; refused (and the lobby closed) when it has one."""
        channel_id = record.parent_channel_id or record.channel_id
        try:
            await self._threads.inline(record.id, channel_id)
        except ChannelBusy as exc:
            await self._tables.close(record.id, "cancelled")
            raise TableError("channel_busy") from exc
        changes = {
            "channel_id": channel_id,
            "message_id": None,
            "parent_channel_id": None,
            "parent_message_id": None,
        }
        self._update(record.id, **changes)
        return record.model_copy(update=changes)

    async def inherit(self, table_id: int, parent_channel_id: str, parent_message_id: str) -> None:
        """A rematch playing in its finished table's thread: the same parent channel and line."""
        await self._threads.inherit(table_id, parent_channel_id, parent_message_id)
        self._update(
            table_id, parent_channel_id=parent_channel_id, parent_message_id=parent_message_id
        )

    async def unplaced(self) -> list[int]:
        """Open tables stored bound for a thread they never moved into (a kill mid-placement)."""
        return await self._threads.unplaced()

    async def archive_at(self, table_id: int, at: float | None) -> None:
        """When the ended table's thread is to be archived (None: no longer)."""
        await self._threads.archive_at(table_id, at)

    async def archives_due(self) -> list[tuple[int, str, float]]:
        """(table, thread, Unix seconds) of the thread archives still to do."""
        return await self._threads.archives_due()

    def _update(self, table_id: int, **changes: str | None) -> None:
        table = self._find(table_id)
        if table is not None:
            for name, value in changes.items():
                setattr(table.record, name, value)
