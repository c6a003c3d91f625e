"""Telling the listener, outside the table lock, in version order per table.

The move path holds the table lock only for version check -> apply -> persist. Before releasing
it, it *posts* the notification here; the notification is delivered after the lock is gone, so a
slow Discord call (or discord.py's retry back-off) never blocks the next move at that table.

Ordering guarantee (see also ``TableListener`` in models.py): notifications of one table are
delivered one at a time, in the order they were posted, and they are posted under the table's
lock right after the change committed, so in commit (= version) order. Different tables are
delivered concurrently. Two ways to be delivered:

- ``post`` (``Delivery``): by a task of its own; the caller may await it (``await delivery``)
  so an action still returns after it has been presented, with its presentation errors; a
  caller that is cancelled does not cancel the delivery (later ones still wait for it).
- ``turn`` (``Turn``): by its poster, in the poster's own task, once every earlier one of its
  table was delivered (``async with turn as tell: await tell()``): a person's move (the click
  path, ``Moves.play``) and a computer's (``ComputerTurns``, ``Moves.act_locked_told``) tell
  the listener themselves, no task and no loop turn between the commit and its views, and a
  reader follows the click from the move straight to the listener. A
  poster cancelled before its turn came hands the delivery to a task; once told, the listener's
  call is the poster's (the Discord listener's ``game_changed`` only queues its views).

Who hears them: ``bot/ui/listener.py``'s ``ListenerFanOut`` (the table messages first, then the
listeners beside them); here, only the one listener the service was given.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Generator
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
        # Built once, for its one listener call: the snapshot is copied again only when the
        # message id changed since (a pydantic copy is ~7-12 us; issue 29).
        current = table.record.message_id
        frozen = (
            record
            if record.message_id == current
            else record.model_copy(update={"message_id": current})
        )
        return Table(
            record=frozen,
            game=table.game,
            state=state,
            lock=table.lock,
            last_events=events,
            last_actor=actor,
            last_by_timer=by_timer,
            read_options=table.read_options,  # (the same options: read once per table)
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


class Turn:
    """A notification its poster delivers itself, once its table's earlier ones were:
    ``async with turn as tell: await tell()`` (entering waits for the turn; ``tell()`` is the
    listener's call, made from the poster's own frame)."""

    def __init__(
        self,
        before: asyncio.Future[None] | None,
        call: Callable[[], Awaitable[None]],
        hand_on: Callable[[], None],
        told: Callable[[], None],
    ) -> None:
        self._before, self._call, self._hand_on, self._told = before, call, hand_on, told
        self._start = 0.0

    async def __aenter__(self) -> Callable[[], Awaitable[None]]:
        before = self._before
        if before is not None and not before.done():
            try:
                await asyncio.wait({before})  # its outcome is its poster's business
            except asyncio.CancelledError:
                self._hand_on()  # committed, so shown: by a task of its own after all
                raise
        self._start = time.perf_counter()
        return self._call

    async def __aexit__(self, *exc: object) -> None:
        # (``metrics.observe``'s own, without its call: every move)
        metrics.histograms["notify"].add((time.perf_counter() - self._start) * 1000)
        self._told()


class Notifications:
    def __init__(self, listener: TableListener) -> None:
        self.listener = listener
        # Each table's last notification: a delivery's task, or a turn's settled-when-told.
        self._tails: dict[int, asyncio.Future[None]] = {}

    def post(self, table_id: int, call: Callable[[], Awaitable[None]]) -> Delivery:
        """Deliver ``call()`` after every notification posted earlier for ``table_id``."""
        before = self._tails.get(table_id)
        task = asyncio.create_task(self._deliver(before, call), name=f"notify-{table_id}")
        self._line_up(table_id, task)
        return Delivery(task)

    def turn(self, table: Table, events: list[Event], actor: str | None, by_timer: bool) -> Turn:
        """``game_changed`` for a poster that tells the listener itself (see ``Turn``)."""
        at, before = as_of(table), self._tails.get(table.id)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._line_up(table.id, done)

        def call() -> Awaitable[None]:
            return self.listener.game_changed(at(), events, actor, by_timer)

        def told() -> None:
            # Out of the line at once, not a loop turn later (its done callbacks): the poster
            # goes on to ``after_change``, which releases a finished table once none is pending.
            if not done.done():  # (cancelled by a shutdown's drain meanwhile)
                done.set_result(None)
            self._finished(table.id, done)

        def handed_on(task: asyncio.Task[None]) -> None:
            self._finished(table.id, task)  # its failure logged (nobody awaits it)
            told()

        def hand_on() -> None:
            task = asyncio.create_task(self._deliver(before, call), name=f"notify-{table.id}")
            task.add_done_callback(handed_on)

        return Turn(before, call, hand_on, told)

    def _line_up(self, table_id: int, tail: asyncio.Future[None]) -> None:
        self._tails[table_id] = tail
        tail.add_done_callback(lambda done: self._finished(table_id, done))

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
        before: asyncio.Future[None] | None, call: Callable[[], Awaitable[None]]
    ) -> None:
        if before is not None and not before.done():
            await asyncio.wait({before})  # its outcome is its poster's business
        start = time.perf_counter()
        try:
            await call()
        finally:
            metrics.observe("notify", (time.perf_counter() - start) * 1000)

    def _finished(self, table_id: int, task: asyncio.Future[None]) -> None:
        if self._tails.get(table_id) is task:
            del self._tails[table_id]
        if not task.cancelled() and task.exception() is not None:
            # Retrieved here so an unawaited failure is logged once, not as "never retrieved";
            # an awaiting poster gets it raised as well.
            log.debug("notification failed at table %s", table_id, exc_info=task.exception())
