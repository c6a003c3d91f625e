"""The public table message: one per table, shown by its slot's worker through the freshest
table token (a click on the message answered with a deferred update or an update of it) or,
when none is fresh, the bot token, paced (bot/ui/pacer.py)."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot import metrics
from bot.i18n import translator
from bot.service import Table
from bot.ui import payload as sending
from bot.ui.fresh import OLD_MESSAGE_EDITS
from bot.ui.messages import Payload, finish, public_payload
from bot.ui.pacer import Priority
from bot.ui.rendering import Superseded
from bot.ui.seats import disable_rematch
from bot.ui.tokens import Hook, answered_on_message
from bot.ui.view_kit import Slot, SlotSet, ViewKit, ready_by, stage_done, timed_rest

log = logging.getLogger(__name__)

# Seconds of life a public message's interaction token must have left for a press of its "Ver
# mi mano" to be answered with the hand alone (``PlayCog.on_show_hand``): presses at a table
# being played come every few turns, so one in (14 - 7) minutes refreshes the token.
TOKEN_SPARE = 7 * 60.0


class PublicTable:
    """Each table's public message."""

    def __init__(
        self, kit: ViewKit, acts_from_table: Callable[[Table, str], Awaitable[bool]] | None = None
    ) -> None:
        self.k = kit
        self._slots: SlotSet[int] = SlotSet(kit, "public")
        # A press whose public follow-up is to show its table's game once it starts (``carry``).
        self._carriers: dict[int, discord.Interaction] = {}
        # Whether a seat acts from the table (its public message is their view that lets them
        # act: ``TurnMentions.named``); such a turn is never held by coalescing.
        self._acts_from_table = acts_from_table
        kit.ends.subscribe(self.forget)

    def forget(self, table_id: int, seats: Sequence[str]) -> None:
        """``table_id`` is over and its last word is out (``bot/ui/table_ends.py``)."""
        self._carriers.pop(table_id, None)

    def show(self, table: Table, build: Callable[[], Payload], final: bool = False) -> Slot | None:
        slot = self._slots.of(table.id)
        if slot.final:
            return None
        slot.token_key = ("public", table.id)
        slot.build = build
        slot.final = final
        # A lobby that is its /play's response needs no bot-token turn (bot/ui/lobby_answer.py).
        slot.paced = table.record.status != "lobby" or not self.k.answers.waiting(table)
        if table.interaction_only:  # never a bot-token call: no turn of the pacer either
            slot.paced = False
        playing = table.record.status == "playing" and not final
        if playing and table.id in self._carriers:  # posted by a press (``carry``): exempt,
            slot.paced = False  # so it neither waits out the coalescing window nor the pacer
        slot.skip_version = table.version if playing else None
        slot.lets_act = functools.partial(self._lets_act, table) if playing else None
        return self._slots.kick(table.id, functools.partial(self._present_public, table))

    async def _lets_act(self, table: Table) -> bool:
        """Whether ``table`` (a change being shown) lets a person act who acts from the table:
        then its public message is the view that lets them act."""
        if self._acts_from_table is None or table.state is None:
            return False
        humans = {seat.id for seat in table.human_seats()}
        for seat in table.game.to_act(table.state):
            if seat in humans and await self._acts_from_table(table, seat):
                return True
        return False

    async def _present_public(self, table: Table, slot: Slot) -> None:
        if slot.build is None:
            return
        row = await self.k.shown.restore(table.id, "")
        stage_done("restore")
        if (
            row is not None
            and slot.shown_version is None
            and row.message_id == table.record.message_id
        ):
            slot.shown_version, slot.image = row.version, row.state.get("image")
        playing = table.record.status == "playing" and not slot.final
        version = table.version  # what the payload built now shows
        if playing and slot.shown_version == version:
            return  # already shown (by the answer to the click that made it)
        if not table.record.message_id:  # a first post, unless one went since this change
            live = self.k.bot.tables.registry.find(table.id)
            if live is not None and live.record.message_id:  # (a change not waited for until
                table.record.message_id = live.record.message_id  # shown: lobby_shown_later)
            else:
                await self.k.answers.followed(table)  # (it may have to wait its turn)
        payload = slot.build()
        stage_done("build")
        if slot.final or table.record.status == "finished":
            # The last word (a later change, e.g. closing, opens a new slot): no slot outlives
            # its table.
            if not slot.dirty:
                self._slots.pop(table.id)
        if table.interaction_only:  # no bot-token call there, ever (bot/ui/anywhere.py)
            await self._present_by_token(table, slot, payload, version, playing)
            return
        channel = self.k.bot.get_partial_messageable(int(table.record.channel_id))
        message_id = table.record.message_id
        wanted = lambda: not slot.dirty  # noqa: E731 - a newer change supersedes this one
        carrier = self._carriers.pop(table.id, None) if playing else None
        if carrier is not None and await self._post_by_press(
            table, slot, payload, version, carrier, int(message_id) if message_id else None
        ):
            return
        with _Showing(self, table, slot, payload, bot_token=True):
            if message_id and self.k.ages.too_old(message_id, table.id):
                log.info("table %s message is about an hour old; posting a fresh one", table.id)
                self.k.ages.moved(message_id, table.id)
                message_id = None
            if message_id:
                # A table player's view that lets them act: its image goes first (rendering.py)
                first = slot.lets_act is not None and await slot.lets_act()
                image = await finish(
                    payload, slot.image, wanted, first=first, place=("public", table.id)
                )
                stage_done("render")
                metrics.counters["why.public_edit"] += 1  # (no ``count`` call: every move)
                metrics.counters[_edit_kind(table, slot, version)] += 1
                try:
                    if not await self.k.edit_through_token(
                        ("public", table.id), int(message_id), payload, "public_hook_edit"
                    ):
                        await timed_rest(
                            sending.edit_message(
                                channel.get_partial_message(int(message_id)),
                                payload.edit_kwargs(),
                            ),
                            "public_edit",
                            None if slot.paced_turn else self.k.pacer,
                            Priority.PUBLIC,
                        )
                    slot.image = image
                    slot.shown_version = version if playing else None
                    self.k.shown.public(table.id, message_id, version, image)
                    return
                except discord.NotFound:
                    log.info("table %s message was deleted; posting a new one", table.id)
                    payload.keep_image = False
                    if payload.image is not None and not payload.files:
                        await finish(payload)
                except discord.HTTPException as exc:
                    if exc.code != OLD_MESSAGE_EDITS:
                        raise
                    # Discord refuses edits of this hour-old message: a fresh one, at once.
                    log.info("table %s message is over an hour old (30046); reposting", table.id)
                    self.k.ages.moved(message_id, table.id)
                    payload.keep_image = False
                    if payload.image is not None and not payload.files:
                        await finish(payload)
            else:
                await finish(payload)
            metrics.count("why.public_post")
            message = await self.k.answers.post(table, payload)  # a /play's own response
            if message is None:
                message = await timed_rest(
                    channel.send(**payload.send_kwargs()),
                    "public_send",
                    None if slot.paced_turn else self.k.pacer,
                    Priority.PUBLIC,
                )
            await self._posted(table, slot, payload, message.id, version, playing)

    async def _present_by_token(
        self, table: Table, slot: Slot, payload: Payload, version: int, playing: bool
    ) -> None:
        """An interaction-only table: its message is the ``/play`` response, edited through
        the freshest token of a click on it; with none fresh it is paused (shown again by the
        press that resumes it), never edited or posted with the bot token."""
        message_id = table.record.message_id
        wanted = lambda: not slot.dirty  # noqa: E731 - a newer change supersedes this one
        carrier = self.k.anywhere.moving(table) if message_id and playing else None
        with _Showing(self, table, slot, payload, bot_token=False):
            if carrier is not None:  # a player's click posts it anew (bot/ui/anywhere.py)
                await self._move_by_click(table, slot, payload, version, carrier)
                return
            if message_id:
                image = await finish(payload, shown=slot.image, wanted=wanted)
                metrics.count("why.public_edit")
                metrics.count(_edit_kind(table, slot, version))
                if not await self.k.edit_through_token(
                    ("public", table.id), int(message_id), payload, "public_hook_edit"
                ):
                    slot.shown_version = None  # the resuming press shows it
                    self.k.anywhere.pause(table)
                    return
                slot.image = image
                slot.shown_version = version if playing else None
                self.k.shown.public(table.id, message_id, version, image)
                return
            await finish(payload)
            metrics.count("why.public_post")
            message = await self.k.answers.post(table, payload)  # the /play's own response
            if message is None:
                log.warning("table %s: its command could not be answered with it", table.id)
                return
            await self._posted(table, slot, payload, message.id, version, playing)

    async def _move_by_click(
        self,
        table: Table,
        slot: Slot,
        payload: Payload,
        version: int,
        carrier: tuple[discord.Interaction, float],
    ) -> None:
        """An interaction-only table whose token is about to expire, posted anew as a public
        follow-up of a player's click: that message is the table from now on."""
        interaction, _ = carrier  # its token lives from its arrival (``Tokens.offer``)
        old = self.k.anywhere.editor(table)
        await finish(payload)
        v2 = payload.view is not None and payload.view.has_components_v2()
        metrics.count("why.public_post")
        try:
            message = await interaction.followup.send(wait=True, **payload.send_kwargs())
        except discord.HTTPException:
            self.k.anywhere.carried(table)  # (its edit may go through a table token again)
            raise
        await self._posted(table, slot, payload, message.id, version, True)
        self.k.tokens.offer(("public", table.id), interaction, message.id, followup=message.id)
        metrics.count("anywhere.moved")
        await self.k.anywhere.moved(table, old, v2)

    def carry(self, table_id: int, interaction: discord.Interaction | None) -> None:
        """``interaction`` (a press answered already, e.g. Triple Triad's last pick, on a
        message nobody else presses) is to post ``table_id``'s game anew as its public
        follow-up once it starts: that press's token then edits the table, outside the bot
        token's limit, for the 15 minutes it lives (nobody presses a Triple Triad table, so it
        had no fresh token). None: not any more (the game did not start)."""
        if interaction is None:
            self._carriers.pop(table_id, None)
        else:
            self._carriers[table_id] = interaction

    async def _post_by_press(
        self,
        table: Table,
        slot: Slot,
        payload: Payload,
        version: int,
        interaction: discord.Interaction,
        old: int | None,
    ) -> bool:
        """Post ``table`` as ``interaction``'s public follow-up, the table's message from now
        on (its token edits it); the old one is deleted (one bot-token call, not the game's
        every edit). False when the follow-up failed or would land elsewhere (a press in the
        channel of a table that lives in its thread): the table is edited as usual."""
        if str(interaction.channel_id) != table.record.channel_id:
            return False
        await finish(payload)
        stage_done("render")
        metrics.count("why.public_post")
        try:
            message = await interaction.followup.send(wait=True, **payload.send_kwargs())
        except discord.HTTPException as exc:
            log.info("table %s could not follow up its press (%s)", table.id, exc.code)
            payload.keep_image = False
            if payload.image is not None and not payload.files:
                await finish(payload)  # the failed request closed its files
            return False
        # The old message's token, if one is fresh (a lobby that followed up its command):
        # it deletes that message outside the bot token's limit.
        old_hook = self.k.tokens.fresh(("public", table.id), old) if old is not None else None
        await self._posted(table, slot, payload, message.id, version, True)
        self.k.tokens.offer(("public", table.id), interaction, message.id, followup=message.id)
        metrics.count("public.followed_up")
        if old is not None:
            self.k.ages.moved(str(old), table.id)  # a press on it, if it stays, points here
            channel = self.k.bot.get_partial_messageable(int(table.record.channel_id))
            self.k.spawn(self._delete_old(table.id, channel.get_partial_message(old), old_hook))
        return True

    async def _delete_old(
        self, table_id: int, old: discord.PartialMessage, hook: Hook | None = None
    ) -> None:
        metrics.count("why.public_delete")
        try:
            if hook is not None:
                try:
                    await timed_rest(hook.delete(), "public_delete_hook")
                    return
                except discord.HTTPException as exc:  # expired meanwhile: the bot token's
                    log.info("table %s: its old message's token failed (%s)", table_id, exc.code)
            await timed_rest(old.delete(), "public_delete", self.k.pacer, Priority.HOUSEKEEPING)
        except discord.HTTPException as exc:
            log.info("table %s: its old message stays (%s)", table_id, exc.code)

    async def _posted(
        self,
        table: Table,
        slot: Slot,
        payload: Payload,
        message_id: int,
        version: int,
        playing: bool,
    ) -> None:
        """A new message shows ``table`` (``payload`` sent): it is the table's message from now
        on; record it, its age, and what it shows. (An interaction-only table's message is
        never edited with the bot token: its age is not watched.)"""
        slot.image = payload.image.digest if payload.image and payload.files else None
        slot.shown_version = version if playing else None
        await self.k.bot.tables.registry.set_message(table, str(message_id))
        if not table.interaction_only:
            self.k.ages.posted(str(message_id), table.id)
        self.k.shown.public(table.id, str(message_id), version, slot.image)

    def _retry_public(self, table: Table) -> None:
        """Discord gave up on the edit (retries exhausted): show the table again later rather
        than leaving it a version behind until its next move."""

        def again() -> None:
            self.k.spawn(self._show_again(table.id))

        self.k.shown.retry_later(table.id, again)

    async def _show_again(self, table_id: int) -> None:
        """The table as it is now, shown again: still playing, or finished since (a game's
        result is always shown; then it is read from storage)."""
        table = self.k.bot.tables.registry.find(
            table_id
        ) or await self.k.bot.tables.registry.finished_table(table_id)
        if table is not None and table.record.status in ("playing", "finished"):
            await self.k.represent(table)

    def hold_public(self, table_id: int) -> None:
        """A click on the public message is being answered with its update
        (``answer_public_in_place``): the worker waits until ``release_public``."""
        self._slots.hold(table_id)

    def release_public(self, table_id: int) -> None:
        self._slots.release(table_id)

    def is_public_message(self, table: Table, message: discord.Message | None) -> bool:
        return message is not None and str(message.id) == table.record.message_id

    async def answer_public_in_place(
        self, interaction: discord.Interaction, table: Table, *, deadline: float
    ) -> bool:
        """Answer a click on the table's public message with that message updated
        (UPDATE_MESSAGE). False when it could not be (the worker then edits it as usual).
        A lobby is answered with its latest change (``show``'s builder): that change is then
        shown, and its worker has nothing left to edit (a later change edits as usual)."""
        slot = self._slots.of(table.id)
        lobby = table.record.status == "lobby"
        if interaction.response.is_done() or slot.final:
            return False
        if (lobby and slot.build is None) or (not lobby and table.state is None):
            return False
        if not await slot.take_by(deadline):
            return False
        lobby_change = False  # the lobby change this answer shows, taken from the worker
        try:
            tr = translator(table.record.locale)
            presenter = self.k.bot.presenter(table.game.key)
            version, status = table.version, table.record.status
            if lobby and slot.build is not None:
                payload = slot.build()
                lobby_change, slot.dirty, slot.since = slot.dirty, False, None
            else:
                payload = public_payload(table, presenter, self.k.bot.tables, tr)
            try:
                image = await ready_by(finish(payload, shown=slot.image), deadline)
                metrics.count("why.public_answer_click")
                await timed_rest(
                    sending.update_clicked(interaction, payload.edit_kwargs()),
                    "click_update_public",
                )
            except (TimeoutError, discord.HTTPException):
                log.warning("updating the public message of table %s failed", table.id)
                slot.dirty = slot.dirty or lobby_change  # its worker shows it (on release)
                return False
            finally:
                if payload.view is not None:
                    payload.view.stop()
            slot.image = image
            slot.shown_version = version if status == "playing" else None
            if table.record.message_id:
                self.k.shown.public(table.id, table.record.message_id, version, image)
            return True
        finally:
            slot.busy.release()

    def token_to_spare(self, table: Table) -> bool:
        """Whether ``table``'s public message has an interaction token that edits it for
        ``TOKEN_SPARE`` seconds more at least: a press on it need not be answered on it (a
        deferred update, for a token) to keep it edited outside the bot token's limit. Never
        on a table that lives on tokens alone (``bot/ui/anywhere.py``): each press's token
        keeps it from pausing."""
        message_id = table.record.message_id
        if not message_id or table.interaction_only:
            return False
        hook = self.k.tokens.fresh(("public", table.id), int(message_id))
        return hook is not None and hook.until - self.k.tokens.clock() >= TOKEN_SPARE

    def offer_public(self, table: Table, interaction: discord.Interaction) -> None:
        """A click on ``table``'s public message, answered with a deferred update or an update
        of it: its token edits the public message from now on (while fresh)."""
        self.k.last_click[(table.id, str(interaction.user.id))] = self.k.clock()
        message = interaction.message
        if (
            message is not None
            and answered_on_message(interaction)
            and self.is_public_message(table, message)
        ):
            self.k.tokens.offer(("public", table.id), interaction, message.id)
            metrics.count("token.public_offered")
            if table.interaction_only:
                self.k.anywhere.offered(table)  # a paused one resumes (bot/ui/anywhere.py)

    async def rematch_opened(self, finished: Table, rematch: Table) -> None:
        """Turn the finished table's "Revancha" off: the finished table as shown, the button
        disabled (a V2 message's text is in its components: they are all sent again; the
        image stays as it is)."""
        message_id = finished.record.message_id
        if not message_id:
            return
        if finished.state is None:  # the service hands over the record only: read the game
            finished = await self.k.bot.tables.registry.finished_table(finished.id) or finished
            if finished.state is None:
                return
        tr = translator(finished.record.locale)
        payload = public_payload(
            finished, self.k.bot.presenter(finished.game.key), self.k.bot.tables, tr
        )
        disable_rematch(payload)
        payload.image = None
        payload.keep_image = True
        channel = self.k.bot.get_partial_messageable(int(finished.record.channel_id))
        # After any edit of that message under way; no slot is made for it (the table was
        # forgotten at its end: ``forget``).
        slot = self._slots.get(finished.id)
        metrics.count("why.public_rematch_off")
        key = ("public", finished.id)
        try:
            async with slot.busy if slot is not None else contextlib.nullcontext():
                # Its rematch press's token (``LobbyCog._rematch_by_token``), else the bot
                # token's, but never where the bot may not post.
                by_token = await self.k.edit_through_token(key, int(message_id), payload, "edit")
                self.k.tokens.drop(key)  # its last use
                if by_token or finished.interaction_only:
                    return
                message = channel.get_partial_message(int(message_id))
                await timed_rest(message.edit(**payload.edit_kwargs()), "edit", self.k.pacer)
        except discord.HTTPException:
            log.info("could not turn off the rematch button of table %s", finished.id)
        finally:
            if payload.view is not None:
                payload.view.stop()

    def show_again_later(self, table_id: int) -> None:
        """Same version, other seats (names, "Volver"), or a restart: the next change is shown
        even if the message shows that version."""
        slot = self._slots.get(table_id)
        if slot is not None:
            slot.shown_version = None


