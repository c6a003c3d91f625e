"""``SharedTables``: this process among others sharing the tables (PostgreSQL, shards split over
processes; the rules in ``shared.py``). It hears the other processes' changes and catches its
copies up, tells the owner of a table which DM views this process answered, and says which
guilds' tables this process presents."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from bot.service.context import ServiceContext
from bot.service.feed import ChangeFeed, TableChange, ViewShown
from bot.service.models import Table
from bot.service.shared import (
    LIVE,
    OVER,
    CatchUp,
    OverElsewhere,
    ViewsShownElsewhere,
    change_of,
    is_news,
    spawn,
)
from bot.service.table_registry import TableRegistry
from storage import PresentedRepo

log = logging.getLogger(__name__)


class SharedTables:
    def __init__(
        self,
        ctx: ServiceContext,
        feed: ChangeFeed,
        owns: Callable[[str | None], bool],
        registry: TableRegistry,
        presented: PresentedRepo,
        after_change: Callable[[Table], None],
        over_elsewhere: OverElsewhere,
    ) -> None:
        self._ctx = ctx
        self._over_elsewhere = over_elsewhere
        self._feed = feed
        # Whether other processes share the tables: the feed's kind, fixed (a plain attribute:
        # read for every view of every move, issue 29)
        self.shared: bool = feed.shared
        self._owns = owns
        self._registry = registry
        self._after_change = after_change
        self._views = ViewsShownElsewhere()
        self._feed.watch_views(self._view_heard)
        self.catch_up = CatchUp(ctx, owns, presented, self._views)
        if feed.shared:
            ctx.refresh = self.catch_up.refresh
        self._background: set[asyncio.Task[Any]] = set()

    def owns(self, guild_id: str | None) -> bool:
        """Whether this process presents (and runs the timers of) ``guild_id``'s tables."""
        return self._owns(guild_id)

    def owns_table(self, table: Table) -> bool:
        return self.catch_up.owns_table(table)

    async def start(self) -> None:
        if self._feed.shared:
            await self._feed.start(self._heard, self._resync)

    async def close(self) -> None:
        await self._feed.close()

    def tasks(self) -> list[asyncio.Task[Any]]:
        return list(self._background)

    def publish(self, table: Table) -> None:
        """Tell the other processes that ``table`` changed."""
        if self._feed.shared:
            spawn(self._background, self._feed.publish(change_of(table)), f"publish-{table.id}")

    # ----- DM views answered by a process that does not own the table -----------------------
    def view_answered(
        self,
        table: Table,
        seat: str,
        message_id: int | None,
        digest: str | None,
        version: int | None = None,
        clickable: bool = True,
    ) -> None:
        """This process answered (``message_id``, showing the view of ``version``) or could not
        answer (None) a click on ``seat``'s DM view at a table another process owns: that
        process is told, so it does not edit the view again to show the same thing."""
        if not self._feed.shared or self._owns(table.record.guild_id):
            return
        version = table.record.version if version is None else version
        shown = ViewShown(table.id, seat, version, message_id, digest, clickable)
        spawn(self._background, self._feed.publish_view(shown), f"view-{table.id}")

    def _view_heard(self, shown: ViewShown) -> None:
        """Kept for the owner only: a process hears its own word too, and that of tables it
        holds without presenting them (a table not held may be the owner's, about to load)."""
        table = self._ctx.tables.get(shown.table_id)
        if table is None or self._owns(table.record.guild_id):
            self._views.heard(shown)

    def forget_table(self, table_id: int, seats: Sequence[str]) -> None:
        """``table_id`` is over (``bot/ui/table_ends.py``): no word of its views is kept."""
        self._views.forget(table_id, seats)

    async def view_shown_elsewhere(
        self, table_id: int, seat: str, version: int
    ) -> ViewShown | None:
        """What the process that made ``seat``'s move at ``version`` showed in their DM view
        (waiting briefly for its word when it is expected); None when unknown."""
        if not self._feed.shared:
            return None
        return await self._views.wait(table_id, seat, version)

    # ----- other processes' changes ---------------------------------------------------------
    def _heard(self, change: TableChange) -> None:
        if self._ctx.closing or not is_news(change, self._ctx.tables.get(change.table_id)):
            return
        spawn(self._background, self._catch_up_with(change), f"catch-up-{change.table_id}")

    def _resync(self) -> None:
        """The feed may have missed changes (its connection dropped and is back): every table
        held is read from the database again (the owner presents what moved)."""
        if self._ctx.closing:
            return
        for table in list(self._ctx.tables.values()):
            spawn(self._background, self._catch_up_with(change_of(table)), f"resync-{table.id}")

    async def _catch_up_with(self, change: TableChange) -> None:
        """Another process changed a table: bring our copy up to date; the owner presents the
        change and runs what comes next (timers, computer turns)."""
        try:
            table = self._ctx.tables.get(change.table_id)
            delivery = None
            told_over = False  # this process knew it was over (its own move, say): told then
            if table is not None:
                async with table.lock:
                    told_over = table.record.status in OVER
                    delivery = await self.catch_up.refresh(table)
            elif change.status in LIVE:
                record = await self._ctx.repo.get(change.table_id)
                if record is None or not self._owns(record.guild_id):
                    return  # read from the database when a click needs it
                table = await self._registry.ensure(change.table_id)
                if table is None or table.state is None:
                    return
                async with table.lock:  # shown with the events its message has not shown
                    delivery = await self.catch_up.first_sight(table)
            if table is None:
                return
            if delivery is not None:
                await delivery
            if table.record.status in OVER and not self._owns(table.record.guild_id):
                self._ctx.tables.pop(table.id, None)
                # (a game's end that moved the copy came through the listener; a closing not)
                if delivery is None and not told_over:
                    self._over_elsewhere(table)
                return
            self._after_change(table)
        except Exception:
            log.exception("catching up with table %s failed", change.table_id)
