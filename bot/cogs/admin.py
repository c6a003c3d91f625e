"""/stop: the host, or a member who may manage the channel, ends the channel's table."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TableError
from bot.i18n import DEFAULT_LOCALE, tr
from bot.i18n.commands import cmd_str
from bot.ui.feedback import answer_error, reply, user_locale

if TYPE_CHECKING:
    from bot.client import MesaBot


class AdminCog(commands.Cog):
    def __init__(self, bot: MesaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        command = app_commands.Command(
            name=cmd_str("stop", "cmd.stop.name"),
            description=cmd_str(tr(DEFAULT_LOCALE, "cmd.stop.description"), "cmd.stop.description"),
            callback=self.stop,
        )
        command.guild_only = True
        self.bot.tree.add_command(command)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command("stop")

    async def stop(self, interaction: discord.Interaction):
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = self.bot.tables.in_channel(str(interaction.channel_id))
        if table is None:
            await answer_error(interaction, TableError("no_table"))
            return
        perms = interaction.permissions
        try:
            await self.bot.tables.cancel(
                table.id, str(interaction.user.id), may_manage=bool(perms and perms.manage_channels)
            )
        except TableError as exc:
            await answer_error(interaction, exc)
            return
        await reply(interaction, tr(user_locale(interaction), "table.stopped", table=table.id))


async def setup(bot: MesaBot) -> None:
    await bot.add_cog(AdminCog(bot))
