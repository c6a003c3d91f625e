"""Moves: action buttons and selects, "Ver mi mano" and its pages, stale clicks.

Refusals raised here (``TableError``, ``IllegalAction``) are answered by the item clicked
(``bot.ui.items.TableItem.callback``, with ``bot.ui.feedback.answer_error``; a typed move's
modal by ``bot.ui.feedback.guard``); only a stale click is handled here, by showing the fresh
view.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Sequence
from typing import Any, TypeVar, cast

import discord
from discord.ext import commands

from bot import metrics
from bot.errors import TableError
from bot.i18n import translator
from bot.ports import CogHost
from bot.service import Table
from bot.ui.feedback import guard, user_locale
from bot.ui.http_gate import handling_started
from bot.ui.items import (
    ActionButton,
    ActionSelect,
    DraftButton,
    DraftSelect,
    HandButton,
    ModalButton,
    acknowledged_meanwhile,
)
from bot.ui.messages import Payload, answer_with, finish, private_payload
from bot.ui.pending_commands import HAND, PendingCommands, intent_of
from bot.ui.presenter import ModalField
from bot.ui.view_kit import ready_by, timed_rest
from games.core import GameState
from storage import StorageUnavailable
from storage.intents import Ack, written_within

log = logging.getLogger(__name__)

# Seconds a click waits to be answered in place (UPDATE_MESSAGE: one request); past them it is
# acknowledged (DEFERRED_UPDATE) and its view edited after: two requests. Such an
# acknowledgement waits for the click's intent, written in the same commit as its move, so a
# slow commit delays it about as much as the answer (deferred acks went out 44-82 ms after the
# click at 120-160 loaded tables with 30 ms here); 50 ms leaves ack p99 <= 100 ms room for
# the ~50 ms a click takes to reach the handler at 1,000 tables (Discord gives up after 3 s).
ANSWER_WITHIN = 0.05
RECORD_WITHIN = 1.0  # seconds a click's acknowledgement waits for its intent to be written
T = TypeVar("T")
ITEMS = (ActionButton, ActionSelect, HandButton, DraftButton, DraftSelect, ModalButton)


class Click:
    """A click on a game action and its intent (``storage/intents.py``): recorded in the
    database before the click is acknowledged ahead of its move, so a process killed in between
    leaves a trace the restarted bot resolves; the move's own transaction marks it done."""

    def __init__(
        self,
        bot: CogHost,
        interaction: discord.Interaction,
        table_id: int,
        version: int | None,
        action: str,
        ack: Ack = "update",
        table: Table | None = None,
    ) -> None:
        """``table``: the live table, when the caller has it (else it is looked up)."""
        self.bot = bot
        self.intent = intent_of(
            interaction, table_id, version, action, ack, bot.tables.intents.origin
        )
        self.recorded = False
        self._write: asyncio.Future[None] | None = None  # the intent's write, once started
        # The table's version when the click arrived: equal to the version the player saw,
        # a refusal as stale means another seat's move took that very version meanwhile.
        self.table = table if table is not None else bot.tables.registry.find(table_id)
        self.version_at_click = self.table.version if self.table is not None else None

    def raced(self) -> bool:
        """Whether this click lost a same-version race: it was current when it arrived, and
        another seat's move made the next version."""
        seen = self.intent.version
        if seen is None or self.version_at_click != seen:
            return False
        table = self.table
        return (
            table is not None
            and table.version == seen + 1
            and table.last_actor not in (None, self.intent.seat)
        )

    def start_record(self) -> asyncio.Future[None]:
        """Start writing the intent now, beside the move (whose own unit marks it done): an
        acknowledgement that has to wait for it then finds it written, or queued ahead of the
        move's write, instead of queued behind it (issue 25: the ack's wait). Returns the
        write (the one begun already, if any)."""
        if self._write is None:
            self._write = self.bot.tables.intents.start(self.intent)
            self._write.add_done_callback(_log_failure)
        return self._write

    async def record(self) -> None:
        """Write the intent (or finish the write ``start_record`` began); waited for at most
        ``RECORD_WITHIN`` (Discord's 3 s run on: a write still queued then goes on, and the
        click is acknowledged anyway)."""
        if self.recorded:
            return
        self.recorded = True
        start = time.perf_counter()
        await written_within(self.start_record(), RECORD_WITHIN)
        metrics.observe("intent_record", (time.perf_counter() - start) * 1000)

    async def defer(self, interaction: discord.Interaction, *, thinking: bool = False) -> None:
        """Record, then acknowledge (a deferred update, or "thinking" of an ephemeral answer)."""
        if interaction.response.is_done():
            return
        await self.record()
        if interaction.response.is_done():
            return
        if thinking:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()

    async def settle(self) -> None:
        """The click was refused (and is answered so): nothing to resolve after a restart."""
        if not self.recorded and self._write is not None:
            # Written beside a move that was answered in place: settled behind the answer
            # (queued after the intent's write; a crash before it answers the click once more).
            settling = asyncio.ensure_future(
                self.bot.tables.intents.settle(self.intent.interaction_id)
            )
            settling.add_done_callback(_log_failure)
            return
        if self.recorded:
            try:
                await self.bot.tables.intents.settle(self.intent.interaction_id)
            except StorageUnavailable:  # at worst a restart answers it once more
                log.warning(
                    "could not settle intent %s: database unavailable", self.intent.interaction_id
                )
            except Exception:
                log.exception("could not settle intent %s", self.intent.interaction_id)


