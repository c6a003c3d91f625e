"""Where a table lives: the thread of its own (issue 28) and the short line in the channel /play
was typed in. Each step is written before Discord shows it, so a process killed anywhere in
between leaves a table that start-up can still reach (see bot/ui/threads.py)."""

from __future__ import annotations

from storage.db import Database
from storage.sql import INTEGRITY_ERRORS
from storage.tables import ChannelBusy


class TableThreadsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def set_line(self, table_id: int, message_id: str) -> None:
        """The table's short line in its parent channel (the thread will take its id)."""
        await self.db.execute(
            "UPDATE tables SET parent_message_id = ? WHERE id = ?", (message_id, table_id)
        )

    async def move(self, table_id: int, channel_id: str) -> None:
        """The table now lives in ``channel_id`` (its thread, or a new one after a moderator
        deleted the old); its table message is to be posted there afresh."""
        await self.db.execute(
            "UPDATE tables SET channel_id = ?, message_id = NULL WHERE id = ?",
            (channel_id, table_id),
        )

    async def inline(self, table_id: int, channel_id: str) -> None:
        """No thread after all: the table lives in ``channel_id`` itself, held to one open
        table per channel again (``ChannelBusy`` when that channel already has one)."""
        try:
            await self.db.execute(
                "UPDATE tables SET channel_id = ?, message_id = NULL, parent_channel_id = NULL,"
                " parent_message_id = NULL WHERE id = ?",
                (channel_id, table_id),
            )
        except INTEGRITY_ERRORS as exc:
            raise ChannelBusy(channel_id) from exc

    async def inherit(self, table_id: int, parent_channel_id: str, parent_message_id: str) -> None:
        """A rematch playing in its finished table's thread: the same parent and line."""
        await self.db.execute(
            "UPDATE tables SET parent_channel_id = ?, parent_message_id = ? WHERE id = ?",
            (parent_channel_id, parent_message_id, table_id),
        )

    async def unplaced(self) -> list[int]:
        """Open tables bound for a thread they never moved into (a process killed while the
        thread was being made): start-up finishes placing them."""
        rows = await self.db.fetchall(
            "SELECT id FROM tables WHERE status IN ('lobby', 'playing')"
            " AND parent_channel_id IS NOT NULL AND channel_id = parent_channel_id ORDER BY id"
        )
        return [int(r[0]) for r in rows]

    async def archive_at(self, table_id: int, at: float | None) -> None:
        """When the thread of the ended table ``table_id`` is to be archived (Unix seconds; None:
        not any more: archived, or a rematch plays there)."""
        await self.db.execute(
            "UPDATE tables SET thread_archive_at = ? WHERE id = ?", (at, table_id)
        )

    async def archives_due(self) -> list[tuple[int, str, float]]:
        """(table, thread, when) of every thread archive still to do: a restart re-arms them."""
        rows = await self.db.fetchall(
            "SELECT id, channel_id, thread_archive_at FROM tables"
            " WHERE thread_archive_at IS NOT NULL ORDER BY thread_archive_at, id"
        )
        return [(int(r[0]), str(r[1]), float(r[2])) for r in rows]
