"""A thread per table (issue 28): ``/play`` in a text channel leaves one short line there and
opens the table in a public thread started from that line ("Chúpate 2 · #123"); the game's
result is edited into the line (with a link), and the thread is archived once the rematch window
has passed with no table open in it. A moderator deleting (or locking) the thread mid-game moves
the table to a new thread, with its state.

Persist before show: the table is stored bound for a thread (``parent_channel_id``), then the
line is posted and stored, then the thread (it takes the line's id) is made and stored as the
table's channel, and only then is the lobby shown in it. A process killed in between leaves a
table that start-up places again (``place_unplaced``): the thread is made from the stored line,
or found to exist already (Discord: 160004), and the table moves into it.

Where no thread can be made (the server turned them off in ``/settings``, the channel is a thread
already or not a text channel, the bot lacks a permission), the table opens inline as before;
a missing permission is named to the host once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

import discord

from bot.errors import TableError
from bot.i18n import Translator, translator
from bot.service import Table, TableService
from bot.service.guild_settings import GuildSettings
from bot.service.threads import TableHomes
from bot.ui.links import jump_link
from bot.ui.messages import seat_names
from bot.ui.pacer import Priority, RequestPacer
from bot.ui.view_kit import timed_rest
from games.core import Event
from storage import TableRecord

log = logging.getLogger(__name__)
T = TypeVar("T")

AUTO_ARCHIVE_MINUTES: Literal[60] = (
    60  # Discord archives an idle thread by itself after this (a backstop)
)
REMATCH_WINDOW_SECONDS = 300.0  # a finished table's thread stays open this long for a rematch
NAME_LIMIT = 100  # Discord's limit on a channel name
THREAD_EXISTS = 160004  # "A thread has already been created for this message"
# What the bot needs in a channel to hold a table in a thread there.
REQUIRED = (
    ("create_public_threads", "threads.permission.create_public_threads"),
    ("send_messages_in_threads", "threads.permission.send_messages_in_threads"),
)
NO_MENTIONS = discord.AllowedMentions.none()


class ThreadHost(Protocol):
    @property
    def tables(self) -> TableService: ...

    @property
    def http(self) -> discord.http.HTTPClient: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...


class Shower(Protocol):
    """What shows a table (bot/ui/listener.py)."""

    async def lobby_changed(self, table: Table) -> None: ...

    async def represent(self, table: Table) -> None: ...


def thread_name(record: TableRecord, tr: Translator) -> str:
    return tr("threads.name", game=tr(f"{record.game}.name"), table=record.id)[:NAME_LIMIT]


def missing_permissions(permissions: discord.Permissions) -> list[str]:
    """The catalogue keys of the thread permissions the bot lacks."""
    return [key for attr, key in REQUIRED if not getattr(permissions, attr)]


@dataclass
class Placement:
    """One ``/play``'s table placement: ``place`` is handed to ``TableService.open``; afterwards
    ``thread_id`` says where the table went and ``missing`` which permission kept it inline."""

    threads: TableThreads
    thread_id: str | None = None
    missing: str | None = None  # catalogue key of the permission that was missing

    async def place(self, record: TableRecord) -> TableRecord:
        placed, self.missing = await self.threads.place(record)
        if placed.parent_channel_id is not None:
            self.thread_id = placed.channel_id
        return placed


class TableThreads:
    """Threads of tables: making them, the parent line, archiving, and moving a table out of a
    thread that is gone. Also a table listener (beside the table messages' one)."""

    def __init__(
        self,
        bot: ThreadHost,
        homes: TableHomes,
        shower: Shower,
        pacer: Callable[[], RequestPacer],
        *,
        rematch_window: float = REMATCH_WINDOW_SECONDS,
    ) -> None:
        self.bot = bot
        self.homes = homes
        self.shower = shower
        self._pacer = pacer  # the bot's (it may be replaced by a shared one at start-up)
        self.rematch_window = rematch_window
        self._archive_tasks: dict[str, asyncio.Task[None]] = {}
        self._moving: set[int] = set()

    # ----- where /play puts its table ------------------------------------------------------
    def plan(
        self, interaction: discord.Interaction, settings: GuildSettings
    ) -> tuple[Placement | None, str | None]:
        """(a thread placement for a ``/play`` in this channel, or None: inline; the catalogue
        key of the permission whose lack keeps it inline). Inline without a word when the
        server turned threads off or the channel is not a text channel (e.g. a thread)."""
        channel = interaction.channel
        if not settings.threads or interaction.guild_id is None or channel is None:
            return None, None
        if channel.type is not discord.ChannelType.text:
            return None, None
        missing = missing_permissions(interaction.app_permissions)
        if missing:
            return None, missing[0]
        return Placement(self), None

    async def place(self, record: TableRecord) -> tuple[TableRecord, str | None]:
        """Move the stored lobby ``record`` (in its parent channel) into a new thread: the
        record as placed, and the missing permission's key when it had to stay inline."""
        tr = translator(record.locale)
        parent = self.bot.get_partial_messageable(
            int(record.channel_id), guild_id=int(record.guild_id)
        )
        try:
            line = await self._rest(
                parent.send(self._open_line(record, tr), allowed_mentions=NO_MENTIONS),
                "thread_line",
                Priority.PUBLIC,
            )
        except discord.HTTPException as exc:
            missing = "threads.permission.send_messages" if exc.status == 403 else None
            return await self._inline(record), missing
        await self.homes.set_line(record.id, str(line.id))
        try:
            thread_id = await self._start_thread(record, line.id, tr)
        except discord.HTTPException as exc:
            log.info("no thread for table %s (%s); it opens inline", record.id, exc)
            await _quietly(self._rest(line.delete(), "thread_line_delete"))
            missing = "threads.permission.create_public_threads"
            return await self._inline(record), missing if exc.status == 403 else None
        await self.homes.move(record.id, thread_id)
        return record.model_copy(
            update={"channel_id": thread_id, "parent_message_id": str(line.id), "message_id": None}
        ), None

    async def _start_thread(self, record: TableRecord, line_id: int, tr: Translator) -> str:
        """The thread started from the table's line (its id is the line's); one that already
        exists (a placement cut short by a restart) is the one."""
        try:
            data = await self._rest(
                self.bot.http.start_thread_with_message(
                    int(record.parent_channel_id or record.channel_id),
                    line_id,
                    name=thread_name(record, tr),
                    auto_archive_duration=AUTO_ARCHIVE_MINUTES,
                ),
                "thread_start",
                Priority.PUBLIC,
            )
        except discord.HTTPException as exc:
            if exc.code != THREAD_EXISTS:
                raise
            return str(line_id)
        return str(data["id"])

    async def _inline(self, record: TableRecord) -> TableRecord:
        """No thread: the table lives in its channel as before (one open table per channel)."""
        return await self.homes.inline(record)

    def _open_line(self, record: TableRecord, tr: Translator) -> str:
        return tr(
            "threads.line.open",
            game=tr(f"{record.game}.name"),
            table=record.id,
            host=f"<@{record.host_id}>",
        )

    async def _rest(
        self, call: Awaitable[T], kind: str, priority: Priority = Priority.HOUSEKEEPING
    ) -> T:
        """A bot-token call inside the global limit (the bot's pacer)."""
        return await timed_rest(call, kind, self._pacer(), priority)

    # ----- start-up: placements a kill cut short -------------------------------------------
    async def place_unplaced(self, table_ids: list[int]) -> None:
        """Tables stored bound for a thread they never moved into: the thread is made (or
        found) from their stored line, or they open inline; then they are shown."""
        for table_id in table_ids:
            table = await self.bot.tables.registry.ensure(table_id)
            if table is None:
                continue
            record = table.record
            try:
                if record.parent_message_id is None:
                    placed, _ = await self.place(record)
                else:
                    placed = await self._resume_placing(record)
            except TableError:  # inline after all, and the channel has a table already
                log.warning("table %s could not be placed; it was closed", table_id)
                continue
            self._adopt(table, placed)
            await self._show(table)

    async def _resume_placing(self, record: TableRecord) -> TableRecord:
        """The thread from the stored line (made now, or found made); inline if the line is
        gone or Discord refuses."""
        tr = translator(record.locale)
        try:
            thread_id = await self._start_thread(record, int(record.parent_message_id or 0), tr)
        except discord.HTTPException as exc:
            log.info("table %s: no thread from its line (%s); it opens inline", record.id, exc)
            return await self._inline(record)
        await self.homes.move(record.id, thread_id)
        return record.model_copy(update={"channel_id": thread_id, "message_id": None})

    # ----- a thread gone mid-game ----------------------------------------------------------
    async def thread_gone(self, thread_id: int) -> None:
        """A moderator deleted (or locked) the thread of an open table: the table moves to a
        new thread from a new line in the parent channel (or inline), state and all."""
        for table in await self._open_in(str(thread_id)):
            if table.id in self._moving:
                continue
            self._moving.add(table.id)
            try:
                await self._move_out(table)
            except Exception:
                log.exception("could not move table %s out of its lost thread", table.id)
            finally:
                self._moving.discard(table.id)

    async def thread_archived(self, thread_id: int) -> None:
        """Someone archived the thread of an open table: unarchive it (a locked one cannot be:
        the table moves)."""
        if not await self._open_in(str(thread_id)):
            return
        try:
            await self._rest(
                self.bot.http.edit_channel(thread_id, archived=False), "thread_unarchive"
            )
        except discord.HTTPException:
            await self.thread_gone(thread_id)

    async def _move_out(self, table: Table) -> None:
        record = table.record
        parent_id = record.parent_channel_id
        if parent_id is None:
            return
        tr = translator(record.locale)
        parent = self.bot.get_partial_messageable(int(parent_id), guild_id=int(record.guild_id))
        line = await self._rest(
            parent.send(
                tr("threads.line.moved", game=tr(f"{record.game}.name"), table=record.id),
                allowed_mentions=NO_MENTIONS,
            ),
            "thread_line",
            Priority.PUBLIC,
        )
        await self.homes.set_line(record.id, str(line.id))
        try:
            thread_id = await self._start_thread(
                record.model_copy(update={"channel_id": parent_id}), line.id, tr
            )
        except discord.HTTPException:
            thread_id = parent_id  # no thread now: the table goes on in the channel itself
        await self.homes.move(record.id, thread_id)
        self._adopt(
            table,
            record.model_copy(update={"channel_id": thread_id, "parent_message_id": str(line.id)}),
        )
        await self._show(table)

    def _adopt(self, table: Table, placed: TableRecord) -> None:
        """The live table takes its new place (its next message goes there)."""
        table.record.channel_id = placed.channel_id
        table.record.message_id = None
        table.record.parent_channel_id = placed.parent_channel_id
        table.record.parent_message_id = placed.parent_message_id

    async def _show(self, table: Table) -> None:
        if table.record.status == "lobby":
            await self.shower.lobby_changed(table)
        else:
            await self.shower.represent(table)

    async def _open_in(self, channel_id: str) -> list[Table]:
        table = await self.bot.tables.registry.ensure_channel(channel_id)
        return [table] if table is not None else []

    # ----- the table listener: the parent line and the thread's end ------------------------
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
        await self.homes.inherit(
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
        parent = self.bot.get_partial_messageable(int(record.parent_channel_id))
        try:
            await self._rest(
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
        if await self._open_in(thread_id):
            return  # a rematch plays there
        try:
            await self._rest(
                self.bot.http.edit_channel(int(thread_id), archived=True), "thread_archive"
            )
        except discord.HTTPException:
            log.info("could not archive thread %s", thread_id)

    async def archive_now(self) -> None:
        """Archive every thread whose window is still running (tests; a clean shutdown lets
        Discord's own auto-archive do it)."""
        for thread_id, task in list(self._archive_tasks.items()):
            task.cancel()
            self._archive_tasks.pop(thread_id, None)
            if not await self._open_in(thread_id):
                await _quietly(
                    self._rest(
                        self.bot.http.edit_channel(int(thread_id), archived=True),
                        "thread_archive",
                    )
                )

    async def close(self) -> None:
        for task in list(self._archive_tasks.values()):
            task.cancel()
        self._archive_tasks.clear()


async def _quietly(call: Any) -> None:
    try:
        await call
    except discord.HTTPException:
        pass
