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

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

import discord

from bot.errors import TableError
from bot.i18n import Translator, translator
from bot.service import Table, TableService
from bot.service.guild_settings import GuildSettings
from bot.service.threads import TableHomes
from bot.ui.lobby_answer import LobbyAnswer
from bot.ui.pacer import Priority, RequestPacer
from bot.ui.thread_lines import NO_MENTIONS, REMATCH_WINDOW_SECONDS, ThreadLines, quietly
from bot.ui.view_kit import timed_rest
from storage import TableRecord

log = logging.getLogger(__name__)
T = TypeVar("T")

AUTO_ARCHIVE_MINUTES: Literal[60] = (
    60  # Discord archives an idle thread by itself after this (a backstop)
)
NAME_LIMIT = 100  # Discord's limit on a channel name
THREAD_EXISTS = 160004  # "A thread has already been created for this message"
# What the bot needs in a channel to hold a table in a thread there.
REQUIRED = (
    ("create_public_threads", "threads.permission.create_public_threads"),
    ("send_messages_in_threads", "threads.permission.send_messages_in_threads"),
)


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
    answer: LobbyAnswer | None = None  # the /play whose response may be the line (issue 25)

    async def place(self, record: TableRecord) -> TableRecord:
        placed, self.missing = await self.threads.place(record, self.answer)
        if placed.parent_channel_id is not None:
            self.thread_id = placed.channel_id
        return placed


def opened_text(
    tr: Translator,
    game_key: str,
    table_id: int,
    placement: Placement | None,
    missing: str | None,
    plain_key: str = "lobby.opened",
    **params: object,
) -> str:
    """The host's answer to a ``/play``: where the table opened (its thread, or ``plain_key``
    when inline) and the permission whose lack kept it inline, if any."""
    game = tr(f"{game_key}.name")
    if placement is not None and placement.thread_id is not None:
        text = tr("threads.opened", game=game, table=table_id, thread=placement.thread_id)
        if plain_key != "lobby.opened":
            text = tr(plain_key, game=game, table=table_id, **params) + "\n" + text
    else:
        text = tr(plain_key, game=game, table=table_id, **params)
    missing = missing or (placement.missing if placement is not None else None)
    if missing is not None:
        text += "\n" + tr("threads.inline", permission=tr(missing))
    return text


class TableThreads:
    """Threads of tables: making them and moving a table out of a thread that is gone; its
    ``lines`` (bot/ui/thread_lines.py) hear the tables and keep the parent line and archive."""

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
        self._moving: set[int] = set()
        # The table listener: each table's line in the channel and its thread's end.
        self.lines = ThreadLines(self, rematch_window=rematch_window)

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

    async def place(
        self, record: TableRecord, answer: LobbyAnswer | None = None
    ) -> tuple[TableRecord, str | None]:
        """Move the stored lobby ``record`` (in its parent channel) into a new thread: the
        record as placed, and the missing permission's key when it had to stay inline. The
        line is ``answer``'s response when it may still be (bot/ui/lobby_answer.py)."""
        tr = translator(record.locale)
        parent = self.bot.get_partial_messageable(
            int(record.channel_id), guild_id=int(record.guild_id)
        )
        text = self._open_line(record, tr)
        try:
            line = await answer.post_line(text, NO_MENTIONS) if answer is not None else None
            if line is None:
                line = await self.rest(
                    parent.send(text, allowed_mentions=NO_MENTIONS), "thread_line", Priority.PUBLIC
                )
        except discord.HTTPException as exc:
            missing = "threads.permission.send_messages" if exc.status == 403 else None
            return await self._inline(record), missing
        await self.homes.set_line(record.id, str(line.id))
        try:
            thread_id = await self._start_thread(record, line.id, tr)
        except discord.HTTPException as exc:
            log.info("no thread for table %s (%s); it opens inline", record.id, exc)
            await quietly(self.rest(line.delete(), "thread_line_delete"))
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
            data = await self.rest(
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

    async def rest(
        self, call: Awaitable[T], kind: str, priority: Priority = Priority.HOUSEKEEPING
    ) -> T:
        """A bot-token call inside the global limit (the bot's pacer)."""
        return await timed_rest(call, kind, self._pacer(), priority)

    # ----- start-up: placements a kill cut short -------------------------------------------
    async def resume(self, unplaced: list[int]) -> None:
        """At start-up: finish the placements a kill cut short, then re-arm the thread
        archives it interrupted."""
        await self.place_unplaced(unplaced)
        await self.lines.rearm()

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
        for table in await self.open_in(str(thread_id)):
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
        if not await self.open_in(str(thread_id)):
            return
        try:
            await self.rest(
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
        line = await self.rest(
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

    async def open_in(self, channel_id: str) -> list[Table]:
        table = await self.bot.tables.registry.ensure_channel(channel_id)
        return [table] if table is not None else []

    async def close(self) -> None:
        await self.lines.close()
