"""Shows table changes on Discord: the table service's ``TableListener``, composed of parts
with one job each:

- ``public_view.PublicTable``: each table's public message;
- ``private_views.PrivateViews``: each player's DM hand and live "Ver mi mano" hand;
- ``mentions.TurnMentions``: the turn mention of players whose DMs are closed;
- ``view_kit.ViewKit``: what they share (the bot token's pacer and budget, the freshest
  interaction tokens, the slot workers, what the messages show for crash recovery).

``ListenerFanOut`` is who hears a change: this listener first, then the listeners beside it
(spectators' DMs, the table's thread line), each failure of those logged, never passed on.

It hears a change after it is persisted, and only ever draws what the table holds in memory,
which is committed state, so whatever a user sees has already survived a crash. Discord
failures are logged and never undo a move: the next change (or "Ver mi mano") shows the
current state again. Every view is edited through the freshest interaction token that may edit
it (outside the bot token's global limit), the bot token only when none is fresh
(``bot/ui/tokens.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextvars import ContextVar
from operator import attrgetter
from typing import Any

from bot.i18n import Translator, translator
from bot.service import Table
from bot.service.models import TableListener
from bot.ui.endings import ended_hand_payload
from bot.ui.mentions import TurnMentions
from bot.ui.messages import (
    Payload,
    closed_payload,
    lobby_payload,
    private_payload,
    public_payload,
    seat_names,
)
from bot.ui.pacer import RequestPacer
from bot.ui.private_views import PrivateViews
from bot.ui.public_view import PublicTable
from bot.ui.view_kit import ListenerHost, Slot, ViewKit
from games.core import Event

log = logging.getLogger(__name__)

__all__ = ["DiscordTableListener", "ListenerFanOut", "ListenerHost", "Slot", "lobby_shown_later"]

# Set while a change's poster answers with a view of its own (``lobby_shown_later``): its lobby
# change is not waited for until the public message shows it (the notification's delivery
# task copies the poster's context, so it reads what the poster set).
_lobby_shown_later: ContextVar[bool] = ContextVar("mesa_lobby_shown_later", default=False)


@contextlib.contextmanager
def lobby_shown_later() -> Iterator[None]:
    """Lobby changes made inside are persisted and handed to the public message's worker as
    usual, but not waited for until it has shown them: for a press answered with a view of
    its own (a Triple Triad pick's picker), whose answer the lobby's edit (a bot-token call
    waits for the global pacer) would otherwise hold past the press's budget (issue 29: at
    1,000 tables most lobby presses were deferred, two requests and the slowest acks)."""
    token = _lobby_shown_later.set(True)
    try:
        yield
    finally:
        _lobby_shown_later.reset(token)


def _of_kit(name: str) -> Any:
    """A listener attribute that is its view kit's ``name``, read (a C-level getter, as fast
    as a hand-written property) and set through."""
    return property(
        attrgetter(f"kit.{name}"), lambda listener, value: setattr(listener.kit, name, value)
    )


class DiscordTableListener:
    def __init__(self, bot: ListenerHost, pacer: RequestPacer | None = None) -> None:
        self.bot = bot
        self.kit = ViewKit(bot, pacer if pacer is not None else RequestPacer(0))
        self.kit.represent = self.represent
        self.private = PrivateViews(self.kit)
        self.mentions = TurnMentions(self.kit, self.private.spares_dm, self.private.spares_dm_now)
        self.public = PublicTable(self.kit, self.mentions.named)
        self.ephemerals = self.kit.ephemerals
        self.tokens = self.kit.tokens
        self.shown = self.kit.shown
        self.dms = self.kit.dms

    # The bot token's pacer (client.py swaps in the shard processes' shared one), the clock
    # tokens age by, and how long a player stays "watching" after a click: the kit's.
    pacer: RequestPacer = _of_kit("pacer")
    clock: Callable[[], float] = _of_kit("clock")
    notice_after: float = _of_kit("notice_after")

    # ----- TableListener ----------------------------------------------------------------
    async def lobby_changed(self, table: Table) -> None:
        def build() -> Payload:
            tr = translator(table.record.locale)
            presenter = self.bot.presenter(table.game.key)
            payload = presenter.lobby_payload(table, self.bot.tables, tr)
            return payload or lobby_payload(table, self.bot.tables, tr)

        # Lobby changes are few: they are shown before the service call returns (so whoever
        # clicked sees the lobby as it is), as are closings; not for a press that answers with
        # a view of its own (``lobby_shown_later``).
        slot = self.public.show(table, build)
        if not _lobby_shown_later.get():
            await self.kit.shown_done(slot)

    async def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> None:
        def build() -> Payload:
            if table.state is None:  # (a lobby again: cannot happen today)
                return lobby_payload(table, self.bot.tables, translator(table.record.locale))
            tr = translator(table.record.locale)
            presenter = self.bot.presenter(table.game.key)
            return public_payload(table, presenter, self.bot.tables, tr)

        public = self.public.show(table, build)
        if by_timer and actor is not None:
            self.kit.spawn(self.private.timed_out_notice(table, actor))
        over = table.record.status != "playing" or (
            table.state is not None and table.game.is_over(table.state)
        )
        private = []
        for seat in table.human_seats():
            private.append(self.private.show_private(table, seat.id))
            if not over:
                self.private.show_hand(table, seat.id)
        mention = self.mentions.show(table, over)
        if not over:
            return
        last: list[asyncio.Task[None]] = []
        if table.state is not None:  # "Ver mi mano" answers show the end, buttons off
            presenter = self.bot.presenter(table.game.key)
            last.append(
                self.kit.spawn(
                    self.ephemerals.game_over(
                        table.id,
                        _seat_ids(table),
                        lambda seat, tr: private_payload(table, presenter, seat, tr),
                    )
                )
            )
        if table.record.status != "lobby":  # (over: its game ended, or it was closed)
            self._forget_once_shown(table, [public, *private, mention], last)

    async def table_closed(self, table: Table, reason: str) -> None:
        """The public message shows the closing; every private view (DM hand, ephemeral hand)
        says the table closed, its buttons and any turn notice gone."""
        tr = translator(table.record.locale)
        await self.kit.shown_done(
            self.public.show(table, lambda: closed_payload(table, reason, tr), final=True)
        )
        mention = self.mentions.show(table, True)  # (its worker deletes the last mention)

        def closing(view_tr: Translator) -> Payload:
            return ended_hand_payload(
                table, view_tr, view_tr(f"table.closed.{reason}"), view_tr("views.closed")
            )

        last = self.kit.spawn(self.ephemerals.table_closed(table.id, _seat_ids(table), closing))
        retiring = await self.private.close_table(table, closing)
        self._forget_once_shown(table, [*retiring, mention], [last])

    def over_elsewhere(self, table: Table) -> None:
        """``table`` is over and another process presents it (it runs the shard of its guild):
        what this one holds of it (the DM views it answered clicks on, as shard 0 does for
        every shard's tables, their tokens and clicks, drafts) is forgotten once those views
        are settled, as the owner forgets its own (issue 29)."""
        self._forget_once_shown(table, [], [])

    def _forget_once_shown(
        self, table: Table, slots: Sequence[Slot | None], last: list[asyncio.Task[None]]
    ) -> None:
        """The table is over (its game ended, or it closed): once its last views are out
        (``slots``' workers and the ``last`` edits), every holder forgets it
        (``bot/ui/table_ends.py``): nothing of a finished game stays in memory (issue 29).
        Its players' other views (their live hands, a click being answered) are waited for
        too: an edit after the forgetting would keep an entry again."""
        seats = _seat_ids(table)
        slots = [*slots, *self.kit.table_slots(table.id, seats)]

        async def forget() -> None:
            await self.kit.settled(slots, last)
            self.kit.ends.over(table.id, seats)

        self.kit.spawn(forget())

    async def seat_replaced(self, table: Table, seat_id: str) -> None:
        tr = translator(table.record.locale)
        name = seat_names(table, tr)(seat_id)
        self.private.retire_seat(table, seat_id)
        await self.kit.send_channel(
            table, tr("notice.replaced_by_cpu", player=f"<@{seat_id}>", name=name)
        )

    async def seat_changed(self, table: Table, seat_id: str, change: str) -> None:
        """Tell the channel, then show the table again (names, "Volver"); a person back at
        their seat gets their private view again, on their same DM hand."""
        tr = translator(table.record.locale)
        if change != "rejoined":
            self.private.retire_seat(table, seat_id)
        else:  # back at their seat, they play from their DM hand until they press "Ver mi mano"
            self.ephemerals.pop(table.id, seat_id)
        await self.kit.send_channel(table, tr(f"notice.seat_{change}", player=f"<@{seat_id}>"))
        self.public.show_again_later(table.id)
        if table.state is not None:
            await self.game_changed(table, [], None, False)

    async def rematch_opened(self, finished: Table, rematch: Table) -> None:
        await self.public.rematch_opened(finished, rematch)

    async def represent(self, table: Table) -> None:
        """Show ``table`` again (after a restart, or an edit given up on): the public message
        if it is behind, then the DM views whose view changed."""
        self.public.show_again_later(table.id)
        if table.state is not None:
            await self.game_changed(table, [], None, False)

    async def drain(self) -> None:
        """Wait until every slot shows its table's latest state (tests, shutdown)."""
        with self.private.waiting.unheld():
            await self.kit.drain_tasks()
        await self.ephemerals.drain()
        await self.kit.places.flush()

    async def close(self, timeout: float = 5.0) -> None:
        """Let pending changes reach Discord (for ``timeout`` at most), then stop; what the
        messages show is stored."""
        try:
            await asyncio.wait_for(self.drain(), timeout)
        except TimeoutError:
            log.warning("closing with table changes not yet shown")
        await self.kit.cancel()
        await self.shown.close()
        await self.kit.places.close()


def _seat_ids(table: Table) -> list[str]:
    """Everyone seated at ``table``, the computer's seats too: a person's seat keeps their id
    when the computer takes it over (``bot/service/seats.to_computer``), so these are the keys
    of every view and click the table's players ever had (issue 29: a table's end looks them
    up instead of walking every table's)."""
    return [seat.id for seat in table.record.seats]


class ListenerFanOut:
    """The one listener the table service tells (``bot/service/notify.py``): ``main`` (the
    table messages) first, then the ``extra`` listeners beside it; an extra one's failure is
    logged, never passed on, so the main listener's guarantees and errors stay as they are."""

    def __init__(self, main: TableListener, extra: Sequence[TableListener]) -> None:
        self.main = main
        self.extra = list(extra)

    async def _also(self, call: Callable[[TableListener], Awaitable[None]]) -> None:
        for listener in self.extra:
            try:
                await call(listener)
            except Exception:  # a spectator's DM must not fail a move
                log.exception("listener %s failed", type(listener).__name__)

    async def lobby_changed(self, table: Table) -> None:
        try:
            await self.main.lobby_changed(table)
        finally:
            await self._also(lambda one: one.lobby_changed(table))

    async def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> None:
        try:
            await self.main.game_changed(table, events, actor, by_timer)
        finally:
            await self._also(lambda one: one.game_changed(table, events, actor, by_timer))

    async def table_closed(self, table: Table, reason: str) -> None:
        try:
            await self.main.table_closed(table, reason)
        finally:
            await self._also(lambda one: one.table_closed(table, reason))

    async def seat_replaced(self, table: Table, seat_id: str) -> None:
        try:
            await self.main.seat_replaced(table, seat_id)
        finally:
            await self._also(lambda one: one.seat_replaced(table, seat_id))

    async def seat_changed(self, table: Table, seat_id: str, change: str) -> None:
        try:
            await self.main.seat_changed(table, seat_id, change)
        finally:
            await self._also(lambda one: one.seat_changed(table, seat_id, change))

    async def rematch_opened(self, finished: Table, rematch: Table) -> None:
        try:
            await self.main.rematch_opened(finished, rematch)
        finally:
            await self._also(lambda one: one.rematch_opened(finished, rematch))