def _edit_kind(table: Table, slot: Slot, version: int) -> str:
    """What an edit of the public message shows, counted (``public_edit.*``, printed per move
    by ``bench/load.py``): a lobby, a game's next version(s), the same version again (names,
    "Volver", a restart), or the end (or the closing)."""
    status = table.record.status
    if slot.final or status not in ("lobby", "playing"):
        return "public_edit.end"
    if status == "lobby":
        return "public_edit.lobby"
    if slot.shown_version is not None and version <= slot.shown_version:
        return "public_edit.same_version"
    return "public_edit.playing"


class _Showing:
    """Around one showing of a table's message: a render superseded meanwhile is left to the
    slot's worker (the slot is dirty: it goes on with the newer change); a refused request is
    logged, and on a message the bot token may show (``bot_token``) retried; the payload's
    view is stopped (dynamic items route clicks: the view store stays empty); a message with
    the bot token's fallback that shows the end is forgotten (fresh.py). A slotted object,
    not a ``contextmanager`` (no generator and no wrapper object per showing: one a move)."""

    __slots__ = ("public", "table", "slot", "payload", "bot_token")

    def __init__(
        self, public: PublicTable, table: Table, slot: Slot, payload: Payload, bot_token: bool
    ) -> None:
        self.public, self.table, self.slot = public, table, slot
        self.payload, self.bot_token = payload, bot_token

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: object
    ) -> bool:
        table, slot = self.table, self.slot
        try:
            if kind is None or issubclass(kind, Superseded):
                return kind is not None  # (a superseded render: left to the worker)
            if issubclass(kind, discord.HTTPException):
                slot.image = None
                log.error("could not show table %s", table.id, exc_info=error)
                if self.bot_token:
                    self.public._retry_public(table)
                return True
            return False
        finally:
            if self.payload.view is not None:
                self.payload.view.stop()
            if self.bot_token and (slot.final or table.record.status == "finished"):
                self.public.k.ages.ended(table.id)  # its last word: nothing of it is kept
