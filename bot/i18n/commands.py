"""Slash-command localisation through discord.py's translator, from the same catalogues."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import LOCALES, catalogue


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
        return catalogue(lang).get(key)


def cmd_str(default: str, key: str) -> app_commands.locale_str:
    return app_commands.locale_str(default, key=key)
