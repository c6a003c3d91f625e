"""Private views: each player's one DM hand per table, edited in place through the token of
their last click on it (the bot token when none is fresh) with a short turn notice when one
must notify, and each live ephemeral "Ver mi mano" hand (channel play), edited through its own
token. A view that no longer plays is retired to the table's truth. A hand whose player waits
for their turn follows the table a little late, one edit for the changes meanwhile
(``bot/ui/waiting_hands.py``)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot import metrics
from bot.i18n import Translator, translator
from bot.service import Table
from bot.ui import payload as sending
from bot.ui import v2
from bot.ui.dm_followup import post_by_last_click
from bot.ui.endings import ended_hand_payload
from bot.ui.ephemeral import EphemeralView
from bot.ui.messages import Payload, finish, private_payload
from bot.ui.pacer import Priority
from bot.ui.rendering import Superseded
from bot.ui.tokens import answered_on_message
from bot.ui.view_kit import Slot, SlotSet, ViewKit, ready_by, stage_done, timed_rest
from bot.ui.waiting_hands import WaitingHands

log = logging.getLogger(__name__)


class PrivateViews:
    """Every player's private views of every table."""

    def __init__(self, kit: ViewKit) -> None:
        self.k = kit
        self._slots: SlotSet[tuple[int, str]] = SlotSet(kit, "dm")  # each DM hand
        self._hands: SlotSet[tuple[int, str]] = SlotSet(kit, "hand")  # each live ephemeral hand
        self.waiting = WaitingHands(kit, self._hands)  # waiting seats' hands, held back a while

    def hold_private(self, table_id: int, seat: str) -> None:
        """A click on ``seat``'s view is being answered with the view itself
        (``answer_in_place``): the DM and live hand's workers wait until ``release_private``
        (the hand's, not held, showed the mover the change of their move twice: the answer,
        then an edit of the same version)."""
        self._slots.hold((table_id, seat))
        hand = self._hands.get((table_id, seat))
        if hand is not None:  # (a hand never followed has no worker to wait: no slot made)
            hand.holds += 1

    def release_private(self, table_id: int, seat: str) -> None:
        key = (table_id, seat)
        self.k.release(self._slots.get(key))
        hand = self._hands.get(key)
        if hand is not None:  # (most DM players' have none: no release call for it)
            self.k.release(hand)
        held = self._slots.get(key)  # (again: the release may have shown its last edit)
        if (
            held is not None
            and held.message_id is None
            and held.idle()
            and self.k.bot.tables.registry.find(table_id) is None
        ):
            # A click on a view of a table that is over: the slot its hold made, which shows
            # nothing, is not kept (the table was forgotten already: ``forget``).
            self._slots.pop(key)

    def refresh_private(self, table: Table, seat: str) -> None:
        """Show ``seat``'s current view in their DM again, even if it seems unchanged."""
        if not self.k.bot.tables.sharing.owns(table.record.guild_id):
            return  # another process runs the guild's shard and shows it (bot/service/shared)
        self._slots.of((table.id, seat)).digest = None
        self.show_private(table, seat)

    def show_private(self, table: Table, seat: str) -> Slot:
        """``seat``'s DM hand shows ``table`` (its slot, returned)."""
        key = (table.id, seat)
        slot = self._slots.get(key)
        if slot is not None and self._left_as_is(table, seat, slot):
            # Its worker would leave it as it is: no task for it. The change is still its
            # latest, for a wait that ends (``WaitingHands._show``) to show.
            slot.work = functools.partial(self._present_private, table, seat)
            return slot
        return self._slots.kick(key, functools.partial(self._present_private, table, seat))

    def _left_as_is(self, table: Table, seat: str, slot: Slot) -> bool:
        """Whether this change leaves ``seat``'s DM hand as it is, known without a wait
        (``_present_private_view``'s own checks): it waits for their turn
        (``_not_needed_yet``), they play from the table (``spares_dm``), a wait for its
        next edit is under way (``WaitingHands.waits``), it shows this version already, or
        this change starts a wait (``WaitingHands.held_back``; a wait that is due is left to
        the worker, which ends it and shows the change). Issue 29: such a hand was a task and
        its trace at every move, to do nothing. In one process only (else another may have
        answered with it: ``_answered_elsewhere``), and not at the game's end."""
        if slot.dirty or (slot.task is not None and not slot.task.done()):
            return False  # a change waits, or is being shown: this one goes after it
        state = table.state
        if state is None or self.k.bot.tables.sharing.shared or table.game.is_over(state):
            return False
        spared = True if table.interaction_only else self._spares_now(table.id, seat)
        if spared:  # (also while their click on their live hand holds it)
            metrics.count("dm_spared_channel_play")
            return True
        if slot.holds:
            return False  # a click answers with it: its release shows what it leaves
        waiting = seat in table.game.to_act(state)
        if _not_needed_yet(self.k, table.id, seat, slot, waiting, False):
            metrics.count("dm_deferred")
            return True
        if spared is None:
            return False  # where they play is read first: the worker's
        if self.waiting.waits("dm", table.id, seat, slot, waiting):
            return True
        if self.waiting.holds_any("dm", table.id, seat):
            return False
        # the worker's next checks, in its order: the view it shows, a wait this change starts
        return _view_digest(table, seat, False) == slot.digest or self.waiting.held_back(
            "dm", table.id, seat, slot, waiting, False
        )

    def show_hand(self, table: Table, seat: str) -> None:
        """``seat``'s live ephemeral hand (channel play) follows the table, through its token."""
        live = self.k.ephemerals.live(table.id, seat)
        if live is None or table.state is None:
            return
        presenter = self.k.bot.presenter(table.game.key)
        version = table.version

        async def work(slot: Slot) -> None:
            assert table.state is not None
            finished = table.game.is_over(table.state)
            waiting = not finished and seat in table.game.to_act(table.state)
            shown = self.k.ephemerals.live(table.id, seat)
            if shown is None or (shown.version is not None and shown.version >= version):
                return  # nothing to show (e.g. the press that made the move answered with it)
            if self.waiting.held_back("hand", table.id, seat, slot, waiting, finished):
                return
            if await self.k.ephemerals.update(
                table.id, seat, lambda tr: private_payload(table, presenter, seat, tr), version
            ):
                became = waiting and not slot.waiting
                self.waiting.shown("hand", table.id, seat, finished, waiting, became, slot.waiting)
                slot.waiting = waiting

        held = self._hands.of((table.id, seat))
        if held.idle() and _hand_left_as_is(self.waiting, table, seat, held, version, live):
            # Its worker would leave it as it is: no task for it (issue 29: ~0.6 a move at
            # channel play, a task and its trace each). The change is still its latest, for a
            # wait that ends (``WaitingHands._show``) to show.
            held.work = work
            return
        self.k.kick(held, work)

    async def _present_private(self, table: Table, seat: str, slot: Slot) -> None:
        if table.state is None:
            return
        if table.game.is_over(table.state):
            self.waiting.forget(table.id, seat)  # nothing of it is followed any more
        await _restore_private(self.k, table.id, seat, slot)
        stage_done("restore")
        await self._present_private_view(table, seat, slot)
        if table.game.is_over(table.state) and slot.older:
            older, slot.older = slot.older, []
            await self._buttons_off(seat, older)  # the game is over: no view stays clickable
            self.k.shown.private(table.id, seat, table.version, slot)

    async def _buttons_off(self, seat: str, message_ids: list[int]) -> None:
        """Edit ``seat``'s DM views ``message_ids`` to show nothing to click: a V2 message
        cannot lose its components (they are its text), so it says where the hand lives now."""
        if not message_ids:
            return
        channel = await self.k.dm_channel(seat)
        note = translator(await self.k.bot.locale_of(seat))("views.replaced")
        for message_id in message_ids:
            metrics.count("why.dm_buttons_off")
            try:
                await timed_rest(
                    sending.edit_message(  # a CardLayout: discord.py's typed ``edit`` wants a View
                        channel.get_partial_message(message_id),
                        {
                            "content": None,
                            "embeds": [],
                            "view": v2.note_view(note),
                            "attachments": [],
                        },
                    ),
                    "dm_edit",
                    self.k.pacer,
                )
            except discord.HTTPException as exc:
                log.info(
                    "could not turn off the buttons of DM %s of %s (%s %s)",
                    message_id,
                    seat,
                    exc.status,
                    exc.code,
                )

    async def _present_private_view(self, table: Table, seat: str, slot: Slot) -> None:
        assert table.state is not None
        game = table.game
        finished = game.is_over(table.state)
        waiting = seat in game.to_act(table.state)
        if finished and not slot.dirty:
            self._slots.pop((table.id, seat))  # this is the view's last edit
        # In one process nobody else shows this view (``_answered_elsewhere`` has nothing to
        # say): whether it waits is known before its view and digest are built, which most
        # changes of a seat that plays from the table (or waits its turn) never need.
        checked_first = not self.k.bot.tables.sharing.shared
        if checked_first and await self._not_shown(table, seat, slot, waiting, finished):
            return
        digest = _view_digest(table, seat, finished)
        if digest == slot.digest:
            return  # (e.g. the mover's, answered with this very view)
        if self.waiting.held_back("dm", table.id, seat, slot, waiting, finished):
            return
        # One hand message per player per table, edited in place; a turn that must notify
        # gets a short notice of its own (``_turn_notice``), deleted once the turn passes.
        became_turn = waiting and not slot.waiting
        # Their turn: the view that lets them act goes first among bot-token calls.
        urgency = Priority.NEXT_PLAYER if waiting else Priority.HOUSEKEEPING
        if await self._answered_elsewhere(table, seat, slot, digest, waiting):
            await self._turn_notice(table, seat, slot, waiting, became_turn, sent=False)
            return
        if await self.k.closed_dms(seat):
            return
        if not checked_first and await self._not_shown(table, seat, slot, waiting, finished):
            return
        stage_done("checks")
        tr = translator(await self.k.bot.locale_of(seat))
        payload = private_payload(table, self.k.bot.presenter(table.game.key), seat, tr)
        stage_done("build")
        wanted = lambda: not slot.dirty  # noqa: E731 - a newer change supersedes this one
        try:
            if slot.message_id is not None:
                place = ("dm", table.id, seat)  # its turn: the image goes first (rendering.py)
                image = await finish(payload, slot.image, wanted, first=waiting, place=place)
                stage_done("render")
                try:
                    self.waiting.shown(
                        "dm", table.id, seat, finished, waiting, became_turn, slot.waiting
                    )
                    await self._edit_dm(table.id, seat, slot, payload, urgency)
                    slot.digest, slot.image, slot.waiting = digest, image, waiting
                    slot.clickable = payload.view is not None
                    self.k.shown.private(table.id, seat, table.version, slot)
                    await self._turn_notice(table, seat, slot, waiting, became_turn, sent=False)
                    return
                except discord.NotFound:
                    pass  # they deleted it: send a new one
                except discord.HTTPException:
                    # Discord gave up on the edit (retries exhausted): post the view anew
                    # instead; if that fails too, "Ver mi mano" still shows it.
                    log.warning("DM edit for %s at table %s failed", seat, table.id)
                payload.keep_image = False
                if payload.image is not None and not payload.files:
                    await finish(payload)
            else:
                await finish(payload)
            metrics.count("why.dm_post")
            message = await post_by_last_click(self.k, seat, payload)  # (their last game's)
            if message is None:
                message = await self.k.dm(table, seat, payload=payload, priority=urgency)
            if message is not None:
                if slot.clickable and slot.message_id not in (None, message.id):
                    slot.older.append(slot.message_id)  # its buttons go off when the game ends
                slot.message_id = message.id
                self.waiting.answered("dm", table.id, seat)
                slot.clickable = payload.view is not None
                slot.digest, slot.waiting = digest, waiting
                slot.image = payload.image.digest if payload.image and payload.files else None
                self.k.shown.private(table.id, seat, table.version, slot)
                self.k.last_click.setdefault((table.id, seat), self.k.clock())  # it notified
                await self._turn_notice(table, seat, slot, waiting, became_turn, sent=True)
        except Superseded:
            pass  # the slot is dirty: its worker goes on with the newer change
        finally:
            if payload.view is not None:
                payload.view.stop()

    async def _not_shown(
        self, table: Table, seat: str, slot: Slot, waiting: bool, finished: bool
    ) -> bool:
        """Whether ``seat``'s DM hand is left as it is for this change: it waits for their
        turn (``_not_needed_yet``) or they play from the table."""
        if _not_needed_yet(self.k, table.id, seat, slot, waiting, finished):
            metrics.count("dm_deferred")
            return True
        if (not finished or slot.message_id is None) and (
            table.interaction_only or await self.spares_dm(table.id, seat)
        ):
            # Channel play: their live ephemeral hand follows the table through its own token
            # (``show_hand``) and the channel's turn mention names them; the DM hand is posted
            # or brought up to date (with the bot token) only once they play from it again.
            metrics.count("dm_spared_channel_play")
            return True
        return False

    async def spares_dm(self, table_id: int, seat: str) -> bool:
        """``seat`` plays from the table, so their DM hand there is spared (the turn mention
        names them): they never clicked their DM hand at this table (a player who did plays
        from it: it stays up to date), and their ephemeral "Ver mi mano" hand is live or they
        play from the tables everywhere (``bot/ui/play_from.py``)."""
        spared = self._spares_now(table_id, seat)
        return spared if spared is not None else await self.k.places.from_tables(seat)

    def spares_dm_now(self, table_id: int, seat: str) -> bool | None:
        """``spares_dm`` when known without a wait (None: where they play must be read)."""
        spared = self._spares_now(table_id, seat)
        return spared if spared is not None else self.k.places.known_from_tables(seat)

    def _spares_now(self, table_id: int, seat: str) -> bool | None:
        """``spares_dm`` when this process knows it at once; None: where they play decides."""
        slot = self._slots.get((table_id, seat))
        if slot is not None and slot.clicked:
            return False
        if self.k.ephemerals.live(table_id, seat) is not None:
            return True
        return None

    async def _turn_notice(
        self, table: Table, seat: str, slot: Slot, waiting: bool, became: bool, *, sent: bool
    ) -> None:
        """An edit does not notify: when it becomes ``seat``'s turn and they have not clicked
        at this table for ``notice_after`` seconds (they are not watching), a short DM says so;
        it is deleted once the turn passes. A hand just sent notifies by itself."""
        if not waiting and slot.notice_id is not None:
            notice, slot.notice_id = slot.notice_id, None
            metrics.count("why.dm_notice_delete")
            await self.k.delete_dm(seat, notice)
            return
        if not became or sent or slot.notice_id is not None:
            return
        last = self.k.last_click.get((table.id, seat))
        if last is not None and self.k.clock() - last < self.k.notice_after:
            return  # they are playing right now: the edited hand is enough
        tr = translator(await self.k.bot.locale_of(seat))
        text = tr("views.turn_notice", table=table.id, game=tr(f"{table.game.key}.name"))
        metrics.count("why.dm_notice")
        message = await self.k.dm(table, seat, content=text, priority=Priority.NEXT_PLAYER)
        if message is not None:
            slot.notice_id = message.id

    async def _answered_elsewhere(
        self, table: Table, seat: str, slot: Slot, digest: str, waiting: bool
    ) -> bool:
        """The process that made this move (another shard's: a DM click) answered the click
        with this very view already: nothing to edit (bot/service/shared.py)."""
        shown = await self.k.bot.tables.sharing.view_shown_elsewhere(table.id, seat, table.version)
        if shown is None or shown.message_id is None:
            return False
        if not shown.clickable and shown.message_id in slot.older:
            slot.older.remove(shown.message_id)  # answered with no buttons: none to turn off
        if shown.digest != digest:
            return False
        if slot.message_id not in (None, shown.message_id):
            return False  # it answered on an older view: the latest one still shows the old
        slot.message_id = shown.message_id
        slot.digest, slot.waiting, slot.clickable = digest, waiting, shown.clickable
        self.k.shown.private(table.id, seat, table.version, slot)
        metrics.count("dm_edit_spared")
        return True

    async def _edit_dm(
        self,
        table_id: int,
        seat: str,
        slot: Slot,
        payload: Payload,
        priority: Priority = Priority.HOUSEKEEPING,
    ) -> None:
        """Edit the DM hand ``slot.message_id``: through the token of the latest click on it
        while it is fresh (exempt from the global limit), else with the bot token."""
        assert slot.message_id is not None
        if await self.k.edit_through_token(
            ("dm", table_id, seat), slot.message_id, payload, "dm_hook_edit"
        ):
            return
        channel = await self.k.dm_channel(seat, priority)
        await timed_rest(
            sending.edit_message(
                channel.get_partial_message(slot.message_id), payload.edit_kwargs()
            ),
            "dm_edit",
            self.k.pacer,
            priority,
        )

    def remember_click(self, table_id: int, seat: str, interaction: discord.Interaction) -> None:
        """``seat`` clicked at the table (they are watching); a click on their own DM hand,
        answered, leaves its token to edit that message later."""
        self.k.last_click[(table_id, seat)] = self.k.clock()
        message = interaction.message
        if interaction.guild_id is None and not _in_group_dm(interaction):
            self.k.places.played(seat, from_table=False)  # where they play: a DM view...
        elif message is not None and message.flags.ephemeral:  # ...or a table's "Ver mi mano"
            self.k.places.played(seat, from_table=True)  # (a group DM's too)
        if not answered_on_message(interaction):
            return
        slot = self._slots.get((table_id, seat))
        if slot is not None and message is not None and message.id == slot.message_id:
            slot.clicked = True
            self.k.tokens.offer(("dm", table_id, seat), interaction, message.id)

    async def answer_in_place(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: str,
        tr: Translator,
        *,
        page: int = 0,
        draft: dict[str, Any] | None = None,
        notice: str | None = None,
        deadline: float,
    ) -> bool:
        """Answer a click on ``seat``'s DM view with that view updated (UPDATE_MESSAGE: the
        acknowledgement and the edit in one call). False when the interaction was answered
        already, or the update failed or could not be ready by ``deadline`` (loop time): the
        slot's worker then shows the view as usual."""
        # (message, the plain view's digest, its version, whether it shows buttons)
        answered: list[tuple[int, str | None, int, bool]] = []
        # (one coroutine, not one more level below: each level of a click's stack is resumed
        # at each of its waits, issue 29)
        try:
            key = (table.id, seat)
            slot = self._slots.of(key)
            if interaction.response.is_done() or interaction.message is None or table.state is None:
                return False
            if not await slot.take_by(deadline):
                return False
            try:
                own_message = interaction.message.id == slot.message_id
                state, game = table.state, table.game
                digest = _view_digest(table, seat, game.is_over(state))
                waiting = seat in game.to_act(state)
                version = table.version
                payload = private_payload(
                    table, self.k.bot.presenter(table.game.key), seat, tr, page, draft=draft
                )
                if notice:
                    payload.content = tr(notice)
                try:
                    image = await ready_by(
                        finish(payload, shown=slot.image if own_message else None), deadline
                    )
                    metrics.counters["why.dm_answer_click"] += 1  # (no call: every DM click)
                    await timed_rest(
                        sending.update_clicked(interaction, payload.edit_kwargs()), "click_update"
                    )
                except TimeoutError:
                    return False  # not ready in time: acknowledged by the caller, shown by the slot
                except discord.HTTPException as exc:
                    log.warning(
                        "updating the clicked view of %s at table %s failed: %s",
                        seat,
                        table.id,
                        exc,
                    )
                    return False
                finally:
                    if payload.view is not None:
                        payload.view.stop()
                if own_message:
                    slot.clickable = payload.view is not None
                    self.waiting.answered("dm", table.id, seat)
                elif interaction.guild_id is not None or _in_group_dm(interaction):
                    # a "Ver mi mano" hand: not a DM view (``EphemeralViews`` ends those)
                    self.waiting.hand_shown(table.id, seat, waiting)
                    hand = self._hands.get(key)
                    if hand is not None and hand.holds and table.version == version:
                        # The live hand from now on (``PlayCog._touch``) shows the change its
                        # worker waits to show (the click's move): that worker would find it
                        # shown (issue 29, as the mover's DM hand above).
                        hand.dirty, hand.since = False, None
                elif payload.view is not None and interaction.message.id not in slot.older:
                    slot.older.append(interaction.message.id)  # an older view shows buttons again
                elif payload.view is None and interaction.message.id in slot.older:
                    slot.older.remove(interaction.message.id)  # its buttons are off already
                plain = page == 0 and not draft and not notice
                clickable = payload.view is not None
                answered.append(
                    (interaction.message.id, digest if plain else None, version, clickable)
                )
                if own_message and plain:
                    slot.digest, slot.image, slot.waiting = digest, image, waiting
                    if table.version == version and not game.is_over(state):
                        # The change the worker waits to show (the click's move) is this very
                        # view: its drain on release would only find it shown (issue 29: ~0.55
                        # drains a move, a task and their trace each). A newer change marks the
                        # slot again; an ended game's drain still turns older buttons off.
                        slot.dirty, slot.since = False, None
                elif own_message:
                    slot.digest, slot.image = None, image  # a page or a draft: not the plain view
                if self.k.bot.tables.sharing.owns(
                    table.record.guild_id
                ):  # else the owner's to store
                    self.k.shown.private(table.id, seat, table.version, slot)
                return True
            finally:
                slot.busy.release()
        finally:
            # Another process owns the table: it is told what this answer showed (or that
            # there was none), so it does not edit the view again to show the same thing.
            if answered:
                self.k.bot.tables.sharing.view_answered(table, seat, *answered[0])
            else:
                self.k.bot.tables.sharing.view_answered(table, seat, None, None)

    async def _restore_private_slots(self, table: Table) -> list[str]:
        """Every DM view of ``table`` stored before a restart gets its slot back; their seats."""
        seats = await self.k.shown.stored_seats(table.id)
        for seat in seats:
            await _restore_private(self.k, table.id, seat, self._slots.of((table.id, seat)))
        return seats

    async def _retire_hand(
        self, table: Table, seat: str, build: Callable[[Translator], Payload], slot: Slot
    ) -> None:
        """Show ``build(tr)`` (an ending: no buttons) on ``seat``'s DM hand, delete its turn
        notice and turn off any older view's buttons: no view lies about the table."""
        if slot.notice_id is not None:
            notice, slot.notice_id = slot.notice_id, None
            metrics.count("why.dm_notice_delete")
            await self.k.delete_dm(seat, notice)
        if slot.message_id is not None and (slot.clickable or slot.digest != "retired"):
            payload = build(translator(await self.k.bot.locale_of(seat)))
            metrics.count("why.dm_retire")
            try:
                await self._edit_dm(table.id, seat, slot, payload)
                slot.clickable, slot.waiting, slot.digest, slot.image = (
                    False,
                    False,
                    "retired",
                    None,
                )
                self.k.shown.private(table.id, seat, table.version, slot)
            except discord.HTTPException as exc:
                log.info("could not retire the DM hand of %s at table %s (%s)", seat, table.id, exc)
        if slot.older:
            older, slot.older = slot.older, []
            await self._buttons_off(seat, older)
            self.k.shown.private(table.id, seat, table.version, slot)
        self.k.tokens.drop(("dm", table.id, seat))  # used up: the hand is edited no more

    def retire_seat(self, table: Table, seat: str) -> None:
        """The computer plays ``seat`` now (timeouts, left, kicked): their private views say
        so, buttons off; the DM hand stays theirs, edited back should they rejoin."""

        def by_cpu(view_tr: Translator) -> Payload:
            return ended_hand_payload(table, view_tr, view_tr("views.seat_by_cpu"))

        slot = self._slots.get((table.id, seat))
        self.waiting.forget(table.id, seat)
        if slot is not None:
            self.k.kick(slot, functools.partial(self._retire_hand, table, seat, by_cpu))
        self._hands.pop((table.id, seat))
        self.k.spawn(self.k.ephemerals.retire(self.k.ephemerals.pop(table.id, seat), by_cpu))

    async def timed_out_notice(self, table: Table, seat: str) -> None:
        if table.interaction_only or await self.spares_dm(table.id, seat):
            return  # they play from the table: its message shows the move the timer made
        text = translator(await self.k.bot.locale_of(seat))("notice.timed_out")
        await self.k.dm(table, seat, content=text)

    async def close_table(self, table: Table, build: Callable[[Translator], Payload]) -> list[Slot]:
        """The table closed: every DM hand of it (stored ones too) shows ``build(tr)``, buttons
        and turn notice gone; nothing edits them again. Their slots, returned (their workers
        show it)."""
        retiring = []
        stored = await self._restore_private_slots(table)
        # Its players' views, by their keys (issue 29: not a walk of every table's views); a
        # person's seat keeps their id when the computer takes it over.
        for seat in dict.fromkeys([*(s.id for s in table.record.seats), *stored]):
            self.waiting.forget(table.id, seat)
            self._hands.pop((table.id, seat))
            slot = self._slots.pop((table.id, seat))
            if slot is not None:
                self.k.kick(slot, functools.partial(self._retire_hand, table, seat, build))
                retiring.append(slot)
        return retiring


