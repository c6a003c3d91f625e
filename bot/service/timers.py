"""Turn timers: when a person waited on does not act in time the computer plays their
default action; after ``timeouts_before_replacement`` timed-out turns in a row it takes the seat.
A turn counts once however many actions of a chain the timer plays in it (issue 31).

While Discord is away (the gateway disconnected: no click can reach the bot) the timers are
suspended (``suspend``): nobody is timed out for a click they could not make. When it is back
(``resume``) each timer runs on with the time it had left; those that had (almost) none left
are spread ``OVERDUE_SPACING`` apart, as after a restart, so the return is not a storm of
computer moves."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.service.context import ServiceContext
from bot.service.models import Table
from bot.service.moves import Move, Moves
from bot.service.seats import to_computer
from bot.service.wake import OverdueSpreader
from storage import StorageUnavailable

log = logging.getLogger(__name__)

# A timeout the database could not save is played again after this long (the turn is still
# the player's meanwhile; their click wins if it comes first).
RETRY_SECONDS = 2.0


# A deadline this close (seconds) is due when its handle fires (a loop handle may run up to
# the clock's resolution before its time).
DUE_WITHIN = 0.001


class TurnTimers:
    """One turn timer per table waiting on a person. Its deadline moves at every move; on the
    loop's own clock the armed handle is kept while it fires no later than the new deadline,
    and when it fires before the deadline (a move moved it) it is armed again for the rest:
    a move costs a deadline stored, not a handle cancelled and another armed (issue 29,
    session 31: ``restart`` 22-35 us a move live; a move's restart, hot with a stand-in
    table whose engine calls cost nothing, 22,226 -> 13,860 instructions on uvloop (the
    bot's loop), 33,348 -> 13,711 on asyncio's), nor a cancelled handle left in the loop's
    timers per move. A shorter turn than the handle's (a
    restart's time left) arms a new one; with an injected sleep (tests' clocks) every restart
    arms anew, as its clock is not the loop's."""

    def __init__(
        self, ctx: ServiceContext, moves: Moves, after_change: Callable[[Table], None]
    ) -> None:
        self.ctx = ctx
        self.moves = moves
        self._after_change = after_change
        # table id -> the timer that fires for it (a loop timer handle: no task sleeps per
        # turn); it may fire before the deadline, or after the table was disarmed
        self._armed: dict[int, asyncio.TimerHandle | asyncio.Task[None]] = {}
        # table id -> its deadline (the loop's clock), and the table and version it times
        # out: present while the table's timer is armed
        self._deadlines: dict[int, float] = {}
        self._due: dict[int, tuple[Table, int]] = {}
        self._expiring: set[asyncio.Task[None]] = set()  # timeouts being played
        # While suspended: table id -> (table, seconds its turn had left)
        self._suspended: dict[int, tuple[Table, float]] | None = None

    def waiting_humans(self, table: Table) -> list[str]:
        if table.state is None or table.game.is_over(table.state):
            return []
        to_act = table.game.to_act(table.state)
        return [s.id for s in table.record.seats if not s.is_cpu and s.id in to_act]

    def restart(self, table: Table, seconds: float | None = None) -> None:
        """Arm the table's turn timer: a full turn, or ``seconds`` (the time a turn had left
        when the bot restarted)."""
        if self.ctx.closing or not self.waiting_humans(table):
            self._disarm(table.id)
            return
        if table.interaction_only and self.ctx.held(table):
            self._disarm(table.id)
            return  # armed again when it is released
        left = self.ctx.turn_seconds(table) if seconds is None else seconds
        if self._suspended is not None:  # armed when Discord is back
            self.cancel(table.id)
            self._suspended[table.id] = (table, left)
            return
        deadline = asyncio.get_running_loop().time() + left
        self._deadlines[table.id] = deadline
        self._due[table.id] = (table, table.version)
        armed = self._armed.get(table.id)
        if _loop_handle(armed) and armed.when() <= deadline:  # type: ignore[union-attr]
            return  # it fires first, and is armed again for the rest (``_fire``)
        if armed is not None:
            armed.cancel()
        self._armed[table.id] = self.ctx.later(left, self._fire, table.id)

    def _disarm(self, table_id: int) -> None:
        """No timer for the table: a loop handle is left to fire into nothing (or to serve
        its next turn, ``restart``), other timers are cancelled."""
        if _loop_handle(self._armed.get(table_id)):
            self._deadlines.pop(table_id, None)
            self._due.pop(table_id, None)
            if self._suspended is not None:
                self._suspended.pop(table_id, None)
            return
        self.cancel(table_id)

    def cancel(self, table_id: int) -> None:
        timer = self._armed.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        self._deadlines.pop(table_id, None)
        self._due.pop(table_id, None)
        if self._suspended is not None:
            self._suspended.pop(table_id, None)

    def armed(self, table_id: int) -> bool:
        return table_id in self._deadlines or (
            self._suspended is not None and table_id in self._suspended
        )

    @property
    def suspended(self) -> bool:
        return self._suspended is not None

    def suspend(self) -> None:
        """Stop every turn timer, keeping the time each had left."""
        if self._suspended is not None:
            return
        now = asyncio.get_running_loop().time()
        suspended: dict[int, tuple[Table, float]] = {}
        for table_id, deadline in list(self._deadlines.items()):
            table = self.ctx.tables.get(table_id)
            if table is not None:
                suspended[table_id] = (table, max(0.0, deadline - now))
        for table_id in list(self._armed):
            self.cancel(table_id)
        self._suspended = suspended

    def resume(self) -> int:
        """Run the suspended timers on with the time they had left, the overdue ones spread;
        returns how many."""
        suspended, self._suspended = self._suspended or {}, None
        spreader = OverdueSpreader(0.0)  # "now" is 0: a deadline is the time left
        for table, left in sorted(suspended.values(), key=lambda entry: entry[1]):
            self.restart(table, spreader.delay(left, left))
        return len(suspended)

    def tasks(self) -> list[asyncio.Task]:
        """The timeouts being played, and the timers that sleep in a task (an injected sleep)."""
        sleeping = [t for t in self._armed.values() if isinstance(t, asyncio.Task)]
        return [*self._expiring, *sleeping]

    def clear(self) -> None:
        for timer in self._armed.values():
            timer.cancel()
        self._armed.clear()
        self._expiring.clear()
        self._deadlines.clear()
        self._due.clear()
        self._suspended = None

    def _fire(self, table_id: int) -> None:
        """The table's timer fired: before its deadline (a move moved it) it is armed again for
        the rest; at it, the timeout is played in a task of its own (a restart of the timer
        meanwhile, e.g. by that very move, arms a new one and cancels nothing)."""
        fired = self._armed.pop(table_id, None)
        deadline = self._deadlines.get(table_id)
        if deadline is None:
            return  # disarmed since it was armed
        if _loop_handle(fired):
            rest = deadline - asyncio.get_running_loop().time()
            if rest > DUE_WITHIN:
                self._armed[table_id] = self.ctx.later(rest, self._fire, table_id)
                return
        del self._deadlines[table_id]
        table, version = self._due.pop(table_id)
        task = asyncio.get_running_loop().create_task(
            self._run(table, version), name=f"timer-{table_id}"
        )
        self._expiring.add(task)
        task.add_done_callback(self._expiring.discard)

    async def _run(self, table: Table, version: int) -> None:
        try:
            await self.expire_turn(table.id, version)
        except StorageUnavailable:
            log.warning("turn timeout at table %s not saved; retrying", table.id)
            if table.version == version:
                self.restart(table, RETRY_SECONDS)

    async def expire_turn(self, table_id: int, version: int | None = None) -> list[str]:
        """The computer plays for every waited-on human seat; returns the seats played for."""
        table = self.ctx.get(table_id)
        played: list[str] = []
        replaced: list[str] = []
        deliveries = []
        async with table.lock:
            if version is not None and table.version != version:
                return []
            for seat in self.waiting_humans(table):
                if table.state is None or seat not in table.game.to_act(table.state):
                    continue
                action = table.game.default_action(table.state, seat)
                meta_before, seats_before = table.record.meta, table.record.seats
                meta = dict(table.record.meta)
                timeouts = {**meta.get("timeouts", {})}
                timed_out = {**meta.get("timed_out_at", {})}
                # A chain (Amapatolli's double play) keeps the seat to act after the default
                # action: nobody moved since, so it is the same turn and counts once.
                if timed_out.get(seat) != table.version:
                    timeouts[seat] = timeouts.get(seat, 0) + 1
                timed_out[seat] = table.version + 1  # the version this default action makes
                meta["timeouts"] = timeouts
                meta["timed_out_at"] = timed_out
                table.record.meta = meta
                if timeouts[seat] >= self.ctx.config.timeouts_before_replacement:
                    table.record.seats = to_computer(self.ctx, table, seat)  # table's level
                    replaced.append(seat)
                try:
                    _, delivery = await self.moves.act_locked(
                        table,
                        Move(seat, table.version, action.encode(), by_timer=True, action=action),
                    )
                except BaseException:  # not saved: memory keeps what the database has
                    table.record.meta, table.record.seats = meta_before, seats_before
                    if seat in replaced:
                        replaced.remove(seat)
                    raise
                deliveries.append(delivery)
                played.append(seat)
                if table.record.status != "playing":
                    break
            # Posted under the lock: they reach the listener after the moves, before any later
            # change of this table.
            deliveries += [self.ctx.notify.seat_replaced(table, seat) for seat in replaced]
        try:
            for delivery in deliveries:
                await delivery
        finally:
            self._after_change(table)
        return played


def _loop_handle(timer: object) -> bool:
    """Whether ``timer`` is a loop's timer handle (on the loop's clock: asyncio's, or uvloop's,
    which is no ``asyncio.TimerHandle``), not a task sleeping on an injected clock."""
    return timer is not None and not isinstance(timer, asyncio.Task)
