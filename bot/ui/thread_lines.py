"""The table listener of threads (issue 28): when a table in a thread ends, its result is edited
into its line in the parent channel (with a link), and the thread is archived once the rematch
window has passed with no table open in it; a rematch inherits the line and plays in the same
thread. The threads themselves are made and moved by ``bot/ui/threads.py``.

The archive's due time is stored with the ended table before it is armed (``thread_archive_at``)
and cleared once done (or when a rematch opens): a restart re-arms what was pending
(``rearm``), archiving at once what fell due meanwhile."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
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

    def __init__(
        self,
        places: Places,
        *,
        rematch_window: float = REMATCH_WINDOW_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.places = places
        self.rematch_window = rematch_window
        self._clock = clock  # wall time: due times outlive the process
        # thread id -> (the ended table whose archive it waits for, the waiting task)
        self._archive_tasks: dict[str, tuple[int, asyncio.Task[None]]] = {}

    async def lobby_changed(self, table: Table) -> None:
        pass

    async def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> None:
        if table.record.status != "finished" or table.record.parent_message_id is None:
            return
        tr = translator(table.record.locale)
        await self._edit_line(table, self._result_line(table, tr))
        await self._archive_later(table)

    async def table_closed(self, table: Table, reason: str) -> None:
        if table.record.parent_message_id is None:
            return
        tr = translator(table.record.locale)
        game = tr(f"{table.game.key}.name")
        await self._edit_line(
            table, tr("threads.line.closed", game=game, table=table.id, link=self._link(table))
        )
        await self._archive_later(table)

    async def seat_replaced(self, table: Table, seat_id: str) -> None:
        pass

    async def seat_changed(self, table: Table, seat_id: str, change: str) -> None:
        pass

    async def rematch_opened(self, finished: Table, rematch: Table) -> None:
        """The rematch plays in the same thread: the thread stays open, and the rematch's
        result goes to the same line."""
        # The stored archive goes first: a restart between the two would archive the thread
        # the rematch plays in.
        await self._store_due(finished.id, None)
        waiting = self._archive_tasks.pop(finished.record.channel_id, None)
        if waiting is not None:
            waiting[1].cancel()
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

    async def _archive_later(self, table: Table) -> None:
        """The ended table's thread is archived after the rematch window (stored first). Not
        when the table went on in its parent channel (no thread could be made for it)."""
        record = table.record
        if record.parent_channel_id is None or record.channel_id == record.parent_channel_id:
            return
        at = self._clock() + self.rematch_window
        await self._store_due(table.id, at)
        self._arm(table.id, record.channel_id, at)

    async def rearm(self) -> None:
        """At start-up: the archives a restart interrupted wait again for their due time (or
        run at once if it passed)."""
        try:
            due = await self.places.homes.archives_due()
        except Exception:
            log.exception("could not read the pending thread archives")
            return
        for table_id, thread_id, at in due:
            self._arm(table_id, thread_id, at)

    def _arm(self, table_id: int, thread_id: str, at: float) -> None:
        previous = self._archive_tasks.pop(thread_id, None)
        if previous is not None:
            previous[1].cancel()
        task = asyncio.get_running_loop().create_task(self._archive(table_id, thread_id, at))
        self._archive_tasks[thread_id] = (table_id, task)
        task.add_done_callback(lambda done: self._forget_task(thread_id, done))

    def _forget_task(self, thread_id: str, done: asyncio.Task[None]) -> None:
        waiting = self._archive_tasks.get(thread_id)
        if waiting is not None and waiting[1] is done:
            del self._archive_tasks[thread_id]

    async def _archive(self, table_id: int, thread_id: str, at: float) -> None:
        await asyncio.sleep(max(0.0, at - self._clock()))
        await self._archive_if_idle(table_id, thread_id)

    async def _archive_if_idle(self, table_id: int, thread_id: str) -> None:
        """Archive the thread unless a table is open in it (a rematch), and forget the due."""
        if not await self.places.open_in(thread_id):
            try:
                await self.places.rest(
                    self.places.bot.http.edit_channel(int(thread_id), archived=True),
                    "thread_archive",
                )
            except discord.HTTPException:
                log.info("could not archive thread %s", thread_id)
        await self._store_due(table_id, None)

    async def _store_due(self, table_id: int, at: float | None) -> None:
        """Store (or clear) the archive's due time; if storage fails the archive still runs in
        memory, and Discord's own auto-archive is the backstop after a restart."""
        try:
            await self.places.homes.archive_at(table_id, at)
        except Exception:
            log.warning("could not store the thread archive of table %s", table_id, exc_info=True)

    def pending(self) -> dict[str, int]:
        """Thread id -> the ended table whose archive waits (tests, metrics)."""
        return {thread: table for thread, (table, _) in self._archive_tasks.items()}

    async def close(self) -> None:
        """Stop waiting (the due times stay stored: the next start re-arms them)."""
        for _, task in list(self._archive_tasks.values()):
            task.cancel()
        self._archive_tasks.clear()


async def quietly(call: Any) -> None:
    try:
        await call
    except discord.HTTPException:
        pass
