"""Shows table changes on Discord: the public message, private DMs, notices.

It is the table service's ``TableListener``; it hears a change after it is persisted, and only
ever draws what the table holds in memory, which is committed state, so whatever a user sees has
already survived a crash. Discord failures are logged and never undo a move: the next change
(or "Ver mi mano") shows the current state again.

Every message a table owns (its public message, each player's DM view) has one ``Slot``: a
notification only marks the slot dirty and the slot's one worker task shows the table's *latest*
state, one REST call at a time. So when a table is behind, intermediate versions are skipped, and
a message never shows an older version after a newer one; the service is never held up by
Discord. A DM is edited only when that player's payload changed. A click answered with an update
of its own message (``answer_in_place``) takes the slot for that moment, so the worker does not
repeat it.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import discord

from bot import metrics
from bot.i18n import Translator, translator
from bot.service import Table, TableService
from bot.ui.dm_gate import DmGate
from bot.ui.ephemeral import EphemeralViews
from bot.ui.messages import (
    Payload,
    closed_payload,
    finish,
    lobby_payload,
    private_payload,
    public_payload,
    seat_names,
)
from bot.ui.pacer import RequestPacer
from bot.ui.presenter import GamePresenter
from bot.ui.rendering import Superseded
from bot.ui.seats import used_rematch_view
from bot.ui.shown import ShownStore
from games.core import Event

log = logging.getLogger(__name__)

DMS_CLOSED = 50007
NO_MUTUAL_GUILD = 50278
UNKNOWN_MESSAGE = 10008
# An interaction token edits its message for 15 minutes; stop using it a minute before.
HOOK_SECONDS = 14 * 60
T = TypeVar("T")


class ListenerHost(Protocol):
    """What the listener needs of the bot (``MesaBot`` is one), so it does not import it."""

    @property
    def tables(self) -> TableService: ...

    def presenter(self, game_key: str) -> GamePresenter: ...

    async def locale_of(self, user_id: str) -> str: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


@dataclass
class Slot:
    """One message a table owns, and what it currently shows."""

    busy: asyncio.Lock = field(default_factory=asyncio.Lock)  # one REST call at a time
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    build: Callable[[], Payload] | None = None  # the public message's latest builder
    final: bool = False  # the public message shows the table closed: nothing replaces it
    message_id: int | None = None  # a DM view's message
    digest: str | None = None  # the DM payload it shows
    image: str | None = None  # the digest of the image attached to the message
    waiting: bool = False  # the DM view showed "your turn"
    holds: int = 0  # a click being answered with this view: the worker waits for it
    shown_version: int | None = None  # the game version the public message shows
    work: Callable[[], Awaitable[None]] | None = None
    older: list[int] = field(default_factory=list)  # earlier DM views, buttons still on
    clickable: bool = False  # the DM view (message_id) shows components
    mention: tuple[str, ...] = ()  # the seats the live turn mention names
    # The latest click on the DM view (message_id) and until when (loop time) its token may edit
    # that message: such an edit goes through the interaction's webhook, outside the bot
    # token's global rate limit.
    hook: discord.Interaction | None = None
    hook_until: float = 0.0
    # The public message: its worker waits for the global pacer BEFORE it takes the latest
    # change, so a table whose edit waits shows its newest version with one call. None of
    # that when the change is already shown (answered in place): ``skip_version``.
    paced: bool = False
    skip_version: int | None = None

    def needs_pacing(self) -> bool:
        return self.paced and not (
            self.skip_version is not None and self.skip_version == self.shown_version
        )


async def timed_rest(call: Awaitable[T], kind: str, pacer: RequestPacer | None = None) -> T:
    """A REST call, timed as ``phase=rest`` and counted as ``rest.<kind>``; a bot-token call
    passes the ``pacer`` that keeps it inside the global limit (its wait is not REST time)."""
    if pacer is not None:
        await pacer.acquire()
    metrics.count(f"rest.{kind}")
    start = time.perf_counter()
    try:
        return await call
    finally:
        metrics.observe("rest", (time.perf_counter() - start) * 1000)


class DiscordTableListener:
    def __init__(self, bot: ListenerHost, pacer: RequestPacer | None = None) -> None:
        self.bot = bot
        self.pacer = pacer if pacer is not None else RequestPacer(0)
        self._public: dict[int, Slot] = {}
        self._private: dict[tuple[int, str], Slot] = {}
        self._dm_channels: dict[str, int] = {}  # user -> DM channel id (opened once)
        self._mentions: dict[int, Slot] = {}  # table -> its one live turn mention
        self._tasks: set[asyncio.Task[None]] = set()
        self.ephemerals = EphemeralViews()  # each player's "Ver mi mano" answer, still editable
        # Crash recovery (bot/ui/shown.py, dm_gate.py): what the slots show, kept in the
        # database; closed DMs retried with back-off.
        self.shown = ShownStore(
            lambda: getattr(getattr(self.bot, "tables", None), "presented", None)
        )
        self.dms = DmGate(lambda: self.bot.tables)

    # ----- TableListener ----------------------------------------------------------------
    async def lobby_changed(self, table: Table) -> None:
        def build() -> Payload:
            tr = translator(table.record.locale)
            presenter = self.bot.presenter(table.game.key)
            payload = presenter.lobby_payload(table, self.bot.tables, tr)
            return payload or lobby_payload(table, self.bot.tables, tr)

        # Lobby changes are few: they are shown before the service call returns (so whoever
        # clicked sees the lobby as it is), as are closings.
        await self._shown(self._show_public(table, build))

    async def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> None:
        def build() -> Payload:
            if table.state is None:  # (a lobby again: cannot happen today)
                return lobby_payload(table, self.bot.tables, translator(table.record.locale))
            tr = translator(table.record.locale)
            presenter = self.bot.presenter(table.game.key)
            return public_payload(table, presenter, self.bot.tables, tr)

        self._show_public(table, build)
        if by_timer and actor is not None:
            self._spawn(self._timed_out_notice(table, actor))
        for seat in table.human_seats():
            self._show_private(table, seat.id)
        over = table.record.status != "playing" or (
            table.state is not None and table.game.is_over(table.state)
        )
        self._show_mention(table, over)
        if over and table.state is not None:  # "Ver mi mano" answers show the end, buttons off
            presenter = self.bot.presenter(table.game.key)
            self._spawn(
                self.ephemerals.game_over(
                    table.id, lambda seat, tr: private_payload(table, presenter, seat, tr)
                )
            )

    async def table_closed(self, table: Table, reason: str) -> None:
        tr = translator(table.record.locale)
        await self._shown(
            self._show_public(table, lambda: closed_payload(table, reason, tr), final=True)
        )
        self._show_mention(table, True)
        self._spawn(self.ephemerals.table_closed(table.id))
        await self._restore_private_slots(table)
        for key in [k for k in self._private if k[0] == table.id]:
            slot = self._private.pop(key)  # nothing will edit those views again...
            current = [slot.message_id] if slot.message_id is not None and slot.clickable else []
            shown = [*slot.older, *current]
            slot.older = []
            if shown:  # ...but their buttons go off
                self._kick(slot, functools.partial(self._buttons_off, key[1], shown))

    async def seat_replaced(self, table: Table, seat_id: str) -> None:
        tr = translator(table.record.locale)
        name = seat_names(table, tr)(seat_id)
        await self._send_channel(
            table, tr("notice.replaced_by_cpu", player=f"<@{seat_id}>", name=name)
        )

    async def seat_changed(self, table: Table, seat_id: str, change: str) -> None:
        """Tell the channel, then show the table again (names, "Volver"); a person back at
        their seat gets their private view in a new DM."""
        tr = translator(table.record.locale)
        await self._send_channel(table, tr(f"notice.seat_{change}", player=f"<@{seat_id}>"))
        if change == "rejoined":
            self._private.pop((table.id, seat_id), None)
        public = self._public.get(table.id)
        if public is not None:
            public.shown_version = None  # same version, other seats: show it again
        if table.state is not None:
            await self.game_changed(table, [], None, False)

    async def rematch_opened(self, finished: Table, rematch: Table) -> None:
        """Turn the finished table's "Revancha" off (only the components change)."""
        if not finished.record.message_id:
            return
        view = used_rematch_view(finished, translator(finished.record.locale))
        channel = self.bot.get_partial_messageable(int(finished.record.channel_id))
        slot = self._public.setdefault(finished.id, Slot())
        try:
            async with slot.busy:  # after any edit of that message under way
                message = channel.get_partial_message(int(finished.record.message_id))
                await timed_rest(message.edit(view=view), "edit", self.pacer)
        except discord.HTTPException:
            log.info("could not turn off the rematch button of table %s", finished.id)
        finally:
            view.stop()

    async def represent(self, table: Table) -> None:
        """Show ``table`` again (after a restart, or an edit given up on): the public message
        if it is behind, then the DM views whose view changed."""
        public = self._public.get(table.id)
        if public is not None:
            public.shown_version = None
        if table.state is not None:
            await self.game_changed(table, [], None, False)

    async def _restore_private_slots(self, table: Table) -> None:
        """Every DM view of ``table`` stored before a restart gets its slot back."""
        for seat in await self.shown.stored_seats(table.id):
            await self._restore_private(
                table.id, seat, self._private.setdefault((table.id, seat), Slot())
            )

    async def _restore_private(self, table_id: int, seat: str, slot: Slot) -> None:
        row = await self.shown.restore(table_id, seat)
        if row is None or slot.message_id is not None:
            return
        slot.message_id = int(row.message_id) if row.message_id else None
        slot.digest = row.state.get("digest")
        slot.image = row.state.get("image")
        slot.waiting = bool(row.state.get("waiting"))
        slot.clickable = bool(row.state.get("clickable"))
        slot.older = [int(m) for m in row.state.get("older") or []]

    async def drain(self) -> None:
        """Wait until every slot shows its table's latest state (tests, shutdown)."""
        while pending := [t for t in self._tasks if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    # ----- workers ----------------------------------------------------------------------
    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self, timeout: float = 5.0) -> None:
        """Let pending changes reach Discord (for ``timeout`` at most), then stop; what the
        messages show is stored."""
        try:
            await asyncio.wait_for(self.drain(), timeout)
        except TimeoutError:
            log.warning("closing with table changes not yet shown")
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.shown.close()

    def _kick(self, slot: Slot, work: Callable[[], Awaitable[None]]) -> None:
        """Mark ``slot`` dirty with ``work``, the latest change's presentation (it replaces any
        older one not started yet: the table the service handed us may be a frozen copy of
        that change), and make sure its worker runs."""
        slot.dirty = True
        slot.work = work
        if not slot.holds and (slot.task is None or slot.task.done()):
            slot.task = self._spawn(self._drain_slot(slot))

    async def _drain_slot(self, slot: Slot) -> None:
        while slot.dirty and not slot.holds and slot.work is not None:
            if slot.needs_pacing():
                await self.pacer.acquire()
                if slot.holds or not slot.dirty:
                    return  # answered in place meanwhile: its release starts the worker again
            slot.dirty = False
            async with slot.busy:
                work = slot.work  # the latest, also if a change came while waiting
                if work is None:
                    return
                try:
                    await work()
                except Exception:  # one message never stops the others
                    log.exception("showing a table change failed")

    # ----- the public message -----------------------------------------------------------
    def _show_public(
        self, table: Table, build: Callable[[], Payload], final: bool = False
    ) -> Slot | None:
        slot = self._public.setdefault(table.id, Slot())
        if slot.final:
            return None
        slot.build = build
        slot.final = final
        slot.paced = True
        playing = table.record.status == "playing" and not final
        slot.skip_version = table.version if playing else None
        self._kick(slot, lambda: self._present_public(table, slot))
        return slot

    async def _shown(self, slot: Slot | None) -> None:
        """Wait until ``slot``'s worker has shown everything asked of it so far."""
        if slot is not None and slot.task is not None:
            await asyncio.gather(asyncio.shield(slot.task), return_exceptions=True)

    async def _present_public(self, table: Table, slot: Slot) -> None:
        if slot.build is None:
            return
        row = await self.shown.restore(table.id, "")
        if (
            row is not None
            and slot.shown_version is None
            and row.message_id == table.record.message_id
        ):
            slot.shown_version, slot.image = row.version, row.state.get("image")
        playing = table.record.status == "playing" and not slot.final
        version = table.version  # what the payload built now shows
        if playing and slot.shown_version == version:
            return  # already shown (by the answer to the click that made it)
        payload = slot.build()
        if slot.final or table.record.status == "finished":
            # The last word (a later change, e.g. closing, opens a new slot): no slot outlives
            # its table.
            if not slot.dirty:
                self._public.pop(table.id, None)
        channel = self.bot.get_partial_messageable(int(table.record.channel_id))
        message_id = table.record.message_id
        wanted = lambda: not slot.dirty  # noqa: E731 - a newer change supersedes this one
        try:
            if message_id:
                image = await finish(payload, shown=slot.image, wanted=wanted)
                try:
                    await timed_rest(
                        channel.get_partial_message(int(message_id)).edit(**payload.edit_kwargs()),
                        "public_edit",
                    )
                    slot.image = image
                    slot.shown_version = version if playing else None
                    self.shown.public(table.id, message_id, version, image)
                    return
                except discord.NotFound:
                    log.info("table %s message was deleted; posting a new one", table.id)
                    payload.keep_image = False
                    if payload.image is not None and not payload.files:
                        await finish(payload)
            else:
                await finish(payload)
            message = await timed_rest(channel.send(**payload.send_kwargs()), "public_send")
            slot.image = payload.image.digest if payload.image and payload.files else None
            slot.shown_version = version if playing else None
            await self.bot.tables.set_message(table, str(message.id))
            self.shown.public(table.id, str(message.id), version, slot.image)
        except Superseded:
            pass  # the slot is dirty: its worker goes on with the newer change
        except discord.HTTPException:
            slot.image = None
            log.exception("could not show table %s", table.id)
            self._retry_public(table)
        finally:
            if payload.view is not None:
                payload.view.stop()  # dynamic items route clicks; keep the view store empty

    def _retry_public(self, table: Table) -> None:
        """Discord gave up on the edit (retries exhausted): show the table again later rather
        than leaving it a version behind until its next move."""

        def again() -> None:
            self._spawn(self._show_again(table.id))

        self.shown.retry_later(table.id, again)

    async def _show_again(self, table_id: int) -> None:
        """The table as it is now, shown again: still playing, or finished since (a game's
        result is always shown; then it is read from storage)."""
        table = self.bot.tables.find(table_id) or await self.bot.tables.finished_table(table_id)
        if table is not None and table.record.status in ("playing", "finished"):
            await self.represent(table)

    async def _send_channel(self, table: Table, content: str) -> None:
        channel = self.bot.get_partial_messageable(int(table.record.channel_id))
        try:
            await timed_rest(
                channel.send(content=content, allowed_mentions=discord.AllowedMentions(users=True)),
                "channel_send",
                self.pacer,
            )
        except discord.HTTPException:
            log.exception("could not post to channel of table %s", table.id)

    def hold_public(self, table_id: int) -> None:
        """A click on the public message is being answered with its update
        (``answer_public_in_place``): the worker waits until ``release_public``."""
        self._public.setdefault(table_id, Slot()).holds += 1

    def release_public(self, table_id: int) -> None:
        self._release(self._public.get(table_id))

    def _release(self, slot: Slot | None) -> None:
        if slot is None:
            return
        slot.holds = max(0, slot.holds - 1)
        if slot.dirty and slot.work is not None:
            self._kick(slot, slot.work)

    def is_public_message(self, table: Table, message: discord.Message | None) -> bool:
        return message is not None and str(message.id) == table.record.message_id

    async def answer_public_in_place(
        self, interaction: discord.Interaction, table: Table, *, deadline: float
    ) -> bool:
        """Answer a click on the table's public message with that message updated
        (UPDATE_MESSAGE). False when it could not be (the worker then edits it as usual)."""
        slot = self._public.setdefault(table.id, Slot())
        if interaction.response.is_done() or slot.final or table.state is None:
            return False
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(slot.busy.acquire(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            return False
        try:
            tr = translator(table.record.locale)
            presenter = self.bot.presenter(table.game.key)
            version, status = table.version, table.record.status
            payload = public_payload(table, presenter, self.bot.tables, tr)
            try:
                image = await asyncio.wait_for(
                    finish(payload, shown=slot.image), max(0.0, deadline - loop.time())
                )
                await timed_rest(
                    interaction.response.edit_message(**payload.edit_kwargs()),
                    "click_update_public",
                )
            except (TimeoutError, discord.HTTPException):
                log.warning("updating the public message of table %s failed", table.id)
                return False
            finally:
                if payload.view is not None:
                    payload.view.stop()
            slot.image = image
            slot.shown_version = version if status == "playing" else None
            if table.record.message_id:
                self.shown.public(table.id, table.record.message_id, version, image)
            return True
        finally:
            slot.busy.release()

    # ----- private views by DM ----------------------------------------------------------
    def private_message_id(self, table_id: int, seat: str) -> int | None:
        """The DM message holding ``seat``'s private view at that table, if any."""
        slot = self._private.get((table_id, seat))
        return slot.message_id if slot else None

    def hold_private(self, table_id: int, seat: str) -> None:
        """A click on ``seat``'s view is being answered with the view itself
        (``answer_in_place``): the DM worker waits until ``release_private``."""
        self._private.setdefault((table_id, seat), Slot()).holds += 1

    def release_private(self, table_id: int, seat: str) -> None:
        self._release(self._private.get((table_id, seat)))

    def refresh_private(self, table: Table, seat: str) -> None:
        """Show ``seat``'s current view in their DM again, even if it seems unchanged."""
        if not self.bot.tables.owns(table.record.guild_id):
            return  # another process runs the guild's shard and shows it (bot/service/shared)
        slot = self._private.setdefault((table.id, seat), Slot())
        slot.digest = None
        self._show_private(table, seat)

    def _show_private(self, table: Table, seat: str) -> None:
        slot = self._private.setdefault((table.id, seat), Slot())
        self._kick(slot, lambda: self._present_private(table, seat, slot))

    def _private_digest(self, table: Table, seat: str) -> tuple[str, bool, bool, Any]:
        """(digest of what ``seat``'s view payload shows, its turn, the game is over, the
        view itself: ``private_payload`` takes it rather than building it again)."""
        assert table.state is not None
        game = table.game
        finished = game.is_over(table.state)
        has_actions = bool(game.legal_actions(table.state, seat)) and not finished
        view = game.view(table.state, seat)
        view_json = view.model_dump_json(exclude={"version"})
        # Buttons carry the version: a view with actions changes with every version.
        stamp = str(table.state.version) if has_actions else ""
        digest = hashlib.sha256(f"{stamp}\n{view_json}".encode()).hexdigest()
        return digest, seat in game.to_act(table.state), finished, view

    async def _present_private(self, table: Table, seat: str, slot: Slot) -> None:
        if table.state is None:
            return
        await self._restore_private(table.id, seat, slot)
        await self._present_private_view(table, seat, slot)
        if table.game.is_over(table.state) and slot.older:
            older, slot.older = slot.older, []
            await self._buttons_off(seat, older)  # the game is over: no view stays clickable
            self.shown.private(table.id, seat, table.version, slot)

    async def _buttons_off(self, seat: str, message_ids: list[int]) -> None:
        """Edit ``seat``'s DM views ``message_ids`` to show no components."""
        channel = await self._dm_channel(seat)
        for message_id in message_ids:
            try:
                await timed_rest(
                    channel.get_partial_message(message_id).edit(view=None), "dm_edit", self.pacer
                )
            except discord.HTTPException:
                log.info("could not turn off the buttons of DM %s of %s", message_id, seat)

    async def _present_private_view(self, table: Table, seat: str, slot: Slot) -> None:
        assert table.state is not None
        digest, waiting, finished, view = self._private_digest(table, seat)
        if finished and not slot.dirty:
            self._private.pop((table.id, seat), None)  # this is the view's last edit
        if digest == slot.digest:
            return
        # A new message when it becomes their turn (it notifies); an edit otherwise.
        fresh = waiting and not slot.waiting
        if not fresh and await self._answered_elsewhere(table, seat, slot, digest, waiting):
            return
        if await self._closed_dms(seat):
            return
        tr = translator(await self.bot.locale_of(seat))
        payload = private_payload(table, self.bot.presenter(table.game.key), seat, tr, view=view)
        wanted = lambda: not slot.dirty  # noqa: E731 - a newer change supersedes this one
        try:
            if slot.message_id is not None and not fresh:
                image = await finish(payload, shown=slot.image, wanted=wanted)
                try:
                    await self._edit_dm(seat, slot, payload)
                    slot.digest, slot.image, slot.waiting = digest, image, waiting
                    slot.clickable = payload.view is not None
                    self.shown.private(table.id, seat, table.version, slot)
                    return
                except discord.NotFound:
                    pass  # they deleted it: send a new one
                except discord.HTTPException:
                    # Discord gave up on the edit (retries exhausted): post the view anew
                    # instead; if that fails too, "Ver mi mano" still shows it.
                    log.warning("DM edit for %s at table %s failed", seat, table.id)
                payload.keep_image = False
                if payload.image is not None and not payload.files:
                    await finish(payload)
            else:
                await finish(payload)
            # The previous view stays as it is: its buttons carry an older version, so a
            # click on them answers with the current view ("stale").
            message = await self._dm(table, seat, payload=payload)
            if message is not None:
                if slot.clickable and slot.message_id not in (None, message.id):
                    slot.older.append(slot.message_id)  # its buttons go off when the game ends
                slot.message_id = message.id
                slot.clickable = payload.view is not None
                slot.digest, slot.waiting = digest, waiting
                slot.image = payload.image.digest if payload.image and payload.files else None
                self.shown.private(table.id, seat, table.version, slot)
        except Superseded:
            pass  # the slot is dirty: its worker goes on with the newer change
        finally:
            if payload.view is not None:
                payload.view.stop()

    async def _answered_elsewhere(
        self, table: Table, seat: str, slot: Slot, digest: str, waiting: bool
    ) -> bool:
        """The process that made this move (another shard's: a DM click) answered the click
        with this very view already: nothing to edit (bot/service/shared.py)."""
        shown = await self.bot.tables.view_shown_elsewhere(table.id, seat, table.version)
        if shown is None or shown.message_id is None:
            return False
        if not shown.clickable and shown.message_id in slot.older:
            slot.older.remove(shown.message_id)  # answered with no buttons: none to turn off
        if shown.digest != digest:
            return False
        if slot.message_id not in (None, shown.message_id):
            return False  # it answered on an older view: the latest one still shows the old
        slot.message_id = shown.message_id
        slot.digest, slot.waiting, slot.clickable = digest, waiting, shown.clickable
        self.shown.private(table.id, seat, table.version, slot)
        metrics.count("dm_edit_spared")
        return True

    async def _edit_dm(self, seat: str, slot: Slot, payload: Payload) -> None:
        """Edit the DM view ``slot.message_id``: through the webhook of the latest click on it
        while its token is valid (exempt from the global limit), else with the bot token."""
        hook = slot.hook
        live = asyncio.get_running_loop().time() < slot.hook_until
        if (
            hook is not None
            and hook.response.is_done()  # answered: a late acknowledgement fails, no original
            and live
            and hook.message
            and hook.message.id == slot.message_id
        ):
            try:
                await timed_rest(
                    hook.edit_original_response(**payload.edit_kwargs()), "dm_hook_edit"
                )
                return
            except discord.NotFound:
                slot.hook = None  # the token expired or the message is gone: the bot token
                await _reattach(payload)
            except discord.HTTPException as exc:
                log.info("editing %s's DM through its click failed (%s); editing it", seat, exc)
                slot.hook = None
                await _reattach(payload)
        channel = await self._dm_channel(seat)
        assert slot.message_id is not None
        await timed_rest(
            channel.get_partial_message(slot.message_id).edit(**payload.edit_kwargs()),
            "dm_edit",
            self.pacer,
        )

    def _remember_click(self, slot: Slot, interaction: discord.Interaction) -> None:
        """Keep a click on the slot's own DM view: its token can edit that message later."""
        if interaction.message is not None and interaction.message.id == slot.message_id:
            slot.hook = interaction
            slot.hook_until = asyncio.get_running_loop().time() + HOOK_SECONDS

    async def answer_in_place(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: str,
        tr: Translator,
        *,
        page: int = 0,
        draft: dict[str, Any] | None = None,
        notice: str | None = None,
        deadline: float,
    ) -> bool:
        """Answer a click on ``seat``'s DM view with that view updated (UPDATE_MESSAGE: the
        acknowledgement and the edit in one call). False when the interaction was answered
        already, or the update failed or could not be ready by ``deadline`` (loop time): the
        slot's worker then shows the view as usual."""
        # (message, the plain view's digest, its version, whether it shows buttons)
        answered: list[tuple[int, str | None, int, bool]] = []
        try:
            return await self._answer_in_place(
                interaction, table, seat, tr, page, draft, notice, deadline, answered
            )
        finally:
            # Another process owns the table: it is told what this answer showed (or that
            # there was none), so it does not edit the view again to show the same thing.
            if answered:
                message_id, digest, version, clickable = answered[0]
                self.bot.tables.view_answered(table, seat, message_id, digest, version, clickable)
            else:
                self.bot.tables.view_answered(table, seat, None, None)

    async def _answer_in_place(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: str,
        tr: Translator,
        page: int,
        draft: dict[str, Any] | None,
        notice: str | None,
        deadline: float,
        answered: list[tuple[int, str | None, int, bool]],
    ) -> bool:
        key = (table.id, seat)
        slot = self._private.setdefault(key, Slot())
        # Answered here or (if not in time) acknowledged by the caller: either way later edits
        # of this view may go through this click's webhook.
        self._remember_click(slot, interaction)
        if interaction.response.is_done() or interaction.message is None or table.state is None:
            return False
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(slot.busy.acquire(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            return False
        try:
            own_message = interaction.message.id == slot.message_id
            digest, waiting, _, view = self._private_digest(table, seat)
            version = table.version
            payload = private_payload(
                table, self.bot.presenter(table.game.key), seat, tr, page, draft=draft, view=view
            )
            if notice:
                payload.content = tr(notice)
            try:
                image = await asyncio.wait_for(
                    finish(payload, shown=slot.image if own_message else None),
                    max(0.0, deadline - loop.time()),
                )
                await timed_rest(
                    interaction.response.edit_message(**payload.edit_kwargs()), "click_update"
                )
            except TimeoutError:
                return False  # not ready in time: acknowledged by the caller, shown by the slot
            except discord.HTTPException as exc:
                log.warning(
                    "updating the clicked view of %s at table %s failed: %s", seat, table.id, exc
                )
                return False
            finally:
                if payload.view is not None:
                    payload.view.stop()
            if own_message:
                slot.clickable = payload.view is not None
            elif payload.view is not None and interaction.message.id not in slot.older:
                slot.older.append(interaction.message.id)  # an older view shows buttons again
            elif payload.view is None and interaction.message.id in slot.older:
                slot.older.remove(interaction.message.id)  # its buttons are off already
            plain = page == 0 and not draft and not notice
            clickable = payload.view is not None
            answered.append((interaction.message.id, digest if plain else None, version, clickable))
            if own_message and plain:
                slot.digest, slot.image, slot.waiting = digest, image, waiting
            elif own_message:
                slot.digest, slot.image = None, image  # a page or a draft: not the plain view
            if self.bot.tables.owns(table.record.guild_id):  # else the owner's to store
                self.shown.private(table.id, seat, table.version, slot)
            return True
        finally:
            slot.busy.release()

    # ----- turn mentions for players whose DMs are closed ----------------------------------
    def _show_mention(self, table: Table, over: bool) -> None:
        """Keep the table's one turn mention naming the closed-DM players to act (none once
        ``over``)."""
        slot = self._mentions.setdefault(table.id, Slot())
        self._kick(slot, lambda: self._present_mention(table, slot, over))
        if over:
            self._mentions.pop(table.id, None)  # its worker deletes the last mention

    async def _present_mention(self, table: Table, slot: Slot, over: bool) -> None:
        row = await self.shown.restore(table.id, "@mention")
        if row is not None and slot.message_id is None and row.message_id:
            slot.message_id = int(row.message_id)
            slot.mention = tuple(row.state.get("seats") or ())
        seats: list[str] = []
        if not over and table.state is not None:
            to_act = set(table.game.to_act(table.state))
            for seat in table.state.seats:
                human = any(s.id == seat for s in table.human_seats())
                if seat in to_act and human and await self.dms.marked_closed(seat):
                    seats.append(seat)
        if tuple(seats) == slot.mention:
            return  # the same turn: the live mention still says it
        channel = self.bot.get_partial_messageable(int(table.record.channel_id))
        if slot.message_id is not None:
            try:
                await timed_rest(
                    channel.get_partial_message(slot.message_id).delete(),
                    "channel_delete",
                    self.pacer,
                )
            except discord.HTTPException:
                log.info("could not delete the turn mention of table %s", table.id)
            slot.message_id = None
        slot.mention = tuple(seats)
        if not seats:
            self.shown.mention(table.id, None, ())
            return
        tr = translator(table.record.locale)
        text = tr("notice.turn_mention", player=", ".join(f"<@{s}>" for s in seats), table=table.id)
        try:
            message = await timed_rest(
                channel.send(content=text, allowed_mentions=discord.AllowedMentions(users=True)),
                "channel_send",
                self.pacer,
            )
            slot.message_id = message.id
            self.shown.mention(table.id, message.id, slot.mention)
        except discord.HTTPException:
            log.exception("could not mention the players to act at table %s", table.id)

    async def _timed_out_notice(self, table: Table, seat: str) -> None:
        text = translator(await self.bot.locale_of(seat))("notice.timed_out")
        await self._dm(table, seat, content=text)

    async def _closed_dms(self, seat: str) -> bool:
        return await self.dms.blocked(seat)

    async def _dm_channel(self, seat: str) -> discord.PartialMessageable:
        """``seat``'s DM channel, opened once (``POST /users/@me/channels``) and then kept."""
        channel_id = self._dm_channels.get(seat)
        if channel_id is None:
            channel = await timed_rest(
                self.bot.create_dm(discord.Object(id=int(seat))), "dm_open", self.pacer
            )
            channel_id = self._dm_channels[seat] = channel.id
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _dm(
        self, table: Table, seat: str, *, payload: Payload | None = None, content: str | None = None
    ) -> discord.Message | None:
        if await self._closed_dms(seat):
            return None
        try:
            channel = await self._dm_channel(seat)
            if payload is not None:
                sent = await timed_rest(
                    channel.send(**payload.send_kwargs()), "dm_send", self.pacer
                )
            else:
                sent = await timed_rest(channel.send(content=content), "dm_send", self.pacer)
            await self.dms.delivered(seat)
            return sent
        except discord.Forbidden as exc:
            if exc.code in (DMS_CLOSED, NO_MUTUAL_GUILD):
                if await self.dms.refused(seat):  # told once; retried later with back-off
                    tr = translator(table.record.locale)
                    await self._send_channel(table, tr("notice.dms_closed", player=f"<@{seat}>"))
            else:
                log.warning("DM to %s refused: %s", seat, exc)
        except discord.HTTPException:
            log.exception("DM to %s failed", seat)
        return None


async def _reattach(payload: Payload) -> None:
    """A failed request closed the payload's files: attach the image again (from the cache)."""
    payload.files = []
    if payload.image is not None and not payload.keep_image:
        await finish(payload)
