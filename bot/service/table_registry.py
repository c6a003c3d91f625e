"""``TableRegistry``: the open tables of this process, found by id or channel and loaded from
storage on first use (start-up indexes them lazily), and the stored facts read about tables
that are not open (why one is gone, a finished one shown again)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.errors import TableError
from bot.service.context import ServiceContext
from bot.service.models import Table
from bot.service.snapshots import restored
from storage import OpenTable


class TableRegistry:
    def __init__(
        self, ctx: ServiceContext, owns: Callable[[str | None], bool], shared: bool
    ) -> None:
        """``owns``: whether this process runs the shard of a guild; ``shared``: other
        processes share the database (a table one of them opened is read on first use)."""
        self._ctx = ctx
        self._owns = owns
        self._shared = shared
        # Open tables not loaded yet (start-up loads states lazily, on first use).
        self._unloaded: dict[int, OpenTable] = {}
        self._by_channel: dict[str, int] = {}
        self._loading: dict[int, asyncio.Future[Table | None]] = {}

    # ----- open tables in memory ------------------------------------------------------------
    def get(self, table_id: int) -> Table:
        return self._ctx.get(table_id)

    def find(self, table_id: int) -> Table | None:
        return self._ctx.tables.get(table_id)

    def in_channel(self, channel_id: str) -> Table | None:
        return next(
            (t for t in self._ctx.tables.values() if t.record.channel_id == channel_id), None
        )

    def all(self) -> list[Table]:
        return list(self._ctx.tables.values())

    # ----- loaded on first use --------------------------------------------------------------
    def index(self, entry: OpenTable) -> None:
        """Start-up: ``entry`` is open and loads on first use."""
        self._unloaded[entry.id] = entry
        self._by_channel[entry.channel_id] = entry.id

    def unloaded(self) -> list[OpenTable]:
        return list(self._unloaded.values())

    @property
    def unloaded_count(self) -> int:
        return len(self._unloaded)

    async def ensure(self, table_id: int) -> Table | None:
        """The table, loading it from storage if start-up left it unloaded (lazy loading)."""
        table = self._ctx.tables.get(table_id)
        if table is not None or (table_id not in self._unloaded and not self._shared):
            return table  # shared: a table another process opened is read from the database
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load_one(table_id)
            future.set_result(table)
            return table
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a waiter re-raises it
            raise
        finally:
            self._loading.pop(table_id, None)

    async def ensure_channel(self, channel_id: str) -> Table | None:
        """The channel's open table, loaded if needed."""
        await self.load_channel(channel_id)
        return self.in_channel(channel_id)

    async def load_channel(self, channel_id: str) -> None:
        """Load the channel's open table if start-up left it unloaded; nothing else (a slash
        command's check: ``in_channel`` walks every open table, issue 29)."""
        table_id = self._by_channel.get(channel_id)
        if table_id is not None and table_id in self._unloaded:
            await self.ensure(table_id)

    async def ensure_guild(self, guild_id: str) -> list[Table]:
        """Every open table of the guild, loading those start-up left unloaded (/tables)."""
        for entry in [e for e in self._unloaded.values() if e.guild_id == guild_id]:
            await self.ensure(entry.id)
        return [t for t in self._ctx.tables.values() if t.record.guild_id == guild_id]

    async def unshown_lobbies(self) -> list[Table]:
        """Lobbies of this process's guilds whose message was never posted (killed between
        creating and showing them): start-up shows them, so their players can join and start
        without typing a command."""
        found = []
        for table_id in await self._ctx.repo.unshown_lobbies():
            table = await self.ensure(table_id)
            if table is not None and self._owns(table.record.guild_id):
                found.append(table)
        return found

    async def _load_one(self, table_id: int) -> Table | None:
        entry = self._unloaded.get(table_id)
        record = await self._ctx.repo.get(table_id)
        self._unloaded.pop(table_id, None)
        if entry is not None and self._by_channel.get(entry.channel_id) == table_id:
            del self._by_channel[entry.channel_id]
        if record is None or record.status not in ("lobby", "playing"):
            return None
        game = self._ctx.games[record.game]
        # the stored state and the moves after it (before the check: it reads the log)
        state = await restored(self._ctx.repo, game, record) if record.status == "playing" else None
        live = self._ctx.tables.get(table_id)
        if live is not None:
            return live
        table = Table(record=record, game=game)
        table.state = state
        self._ctx.tables[record.id] = table
        return table

    # ----- stored facts ---------------------------------------------------------------------
    async def why_gone(self, table_id: int) -> TableError:
        """Why table ``table_id`` is not open: it never existed, its game finished, or it was
        closed before the end (the refusal a stale button or command then names)."""
        record = await self._ctx.repo.get(table_id)
        if record is None:
            return TableError("no_such_table", table=table_id)
        if record.status == "finished":
            return TableError("table_finished", table=table_id)
        if record.status == "cancelled":
            return TableError("table_closed", table=table_id)
        return TableError("table_gone", table=table_id)

    async def finished_table(self, table_id: int) -> Table | None:
        """A table read from storage as it is (e.g. a finished game whose result must be
        shown again after a restart); not kept among the open tables."""
        record = await self._ctx.repo.get(table_id)
        if record is None or record.game not in self._ctx.games:
            return None
        game = self._ctx.games[record.game]
        table = Table(record=record, game=game)
        table.state = await restored(self._ctx.repo, game, record)
        return table

    async def set_message(self, table: Table, message_id: str | None) -> None:
        """Remember the table's public message (edited on every change, after a restart too).
        ``table`` may be the listener's frozen copy: the live table is updated too."""
        table.record.message_id = message_id
        live = self._ctx.tables.get(table.id)
        if live is not None:
            live.record.message_id = message_id
        await self._ctx.repo.set_message(table.id, message_id)
