"""Seats of a game in progress: /leave and "Salir", /rejoin and "Volver", /kick.

Refusals are answered by MesaTree.on_error (commands) and the items' guard (buttons). In a
lobby, /leave and /kick do what the lobby's "Salir" and "Quitar a un jugador" do.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TableError
from bot.i18n import tr
from bot.i18n.commands import slash_command
from bot.ports import CogHost
from bot.reach import servers_only
from bot.service import Table
from bot.ui.feedback import reply, user_locale
from bot.ui.items import SeatButton
from bot.ui.slash import describe

COMMANDS = ("leave", "rejoin", "kick")


class SeatsCog(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        for command in self._commands():
            self.bot.tree.add_command(command)
        self.bot.add_dynamic_items(SeatButton)

    async def cog_unload(self) -> None:
        for name in COMMANDS:
            self.bot.tree.remove_command(name)
        self.bot.remove_dynamic_items(SeatButton)

    def _commands(self) -> list[app_commands.Command[Any, ..., None]]:
        made: list[app_commands.Command[Any, ..., None]] = []
        for name, callback in (("leave", self.leave), ("rejoin", self.rejoin), ("kick", self.kick)):
            made.append(
                servers_only(slash_command(name, callback))
            )  # a table by the bot's token: bot/reach.py
        describe(made[-1], "player", "cmd.kick.player")
        return made

    def game_key(self, table_id: int) -> str | None:
        table = self.bot.tables.registry.find(table_id)
        return table.game.key if table else None

    # ----- commands -------------------------------------------------------------------------
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the channel's game (the computer plays on) or its lobby."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = self._channel_table(interaction)
        if table.record.status == "lobby":
            await self.bot.tables.lobby.leave(table.id, str(interaction.user.id))
            await reply(
                interaction, tr(user_locale(interaction), "seat.left_lobby", table=table.id)
            )
            return
        await self._leave(interaction, table.id)

    async def rejoin(self, interaction: discord.Interaction) -> None:
        """Take back one's seat from the computer in the channel's game."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._rejoin(interaction, self._channel_table(interaction).id)

    async def kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        """The host (or a member who may manage the channel) removes a player."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = self._channel_table(interaction)
        by, seat = str(interaction.user.id), str(player.id)
        if table.record.status == "lobby":
            await self.bot.tables.lobby.remove(table.id, by, seat)
        else:
            perms = interaction.permissions
            await self.bot.tables.seats.kick(
                table.id, by, seat, may_manage=bool(perms and perms.manage_channels)
            )
        await reply(
            interaction,
            tr(
                user_locale(interaction),
                "seat.kicked_reply",
                player=player.display_name,
                table=table.id,
            ),
        )

    # ----- the table message's buttons --------------------------------------------------------
    async def on_seat_button(
        self, interaction: discord.Interaction, table_id: int, op: str
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if op == "leave":
            await self._leave(interaction, table_id)
        else:
            await self._rejoin(interaction, table_id)

    # ----- helpers --------------------------------------------------------------------------
    def _channel_table(self, interaction: discord.Interaction) -> Table:
        table = self.bot.tables.registry.in_channel(str(interaction.channel_id))
        if table is None:
            raise TableError("no_table_here")
        return table

    async def _leave(self, interaction: discord.Interaction, table_id: int) -> None:
        await self.bot.remember(interaction)
        await self.bot.tables.seats.leave(table_id, str(interaction.user.id))
        await reply(interaction, tr(user_locale(interaction), "seat.left_reply", table=table_id))

    async def _rejoin(self, interaction: discord.Interaction, table_id: int) -> None:
        await self.bot.remember(interaction)
        await self.bot.tables.seats.rejoin(table_id, str(interaction.user.id))
        await reply(
            interaction, tr(user_locale(interaction), "seat.rejoined_reply", table=table_id)
        )


async def setup(bot: CogHost) -> None:
    await bot.add_cog(SeatsCog(bot))
