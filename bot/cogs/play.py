"""Moves: action buttons and selects, "Ver mi mano" and its pages, stale clicks."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.errors import TableError
from bot.i18n import translator
from bot.ui.feedback import answer_error, reply, user_locale
from bot.ui.items import ActionButton, ActionSelect, HandButton
from bot.ui.messages import private_payload
from games.core import IllegalAction

if TYPE_CHECKING:
    from bot.client import MesaBot


def _is_ephemeral(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


class PlayCog(commands.Cog):
    def __init__(self, bot: MesaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ActionButton, ActionSelect, HandButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ActionButton, ActionSelect, HandButton)

    async def on_action(
        self, interaction: discord.Interaction, table_id: int, version: int, action: str
    ) -> None:
        # Answer within 3 s first; the move, its storage and the redraw come after.
        await interaction.response.defer()
        await self.bot.remember(interaction)
        seat = str(interaction.user.id)
        table = self.bot.tables.find(table_id)
        game_key = table.game.key if table else None
        try:
            await self.bot.tables.act(table_id, seat, version, action)
        except TableError as exc:
            if exc.code == "stale" and table is not None and table.seat(seat):
                await self._show_private(interaction, table_id, 0, notice="error.stale")
                return
            await answer_error(interaction, exc, game_key)
            return
        except IllegalAction as exc:
            await answer_error(interaction, exc, game_key)
            return
        if _is_ephemeral(interaction):
            await self._refresh_ephemeral(interaction, table_id, seat)

    async def on_empty_select(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

    async def on_show_hand(
        self, interaction: discord.Interaction, table_id: int, page: int
    ) -> None:
        await self.bot.remember(interaction)
        if _is_ephemeral(interaction) or isinstance(interaction.channel, discord.DMChannel):
            await interaction.response.defer()
            await self._refresh_ephemeral(interaction, table_id, str(interaction.user.id), page)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._show_private(interaction, table_id, page)

    async def _private(self, interaction: discord.Interaction, table_id: int, page: int):
        table = self.bot.tables.get(table_id)
        seat = str(interaction.user.id)
        if table.state is None:
            raise TableError("not_playing")
        if table.seat(seat) is None:
            raise TableError("not_seated")
        tr = translator(user_locale(interaction))
        return private_payload(table, self.bot.presenter(table.game.key), seat, tr, page)

    async def _show_private(
        self, interaction: discord.Interaction, table_id: int, page: int, notice: str | None = None
    ) -> None:
        try:
            payload = await self._private(interaction, table_id, page)
        except TableError as exc:
            await answer_error(interaction, exc)
            return
        if notice:
            payload.content = translator(user_locale(interaction))(notice)
        await reply(interaction, **payload.send_kwargs())
        if payload.view is not None:
            payload.view.stop()

    async def _refresh_ephemeral(
        self, interaction: discord.Interaction, table_id: int, seat: str, page: int = 0
    ) -> None:
        try:
            payload = await self._private(interaction, table_id, page)
        except TableError:
            return  # the game ended or the table closed: the public message says so
        try:
            await interaction.edit_original_response(**payload.edit_kwargs())
        except discord.HTTPException:
            await reply(interaction, **payload.send_kwargs())
        finally:
            if payload.view is not None:
                payload.view.stop()


async def setup(bot: MesaBot) -> None:
    await bot.add_cog(PlayCog(bot))