def _hand_left_as_is(
    hands: WaitingHands, table: Table, seat: str, slot: Slot, version: int, shown: EphemeralView
) -> bool:
    """Whether this change leaves ``seat``'s live hand ``shown`` as it is, known without a
    wait (the checks of ``PrivateViews.show_hand``'s work): it shows ``version`` already, a
    wait for its next edit is under way (``WaitingHands.waits``), or this change starts one
    (``WaitingHands.held_back``; a wait that is due is left to the worker, which ends it and
    shows the change). Not at the game's end."""
    assert table.state is not None
    if table.game.is_over(table.state):
        return False
    waiting = seat in table.game.to_act(table.state)
    if hands.waits("hand", table.id, seat, slot, waiting):
        return True
    if shown.version is not None and shown.version >= version:
        return True
    return not hands.holds_any("hand", table.id, seat) and hands.held_back(
        "hand", table.id, seat, slot, waiting, False
    )


def _not_needed_yet(
    kit: ViewKit, table_id: int, seat: str, slot: Slot, waiting: bool, finished: bool
) -> bool:
    """Nothing to act on in ``seat``'s DM hand, before (what it shows) or after (what it
    would show), and no fresh token of their click on it: it waits for their turn (a hand
    never posted waits for it too, and is not posted just to show the end). A hand that
    shows their turn is always brought up to date: no DM says "your turn" when it is not."""
    if not kit.dm_when_needed or waiting or slot.waiting:
        return False
    if finished:
        return slot.message_id is None
    return kit.tokens.fresh(("dm", table_id, seat), slot.message_id) is None


