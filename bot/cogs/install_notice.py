"""The note a person gets once (issue 30.1): on their first command where Mesa is installed to
them alone — a group DM, a server without the bot — what differs from a server with the bot
(no DMs, hands from the table's button, a table pausing after ~14 minutes without a click and
resuming on a press, servers that force every answer ephemeral). Said as an ephemeral
follow-up once the command has answered, and kept per user (``storage/notices.py``) so it is
said once across restarts and processes. Where the bot is too (a server that added it), the
bot's full mode applies and nothing is said."""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import translator
from bot.places import place_of
from bot.ports import CogHost
from bot.ui.feedback import reply, user_locale
from storage import Database
from storage.notices import NoticesRepo

log = logging.getLogger(__name__)
INSTALLED_NOTICE = "user_install"  # the notice's name in ``user_notices``


class NoticeHost(CogHost, Protocol):
    """A ``CogHost`` that also has its database (open once the bot has started)."""

    @property
    def db(self) -> Database | None: ...


class InstallNoticeCog(commands.Cog):
    def __init__(self, bot: NoticeHost) -> None:
        self.bot = bot
        self._asked: set[str] = set()  # users this process already looked up: no second write

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: app_commands.Command[Any, ..., Any]
    ) -> None:
        if not place_of(interaction).interaction_only:
            return  # the bot is here (or it is the bot's DM): nothing differs
        user = str(interaction.user.id)
        db = self.bot.db
        if user in self._asked or db is None:
            return
        self._asked.add(user)  # before the await: a second command at once does not ask again
        if not await NoticesRepo(db).first_time(user, INSTALLED_NOTICE):
            return  # persisted before shown: told once, even if this answer is lost
        t = translator(user_locale(interaction))
        body = t("anyscope.installed.body", hand=t("table.show_hand"))
        await reply(interaction, f"**{t('anyscope.installed.title')}**\n{body}")


async def setup(bot: NoticeHost) -> None:
    await bot.add_cog(InstallNoticeCog(bot))
