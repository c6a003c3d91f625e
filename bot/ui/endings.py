"""What a private view shows once it no longer plays: the table closed, or the computer took
the seat. No buttons, no "your turn", no hand image: the view tells the table's final truth."""

from __future__ import annotations

import discord

from bot.i18n import Translator
from bot.service import Table
from bot.ui.payload import Payload


def ended_hand_payload(table: Table, tr: Translator, *lines: str) -> Payload:
    """``table``'s private view, ended: its title and ``lines``, nothing to click."""
    embed = discord.Embed(
        title=tr("private.title", game=tr(f"{table.game.key}.name"), table=table.id),
        description="\n".join(lines),
        colour=discord.Colour.dark_grey(),
    )
    return Payload(embeds=[embed], view=None)
