"""The /tables answer: the channel's and the server's open tables, each with "Follow"."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Translator
from bot.service import Table
from bot.ui.links import jump_link
from bot.ui.messages import seat_names
from bot.ui.platform_items import FollowButton
from bot.ui.text import clip

MAX_LISTED = 20  # 4 rows of 5 "Follow" buttons


def table_line(table: Table, tr: Translator) -> str:
    names = seat_names(table, tr)
    record = table.record
    players = ", ".join(names(s.id) for s in record.seats)
    if table.state is None:
        turn = tr("tables.in_lobby")
    else:
        waiting = sorted(table.game.to_act(table.state), key=table.state.seats.index)
        turn = tr("tables.turn", players=", ".join(names(s) for s in waiting) or "—")
    return tr(
        "tables.line",
        table=record.id,
        game=tr(f"{table.game.key}.name"),
        players=players,
        turn=turn,
        link=jump_link(record.guild_id, record.channel_id, record.message_id),
    )


def tables_payload(
    here: list[Table], elsewhere: list[Table], tr: Translator
) -> tuple[discord.Embed, discord.ui.View | None]:
    embed = discord.Embed(title=tr("tables.title"), colour=discord.Colour.blurple())
    listed = [*here, *elsewhere][:MAX_LISTED]
    for name, group in ((tr("tables.here"), here), (tr("tables.server"), elsewhere)):
        shown = [t for t in group if t in listed]
        embed.add_field(
            name=name,
            value=clip("\n".join(table_line(t, tr) for t in shown), 1024) or tr("tables.none"),
            inline=False,
        )
    playing = [t for t in listed if t.state is not None]
    if not playing:
        return embed, None
    view: discord.ui.View = discord.ui.View(timeout=None)
    items: list[Any] = [
        FollowButton(t.id, "follow", label=tr("follow.button", table=t.id)) for t in playing
    ]
    for item in items:
        view.add_item(item)
    return embed, view