def _log_failure(write: asyncio.Future[None]) -> None:
    if write.cancelled() or write.exception() is None:
        return
    if isinstance(write.exception(), StorageUnavailable):  # the click is answered "not saved"
        log.warning("could not write a click's intent: the database is unavailable")
    else:
        log.error("could not write a click's intent", exc_info=write.exception())


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
        self.bot.listener.kit.ends.subscribe(self._forget_drafts)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*ITEMS)
        self.bot.listener.kit.ends.unsubscribe(self._forget_drafts)

    def _forget_drafts(self, table_id: int, seats: Sequence[str]) -> None:
        """A table that is over keeps no draft (``bot/ui/table_ends.py``; by their keys)."""
        for seat in seats:
            self._drafts.pop((table_id, seat), None)

    def _answer_within(self) -> float:
        """Seconds a click may wait to be answered in place (settings, else ANSWER_WITHIN)."""
        configured = self.bot.settings.answer_in_place_ms
        return ANSWER_WITHIN if configured is None else configured / 1000

    def game_key(self, table_id: int) -> str | None:
        table = self.bot.tables.registry.find(table_id)
        return table.game.key if table else None

    def draft(self, table_id: int, seat: str, version: int) -> dict[str, Any]:
        stored = self._drafts.get((table_id, seat))
        return dict(stored[1]) if stored and stored[0] == version else {}

    def _seated(
        self, table_id: int, seat: str, version: int | None = None, table: Table | None = None
    ) -> tuple[Table, GameState]:
        """The table and its game state, if ``seat`` plays there (and, given a ``version``,
        clicked what is current): the one seat/turn check of every private click. ``table``:
        the live table, when the caller has it (else it is looked up)."""
        if table is None:
            table = self.bot.tables.registry.get(table_id)
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
        self,
        interaction: discord.Interaction,
        table_id: int,
        version: int,
        action: str,
        table: Table | None = None,
    ) -> None:
        # A click on a private view is answered by updating that very message with the view
        # after the move (one call); anything else is acknowledged first. Discord wants an
        # answer within 3 s: a move that takes longer is acknowledged meanwhile.
        deadline = asyncio.get_running_loop().time() + self._answer_within()
        click = Click(self.bot, interaction, table_id, version, action, table=table)
        click.start_record()
        # (one coroutine with the click's answer, not one more level below: each level of the
        # click's stack is resumed at each of its waits, issue 29)
        try:
            in_place = _is_private_view(interaction)
            seat = click.intent.seat
            listener = self.bot.listener
            table = click.table
            if in_place:
                listener.private.hold_private(table_id, seat)  # this answer shows the mover's view
                try:
                    await self._move(interaction, click, deadline, True)
                finally:
                    listener.private.release_private(table_id, seat)
            elif table is None or not listener.public.is_public_message(table, interaction.message):
                metrics.count("why.defer_elsewhere")
                await click.defer(interaction)
                await self._move(interaction, click, deadline, False)
            else:
                # this answer shows the public message's update
                listener.public.hold_public(table_id)
                try:
                    await self._move(interaction, click, deadline, False)
                    if not await listener.public.answer_public_in_place(
                        interaction, table, deadline=deadline
                    ):
                        if not interaction.response.is_done():
                            metrics.count("why.defer_public_late")
                        await click.defer(interaction)
                    listener.public.offer_public(table, interaction)  # its token edits it next
                finally:
                    listener.public.release_public(table_id)
        except Exception:
            await click.settle()  # refused: the guard answers it
            raise

    async def _move(
        self, interaction: discord.Interaction, click: Click, deadline: float, in_place: bool
    ) -> None:
        intent = click.intent
        table_id, seat = intent.table_id, intent.seat
        table = click.table
        start = time.perf_counter()
        try:
            await _within(
                interaction,
                deadline,
                self.bot.tables.act(
                    table_id, seat, intent.version, intent.action, intent=intent, table=table
                ),
                click=click,
            )
        except TableError as exc:
            if exc.code != "stale" or table is None or not table.seat(seat):
                raise
            await self._refused_stale(interaction, click, exc, deadline, in_place)
            return
        finally:
            # (``metrics.observe``'s own, without its call: every click)
            metrics.histograms["click_move"].add((time.perf_counter() - start) * 1000)
            await self.bot.remember(interaction)
        if in_place:
            # The table the click carried is the live one: the move was applied to it. (The
            # second lookup that stood here only differed once the move had ended the game and
            # the table was released: ``_update_in_place`` now says so itself.)
            await self._update_in_place(interaction, table_id, seat, deadline, table=table)

    async def _refused_stale(
        self,
        interaction: discord.Interaction,
        click: Click,
        exc: TableError,
        deadline: float,
        in_place: bool,
    ) -> None:
        """The table moved on before this click's move: it was NOT applied, and the player is
        told so, privately, with their current view (the clicked message stays as it was:
        nothing of it is shown as applied). Lost a same-version race (another seat's move took
        the very version this click saw): said in so many words."""
        await click.settle()
        intent = click.intent
        notice = "error.race_lost" if click.raced() else "error.stale"
        await self._show_private(interaction, intent.table_id, 0, notice=notice)

    async def on_empty_select(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

    async def on_show_hand(
        self, interaction: discord.Interaction, table_id: int, page: int
    ) -> None:
        deadline = asyncio.get_running_loop().time() + self._answer_within()
        seat = str(interaction.user.id)
        if _is_private_view(interaction):
            await self._update_in_place(interaction, table_id, seat, deadline, page)
            await self.bot.remember(interaction)
            return
        payload = self._private(interaction, table_id, page)
        table = self.bot.tables.registry.get(table_id)
        version, turn = table.version, _their_turn(table, seat)  # what the payload shows
        listener = self.bot.listener
        ephemerals = listener.ephemerals
        previous = ephemerals.pop(table_id, seat)  # replaced by this press's hand
        if listener.public.token_to_spare(table):
            if await self._answer_press(interaction, table, seat, payload, version, deadline):
                listener.private.waiting.hand_shown(table_id, seat, turn)
                await ephemerals.retire(previous)
                return
            payload = self._private(interaction, table_id, page)  # (the late one was cancelled)
            version, turn = table.version, _their_turn(table, seat)
        # A deferred update of the table (its token edits the public message from now on) and
        # the hand as an ephemeral follow-up (edited through that same token while it lives).
        pending = _pending_commands(interaction)
        await pending.record(interaction, HAND)  # a restart before the follow-up sends one
        metrics.count("why.defer_show_hand")
        await interaction.response.defer()
        listener.public.offer_public(table, interaction)
        await finish(payload)
        image = payload.image.digest if payload.image and payload.files else None
        metrics.count("why.hand_post")
        try:
            message = await interaction.followup.send(
                ephemeral=True, wait=True, **payload.send_kwargs()
            )
        finally:
            if payload.view is not None:
                payload.view.stop()
        ephemerals.remember(
            table_id,
            seat,
            interaction,
            translator(user_locale(interaction)),
            message_id=message.id,
            version=version,
            image=image,
            pressed=True,
        )
        listener.private.waiting.hand_shown(table_id, seat, turn)
        await pending.settle(interaction)
        await self.bot.remember(interaction)
        await ephemerals.retire(previous)

    async def _answer_press(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: str,
        payload: Payload,
        version: int,
        deadline: float,
    ) -> bool:
        """Answer a "Ver mi mano" press with the hand itself, a new ephemeral message: ONE
        request (CHANNEL_MESSAGE_WITH_SOURCE) instead of a deferred update of the table and a
        follow-up, and no intent to write first (the answer is the acknowledgement: nothing is
        owed after it that a restart would have to send). Taken when the public message keeps
        a token of an earlier press for minutes (``PublicTable.token_to_spare``): this press's
        own token is not needed to edit the table. False when the hand's image is not ready by
        ``deadline`` (loop time): then the press is deferred and the hand follows."""
        try:
            image = await ready_by(finish(payload), deadline)
        except TimeoutError:
            return False
        metrics.count("why.hand_answer_press")
        try:
            response = await timed_rest(
                interaction.response.send_message(ephemeral=True, **payload.send_kwargs()),
                "hand_answer_press",
            )
        finally:
            if payload.view is not None:
                payload.view.stop()
        answer_id = response.message_id  # (Discord names the message its answer made)
        if answer_id is None:  # else the live hand would be taken for the table it was pressed on
            answer_id = (await interaction.original_response()).id
        self.bot.listener.ephemerals.remember(
            table.id,
            seat,
            interaction,
            translator(user_locale(interaction)),
            version=version,
            image=image,
            pressed=True,
            answer_id=answer_id,
        )
        self.bot.listener.public.offer_public(table, interaction)  # (watching: no token)
        await self.bot.remember(interaction)
        return True

    async def on_draft(
        self,
        interaction: discord.Interaction,
        table_id: int,
        version: int,
        op: str,
        values: list[str],
    ) -> None:
        deadline = asyncio.get_running_loop().time() + self._answer_within()
        seat = str(interaction.user.id)
        self.bot.listener.private.hold_private(table_id, seat)  # this answer shows the view
        try:
            await self._draft_step(interaction, table_id, seat, version, op, values, deadline)
        finally:
            self.bot.listener.private.release_private(table_id, seat)

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
        version = self._past_hold(interaction, table_id, seat, version)
        try:
            table, state = self._seated(table_id, seat, version)
            presenter = self.bot.presenter(table.game.key)
            legal = table.game.legal_actions(state, seat)
            step = (
                table.game.view(state, seat),
                legal,
                self.draft(table_id, seat, version),
                op,
                values,
            )
            if presenter.draft_searches(op):  # (e.g. a hint from a solver): off the event loop
                draft, action = await _within(
                    interaction, deadline, asyncio.to_thread(presenter.draft_step, *step)
                )
            else:  # a step that reads the view: here (a thread's hand-off cost more than it)
                draft, action = presenter.draft_step(*step)
            # Kept for this version: a refused move leaves the draft as it was when completed.
            self._drafts[(table_id, seat)] = (version, draft)
            if action is not None:
                click = Click(self.bot, interaction, table_id, version, action)
                click.start_record()
                if interaction.response.is_done():
                    await click.record()  # acknowledged during the step: record it now
                try:
                    await _within(
                        interaction,
                        deadline,
                        self.bot.tables.act(table_id, seat, version, action, intent=click.intent),
                        click=click,
                    )
                except Exception:
                    await click.settle()
                    raise
        except TableError as exc:
            if exc.code != "stale":
                raise
            await self._show_private(interaction, table_id, 0, notice="error.stale")
            return
        await self._update_in_place(interaction, table_id, seat, deadline)

    def _past_hold(
        self, interaction: discord.Interaction, table_id: int, seat: str, version: int
    ) -> int:
        """The version a draft step clicked on ``seat``'s DM hand is taken at. A hand held back
        while its player waits (``bot/ui/waiting_hands.py``) shows an older version by the
        bot's doing, and offers its player only view steps (Macarena's "Ver mi colección"):
        such a step is taken at the table's version and answered on the hand, brought up to
        date. Refused as stale, it was answered with a new message, which the player reads
        from then on and the edit that makes it their turn never reaches."""
        table = self.bot.tables.registry.find(table_id)
        message = interaction.message
        if table is None or table.state is None or message is None or version >= table.version:
            return version
        if not self.bot.listener.private.waiting.holds("dm", table_id, seat, message.id):
            return version
        if seat in table.game.to_act(table.state):
            return version  # their turn now: a step of a move only at a version they saw
        return table.version

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
                handling_started()  # its answer's wait is timed (bot/ui/http_gate.py)
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
        seat = str(interaction.user.id)
        try:
            table, state = self._seated(table_id, seat)
            presenter = self.bot.presenter(table.game.key)
            action = presenter.modal_action(kind, table.game.view(state, seat), values)
        except Exception:
            await interaction.response.defer(ephemeral=True, thinking=True)
            raise
        click = Click(self.bot, interaction, table_id, version, action, ack="thinking")
        await click.defer(interaction, thinking=True)
        try:
            await self.bot.tables.act(table_id, seat, version, action, intent=click.intent)
        except Exception:
            await click.settle()
            raise
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
        table: Table | None = None,
    ) -> None:
        """Show ``seat``'s current view on the message clicked (its DM view or an ephemeral
        "Ver mi mano"): as the click's answer when it has none yet, else by an edit. A table
        whose game is over is not answered in place: the view's own worker shows the end (in
        a process that does not own the table, the owner does: an answer here would show the
        end twice, tests/e2e/test_shards_e2e.py)."""
        try:
            table, _ = self._seated(table_id, seat, table=table)
            if table.record.status != "playing":
                raise TableError("not_playing")
        except TableError:
            if not interaction.response.is_done():
                metrics.count("why.defer_ended")
                await interaction.response.defer()
            return  # the game ended or the table closed: the public message says so
        tr = translator(user_locale(interaction))
        draft = self.draft(table_id, seat, table.version)
        listener = self.bot.listener
        if await listener.private.answer_in_place(
            interaction, table, seat, tr, page=page, draft=draft, deadline=deadline
        ):
            listener.private.remember_click(table_id, seat, interaction)
            self._touch(interaction, table_id, table)
            return
        if not interaction.response.is_done():
            metrics.count("why.defer_view_late")
            await interaction.response.defer()
        listener.private.remember_click(table_id, seat, interaction)
        if _is_ephemeral(interaction) or page or draft:
            await answer_with(interaction, self._private(interaction, table_id, page), fresh=False)
            self._touch(interaction, table_id)
        else:
            self.bot.listener.private.refresh_private(table, seat)

    def _touch(
        self, interaction: discord.Interaction, table_id: int, table: Table | None = None
    ) -> None:
        """A click answered on the player's ephemeral view: its (fresher) token edits that
        view from now on ("Ver mi mano", the end of the game)."""
        if _is_ephemeral(interaction) and interaction.response.is_done():
            if table is None:
                table = self.bot.tables.registry.find(table_id)
            if table is not None and table.interaction_only:  # it may carry the table on
                self.bot.listener.kit.anywhere.carry(table, interaction)  # (bot/ui/anywhere.py)
            self.bot.listener.ephemerals.remember(
                table_id,
                str(interaction.user.id),
                interaction,
                translator(user_locale(interaction)),
                version=table.version if table is not None else None,  # what it was shown
            )


