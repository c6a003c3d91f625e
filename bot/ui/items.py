"""Dynamic items: components that survive restarts (discord.py's ``DynamicItem``).

Each item only parses its custom_id and hands the click to the cog that owns the feature;
validation happens in the table service and the engine.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from bot.ui import ids
from bot.ui.feedback import answer_error

if TYPE_CHECKING:
    from bot.cogs.lobby import LobbyCog
    from bot.cogs.play import PlayCog


async def _guarded(interaction: discord.Interaction, work: Awaitable[Any]) -> None:
    """Run a click handler; anything unexpected is logged and answered, never swallowed."""
    try:
        await work
    except Exception as exc:  # noqa: BLE001 - the one place component errors are answered
        await answer_error(interaction, exc)


def _play(interaction: discord.Interaction) -> PlayCog:
    return interaction.client.get_cog("PlayCog")  # type: ignore[union-attr,return-value]


def _lobby(interaction: discord.Interaction) -> LobbyCog:
    return interaction.client.get_cog("LobbyCog")  # type: ignore[union-attr,return-value]


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.ACTION_BUTTON):
    def __init__(
        self,
        table_id: int,
        version: int,
        action: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | discord.PartialEmoji | None = None,
        row: int | None = None,
    ) -> None:
        self.table_id = table_id
        self.version = version
        self.action = action
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                row=row,
                custom_id=ids.action_button(table_id, version, action),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ActionButton:
        return cls(
            int(match["table"]),
            int(match["version"]),
            match["action"],
            label=item.label,
            style=item.style,
            emoji=item.emoji,
        )

    async def callback(self, interaction: discord.Interaction) -> Any:
        await _guarded(
            interaction,
            _play(interaction).on_action(interaction, self.table_id, self.version, self.action),
        )


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.ACTION_SELECT):
    def __init__(
        self,
        table_id: int,
        version: int,
        group: str,
        page: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        self.table_id = table_id
        self.version = version
        super().__init__(
            discord.ui.Select(
                custom_id=ids.action_select(table_id, version, group, page),
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                row=row,
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> ActionSelect:
        return cls(
            int(match["table"]),
            int(match["version"]),
            match["group"],
            int(match["page"]),
            options=list(item.options),
        )

    async def callback(self, interaction: discord.Interaction) -> Any:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        if not values:
            return await _guarded(interaction, _play(interaction).on_empty_select(interaction))
        await _guarded(
            interaction,
            _play(interaction).on_action(interaction, self.table_id, self.version, values[0]),
        )


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.HAND_BUTTON):
    """ "Ver mi mano" on the public message, and page arrows in a private view."""

    def __init__(
        self,
        table_id: int,
        page: int = 0,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        self.table_id = table_id
        self.page = page
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                row=row,
                disabled=disabled,
                custom_id=ids.hand_button(table_id, page),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["table"]), int(match["page"]), label=item.label)

    async def callback(self, interaction: discord.Interaction) -> Any:
        await _guarded(
            interaction, _play(interaction).on_show_hand(interaction, self.table_id, self.page)
        )


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.LOBBY_BUTTON):
    def __init__(
        self,
        table_id: int,
        op: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        self.table_id = table_id
        self.op = op
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                custom_id=ids.lobby_button(table_id, op),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["table"]), match["op"], label=item.label)

    async def callback(self, interaction: discord.Interaction) -> Any:
        await _guarded(
            interaction, _lobby(interaction).on_lobby_button(interaction, self.table_id, self.op)
        )


class LobbyRemoveSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.LOBBY_REMOVE):
    def __init__(
        self,
        table_id: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Select(
                custom_id=ids.lobby_remove(table_id),
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                row=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> LobbyRemoveSelect:
        return cls(int(match["table"]), options=list(item.options))

    async def callback(self, interaction: discord.Interaction) -> Any:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        await _guarded(
            interaction,
            _lobby(interaction).on_remove(interaction, self.table_id, values[0] if values else ""),
        )


class DraftButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.DRAFT_BUTTON):
    """One step of a move built over several clicks (pick a pozo, add a card, "Bajar")."""

    def __init__(
        self,
        table_id: int,
        version: int,
        op: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        self.table_id = table_id
        self.version = version
        self.op = op
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                row=row,
                disabled=disabled,
                custom_id=ids.draft_button(table_id, version, op),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> DraftButton:
        return cls(int(match["table"]), int(match["version"]), match["op"], label=item.label)

    async def callback(self, interaction: discord.Interaction) -> Any:
        await _guarded(
            interaction,
            _play(interaction).on_draft(interaction, self.table_id, self.version, self.op, []),
        )


class DraftSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.DRAFT_SELECT):
    def __init__(
        self,
        table_id: int,
        version: int,
        op: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        self.table_id = table_id
        self.version = version
        self.op = op
        options = options or [discord.SelectOption(label="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=ids.draft_select(table_id, version, op),
                options=options,
                placeholder=placeholder,
                row=row,
                min_values=min_values,
                max_values=min(max_values, len(options)),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> DraftSelect:
        return cls(
            int(match["table"]),
            int(match["version"]),
            match["op"],
            options=list(item.options),
            min_values=item.min_values,
            max_values=item.max_values,
        )

    async def callback(self, interaction: discord.Interaction) -> Any:
        values = list((interaction.data or {}).get("values") or [])  # type: ignore[union-attr]
        await _guarded(
            interaction,
            _play(interaction).on_draft(interaction, self.table_id, self.version, self.op, values),
        )


class ModalButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.MODAL_BUTTON):
    """Opens a modal where a move is typed (e.g. a Maquiavelo arrangement)."""

    def __init__(
        self,
        table_id: int,
        version: int,
        kind: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        self.table_id = table_id
        self.version = version
        self.kind = kind
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                row=row,
                custom_id=ids.modal_button(table_id, version, kind),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ModalButton:
        return cls(int(match["table"]), int(match["version"]), match["kind"], label=item.label)

    async def callback(self, interaction: discord.Interaction) -> Any:
        await _guarded(
            interaction, _play(interaction).on_open_modal(interaction, self.table_id, self.kind)
        )


ALL_ITEMS = (
    ActionButton,
    ActionSelect,
    HandButton,
    LobbyButton,
    LobbyRemoveSelect,
    DraftButton,
    DraftSelect,
    ModalButton,
)
