"""The /tables answer: the channel's and the server's open tables, each with "Follow"."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Translator
from bot.service import Table
from bot.ui.answer_layout import Answer, Block, game_colour
from bot.ui.links import jump_link
from bot.ui.messages import seat_names
from bot.ui.platform_items import FollowButton

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


def tables_answer(here: list[Table], elsewhere: list[Table], tr: Translator) -> Answer:
    """This channel's tables, then the rest of the server's (``MAX_LISTED`` in all), each with
    a link; a "Follow" button per table in play. The accent is the game's colour when every
    listed table plays the same game."""
    listed = [*here, *elsewhere][:MAX_LISTED]
    blocks = [
        Block(
            "\n".join(table_line(t, tr) for t in group if t in listed) or tr("tables.none"),
            heading=name,
        )
        for name, group in ((tr("tables.here"), here), (tr("tables.server"), elsewhere))
    ]
    games = {t.game.key for t in listed}
    buttons: list[discord.ui.Item[Any]] = [
        FollowButton(t.id, "follow", label=tr("follow.button", table=t.id))
        for t in listed
        if t.state is not None
    ]
    return Answer(
        title=tr("tables.title"),
        blocks=blocks,
        accent=game_colour(games.pop() if len(games) == 1 else None),
        footer=tr("v2answers.tables.follow_hint")
        if buttons
        else (None if listed else tr("v2answers.tables.open_hint")),
        rows=[buttons],
    )
