"""/tables (the channel's and the server's open tables) and following a table ("Seguir"): the
follower gets the public view by DM on every turn change (``bot/ui/spectate.py``) and may stop
with the button in that DM."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.errors import TableError
from bot.i18n import translator
from bot.ports import CogHost
from bot.reach import servers_only
from bot.ui.answer_layout import send_answer
from bot.ui.feedback import reply, user_locale
from bot.ui.platform_items import FollowButton
from bot.ui.slash import command
from bot.ui.tables_view import tables_answer


class TablesCog(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    def game_key(self, table_id: int) -> str | None:
        table = self.bot.tables.registry.find(table_id)
        return table.game.key if table else None

    async def cog_load(self) -> None:
        tables = command("tables", "tables", self.tables)
        self.bot.tree.add_command(servers_only(tables))  # following is by DM: bot/reach.py
        self.bot.add_dynamic_items(FollowButton)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command("tables")
        self.bot.remove_dynamic_items(FollowButton)

    async def tables(self, interaction: discord.Interaction) -> None:
        tr = translator(user_locale(interaction))
        guild, channel = str(interaction.guild_id), str(interaction.channel_id)
        open_ = sorted(await self.bot.tables.registry.ensure_guild(guild), key=lambda t: t.id)
        here = [t for t in open_ if t.record.channel_id == channel]
        elsewhere = [t for t in open_ if t.record.channel_id != channel]
        await send_answer(interaction, tables_answer(here, elsewhere, tr))

    async def on_follow(self, interaction: discord.Interaction, table_id: int, op: str) -> None:
        tr = translator(user_locale(interaction))
        user = str(interaction.user.id)
        await self.bot.remember(interaction)
        if op == "stop":
            stopped = await self.bot.followers.stop(table_id, user)
            await reply(interaction, tr("follow.stopped" if stopped else "follow.not_following"))
            return
        table = await self.bot.tables.registry.ensure(table_id)
        if table is None or table.state is None:
            raise TableError("table_gone", table=table_id)
        if not await self.bot.followers.follow(table_id, user):
            await reply(interaction, tr("follow.already", table=table_id))
            return
        self.bot.spectators.show_now(table)
        await reply(interaction, tr("follow.started", table=table_id))


async def setup(bot: CogHost) -> None:
    await bot.add_cog(TablesCog(bot))
