"""A game's rules as an embed: /rules and the "Reglas" button of the lobby and the table."""

from __future__ import annotations

import discord

from bot.i18n import Translator

EMBED_DESCRIPTION = 4096
RULES_EMOJI = "📖"


def rules_embed(game_key: str, tr: Translator) -> discord.Embed:
    return discord.Embed(
        title=tr(f"{game_key}.name"),
        description=tr(f"{game_key}.rules")[:EMBED_DESCRIPTION],
        colour=discord.Colour.blurple(),
    )
