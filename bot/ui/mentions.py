"""Turn mentions for players no DM tells of their turn (their DMs are closed, or they play from
the table: ``PrivateViews.spares_dm``): one live channel message per table naming the seats to
act, deleted when the turn passes; posted as a follow-up of a fresh table token when there is
one (outside the bot token's budget), and deleted through it. A player playing right now from
their live "Ver mi mano" hand is not named (``TurnMentions._watching``)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import discord

from bot import metrics
from bot.i18n import translator
from bot.service import Table
from bot.ui.pacer import Priority
from bot.ui.view_kit import Slot, ViewKit, timed_rest

log = logging.getLogger(__name__)


@dataclass(eq=False, repr=False)
class TurnMentions:
    """Each table's one live turn mention."""

    k: ViewKit
    # (table, seat): whether no DM tells them of their turn there
    _spared: Callable[[int, str], Awaitable[bool]] | None = None
    # the same when known without a wait (None: not known yet)
    _spared_now: Callable[[int, str], bool | None] | None = None
    _slots: dict[int, Slot] = field(init=False, default_factory=dict)

    async def named(self, table: Table, seat: str) -> bool:
        """Whether ``seat`` acts from the table (no DM tells them of their turn there): the
        public message, and this mention, are their view."""
        if table.interaction_only:
            return True  # nobody gets a DM there (bot/ui/anywhere.py)
        if await self.k.dms.marked_closed(seat):
            return True
        return self._spared is not None and await self._spared(table.id, seat)

    def _named_now(self, table: Table, seat: str) -> bool | None:
        """``named`` when known without a wait (what the DM gate and where the player plays
        already know); None when only ``named`` can tell."""
        if table.interaction_only:
            return True
        closed = self.k.dms.known_closed(seat)
        if closed is None or closed:
            return closed
        return None if self._spared_now is None else self._spared_now(table.id, seat)

    def _watching(self, table_id: int, seat: str) -> bool:
        """Whether ``seat`` is playing at this table right now, so that no mention names them.

        Product decision (issue 29: a mention costs a post and a delete, 0.42 requests per
        move in session 18's load): a player who clicked at this table within ``notice_after``
        seconds (``ViewKit.last_click``) and whose live "Ver mi mano" hand follows the table
        sees their turn there, at once (a change that makes it their turn is never held:
        ``WaitingHands.held_back``); a ping at every turn of a game they are playing is noise,
        as a DM player who is playing gets no turn notice (``PrivateViews._turn_notice``). One
        who has not clicked for that long, or has no live hand, is named as before."""
        last = self.k.last_click.get((table_id, seat))
        return (
            last is not None
            and self.k.clock() - last < self.k.notice_after
            and self.k.ephemerals.live(table_id, seat) is not None
        )

    def __post_init__(self) -> None:
        self.k.ends.subscribe(self.forget)

    def forget(self, table_id: int, seats: Sequence[str]) -> None:
        """``table_id`` is over (``bot/ui/table_ends.py``): no mention of it is kept."""
        slot = self._slots.get(table_id)
        if slot is not None and slot.idle():
            del self._slots[table_id]

    def show(self, table: Table, over: bool) -> Slot | None:
        """Keep the table's one turn mention naming the players to act no DM tells (none once
        ``over``); its slot, when its worker has something to do."""
        slot = self._slots.get(table.id)
        if slot is None:
            slot = self._slots[table.id] = Slot(kind="mention")  # its first change restores
        elif not slot.mention and slot.idle() and not self._may_name(table, over):
            # No live mention and nobody it could name (a computer or a watching player to
            # act): its worker would find the same empty mention (issue 29: a task and its
            # trace for most moves).
            if over:
                self._slots.pop(table.id, None)
            return None
        self.k.kick(slot, lambda shown: self._present_mention(table, shown, over))
        if over:
            self._slots.pop(table.id, None)  # its worker deletes the last mention
        return slot

    def _may_name(self, table: Table, over: bool) -> bool:
        """Whether a seat to act may be named: a person not watching whom ``named`` may name
        (one known to play from their open DMs is not: issue 29, a worker for ~half the
        moves of DM players' tables, to find the same empty mention)."""
        if over or table.state is None:
            return False
        to_act = table.game.to_act(table.state)
        # (a loop, not ``any`` of a generator: a resumed generator frame per seat, every move)
        for seat in table.human_seats():
            if seat.id not in to_act:
                continue
            if (
                not self._watching(table.id, seat.id)
                and self._named_now(table, seat.id) is not False
            ):
                return True
        return False

    async def _present_mention(self, table: Table, slot: Slot, over: bool) -> None:
        row = await self.k.shown.restore(table.id, "@mention")
        if row is not None and slot.message_id is None and row.message_id:
            slot.message_id = int(row.message_id)
            slot.mention = tuple(row.state.get("seats") or ())
        seats: list[str] = []
        if not over and table.state is not None:
            to_act = table.game.to_act(table.state)
            humans = {s.id for s in table.human_seats()}
            for seat in table.state.seats:
                if (
                    seat in to_act
                    and seat in humans
                    and not self._watching(table.id, seat)
                    and await self.named(table, seat)
                ):
                    seats.append(seat)
        if tuple(seats) == slot.mention:
            return  # the same turn: the live mention still says it
        if table.interaction_only:  # through the table's tokens only (bot/ui/anywhere.py)
            await self._present_by_token(table, slot, seats)
            return
        channel = self.k.bot.get_partial_messageable(int(table.record.channel_id))
        if slot.message_id is not None:
            metrics.count("why.mention_delete")
            try:
                via = slot.mention_hook
                if via is not None and self.k.clock() < via.until:
                    # posted as a table token's follow-up: deleted through it (exempt)
                    await timed_rest(
                        via.interaction.followup.delete_message(slot.message_id),
                        "mention_hook_delete",
                    )
                else:
                    await timed_rest(
                        channel.get_partial_message(slot.message_id).delete(),
                        "channel_delete",
                        self.k.pacer,
                    )
            except discord.HTTPException:
                log.info("could not delete the turn mention of table %s", table.id)
            slot.message_id, slot.mention_hook = None, None
        slot.mention = tuple(seats)
        if not seats:
            self.k.shown.mention(table.id, None, ())
            return
        tr = translator(table.record.locale)
        text = tr("notice.turn_mention", player=", ".join(f"<@{s}>" for s in seats), table=table.id)
        mentions = discord.AllowedMentions(users=True)
        metrics.count("why.mention_post")
        hook = self.k.tokens.fresh(("public", table.id), None)
        message: discord.Message | None = None
        if hook is not None:  # a follow-up of a fresh table token: outside the bot's budget
            try:
                message = await timed_rest(
                    hook.interaction.followup.send(
                        content=text, allowed_mentions=mentions, wait=True
                    ),
                    "mention_hook_send",
                )
                slot.mention_hook = hook
            except discord.HTTPException as exc:
                log.info("a turn mention through a table token was refused (%s)", exc.code)
                self.k.tokens.drop(("public", table.id), hook)
        try:
            if message is None:
                message = await timed_rest(
                    channel.send(content=text, allowed_mentions=mentions),
                    "channel_send",
                    self.k.pacer,
                    Priority.NEXT_PLAYER,
                )
            slot.message_id = message.id
            self.k.shown.mention(table.id, message.id, slot.mention)
        except discord.HTTPException:
            log.exception("could not mention the players to act at table %s", table.id)

    async def _present_by_token(self, table: Table, slot: Slot, seats: list[str]) -> None:
        """An interaction-only table's turn mention: a follow-up of a fresh table token,
        deleted through the token that posted it while it lives (else left: the bot token
        cannot reach that channel)."""
        via = slot.mention_hook
        if slot.message_id is not None and via is not None and self.k.clock() < via.until:
            metrics.count("why.mention_delete")
            try:
                await timed_rest(
                    via.interaction.followup.delete_message(slot.message_id),
                    "mention_hook_delete",
                )
            except discord.HTTPException:
                log.info("could not delete the turn mention of table %s", table.id)
        slot.message_id, slot.mention_hook = None, None
        slot.mention = tuple(seats)
        hook = self.k.tokens.fresh(("public", table.id), None)
        if not seats or hook is None:
            self.k.shown.mention(table.id, None, ())
            return
        tr = translator(table.record.locale)
        text = tr("notice.turn_mention", player=", ".join(f"<@{s}>" for s in seats), table=table.id)
        metrics.count("why.mention_post")
        try:
            message = await timed_rest(
                hook.interaction.followup.send(
                    content=text, allowed_mentions=discord.AllowedMentions(users=True), wait=True
                ),
                "mention_hook_send",
            )
        except discord.HTTPException as exc:
            log.info("a turn mention through a table token was refused (%s)", exc.code)
            self.k.tokens.drop(("public", table.id), hook)
            return
        slot.message_id, slot.mention_hook = message.id, hook
        self.k.shown.mention(table.id, message.id, slot.mention)
