"""Slash-command localisation through discord.py's translator, from the same catalogues."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DEFAULT_LOCALE, LOCALES, catalogue, command_names, tr


class CatalogueTranslator(app_commands.Translator):
    """Looks up ``locale_str(..., key=...)``; parameter names use ``cmd.param.<name>``."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context
    ) -> str | None:
        lang = locale.value.split("-")[0]
        if lang not in LOCALES:
            return None
        key = string.extras.get("key")
        if key is None and context.location is Where.parameter_name:
            key = f"cmd.param.{context.data.name}"
        if key is None:
            return None
        text = catalogue(lang).get(key)
        # a description naming a command ("[/history]") names it as this locale's clients do
        return None if text is None else command_names(text, lang)


def cmd_str(default: str, key: str) -> app_commands.locale_str:
    return app_commands.locale_str(default, key=key)


def slash_command(
    name: str, callback: Callable[..., Any], *, key: str | None = None, prefix: str = "cmd"
) -> app_commands.Command[Any, ..., Any]:
    """A slash command named and described from the catalogues: ``<prefix>.<key>.name`` and
    ``<prefix>.<key>.description`` (``key``: ``name`` unless told), the default locale's
    description as Discord's default text."""
    where = f"{prefix}.{key or name}"
    return app_commands.Command(
        name=cmd_str(name, f"{where}.name"),
        description=cmd_str(tr(DEFAULT_LOCALE, f"{where}.description"), f"{where}.description"),
        callback=callback,
    )
