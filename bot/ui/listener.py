"""Shows table changes on Discord: the public message, private DMs, notices.

It is the table service's ``TableListener``; it runs after a change is persisted, so whatever a
user sees has already survived a crash. Discord failures are logged and never undo a move: the
next change (or "Ver mi mano") shows the current state again.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Protocol

import discord

from bot.i18n import translator
from bot.service import Table, TableService
from bot.ui.messages import (
    Payload,
    closed_payload,
    lobby_payload,
    private_payload,
    public_payload,
    seat_names,
)
from bot.ui.presenter import GamePresenter
from bot.ui.seats import used_rematch_view
from games.core import Event

log = logging.getLogger(__name__)

DMS_CLOSED = 50007
NO_MUTUAL_GUILD = 50278
UNKNOWN_MESSAGE = 10008


class ListenerHost(Protocol):
    """What the listener needs of the bot (``MesaBot`` is one), so it does not import it."""

    @property
    def tables(self) -> TableService: ...

    def presenter(self, game_key: str) -> GamePresenter: ...

    async def locale_of(self, user_id: str) -> str: ...

    def get_partial_messageable(self, id: int) -> discord.PartialMessageable: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...


class DiscordTableListener:
    def __init__(self, bot: ListenerHost) -> None:
        self.bot = bot
        # (table, seat) -> the DM message holding that player's private view
        self._dm_messages: dict[tuple[int, str], discord.Message] = {}
        self._dm_digests: dict[tuple[int, str], str] = {}
        self._dm_waiting: dict[tuple[int, str], bool] = {}

    # ----- TableListener ----------------------------------------------------------------
    async def lobby_changed(self, table: Table) -> None:
        tr = translator(table.record.locale)
        presenter = self.bot.presenter(table.game.key)
        payload = presenter.lobby_payload(table, self.bot.tables, tr)
        await self._show_public(table, payload or lobby_payload(table, self.bot.tables, tr))

    async def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> None:
        tr = translator(table.record.locale)
        presenter = self.bot.presenter(table.game.key)
        await self._show_public(table, public_payload(table, presenter, self.bot.tables, tr))
        if by_timer and actor is not None:
            await self._dm(
                table,
                actor,
                content=translator(await self.bot.locale_of(actor))("notice.timed_out"),
            )
        await self._refresh_private_views(table)
        if table.record.status != "playing":
            self._forget(table.id)  # the final views are out; nothing will edit them again

    async def table_closed(self, table: Table, reason: str) -> None:
        tr = translator(table.record.locale)
        await self._show_public(table, closed_payload(table, reason, tr))
        self._forget(table.id)

    def _forget(self, table_id: int) -> None:
        for cache in (self._dm_messages, self._dm_digests, self._dm_waiting):
            for key in [k for k in cache if k[0] == table_id]:
                del cache[key]

    async def seat_replaced(self, table: Table, seat_id: str) -> None:
        tr = translator(table.record.locale)
        name = seat_names(table, tr)(seat_id)
        await self._send_channel(
            table, tr("notice.replaced_by_cpu", player=f"<@{seat_id}>", name=name)
        )

    async def seat_changed(self, table: Table, seat_id: str, change: str) -> None:
        """Tell the channel, then show the table again (names, "Volver"); a person back at
        their seat gets their private view anew."""
        tr = translator(table.record.locale)
        await self._send_channel(table, tr(f"notice.seat_{change}", player=f"<@{seat_id}>"))
        if change == "rejoined":
            self._dm_digests.pop((table.id, seat_id), None)
            self._dm_waiting.pop((table.id, seat_id), None)
        if table.state is not None:
            await self.game_changed(table, [], None, False)

    async def rematch_opened(self, finished: Table, rematch: Table) -> None:
        """Turn the finished table's "Revancha" off (only the components change)."""
        if not finished.record.message_id:
            return
        view = used_rematch_view(finished, translator(finished.record.locale))
        channel = self.bot.get_partial_messageable(int(finished.record.channel_id))
        try:
            await channel.get_partial_message(int(finished.record.message_id)).edit(view=view)
        except discord.HTTPException:
            log.info("could not turn off the rematch button of table %s", finished.id)
        finally:
            view.stop()

    # ----- the public message -----------------------------------------------------------
    async def _show_public(self, table: Table, payload: Payload) -> None:
        channel = self.bot.get_partial_messageable(int(table.record.channel_id))
        message_id = table.record.message_id
        try:
            if message_id:
                try:
                    await channel.get_partial_message(int(message_id)).edit(**payload.edit_kwargs())
                    return
                except discord.NotFound:
                    log.info("table %s message was deleted; posting a new one", table.id)
            message = await channel.send(**payload.send_kwargs())
            await self.bot.tables.set_message(table, str(message.id))
        except discord.HTTPException:
            log.exception("could not show table %s", table.id)
        finally:
            if payload.view is not None:
                payload.view.stop()  # dynamic items route clicks; keep the view store empty

    async def _send_channel(self, table: Table, content: str) -> None:
        channel = self.bot.get_partial_messageable(int(table.record.channel_id))
        try:
            await channel.send(
                content=content, allowed_mentions=discord.AllowedMentions(users=True)
            )
        except discord.HTTPException:
            log.exception("could not post to channel of table %s", table.id)

    # ----- private views by DM ----------------------------------------------------------
    async def _refresh_private_views(self, table: Table) -> None:
        if table.state is None:
            return
        game = table.game
        finished = game.outcome(table.state) is not None
        to_act = game.to_act(table.state)
        for seat in table.human_seats():
            key = (table.id, seat.id)
            has_actions = bool(game.legal_actions(table.state, seat.id)) and not finished
            view_json = game.view(table.state, seat.id).model_dump_json(exclude={"version"})
            digest = hashlib.sha256(view_json.encode()).hexdigest()
            unchanged = self._dm_digests.get(key) == digest
            if unchanged and not has_actions and not finished:
                continue
            if unchanged and finished:
                continue
            self._dm_digests[key] = digest
            waiting = seat.id in to_act
            # A new message when it becomes their turn (it notifies); an edit otherwise.
            fresh = waiting and not self._dm_waiting.get(key, False)
            self._dm_waiting[key] = waiting
            try:
                await self._send_private(table, seat.id, fresh=fresh)
            except Exception:  # noqa: BLE001 - one player's DM never blocks the others
                log.exception("private view of %s at table %s failed", seat.id, table.id)
                self._dm_digests.pop(key, None)

    async def _send_private(self, table: Table, seat: str, *, fresh: bool) -> None:
        if await self.bot.tables.dms_closed(seat):
            return
        tr = translator(await self.bot.locale_of(seat))
        presenter = self.bot.presenter(table.game.key)
        payload = private_payload(table, presenter, seat, tr)
        key = (table.id, seat)
        old = self._dm_messages.get(key)
        try:
            if old is not None and not fresh:
                try:
                    await old.edit(**payload.edit_kwargs())
                    return
                except discord.NotFound:
                    pass  # they deleted it: send a new one
                except discord.HTTPException:
                    # Discord gave up on the edit (retries exhausted): post the view anew
                    # instead; if that fails too, "Ver mi mano" still shows it.
                    log.warning("DM edit for %s at table %s failed", seat, table.id)
            message = await self._dm(table, seat, payload=payload)
            if message is not None:
                self._dm_messages[key] = message
                if old is not None:
                    try:  # the previous private view becomes a plain record
                        await old.edit(view=None)
                    except discord.HTTPException:
                        pass
            else:
                self._dm_digests.pop(key, None)
        finally:
            if payload.view is not None:
                payload.view.stop()

    async def _dm(
        self, table: Table, seat: str, *, payload: Payload | None = None, content: str | None = None
    ) -> discord.Message | None:
        if not seat.isdigit() or await self.bot.tables.dms_closed(seat):
            return None
        try:
            user = self.bot.get_user(int(seat)) or await self.bot.fetch_user(int(seat))
            if payload is not None:
                return await user.send(**payload.send_kwargs())
            return await user.send(content=content)
        except discord.Forbidden as exc:
            if exc.code in (DMS_CLOSED, NO_MUTUAL_GUILD):
                await self.bot.tables.set_dms_closed(seat, True)
                tr = translator(table.record.locale)
                await self._send_channel(table, tr("notice.dms_closed", player=f"<@{seat}>"))
            else:
                log.warning("DM to %s refused: %s", seat, exc)
        except discord.HTTPException:
            log.exception("DM to %s failed", seat)
        return None
