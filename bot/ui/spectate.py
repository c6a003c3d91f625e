"""Spectators' DMs: a ``TableListener`` composed beside the main Discord listener.

A follower's DM shows the table's *public* view (``messages.public_payload``: built from
``game.view(state, None)``, so never a hand, a collection or a hidden Triple Triad card) and is
edited whenever the turn changes (the seats waited on, or the end). The call returns at once;
each table's DMs are brought up to date by one worker, latest wins, so a move never waits for a
spectator."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

import discord

from bot.i18n import translator
from bot.service import Table, TableService
from bot.service.followers import Followers
from bot.ui import v2
from bot.ui.messages import closed_payload, finish, public_payload
from bot.ui.pacer import Priority, RequestPacer
from bot.ui.payload import Payload
from bot.ui.platform_items import FollowButton
from bot.ui.presenter import GamePresenter
from games.core import Event

log = logging.getLogger(__name__)


class SpectatorHost(Protocol):
    @property
    def tables(self) -> TableService: ...

    def presenter(self, game_key: str) -> GamePresenter[Any, Any]: ...

    async def locale_of(self, user_id: str) -> str: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


def turn_of(table: Table) -> tuple[str, ...]:
    """What a follower is told about: who the game waits on (or that it is over)."""
    if table.state is None:
        return ("lobby",)
    if table.game.is_over(table.state):
        return ("over", str(table.state.version))
    return tuple(sorted(table.game.to_act(table.state)))


def spectator_payload(
    table: Table, presenter: GamePresenter[Any, Any], service: TableService, locale: str
) -> Payload:
    """The public table message without its players' buttons, plus "stop following"."""
    tr = translator(locale)
    payload = public_payload(table, presenter, service, tr)
    assert payload.view is not None  # the table's Components V2 card (bot/ui/v2.py)
    payload.view.stop()
    if turn_of(table)[0] == "over":
        v2.replace_rows(payload.view, [])  # the end: nothing left to follow, no button to press
    else:
        v2.replace_rows(payload.view, [FollowButton(table.id, "stop", label=tr("follow.stop"))])
    v2.add_notice(payload.view, tr("follow.dm_header", table=table.id))  # under the title
    return payload


class SpectatorListener:
    def __init__(
        self,
        bot: SpectatorHost,
        followers: Followers,
        pacer: Callable[[], RequestPacer] | None = None,
    ) -> None:
        self.bot = bot
        self.followers = followers
        # The bot token's one scheduler (bot/ui/pacer.py): a follower's DM is housekeeping,
        # after the views that let players act and the public tables.
        self._pacer = pacer
        self._turns: dict[int, tuple[str, ...]] = {}
        self._latest: dict[int, Table] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._dm_channels: dict[str, int] = {}
        self.sent = 0  # DMs sent or edited (tests, metrics)

    # ----- TableListener --------------------------------------------------------------------
    async def lobby_changed(self, table: Table) -> None:
        return None

    async def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> None:
        if not self.followers.of(table.id):
            return
        turn = turn_of(table)
        if self._turns.get(table.id) == turn:
            return
        self._turns[table.id] = turn
        self._show(table)

    async def table_closed(self, table: Table, reason: str) -> None:
        """Every follower's DM shows the closing, its "stop following" button gone: no view
        keeps saying whose turn it is at a table that closed."""
        following = dict(self.followers.of(table.id))
        self._turns.pop(table.id, None)
        self._latest.pop(table.id, None)
        worker = self._workers.get(table.id)
        if worker is not None:
            await asyncio.gather(asyncio.shield(worker), return_exceptions=True)
        for user_id, message_id in following.items():
            if message_id is not None:
                await self._show_closed(table, reason, user_id, message_id)
        self.followers.forget_table(table.id)

    async def _show_closed(self, table: Table, reason: str, user_id: str, message_id: str) -> None:
        tr = translator(await self.bot.locale_of(user_id))
        payload = closed_payload(table, reason, tr)
        payload.content = tr("views.follow_closed")
        try:
            channel = await self._dm_channel(user_id)
            await self._paced()
            await channel.get_partial_message(int(message_id)).edit(**payload.edit_kwargs())
            self.sent += 1
        except discord.HTTPException as exc:
            log.info("could not show the closing to follower %s (%s)", user_id, exc.code)

    async def seat_replaced(self, table: Table, seat_id: str) -> None:
        return None

    async def seat_changed(self, table: Table, seat_id: str, change: str) -> None:
        return None

    async def rematch_opened(self, finished: Table, rematch: Table) -> None:
        return None

    # ----- showing --------------------------------------------------------------------------
    def show_now(self, table: Table) -> None:
        """Bring every follower's DM up to date (a new follower gets the table at once)."""
        self._turns[table.id] = turn_of(table)
        self._show(table)

    def _show(self, table: Table) -> None:
        self._latest[table.id] = table
        if table.id not in self._workers:
            self._workers[table.id] = asyncio.create_task(
                self._work(table.id), name=f"spectators-{table.id}"
            )

    async def idle(self) -> None:
        """Wait until every follower's DM is up to date (tests, shutdown)."""
        while self._workers:
            await asyncio.wait(set(self._workers.values()))

    async def close(self) -> None:
        for task in list(self._workers.values()):
            task.cancel()
        await asyncio.gather(*self._workers.values(), return_exceptions=True)

    async def _work(self, table_id: int) -> None:
        try:
            while (table := self._latest.pop(table_id, None)) is not None:
                for user_id, message_id in self.followers.of(table_id).items():
                    await self._show_one(table, user_id, message_id)
        finally:
            self._workers.pop(table_id, None)
            turn = self._turns.get(table_id)
            if turn is None or turn[0] == "over":  # closed or over: nothing more to show
                self._turns.pop(table_id, None)
                self.followers.forget_table(table_id)

    async def _show_one(self, table: Table, user_id: str, message_id: str | None) -> None:
        locale = await self.bot.locale_of(user_id)
        payload = spectator_payload(
            table, self.bot.presenter(table.game.key), self.bot.tables, locale
        )
        try:
            await finish(payload)
            channel = await self._dm_channel(user_id)
            if message_id is not None:
                try:
                    await self._paced()
                    await channel.get_partial_message(int(message_id)).edit(**payload.edit_kwargs())
                    self.sent += 1
                    return
                except discord.NotFound:
                    payload.keep_image = False
            await self._paced()
            message = await channel.send(**payload.send_kwargs())
            self.sent += 1
            await self.followers.set_message(table.id, user_id, str(message.id))
        except discord.HTTPException as exc:
            log.info("spectator DM to %s failed (%s); they stop following", user_id, exc)
            await self.followers.stop(table.id, user_id)
        finally:
            if payload.view is not None:
                payload.view.stop()

    async def _paced(self) -> None:
        if self._pacer is not None:
            await self._pacer().acquire(Priority.HOUSEKEEPING)

    async def _dm_channel(self, user_id: str) -> discord.PartialMessageable:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            await self._paced()
            channel = await self.bot.create_dm(discord.Object(id=int(user_id)))
            channel_id = self._dm_channels[user_id] = channel.id
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
