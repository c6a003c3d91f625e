"""/history [member] [game]: the server's last finished games (date, players, result, a link to
the table message, and the number /replay takes)."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.i18n import translator
from bot.places import place_of
from bot.ports import CogHost
from bot.reach import with_friends
from bot.ui.answer_layout import send_answer
from bot.ui.feedback import user_locale
from bot.ui.history_view import history_answer
from bot.ui.slash import command, game_choices

HISTORY_SIZE = 10


class HistoryCog(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        history = command(
            "history",
            "history",
            self.history,
            {"member": "cmd.option.history_member", "game": "cmd.option.game"},
            {"game": game_choices(list(self.bot.games))},
        )
        self.bot.tree.add_command(with_friends(history))  # bot/reach.py

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command("history")

    async def history(
        self,
        interaction: discord.Interaction,
        member: discord.Member | discord.User | None = None,
        game: str | None = None,
    ) -> None:
        tr = translator(user_locale(interaction))
        rows = await self.bot.ratings.history(
            place_of(interaction).scope, str(member.id) if member else None, game, HISTORY_SIZE
        )
        who = member.display_name if member else None
        await send_answer(interaction, history_answer(rows, who, tr, game))


async def setup(bot: CogHost) -> None:
    await bot.add_cog(HistoryCog(bot))
