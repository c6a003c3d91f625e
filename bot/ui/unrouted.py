"""Clicks no component handles: a custom_id that no longer parses (a message from an older
version of the bot, a forged id). discord.py drops them silently, so the user would be left
with "This interaction failed"; instead they are answered ephemerally ("this button is no
longer active") and each such custom_id is logged once. (Clicks a dynamic item handles find
it through ``bot.ui.items.route_by_component``.)"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import tr
from bot.ui.feedback import reply, user_locale

log = logging.getLogger(__name__)
LOGGED_AT_MOST = 1000  # distinct custom_ids remembered as logged


class UnroutedClicks:
    def __init__(self) -> None:
        self._logged: set[str] = set()

    @staticmethod
    def routed(client: discord.Client, interaction: discord.Interaction) -> bool:
        """Whether a dynamic item or a live view of the bot handles this component click."""
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        component_type = int(data.get("component_type", 0))
        store = client._connection._view_store  # discord.py keeps the routes here
        if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
            return True
        key = (component_type, custom_id)
        message_id = interaction.message.id if interaction.message is not None else None
        views = store._views
        return key in views.get(message_id, {}) or key in views.get(None, {})

    async def answer_if_unrouted(
        self, client: discord.Client, interaction: discord.Interaction
    ) -> bool:
        """Answer a component click nothing handles; True if it was one."""
        if interaction.type is not discord.InteractionType.component:
            return False
        if self.routed(client, interaction):
            return False
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))[:100]
        if custom_id not in self._logged:
            if len(self._logged) < LOGGED_AT_MOST:
                self._logged.add(custom_id)
            log.info("a click on an inactive component %r was answered as such", custom_id)
        await reply(interaction, tr(user_locale(interaction), "error.inactive_button"))
        return True
