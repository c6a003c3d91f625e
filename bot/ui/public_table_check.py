"""``/play``'s check where no public table can exist (issue 30.1): a server without the bot
whose member lacks USE_EXTERNAL_APPS turns every answer of the app ephemeral
(``Place.forced_ephemeral``), so a table there would be seen by its host alone. The command is
refused before it runs, with why and what to do instead (ask for the bot, or play in a group
DM); every other command works there, ephemeral."""

from __future__ import annotations

import discord

from bot.i18n import tr
from bot.places import place_of
from bot.ui.feedback import reply, user_locale


async def public_table_possible(interaction: discord.Interaction) -> bool:
    """An ``app_commands`` check: False (answered) where every answer is forced ephemeral."""
    if not place_of(interaction).forced_ephemeral:
        return True
    await reply(interaction, tr(user_locale(interaction), "anyscope.forced_ephemeral"))
    return False  # MesaTree.on_error leaves the answered CheckFailure alone
