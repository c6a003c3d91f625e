"""What every part of the table service shares: storage, games, listener, the open tables."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.errors import TableError
from bot.service.guild_settings import GuildSettingsStore
from bot.service.models import ServiceConfig, Table, TableListener, TableOptions, split_options
from bot.service.notify import Delivery, Notifications
from bot.workers import InlineWorkers, Workers
from games.core import Game
from storage import TablesRepo


@dataclass
class ServiceContext:
    repo: TablesRepo
    games: Mapping[str, Game]
    listener: TableListener
    config: ServiceConfig
    seed_factory: Callable[[], str]
    sleep: Callable[[float], Awaitable[Any]]
    # The clock a computer's think time (``config.cpu_think_seconds``) is measured on: the bot
    # passes ``time.monotonic`` (it pickles by name into the worker processes). None: every
    # search takes its game's fixed budget, a pure function of the seed (tests).
    think_clock: Callable[[], float] | None = None
    # Where computer-player searches run (a process pool in the bot; a thread in tests).
    workers: Workers = field(default_factory=InlineWorkers)
    tables: dict[int, Table] = field(default_factory=dict)
    # Server settings applied to new tables (/settings); None: every guild uses the defaults.
    guild_settings: GuildSettingsStore | None = None
    closing: bool = False
    # Other processes share the tables (bot/service/shared.py): catch a table up from the
    # database, under its lock. None: this process's memory is the truth (SQLite).
    refresh: Callable[[Table], Awaitable[Delivery | None]] | None = None
    # The wall clock of stored deadlines (wake_at): what a restart measures the time left by.
    clock: Callable[[], float] = time.time
    # A table its presentation holds: no computer move, no turn timer while it says so (an
    # interaction-only table with no fresh token to show them: bot/ui/anywhere.py).
    held: Callable[[Table], bool] = field(default=lambda table: False)
    # The listener's calls, delivered outside the table lock in version order per table.
    notify: Notifications = field(init=False)

    def __post_init__(self) -> None:
        self.notify = Notifications(self.listener)

    def later(
        self, seconds: float, callback: Callable[..., None], *args: Any
    ) -> asyncio.TimerHandle | asyncio.Task[None]:
        """Call ``callback(*args)`` in ``seconds`` (on ``sleep``'s clock); the returned handle's
        ``cancel()`` stops it. With the loop's own sleep a timer handle (issue 29: a sleeping
        task per turn timer cost a task, its steps and a future each move); with an injected
        sleep (tests' clocks) a task that sleeps on it, then calls."""
        loop = asyncio.get_running_loop()
        if self.sleep is asyncio.sleep:
            return loop.call_later(seconds, callback, *args)
        return loop.create_task(_call_after(self.sleep, seconds, callback, *args))

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:  # the reader's answer says why (``TableRegistry.why_gone``)
            raise TableError("table_gone", table=table_id)
        return table

    def game(self, key: str) -> Game:
        game = self.games.get(key)
        if game is None:
            raise TableError("unknown_game", game=key)
        return game

    @staticmethod
    def game_options(table: Table) -> dict[str, Any]:
        return split_options(table.record.options)[0]

    @staticmethod
    def table_options(table: Table) -> TableOptions:
        return table.table_options()

    def turn_seconds(self, table: Table) -> int:
        # (the table's own ``table_options``, not through ``self.table_options``: ~3 a move)
        return table.table_options().turn_seconds or self.config.turn_timeout_seconds

    def cpu_delay(self, table: Table) -> float:
        """The pause before a computer's move: the table's (from /settings) or the bot's."""
        delay = self.table_options(table).cpu_delay_seconds
        return self.config.cpu_delay_seconds if delay is None else delay


async def _call_after(
    sleep: Callable[[float], Awaitable[Any]],
    seconds: float,
    callback: Callable[..., None],
    *args: Any,
) -> None:
    await sleep(seconds)
    callback(*args)
