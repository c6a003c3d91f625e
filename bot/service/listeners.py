"""Several table listeners as one: the main one (Discord's table messages) first, then others
beside it (spectators' DMs). An extra listener's failure is logged, never passed on: the main
listener's guarantees and errors stay as they are."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.service.models import Table, TableListener
from games.core import Event

log = logging.getLogger(__name__)


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
