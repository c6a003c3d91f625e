"""A game's rules as an embed: /rules and the "Reglas" button of the lobby and the table."""

from __future__ import annotations

import discord

from bot.i18n import Translator, has

EMBED_DESCRIPTION = 4096
RULES_EMOJI = "📖"


def rules_text(game_key: str, tr: Translator) -> str:
    """The game's rules, then how the computer plays it when the catalogue says
    (``<game>.rules.computer_play``)."""
    parts = [tr(f"{game_key}.rules")]
    if has(f"{game_key}.rules.computer_play"):
        parts.append(tr(f"{game_key}.rules.computer_play"))
    return "\n\n".join(parts)


def rules_embed(game_key: str, tr: Translator) -> discord.Embed:
    return discord.Embed(
        title=tr(f"{game_key}.name"),
        description=rules_text(game_key, tr)[:EMBED_DESCRIPTION],
        colour=discord.Colour.blurple(),
    )
