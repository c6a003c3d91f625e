"""Triple Triad's lobby items (dynamic, so they survive restarts), handled by ``TriadCog``.

custom_ids:
- ``tt:{table}:{op}`` lobby and picker buttons: ``accept``, ``decline``, ``cards`` (open my
  picker), ``cancel``, ``pg{n}`` (picker page), ``clr`` (clear), ``ok`` (confirm the five);
- ``tts:{table}:{op}`` picker selects: ``add{page}`` (add one copy), ``rm{page}`` (remove one copy);
- ``tk:{user}:{page}`` pages of ``/cards`` (no table: answered through ``guard`` directly).
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import discord

from bot.ui import ids
from bot.ui.feedback import guard
from bot.ui.items import (
    FromCustomId,
    TableButton,
    TableHandler,
    TableSelect,
    handler_cog,
    selected_values,
)
from bot.ui.layout import BUTTON_LABEL
from bot.ui.text import clip

GAME = "triad"
HANDLER = "TriadCog"
PLACEHOLDER = 150  # Discord's limit on a select's placeholder

LOBBY_BUTTON = ids.CustomIdFormat(
    "tt", (ids.TABLE, ids.Part("op", "accept|decline|cards|cancel|clr|ok|pg[0-9]{1,3}"))
)
PICKER_MENU = ids.CustomIdFormat("tts", (ids.TABLE, ids.Part("op", "(?:rm|add)[0-9]{1,3}")))
CARDS_BUTTON = ids.CustomIdFormat("tk", (ids.Part("user_id", "[0-9]{1,20}"), ids.PAGE))


class TriadHandler(TableHandler, Protocol):
    """What the items need from ``TriadCog``."""

    async def on_button(self, interaction: discord.Interaction, table_id: int, op: str) -> None: ...

    async def on_select(
        self, interaction: discord.Interaction, table_id: int, op: str, values: list[str]
    ) -> None: ...

    async def on_cards_page(
        self, interaction: discord.Interaction, user_id: str, page: int
    ) -> None: ...


def triad_handler(interaction: discord.Interaction) -> TriadHandler:
    """The Triple Triad cog, asked of its own member as ``handler_cog`` asks (an ``isinstance``
    on the runtime-checkable Protocol reads every member: ~16 µs of each click)."""
    cog = handler_cog(interaction, HANDLER)
    if not callable(getattr(cog, "on_cards_page", None)):
        raise LookupError(f"{HANDLER} does not handle Triple Triad's items")
    return cast(TriadHandler, cog)


class TriadButton(TableButton, template=LOBBY_BUTTON):
    handled_by = HANDLER
    op: str

    def component(self, custom_id: str, looks: dict[str, Any]) -> discord.ui.Button[Any]:
        label = looks["label"]
        return super().component(custom_id, {**looks, "label": label and clip(label, BUTTON_LABEL)})

    async def run(self, cog: TriadHandler, interaction: discord.Interaction) -> None:
        await cog.on_button(interaction, self.table_id, self.op)


class TriadSelect(TableSelect, template=PICKER_MENU):
    handled_by = HANDLER
    may_think = False  # a pick: the picker updated, or a deferred update and its edit
    op: str

    def component(self, custom_id: str, looks: dict[str, Any]) -> discord.ui.Select[Any]:
        placeholder = looks["placeholder"]
        return super().component(
            custom_id, {**looks, "placeholder": placeholder and clip(placeholder, PLACEHOLDER)}
        )

    async def run(self, cog: TriadHandler, interaction: discord.Interaction) -> None:
        await cog.on_select(interaction, self.table_id, self.op, selected_values(interaction))


class CardsPageButton(
    FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=CARDS_BUTTON.pattern
):
    """A page of someone's ``/cards``: it belongs to no table, so it is no ``TableItem``."""

    id_format = CARDS_BUTTON

    def __init__(
        self,
        user_id: str,
        page: int,
        *,
        label: str | None = None,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        self.user_id = user_id
        self.page = page
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                disabled=disabled,
                style=discord.ButtonStyle.secondary,
                custom_id=CARDS_BUTTON.format({"user_id": user_id, "page": page}),
            )
        )

    @classmethod
    def looks_of(cls, item: discord.ui.Item[Any] | discord.Component) -> dict[str, Any]:
        return {"label": item.label if isinstance(item, discord.ui.Button) else None}

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = triad_handler(interaction)
        await guard(interaction, cog.on_cards_page(interaction, self.user_id, self.page), GAME)


ITEMS = (TriadButton, TriadSelect, CardsPageButton)
