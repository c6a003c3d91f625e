"""Moves: action buttons and selects, "Ver mi mano" and its pages, stale clicks.

Refusals raised here (``TableError``, ``IllegalAction``) are answered by the items' guard
(``bot.ui.feedback.guard``); only a stale click is handled here, by showing the fresh view.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord.ext import commands

from bot.errors import TableError
from bot.i18n import translator
from bot.ports import CogHost
from bot.service import Table
from bot.ui.feedback import guard, user_locale
from bot.ui.items import (
    ActionButton,
    ActionSelect,
    DraftButton,
    DraftSelect,
    HandButton,
    ModalButton,
)
from bot.ui.messages import Payload, answer_with, private_payload
from bot.ui.presenter import ModalField
from games.core import GameState

ITEMS = (ActionButton, ActionSelect, HandButton, DraftButton, DraftSelect, ModalButton)


def _is_ephemeral(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


class PlayCog(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        # (table, seat) -> (version, draft): a move being built over several clicks. UI state
        # only: a new table version or a restart simply starts the draft over.
        self._drafts: dict[tuple[int, str], tuple[int, dict[str, Any]]] = {}

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*ITEMS)

    def game_key(self, table_id: int) -> str | None:
        table = self.bot.tables.find(table_id)
        return table.game.key if table else None

    def draft(self, table_id: int, seat: str, version: int) -> dict[str, Any]:
        stored = self._drafts.get((table_id, seat))
        return dict(stored[1]) if stored and stored[0] == version else {}

    def _seated(
        self, table_id: int, seat: str, version: int | None = None
    ) -> tuple[Table, GameState]:
        """The table and its game state, if ``seat`` plays there (and, given a ``version``,
        clicked what is current): the one seat/turn check of every private click."""
        table = self.bot.tables.get(table_id)
        info = table.seat(seat)
        if info is None:
            raise TableError("not_seated")
        if info.is_cpu:  # they left or timed out: "Volver" first
            raise TableError("seat_played_by_cpu")
        if table.state is None:
            raise TableError("not_playing")
        if version is not None and version != table.version:
            raise TableError("stale", version=version, current=table.version)
        return table, table.state

    async def on_action(
        self, interaction: discord.Interaction, table_id: int, version: int, action: str
    ) -> None:
        # Answer within 3 s first; the move, its storage and the redraw come after.
        await interaction.response.defer()
        await self.bot.remember(interaction)
        seat = str(interaction.user.id)
        table = self.bot.tables.find(table_id)
        try:
            await self.bot.tables.act(table_id, seat, version, action)
        except TableError as exc:
            if exc.code != "stale" or table is None or not table.seat(seat):
                raise
            await self._show_private(interaction, table_id, 0, notice="error.stale")
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
            table, state = self._seated(table_id, seat, version)
            presenter = self.bot.presenter(table.game.key)
            legal = table.game.legal_actions(state, seat)
            # A step may search (e.g. a hint from a solver): off the event loop.
            draft, action = await asyncio.to_thread(
                presenter.draft_step,
                table.game.view(state, seat),
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
            if exc.code != "stale":
                raise
            await self._show_private(interaction, table_id, 0, notice="error.stale")
            return
        await self._refresh_ephemeral(interaction, table_id, seat)

    async def on_open_modal(
        self, interaction: discord.Interaction, table_id: int, kind: str
    ) -> None:
        seat = str(interaction.user.id)
        table, state = self._seated(table_id, seat)
        presenter = self.bot.presenter(table.game.key)
        spec = presenter.modal_fields(
            kind, table.game.view(state, seat), translator(user_locale(interaction))
        )
        if spec is None:
            raise TableError("no_table")
        title, fields = spec
        await interaction.response.send_modal(
            self._move_modal(title, fields, table_id, table.version, kind, table.game.key)
        )

    def _move_modal(
        self,
        title: str,
        fields: list[ModalField],
        table_id: int,
        version: int,
        kind: str,
        game_key: str,
    ) -> discord.ui.Modal:
        cog = self
        inputs: list[discord.ui.TextInput[discord.ui.Modal]] = []

        class MoveModal(discord.ui.Modal, title=title[:45]):
            async def on_submit(self, interaction: discord.Interaction) -> None:
                values = {f.name: str(i.value) for f, i in zip(fields, inputs, strict=True)}
                await guard(
                    interaction,
                    cog.on_modal_submit(interaction, table_id, version, kind, values),
                    game_key,
                )

        modal = MoveModal(timeout=900)
        for f in fields:
            text_input: discord.ui.TextInput[discord.ui.Modal] = discord.ui.TextInput(
                label=f.label[:45],
                placeholder=(f.placeholder or "")[:100] or None,
                default=f.default,
                max_length=min(f.max_length, 4000),
                required=True,
                style=discord.TextStyle.paragraph if f.long else discord.TextStyle.short,
            )
            inputs.append(text_input)
            modal.add_item(text_input)
        return modal

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
        table, state = self._seated(table_id, seat)
        presenter = self.bot.presenter(table.game.key)
        action = presenter.modal_action(kind, table.game.view(state, seat), values)
        await self.bot.tables.act(table_id, seat, version, action)
        await self._show_private(interaction, table_id, 0)

    def _private(self, interaction: discord.Interaction, table_id: int, page: int) -> Payload:
        seat = str(interaction.user.id)
        table, _ = self._seated(table_id, seat)
        return private_payload(
            table,
            self.bot.presenter(table.game.key),
            seat,
            translator(user_locale(interaction)),
            page,
            draft=self.draft(table_id, seat, table.version),
        )

    async def _show_private(
        self, interaction: discord.Interaction, table_id: int, page: int, notice: str | None = None
    ) -> None:
        payload = self._private(interaction, table_id, page)
        if notice:
            payload.content = translator(user_locale(interaction))(notice)
        await answer_with(interaction, payload, fresh=True)

    async def _refresh_ephemeral(
        self, interaction: discord.Interaction, table_id: int, seat: str, page: int = 0
    ) -> None:
        try:
            payload = self._private(interaction, table_id, page)
        except TableError:
            return  # the game ended or the table closed: the public message says so
        await answer_with(interaction, payload, fresh=False)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(PlayCog(bot))
