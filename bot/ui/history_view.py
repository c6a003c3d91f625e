"""The /history answer: a server's last finished games (date, players, result, links)."""

from __future__ import annotations

from datetime import datetime

import discord

from bot.i18n import Translator
from bot.ui.answer_layout import Answer, Block, game_colour
from bot.ui.links import jump_link
from bot.ui.text import clip
from storage import FinishedRow


def _epoch(iso: str) -> int:
    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp())


def history_line(row: FinishedRow, tr: Translator) -> str:
    names = {str(s["id"]): str(s["name"]) for s in row.seats}
    players = ", ".join(names.values())
    ranking = row.outcome.get("ranking") or []
    if len(ranking) == 1 and len(ranking[0]) > 1:
        result = tr("history.draw")
    else:
        winners = ", ".join(names.get(s, s) for s in (ranking[0] if ranking else []))
        result = tr("history.won", players=winners or "—")
    return tr(
        "history.line",
        date=f"<t:{_epoch(row.finished_at)}:d>",
        table=row.table_id,
        game=tr(f"{row.game}.name"),
        players=players,
        result=result,
        link=jump_link(row.guild_id, row.channel_id, row.message_id),
    )


def history_answer(
    rows: list[FinishedRow], who: str | None, tr: Translator, game: str | None = None
) -> Answer:
    """The last finished games, newest first; the game's colour when one game was asked for."""
    title = tr("history.title_of", player=who) if who else tr("history.title")
    return Answer(
        title=clip(title, 256),
        blocks=[Block("\n".join(history_line(r, tr) for r in rows) or tr("history.empty"))],
        accent=game_colour(game) if game else discord.Colour.dark_teal(),
        footer=tr("v2answers.history.footer", table=f"#{rows[0].table_id}") if rows else None,
    )
