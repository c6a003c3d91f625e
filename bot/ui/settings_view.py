"""How server settings read: the /settings summary and the lobby's "server defaults" line."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Translator
from bot.service.guild_settings import GuildSettings
from bot.ui.answer_layout import Answer, Block

TABLE_OPTIONS = ("turn_seconds", "cpu_delay_seconds")


def option_label(game_key: str, name: str, tr: Translator) -> str:
    return (
        tr(f"settings.option.{name}") if name in TABLE_OPTIONS else tr(f"{game_key}.option.{name}")
    )


def option_value(game_key: str, name: str, value: Any, tr: Translator) -> str:
    if isinstance(value, bool):
        return tr("common.yes") if value else tr("common.no")
    if isinstance(value, str):
        key = f"{game_key}.option.{name}.{value}"
        text = tr(key)
        return value if text == key else text
    return str(value)


def server_defaults_line(game_key: str, names: list[str], tr: Translator) -> str:
    return ", ".join(option_label(game_key, n, tr) for n in names)


def settings_answer(
    settings: GuildSettings, games: list[str], tr: Translator, note: str | None = None
) -> Answer:
    """The server's settings: ``note`` (saved, or read only) first, the general lines, then
    each game's default options under the game's name."""
    unset = tr("settings.unset")
    lines = [
        tr(
            "settings.line.language",
            value=tr(f"settings.language.{settings.locale}") if settings.locale else unset,
        ),
        tr("settings.line.turn_seconds", value=settings.turn_seconds or unset),
        tr(
            "settings.line.cpu_delay",
            value=unset if settings.cpu_delay_seconds is None else settings.cpu_delay_seconds,
        ),
        tr(
            "settings.line.channels",
            value=", ".join(f"<#{c}>" for c in settings.channels) or tr("settings.any_channel"),
        ),
        tr(
            "settings.line.global_board",
            value=tr("common.yes") if settings.global_board else tr("common.no"),
        ),
        tr(
            "settings.line.threads", value=tr("common.yes") if settings.threads else tr("common.no")
        ),
    ]
    blocks = [Block(note)] if note else []
    blocks.append(Block("\n".join(lines)))
    for key in games:
        options = settings.game_options.get(key)
        if options:
            blocks.append(
                Block(
                    "\n".join(
                        f"• {option_label(key, k, tr)}: **{option_value(key, k, v, tr)}**"
                        for k, v in options.items()
                    ),
                    heading=tr(f"{key}.name"),
                )
            )
    return Answer(title=tr("settings.title"), blocks=blocks, accent=discord.Colour.teal())
