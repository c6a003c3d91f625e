"""/stop: the host, or a member who may manage the channel, ends the channel's table."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.errors import TableError
from bot.i18n import tr
from bot.i18n.commands import slash_command
from bot.ports import CogHost
from bot.reach import servers_only
from bot.ui.feedback import reply, user_locale


class AdminCog(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.add_command(servers_only(slash_command("stop", self.stop)))

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command("stop")

    async def stop(self, interaction: discord.Interaction) -> None:
        """Refusals (no table, not the host) are answered by MesaTree.on_error."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = self.bot.tables.registry.in_channel(str(interaction.channel_id))
        if table is None:
            raise TableError("no_table_here")
        perms = interaction.permissions
        await self.bot.tables.lobby.cancel(
            table.id, str(interaction.user.id), may_manage=bool(perms and perms.manage_channels)
        )
        await reply(interaction, tr(user_locale(interaction), "table.stopped", table=table.id))


async def setup(bot: CogHost) -> None:
    await bot.add_cog(AdminCog(bot))