async def _restore_private(kit: ViewKit, table_id: int, seat: str, slot: Slot) -> None:
    row = await kit.shown.restore(table_id, seat)
    if row is None or slot.message_id is not None:
        return
    slot.message_id = int(row.message_id) if row.message_id else None
    slot.digest = row.state.get("digest")
    slot.image = row.state.get("image")
    slot.waiting = bool(row.state.get("waiting"))
    slot.clickable = bool(row.state.get("clickable"))
    slot.older = [int(m) for m in row.state.get("older") or []]


def _view_digest(table: Table, seat: str, finished: bool) -> str:
    """What ``seat``'s plain view payload shows, as a key: the version of the table it shows.
    One version's view is one (a pure function of the state), and every version shows a seat
    something new: its footer and its buttons carry the version, and no move of the five
    games leaves a waiting seat's view unchanged but for it (``bench/profile_dumps.py``
    counts them: none in thousands of random moves). So no view is built nor dumped to
    decide whether a hand needs an edit (issue 29: that JSON and its SHA-256 cost the loop
    ~0.15 ms a move). A digest stored by an older bot (the SHA-256 of the view's JSON, for a
    view without actions) differs from every key: it costs that message one edit, once."""
    assert table.state is not None
    version = table.state.version
    if not finished and table.game.legal_actions(table.state, seat):
        return f"actions@{version}"  # (as stored before: a hand with actions is not edited)
    return f"view@{version}"


def _in_group_dm(interaction: discord.Interaction) -> bool:
    """Whether the click comes from a group DM (a table there is no one's DM view)."""
    channel = getattr(interaction, "channel", None)
    return channel is not None and channel.type is discord.ChannelType.group
