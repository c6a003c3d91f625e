"""Moves: action buttons and selects, "Ver mi mano" and its pages, stale clicks."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.errors import TableError
from bot.i18n import translator
from bot.ui.feedback import answer_error, user_locale
from bot.ui.items import (
    ActionButton,
    ActionSelect,
    DraftButton,
    DraftSelect,
    HandButton,
    ModalButton,
)
from bot.ui.messages import answer_with, private_payload
from games.core import IllegalAction

ITEMS = (ActionButton, ActionSelect, HandButton, DraftButton, DraftSelect, ModalButton)

if TYPE_CHECKING:
    from bot.client import MesaBot


def _is_ephemeral(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


class PlayCog(commands.Cog):
    def __init__(self, bot: MesaBot) -> None:
        self.bot = bot
        # (table, seat) -> (version, draft): a move being built over several clicks. UI state
        # only: a new table version or a restart simply starts the draft over.
        self._drafts: dict[tuple[int, str], tuple[int, dict[str, Any]]] = {}

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*ITEMS)

    def draft(self, table_id: int, seat: str, version: int) -> dict[str, Any]:
        stored = self._drafts.get((table_id, seat))
        return dict(stored[1]) if stored and stored[0] == version else {}

    async def on_action(
        self, interaction: discord.Interaction, table_id: int, version: int, action: str
    ) -> None:
        # Answer within 3 s first; the move, its storage and the redraw come after.
        await interaction.response.defer()
        await self.bot.remember(interaction)
        seat = str(interaction.user.id)
        table = self.bot.tables.find(table_id)
        game_key = table.game.key if table else None
        try:
            await self.bot.tables.act(table_id, seat, version, action)
        except TableError as exc:
            if exc.code == "stale" and table is not None and table.seat(seat):
                await self._show_private(interaction, table_id, 0, notice="error.stale")
                return
            await answer_error(interaction, exc, game_key)
            return
        except IllegalAction as exc:
            await answer_error(interaction, exc, game_key)
            return
        if _is_ephemeral(interaction):
            await self._refresh_ephemeral(interaction, table_id, seat)

    async def on_empty_select(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

    async def on_show_hand(
        self, interaction: discord.Interaction, table_id: int, page: int
    ) -> None:
        await self.bot.remember(interaction)
        if _is_ephemeral(interaction) or isinstance(interaction.channel, discord.DMChannel):
            await interaction.response.defer()
            await self._refresh_ephemeral(interaction, table_id, str(interaction.user.id), page)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._show_private(interaction, table_id, page)

    async def on_draft(
        self,
        interaction: discord.Interaction,
        table_id: int,
        version: int,
        op: str,
        values: list[str],
    ) -> None:
        await interaction.response.defer()
        seat = str(interaction.user.id)
        try:
            table = self.bot.tables.get(table_id)
            if table.seat(seat) is None:
                raise TableError("not_seated")
            if table.state is None:
                raise TableError("not_playing")
            if version != table.version:
                raise TableError("stale", version=version, current=table.version)
            presenter = self.bot.presenter(table.game.key)
            legal = table.game.legal_actions(table.state, seat)
            # A step may search (e.g. a hint from a solver): off the event loop.
            draft, action = await asyncio.to_thread(
                presenter.draft_step,
                table.game.view(table.state, seat),
                legal,
                self.draft(table_id, seat, version),
                op,
                values,
            )
            # Kept for this version: a refused move leaves the draft as it was when completed.
            self._drafts[(table_id, seat)] = (version, draft)
            if action is not None:
                await self.bot.tables.act(table_id, seat, version, action)
        except TableError as exc:
            if exc.code == "stale":
                await self._show_private(interaction, table_id, 0, notice="error.stale")
                return
            await answer_error(interaction, exc)
            return
        except IllegalAction as exc:
            await answer_error(interaction, exc, table.game.key)
            return
        await self._refresh_ephemeral(interaction, table_id, seat)

    async def on_open_modal(
        self, interaction: discord.Interaction, table_id: int, kind: str
    ) -> None:
        seat = str(interaction.user.id)
        tr = translator(user_locale(interaction))
        try:
            table = self.bot.tables.get(table_id)
            if table.seat(seat) is None or table.state is None:
                raise TableError("not_seated")
            presenter = self.bot.presenter(table.game.key)
            spec = presenter.modal_fields(kind, table.game.view(table.state, seat), tr)
            if spec is None:
                raise TableError("no_table")
        except TableError as exc:
            await answer_error(interaction, exc)
            return
        title, fields = spec
        version = table.version
        cog = self

        class MoveModal(discord.ui.Modal, title=title[:45]):
            async def on_submit(self, submit: discord.Interaction) -> None:
                values = {f.name: str(i.value) for f, i in zip(fields, inputs, strict=True)}
                await cog.on_modal_submit(submit, table_id, version, kind, values)

        modal = MoveModal(timeout=900)
        inputs = []
        for f in fields:
            text_input = discord.ui.TextInput(
                label=f.label[:45],
                placeholder=(f.placeholder or "")[:100] or None,
                default=f.default,
                max_length=min(f.max_length, 4000),
                required=True,
                style=discord.TextStyle.paragraph if f.long else discord.TextStyle.short,
            )
            inputs.append(text_input)
            modal.add_item(text_input)
        await interaction.response.send_modal(modal)

    async def on_modal_submit(
        self,
        interaction: discord.Interaction,
        table_id: int,
        version: int,
        kind: str,
        values: dict[str, str],
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        seat = str(interaction.user.id)
        game_key = None
        try:
            table = self.bot.tables.get(table_id)
            game_key = table.game.key
            if table.state is None or table.seat(seat) is None:
                raise TableError("not_seated")
            presenter = self.bot.presenter(game_key)
            action = presenter.modal_action(kind, table.game.view(table.state, seat), values)
            await self.bot.tables.act(table_id, seat, version, action)
        except (TableError, IllegalAction) as exc:
            await answer_error(interaction, exc, game_key)
            return
        await self._show_private(interaction, table_id, 0)

    async def _private(self, interaction: discord.Interaction, table_id: int, page: int):
        table = self.bot.tables.get(table_id)
        seat = str(interaction.user.id)
        if table.state is None:
            raise TableError("not_playing")
        if table.seat(seat) is None:
            raise TableError("not_seated")
        tr = translator(user_locale(interaction))
        return private_payload(
            table,
            self.bot.presenter(table.game.key),
            seat,
            tr,
            page,
            draft=self.draft(table_id, seat, table.version),
        )

    async def _show_private(
        self, interaction: discord.Interaction, table_id: int, page: int, notice: str | None = None
    ) -> None:
        try:
            payload = await self._private(interaction, table_id, page)
        except TableError as exc:
            await answer_error(interaction, exc)
            return
        if notice:
            payload.content = translator(user_locale(interaction))(notice)
        await answer_with(interaction, payload, fresh=True)

    async def _refresh_ephemeral(
        self, interaction: discord.Interaction, table_id: int, seat: str, page: int = 0
    ) -> None:
        try:
            payload = await self._private(interaction, table_id, page)
        except TableError:
            return  # the game ended or the table closed: the public message says so
        await answer_with(interaction, payload, fresh=False)


async def setup(bot: MesaBot) -> None:
    await bot.add_cog(PlayCog(bot))
