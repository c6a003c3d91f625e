"""Moves: action buttons and selects, "Ver mi mano" and its pages, stale clicks.

Refusals raised here (``TableError``, ``IllegalAction``) are answered by the items' guard
(``bot.ui.feedback.guard``); only a stale click is handled here, by showing the fresh view.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

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
from bot.ui.messages import Payload, answer_with, finish, private_payload
from bot.ui.presenter import ModalField
from games.core import GameState

ANSWER_WITHIN = 0.03  # seconds: answer in place (UPDATE_MESSAGE) only when that is quick; else
# acknowledge at once and edit after (Discord gives up on an unanswered click after 3 s)
T = TypeVar("T")
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
        # A click on a private view is answered by updating that very message with the view
        # after the move (one call); anything else is acknowledged first. Discord wants an
        # answer within 3 s: a move that takes longer is acknowledged meanwhile.
        deadline = asyncio.get_running_loop().time() + ANSWER_WITHIN
        in_place = _is_private_view(interaction)
        seat = str(interaction.user.id)
        listener = self.bot.listener
        table = self.bot.tables.find(table_id)
        if not in_place:
            if table is None or not listener.is_public_message(table, interaction.message):
                await interaction.response.defer()
                await self._move(interaction, table_id, seat, version, action, deadline, False)
                return
            listener.hold_public(table_id)  # this answer shows the public message's update
            try:
                await self._move(interaction, table_id, seat, version, action, deadline, False)
                if not await listener.answer_public_in_place(interaction, table, deadline=deadline):
                    if not interaction.response.is_done():
                        await interaction.response.defer()
            finally:
                listener.release_public(table_id)
            return
        listener.hold_private(table_id, seat)  # this answer shows the mover's view
        try:
            await self._move(interaction, table_id, seat, version, action, deadline, True)
        finally:
            listener.release_private(table_id, seat)

    async def _move(
        self,
        interaction: discord.Interaction,
        table_id: int,
        seat: str,
        version: int,
        action: str,
        deadline: float,
        in_place: bool,
    ) -> None:
        table = self.bot.tables.find(table_id)
        try:
            await _within(
                interaction, deadline, self.bot.tables.act(table_id, seat, version, action)
            )
        except TableError as exc:
            if exc.code != "stale" or table is None or not table.seat(seat):
                raise
            await self._show_private(interaction, table_id, 0, notice="error.stale")
            return
        finally:
            await self.bot.remember(interaction)
        if in_place:
            await self._update_in_place(interaction, table_id, seat, deadline)

    async def on_empty_select(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

    async def on_show_hand(
        self, interaction: discord.Interaction, table_id: int, page: int
    ) -> None:
        deadline = asyncio.get_running_loop().time() + ANSWER_WITHIN
        seat = str(interaction.user.id)
        if _is_private_view(interaction):
            await self._update_in_place(interaction, table_id, seat, deadline, page)
            await self.bot.remember(interaction)
            return
        payload = self._private(interaction, table_id, page)
        table = self.bot.tables.get(table_id)
        ephemerals = self.bot.listener.ephemerals
        # The player's previous answer, edited while its token lives: no new message per turn.
        if await ephemerals.show_again(interaction, table_id, seat, payload, table.version):
            await self.bot.remember(interaction)
            return
        # One call: the view itself as the answer, unless its image is not ready in time.
        await _within(interaction, deadline, finish(payload), ephemeral=True)
        image = payload.image.digest if payload.image and payload.files else None
        await answer_with(interaction, payload, fresh=True)
        ephemerals.remember(
            table_id,
            seat,
            interaction,
            translator(user_locale(interaction)),
            version=table.version,
            image=image,
            pressed=True,
        )
        await self.bot.remember(interaction)

    async def on_draft(
        self,
        interaction: discord.Interaction,
        table_id: int,
        version: int,
        op: str,
        values: list[str],
    ) -> None:
        deadline = asyncio.get_running_loop().time() + ANSWER_WITHIN
        seat = str(interaction.user.id)
        self.bot.listener.hold_private(table_id, seat)  # this answer shows the view
        try:
            await self._draft_step(interaction, table_id, seat, version, op, values, deadline)
        finally:
            self.bot.listener.release_private(table_id, seat)

    async def _draft_step(
        self,
        interaction: discord.Interaction,
        table_id: int,
        seat: str,
        version: int,
        op: str,
        values: list[str],
        deadline: float,
    ) -> None:
        try:
            table, state = self._seated(table_id, seat, version)
            presenter = self.bot.presenter(table.game.key)
            legal = table.game.legal_actions(state, seat)
            # A step may search (e.g. a hint from a solver): off the event loop.
            draft, action = await _within(
                interaction,
                deadline,
                asyncio.to_thread(
                    presenter.draft_step,
                    table.game.view(state, seat),
                    legal,
                    self.draft(table_id, seat, version),
                    op,
                    values,
                ),
            )
            # Kept for this version: a refused move leaves the draft as it was when completed.
            self._drafts[(table_id, seat)] = (version, draft)
            if action is not None:
                await _within(
                    interaction, deadline, self.bot.tables.act(table_id, seat, version, action)
                )
        except TableError as exc:
            if exc.code != "stale":
                raise
            await self._show_private(interaction, table_id, 0, notice="error.stale")
            return
        await self._update_in_place(interaction, table_id, seat, deadline)

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
        # A click on an ephemeral view is answered on it (no new private message); a DM's
        # with a new ephemeral message.
        on_ephemeral = _is_ephemeral(interaction)
        await answer_with(interaction, payload, fresh=not on_ephemeral)
        if on_ephemeral:
            self._touch(interaction, table_id)

    async def _update_in_place(
        self,
        interaction: discord.Interaction,
        table_id: int,
        seat: str,
        deadline: float,
        page: int = 0,
    ) -> None:
        """Show ``seat``'s current view on the message clicked (its DM view or an ephemeral
        "Ver mi mano"): as the click's answer when it has none yet, else by an edit."""
        try:
            table, _ = self._seated(table_id, seat)
        except TableError:
            if not interaction.response.is_done():
                await interaction.response.defer()
            return  # the game ended or the table closed: the public message says so
        tr = translator(user_locale(interaction))
        draft = self.draft(table_id, seat, table.version)
        if await self.bot.listener.answer_in_place(
            interaction, table, seat, tr, page=page, draft=draft, deadline=deadline
        ):
            self._touch(interaction, table_id)
            return
        if not interaction.response.is_done():
            await interaction.response.defer()
        if _is_ephemeral(interaction) or page or draft:
            await answer_with(interaction, self._private(interaction, table_id, page), fresh=False)
            self._touch(interaction, table_id)
        else:
            self.bot.listener.refresh_private(table, seat)

    def _touch(self, interaction: discord.Interaction, table_id: int) -> None:
        """A click answered on the player's ephemeral view: its (fresher) token edits that
        view from now on ("Ver mi mano", the end of the game)."""
        if _is_ephemeral(interaction) and interaction.response.is_done():
            table = self.bot.tables.find(table_id)
            self.bot.listener.ephemerals.remember(
                table_id,
                str(interaction.user.id),
                interaction,
                translator(user_locale(interaction)),
                version=table.version if table is not None else None,  # what it was shown
            )


def _is_private_view(interaction: discord.Interaction) -> bool:
    """A click on a player's own view: an ephemeral "Ver mi mano" or their DM."""
    return interaction.message is not None and (
        _is_ephemeral(interaction) or interaction.guild_id is None
    )


async def _within(
    interaction: discord.Interaction,
    deadline: float,
    work: Awaitable[T],
    *,
    ephemeral: bool = False,
) -> T:
    """``work``'s result; if it is not ready by ``deadline`` (loop time), the click is
    acknowledged meanwhile (``ephemeral``: as "thinking" of an ephemeral answer to come), so
    Discord does not give up on it."""
    task = asyncio.ensure_future(work)
    remaining = deadline - asyncio.get_running_loop().time()
    done, _ = await asyncio.wait({task}, timeout=max(0.0, remaining))
    if not done and not interaction.response.is_done():
        if ephemeral:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
    return await task


async def setup(bot: CogHost) -> None:
    await bot.add_cog(PlayCog(bot))