def _their_turn(table: Table, seat: str) -> bool:
    return table.state is not None and seat in table.game.to_act(table.state)


def _is_private_view(interaction: discord.Interaction) -> bool:
    """A click on a player's own view: an ephemeral "Ver mi mano" or their DM with the bot (a
    group DM's public table is not one: ``bot/places.py``; the channel's type is read here so
    that module stays off every click's path)."""
    message, channel = interaction.message, interaction.channel
    return message is not None and (
        bool(message.flags.ephemeral)  # (``_is_ephemeral``'s own, without its call)
        or (
            interaction.guild_id is None
            and (channel is None or channel.type is not discord.ChannelType.group)
        )
    )


def _within(
    interaction: discord.Interaction,
    deadline: float,
    work: Awaitable[T],
    *,
    ephemeral: bool = False,
    click: Click | None = None,
) -> Awaitable[T]:
    """``work``'s result; if it is not ready by ``deadline`` (loop time), the click is
    acknowledged meanwhile (``ephemeral``: as "thinking" of an ephemeral answer to come), so
    Discord does not give up on it; a ``click`` is recorded as an intent first. An
    acknowledgement that failed (the interaction expired) is raised once ``work`` is over, in
    place of its outcome, which then reaches nobody.
    ``work`` runs in the click's own task (issue 25, the ack): it starts at once, its write
    queued right behind the click's intent so both commit together, and the click's answer
    in place follows the move's end in the same loop turn (a task of its own cost two turns
    more, each a loop lag under load); the deadline's timer acknowledges meanwhile.
    (A plain function handing back ``acknowledged_meanwhile``'s coroutine: no coroutine
    level of its own, resumed at each of the click's waits, issue 29.)"""
    return acknowledged_meanwhile(
        interaction, deadline, work, lambda: _acknowledge(interaction, ephemeral, click)
    )


async def _acknowledge(
    interaction: discord.Interaction, ephemeral: bool, click: Click | None
) -> None:
    metrics.count("why.defer_slow_move")
    if click is not None:
        await click.defer(interaction, thinking=ephemeral)
    elif ephemeral:
        # "thinking" from here on: a restart answers it if need be
        await _pending_commands(interaction).record(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()


def _pending_commands(interaction: discord.Interaction) -> PendingCommands:
    """The bot's record of answers in flight (bot/client.py makes it before loading the cogs)."""
    client: Any = interaction.client
    return cast(PendingCommands, client.pending_commands)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(PlayCog(bot))
