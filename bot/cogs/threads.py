"""A table's thread removed or archived by someone else (bot/ui/threads.py moves or reopens
the table); the gateway's THREAD_DELETE and THREAD_UPDATE."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.ports import CogHost


class ThreadsCog(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.bot.threads.thread_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        metadata = payload.data.get("thread_metadata") or {}
        if not metadata.get("archived"):
            return
        if metadata.get("locked"):
            await self.bot.threads.thread_gone(payload.thread_id)
        else:
            await self.bot.threads.thread_archived(payload.thread_id)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(ThreadsCog(bot))
