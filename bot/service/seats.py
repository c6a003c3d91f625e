"""Seats of a game in progress: a person leaves (the computer plays their seat on), comes back
to a seat the computer took (after leaving or after too many timeouts), or is removed by the
host or a member who may manage the channel.

A person's seat keeps their id whoever plays it; ``cpu_level`` says the computer plays it now.
Removed people are listed in ``meta["kicked"]`` and may not come back. Both are stored with the
table, so a restart keeps them. Standings are those of a seat the timer handed to the computer:
the person still counts (``results.standing_deltas``). When no seat is left to a person, the
table closes as empty (a game of computers only counts for nobody).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from bot.errors import TableError
from bot.service.context import ServiceContext
from bot.service.lobby import Lobby
from bot.service.models import Table, is_human_id
from bot.service.notify import as_of
from storage import SeatInfo

SeatChange = Literal["left", "kicked", "rejoined"]
KICKED = "kicked"  # meta key: the people removed from the game


def kicked(table: Table) -> set[str]:
    return set(table.record.meta.get(KICKED) or [])


def computer_level(ctx: ServiceContext, table: Table, seat: SeatInfo) -> str:
    """The level the computer plays a person's seat at once it takes it over (they left, were
    removed or timed out too often): the table's own computer level."""
    return seat.cpu_level or ctx.table_options(table).cpu_level


def to_computer(ctx: ServiceContext, table: Table, user_id: str) -> list[SeatInfo]:
    """``table``'s seats with ``user_id``'s played by the computer (at ``computer_level``)."""
    return [
        s.model_copy(update={"cpu_level": computer_level(ctx, table, s)}) if s.id == user_id else s
        for s in table.record.seats
    ]


def reclaimable(table: Table) -> list[SeatInfo]:
    """People's seats the computer plays now whose owner may take them back."""
    if table.record.status != "playing":
        return []
    out = kicked(table)
    return [s for s in table.record.seats if s.is_cpu and is_human_id(s.id) and s.id not in out]


class SeatChanges:
    def __init__(
        self, ctx: ServiceContext, lobby: Lobby, *, after_change: Callable[[Table], None]
    ) -> None:
        self.ctx = ctx
        self.lobby = lobby
        self._after_change = after_change

    async def leave(self, table_id: int, user_id: str) -> Table:
        """``user_id`` leaves the game; the computer (at the table's level) plays their seat."""
        table = self.ctx.get(table_id)
        async with table.lock:
            seat = self._person_seat(table, user_id)
            if seat.is_cpu:
                raise TableError("already_left")
            closed = await self._to_computer(table, user_id, kick=False)
        await self._tell(table, user_id, "left", closed)
        return table

    async def rejoin(self, table_id: int, user_id: str) -> Table:
        """``user_id`` takes back their seat from the computer; their timeouts start over."""
        table = self.ctx.get(table_id)
        async with table.lock:
            seat = self._person_seat(table, user_id)
            if user_id in kicked(table):
                raise TableError("kicked")
            if not seat.is_cpu:
                raise TableError("not_replaced")
            seats = [
                s.model_copy(update={"cpu_level": None}) if s.id == user_id else s
                for s in table.record.seats
            ]
            await self._save(
                table, seats, table.record.host_id, self._reset_timeouts(table, user_id)
            )
        await self._tell(table, user_id, "rejoined", closed=False)
        return table

    async def kick(
        self, table_id: int, by: str, seat_id: str, *, may_manage: bool = False
    ) -> Table:
        """The host (or a member who may manage the channel) removes ``seat_id``: the computer
        plays their seat and they may not take it back."""
        table = self.ctx.get(table_id)
        async with table.lock:
            self._require_playing(table)
            if by != table.record.host_id and not may_manage:
                raise TableError("not_host_kick")
            if seat_id == by:
                raise TableError("kick_yourself")
            if not is_human_id(seat_id) or table.seat(seat_id) is None:
                raise TableError("not_a_seated_person")
            if seat_id in kicked(table):
                raise TableError("already_kicked")
            closed = await self._to_computer(table, seat_id, kick=True)
        await self._tell(table, seat_id, "kicked", closed)
        return table

    # ----- helpers --------------------------------------------------------------------------
    @staticmethod
    def _require_playing(table: Table) -> None:
        if table.record.status != "playing" or table.state is None:
            raise TableError("not_playing")

    def _person_seat(self, table: Table, user_id: str) -> SeatInfo:
        self._require_playing(table)
        seat = table.seat(user_id)
        if seat is None or not is_human_id(user_id):
            raise TableError("not_seated")
        return seat

    @staticmethod
    def _reset_timeouts(table: Table, user_id: str) -> dict[str, Any]:
        meta = dict(table.record.meta)
        meta["timeouts"] = {**meta.get("timeouts", {}), user_id: 0}
        return meta

    async def _to_computer(self, table: Table, user_id: str, *, kick: bool) -> bool:
        """Hand ``user_id``'s seat to the computer (caller holds the lock); True when nobody is
        left to play and the table closed."""
        seats = to_computer(self.ctx, table, user_id)
        people = [s.id for s in seats if not s.is_cpu]
        if not people:
            await self.lobby.close_locked(table, "cancelled")
            return True
        meta = self._reset_timeouts(table, user_id)
        if kick:
            meta[KICKED] = sorted({*kicked(table), user_id})
        host = table.record.host_id
        if host == user_id:  # the longest-seated person still playing hosts next
            host = people[0]
        await self._save(table, seats, host, meta)
        return False

    async def _save(
        self, table: Table, seats: list[SeatInfo], host_id: str, meta: dict[str, Any]
    ) -> None:
        await self.ctx.repo.update_seats(table.id, seats, host_id, meta)
        table.record.seats = seats
        table.record.host_id = host_id
        table.record.meta = meta

    async def _tell(self, table: Table, seat_id: str, change: SeatChange, closed: bool) -> None:
        """Posted (``ctx.notify``) right as the lock is released, before any later change."""
        if closed:
            await self.ctx.notify.table_closed(table, "empty")
            return
        at = as_of(table)
        delivery = self.ctx.notify.post(
            table.id, lambda: self.ctx.listener.seat_changed(at(), seat_id, change)
        )
        self._after_change(table)  # the computer plays on for them; timers start over
        await delivery
