"""Turn timers: when a person waited on does not act in time the computer plays their
default action; after ``timeouts_before_replacement`` timed-out turns in a row it takes the seat.
A turn counts once however many actions of a chain the timer plays in it (issue 31)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.service.context import ServiceContext
from bot.service.models import Table
from bot.service.moves import Moves
from bot.service.seats import to_computer
from bot.service.tasks import TableTasks


class TurnTimers:
    def __init__(
        self, ctx: ServiceContext, moves: Moves, after_change: Callable[[Table], None]
    ) -> None:
        self.ctx = ctx
        self.moves = moves
        self._after_change = after_change
        self._tasks = TableTasks("timer")

    def waiting_humans(self, table: Table) -> list[str]:
        if table.state is None or table.game.is_over(table.state):
            return []
        to_act = table.game.to_act(table.state)
        return [s.id for s in table.record.seats if not s.is_cpu and s.id in to_act]

    def restart(self, table: Table, seconds: float | None = None) -> None:
        """Arm the table's turn timer: a full turn, or ``seconds`` (the time a turn had left
        when the bot restarted)."""
        self.cancel(table.id)
        if self.ctx.closing or not self.waiting_humans(table):
            return
        self._tasks.start(table.id, self._run(table, table.version, seconds))

    def cancel(self, table_id: int) -> None:
        self._tasks.cancel(table_id)

    def armed(self, table_id: int) -> bool:
        return self._tasks.running(table_id)

    def tasks(self) -> list[asyncio.Task]:
        return self._tasks.all()

    def clear(self) -> None:
        self._tasks.clear()

    async def _run(self, table: Table, version: int, seconds: float | None) -> None:
        await self.ctx.sleep(self.ctx.turn_seconds(table) if seconds is None else seconds)
        self._tasks.forget_current(table.id)
        await self.expire_turn(table.id, version)

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
                _, delivery = await self.moves.act_locked(
                    table, seat, table.version, action.encode(), by_timer=True
                )
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
