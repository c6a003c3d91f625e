"""Telling the listener, outside the table lock, in version order per table.

The move path holds the table lock only for version check -> apply -> persist. Before releasing
it, it *posts* the notification here; the notification is delivered after the lock is gone, so a
slow Discord call (or discord.py's retry back-off) never blocks the next move at that table.

Ordering guarantee (see also ``TableListener`` in models.py): notifications of one table are
delivered one at a time, in the order they were posted, and they are posted under the table's
lock right after the change committed, so in commit (= version) order. Different tables are
delivered concurrently. The caller awaits its own delivery (``await delivery``) so an action
still returns after it has been presented, and its presentation errors reach it as before; a
caller that is cancelled does not cancel the delivery (later ones still wait for it).

Who hears them: the main listener (Discord's table messages) first, then others beside it
(spectators' DMs, the table's thread line: ``ListenerFanOut``). An extra listener's failure is
logged, never passed on: the main listener's guarantees and errors stay as they are. (The
fan-out lives here, not in a module of its own, so a click's delivery is one file to read.)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Generator, Sequence
from typing import Any

from bot import metrics
from bot.service.models import Table, TableListener
from games.core import Event

log = logging.getLogger(__name__)


def as_of(table: Table) -> Callable[[], Table]:
    """Freeze ``table`` as it is now (the change being posted); the returned function builds,
    at delivery time, the table the listener sees: this version's record, state and events,
    with the *current* ``message_id`` (presentation state an earlier delivery may have set)."""
    record = table.record.model_copy()
    state, events = table.state, list(table.last_events)
    actor, by_timer = table.last_actor, table.last_by_timer

    def build() -> Table:
        frozen = record.model_copy(update={"message_id": table.record.message_id})
        return Table(
            record=frozen,
            game=table.game,
            state=state,
            lock=table.lock,
            last_events=events,
            last_actor=actor,
            last_by_timer=by_timer,
        )

    return build


class Delivery:
    """One posted notification; ``await`` it to wait until the listener was called."""

    def __init__(self, task: asyncio.Task[None]) -> None:
        self._task = task

    def __await__(self) -> Generator[Any, None, None]:
        return asyncio.shield(self._task).__await__()

    @property
    def task(self) -> asyncio.Task[None]:
        return self._task


class Notifications:
    def __init__(self, listener: TableListener) -> None:
        self.listener = listener
        self._tails: dict[int, asyncio.Task[None]] = {}

    def post(self, table_id: int, call: Callable[[], Awaitable[None]]) -> Delivery:
        """Deliver ``call()`` after every notification posted earlier for ``table_id``."""
        before = self._tails.get(table_id)
        task = asyncio.create_task(self._deliver(before, call), name=f"notify-{table_id}")
        self._tails[table_id] = task
        task.add_done_callback(lambda done: self._finished(table_id, done))
        return Delivery(task)

    def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> Delivery:
        at = as_of(table)
        return self.post(
            table.id, lambda: self.listener.game_changed(at(), events, actor, by_timer)
        )

    def lobby_changed(self, table: Table) -> Delivery:
        at = as_of(table)
        return self.post(table.id, lambda: self.listener.lobby_changed(at()))

    def table_closed(self, table: Table, reason: str) -> Delivery:
        at = as_of(table)
        return self.post(table.id, lambda: self.listener.table_closed(at(), reason))

    def seat_replaced(self, table: Table, seat_id: str) -> Delivery:
        at = as_of(table)
        return self.post(table.id, lambda: self.listener.seat_replaced(at(), seat_id))

    def pending(self, table_id: int) -> bool:
        """Whether a notification of ``table_id`` is posted and not yet delivered."""
        return table_id in self._tails

    async def idle(self, table_id: int) -> None:
        """Wait until every notification posted so far for ``table_id`` was delivered."""
        tail = self._tails.get(table_id)
        if tail is not None:
            await asyncio.wait({tail})

    async def drain(self, timeout: float) -> None:
        """On shutdown: let posted notifications finish for up to ``timeout`` s, then cancel."""
        tails = set(self._tails.values())
        if not tails:
            return
        _, late = await asyncio.wait(tails, timeout=timeout)
        for task in late:
            task.cancel()
        if late:
            await asyncio.wait(late)

    @staticmethod
    async def _deliver(
        before: asyncio.Task[None] | None, call: Callable[[], Awaitable[None]]
    ) -> None:
        if before is not None and not before.done():
            await asyncio.wait({before})  # its outcome is its poster's business
        start = time.perf_counter()
        try:
            await call()
        finally:
            metrics.observe("notify", (time.perf_counter() - start) * 1000)

    def _finished(self, table_id: int, task: asyncio.Task[None]) -> None:
        if self._tails.get(table_id) is task:
            del self._tails[table_id]
        if not task.cancelled() and task.exception() is not None:
            # Retrieved here so an unawaited failure is logged once, not as "never retrieved";
            # an awaiting poster gets it raised as well.
            log.debug("notification failed at table %s", table_id, exc_info=task.exception())


class ListenerFanOut:
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
