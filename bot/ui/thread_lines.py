"""The table listener of threads (issue 28): when a table in a thread ends, its result is edited
into its line in the parent channel (with a link), and the thread is archived once the rematch
window has passed with no table open in it; a rematch inherits the line and plays in the same
thread. The threads themselves are made and moved by ``bot/ui/threads.py``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar

import discord

from bot.i18n import Translator, translator
from bot.service import Table
from bot.service.threads import TableHomes
from bot.ui.links import jump_link
from bot.ui.messages import seat_names
from games.core import Event

log = logging.getLogger(__name__)

REMATCH_WINDOW_SECONDS = 300.0  # a finished table's thread stays open this long for a rematch
NO_MENTIONS = discord.AllowedMentions.none()
T = TypeVar("T")


class Places(Protocol):
    """What the lines need of the threads' maker (``bot/ui/threads.TableThreads``)."""

    bot: Any  # the bot: its partial messageables and HTTP client
    homes: TableHomes

    async def rest(self, call: Awaitable[T], kind: str) -> T: ...

    async def open_in(self, channel_id: str) -> list[Table]: ...


class ThreadLines:
    """Each thread table's line in its parent channel, and its thread's end."""

    def __init__(self, places: Places, *, rematch_window: float = REMATCH_WINDOW_SECONDS) -> None:
        self.places = places
        self.rematch_window = rematch_window
        self._archive_tasks: dict[str, asyncio.Task[None]] = {}

    async def lobby_changed(self, table: Table) -> None:
        pass

    async def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> None:
        if table.record.status != "finished" or table.record.parent_message_id is None:
            return
        tr = translator(table.record.locale)
        await self._edit_line(table, self._result_line(table, tr))
        self._archive_later(table.record.channel_id)

    async def table_closed(self, table: Table, reason: str) -> None:
        if table.record.parent_message_id is None:
            return
        tr = translator(table.record.locale)
        game = tr(f"{table.game.key}.name")
        await self._edit_line(
            table, tr("threads.line.closed", game=game, table=table.id, link=self._link(table))
        )
        self._archive_later(table.record.channel_id)

    async def seat_replaced(self, table: Table, seat_id: str) -> None:
        pass

    async def seat_changed(self, table: Table, seat_id: str, change: str) -> None:
        pass

    async def rematch_opened(self, finished: Table, rematch: Table) -> None:
        """The rematch plays in the same thread: the thread stays open, and the rematch's
        result goes to the same line."""
        task = self._archive_tasks.pop(finished.record.channel_id, None)
        if task is not None:
            task.cancel()
        if finished.record.parent_message_id is None or finished.record.parent_channel_id is None:
            return
        await self.places.homes.inherit(
            rematch.id, finished.record.parent_channel_id, finished.record.parent_message_id
        )
        rematch.record.parent_channel_id = finished.record.parent_channel_id  # (this copy too)
        rematch.record.parent_message_id = finished.record.parent_message_id

    def _result_line(self, table: Table, tr: Translator) -> str:
        game = tr(f"{table.game.key}.name")
        outcome = table.game.outcome(table.state) if table.state is not None else None
        names = seat_names(table, tr)
        if outcome is None or not outcome.ranking:
            winners = ""
        else:
            winners = ", ".join(names(s) for s in outcome.ranking[0])
        key = "threads.line.draw" if outcome is not None and outcome.is_draw else "threads.line.won"
        return tr(key, game=game, table=table.id, winners=winners, link=self._link(table))

    def _link(self, table: Table) -> str:
        record = table.record
        return jump_link(record.guild_id, record.channel_id, record.message_id)

    async def _edit_line(self, table: Table, content: str) -> None:
        record = table.record
        if record.parent_channel_id is None or record.parent_message_id is None:
            return
        parent = self.places.bot.get_partial_messageable(int(record.parent_channel_id))
        try:
            await self.places.rest(
                parent.get_partial_message(int(record.parent_message_id)).edit(
                    content=content, allowed_mentions=NO_MENTIONS
                ),
                "thread_line_edit",
            )
        except discord.HTTPException:
            log.info("could not edit the line of table %s", table.id)

    def _archive_later(self, thread_id: str) -> None:
        previous = self._archive_tasks.pop(thread_id, None)
        if previous is not None:
            previous.cancel()
        task = asyncio.get_running_loop().create_task(self._archive(thread_id))
        self._archive_tasks[thread_id] = task
        task.add_done_callback(lambda done: self._forget_task(thread_id, done))

    def _forget_task(self, thread_id: str, done: asyncio.Task[None]) -> None:
        if self._archive_tasks.get(thread_id) is done:
            del self._archive_tasks[thread_id]

    async def _archive(self, thread_id: str) -> None:
        await asyncio.sleep(self.rematch_window)
        if await self.places.open_in(thread_id):
            return  # a rematch plays there
        try:
            await self.places.rest(
                self.places.bot.http.edit_channel(int(thread_id), archived=True), "thread_archive"
            )
        except discord.HTTPException:
            log.info("could not archive thread %s", thread_id)

    async def archive_now(self) -> None:
        """Archive every thread whose window is still running (tests; a clean shutdown lets
        Discord's own auto-archive do it)."""
        for thread_id, task in list(self._archive_tasks.items()):
            task.cancel()
            self._archive_tasks.pop(thread_id, None)
            if not await self.places.open_in(thread_id):
                await quietly(
                    self.places.rest(
                        self.places.bot.http.edit_channel(int(thread_id), archived=True),
                        "thread_archive",
                    )
                )

    async def close(self) -> None:
        for task in list(self._archive_tasks.values()):
            task.cancel()
        self._archive_tasks.clear()


async def quietly(call: Any) -> None:
    try:
        await call
    except discord.HTTPException:
        pass
