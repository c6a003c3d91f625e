"""How a click finds its handler.

Clicks no component handles: a custom_id that no longer parses (a message from an older
version of the bot, a forged id). discord.py drops them silently, so the user would be left
with "This interaction failed"; instead they are answered ephemerally ("this button is no
longer active") and each such custom_id is logged once.

Clicks a dynamic item handles (``route_by_component``): discord.py finds the item a click is
for by rebuilding the whole clicked message as a ``View`` or ``LayoutView``
(``ViewStore.schedule_dynamic_item_call``: every container, text, gallery, row and button of
it, linked in reference cycles, with a future) only to pick the clicked component out of it,
once per click (issue 29: the cyclic garbage left at 250 busy tables was mostly those). Here
the one component clicked is found in the message discord.py already parsed and made an item
alone; the dynamic item is then built and called as discord.py does it (``from_custom_id``,
``interaction_check``, ``callback``; an exception logged, not raised)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import discord
from discord.ui.view import _component_to_item

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


def route_by_component(client: discord.Client) -> None:
    """Dispatch ``client``'s dynamic items from the clicked component alone (see above)."""
    store: Any = client._connection._view_store
    store.schedule_dynamic_item_call = _dispatch  # the instance's, over ViewStore's method


async def _dispatch(
    component_type: int,
    factory: type[discord.ui.DynamicItem[Any]],
    interaction: discord.Interaction,
    custom_id: str,
    match: Any,
) -> None:
    message = interaction.message
    if message is None:
        return
    component = _clicked(message.components, component_type, custom_id)
    if component is None:
        return
    try:
        item = await factory.from_custom_id(interaction, _component_to_item(component), match)
    except Exception:
        log.exception("Ignoring exception in dynamic item creation for %r", factory)
        return
    item._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]
    try:
        allow = await item.interaction_check(interaction)
    except Exception:
        allow = False
    if not allow:
        return
    try:
        await item.callback(interaction)
    except Exception:
        log.exception("Ignoring exception in dynamic item callback for %r", item)


def _clicked(
    components: Iterable[Any], component_type: int, custom_id: str
) -> discord.Component | None:
    """The component of that type and custom_id, at any depth (rows, containers, sections)."""
    for component in components:
        if (
            component.type.value == component_type
            and getattr(component, "custom_id", None) == custom_id
        ):
            return component
        inner = [*getattr(component, "children", ()), getattr(component, "accessory", None)]
        found = _clicked([c for c in inner if c is not None], component_type, custom_id)
        if found is not None:
            return found
    return None
