"""``TableService``: the composition root of the table service. It wires the parts around one
shared ``ServiceContext`` and decides what runs after each change; callers use the part that
owns the job:

- ``registry`` (``table_registry.py``): find and load open tables, stored facts about others;
- ``lobby`` (``lobby.py``): open, join, leave, computer seats, start, rematch, cancel;
- ``seats`` (``seats.py``): leave, rejoin or kick during a game;
- ``act``: a person's move (the click path), ``Moves.play`` in ``moves.py`` (bound here, so
  the click goes from its handler straight to the move path);
- ``timers`` (``timers.py``), ``cpu`` (``cpu.py``): turn timers and computer turns;
- ``replays`` (``replay.py``): games rebuilt from their seed and action log;
- ``sharing`` (``sharing.py``): other processes sharing the tables;
- ``intents``, ``presented``, ``players``: the stores the presentation reads and writes.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from bot.errors import TableError
from bot.service.context import ServiceContext
from bot.service.cpu import ComputerTurns
from bot.service.feed import ChangeFeed, NoFeed
from bot.service.guild_settings import GuildSettingsStore
from bot.service.lobby import Lobby, LobbyRules
from bot.service.models import ServiceConfig, Table, TableListener
from bot.service.moves import Moves
from bot.service.replay import Replays
from bot.service.seats import SeatChanges
from bot.service.shared import OverElsewhere, OwnedTablesOnly, nothing_held
from bot.service.sharing import SharedTables
from bot.service.table_registry import TableRegistry
from bot.service.timers import TurnTimers
from bot.service.triad import TriadLobby
from bot.service.wake import OverdueSpreader
from bot.workers import InlineWorkers, Workers
from games.core import Game, GameState
from storage import (
    CardStake,
    Database,
    GuildSettingsRepo,
    IntentsRepo,
    OpenTable,
    PlayersRepo,
    PresentedRepo,
    TablesRepo,
)

log = logging.getLogger(__name__)

# Games whose lobby has rules of its own. Built even when the game is not hosted: their
# collection commands (Triple Triad's /cards, /profile) work without the game.
LOBBY_RULES: dict[str, Callable[[ServiceContext, Lobby, Database], LobbyRules]] = {
    "triad": TriadLobby,
}

R = TypeVar("R", bound=LobbyRules)


class TableService:
    def __init__(
        self,
        db: Database,
        games: Mapping[str, Game],
        listener: TableListener,
        config: ServiceConfig | None = None,
        *,
        seed_factory: Callable[[], str] | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        clock: Callable[[], float] = time.time,
        think_clock: Callable[[], float] | None = None,
        workers: Workers | None = None,
        feed: ChangeFeed | None = None,
        owns: Callable[[str | None], bool] | None = None,
        origin: str = "",
        held: Callable[[Table], bool] | None = None,
        over_elsewhere: OverElsewhere | None = None,
    ) -> None:
        """``feed``: how other processes' changes are heard (``NoFeed``: none share the
        tables); ``owns``: whether this process runs the shard of a guild (it then presents
        that guild's tables and runs their timers and computer turns; all by default);
        ``origin``: this process among those sharing the database (the intents it resolves
        after a restart are its own); ``think_clock``: what computer players' think time runs
        on (``time.monotonic`` in the bot; None: fixed, reproducible search budgets); ``held``:
        tables whose computer moves and turn timers wait (``ServiceContext.held``);
        ``over_elsewhere``: told when a table another process presents is over (what this
        process holds of it is forgotten: ``OwnedTablesOnly``)."""
        self.repo = TablesRepo(db)
        feed = feed or NoFeed()
        owns = owns or (lambda guild_id: True)
        over_elsewhere = over_elsewhere or nothing_held
        if feed.shared:
            listener = OwnedTablesOnly(listener, owns, over_elsewhere)
        self.intents = IntentsRepo(db, origin)  # clicks acknowledged before their move
        self.presented = PresentedRepo(db)  # what the presentation last showed (bot/ui/shown)
        self.players = PlayersRepo(db)  # people's DM state
        self._ctx = ServiceContext(
            repo=self.repo,
            games=games,
            listener=listener,
            config=config or ServiceConfig(),
            seed_factory=seed_factory or (lambda: secrets.token_hex(8)),
            sleep=sleep,
            think_clock=think_clock,
            workers=workers or InlineWorkers(),
            guild_settings=GuildSettingsStore(GuildSettingsRepo(db)),
            clock=clock,
        )
        if held is not None:
            self._ctx.held = held
        self.registry = TableRegistry(self._ctx, owns, feed.shared)
        self.sharing = SharedTables(
            self._ctx,
            feed,
            owns,
            self.registry,
            self.presented,
            self._after_change,
            over_elsewhere,
        )
        self._moves = Moves(self._ctx, self.registry, self._after_change)
        self.act = self._moves.play  # a person's move: see ``Moves.play``
        self.timers = TurnTimers(self._ctx, self._moves, self._after_change)
        self.cpu = ComputerTurns(self._ctx, self._moves, self.timers, self._after_change)
        self.lobby = Lobby(
            self._ctx,
            after_change=self._after_change,
            stop_background=self._stop_background,
            stake_of=self._stake_of,
        )
        self.seats = SeatChanges(self._ctx, self.lobby, after_change=self._after_change)
        self.replays = Replays(self._ctx)
        self._lobby_rules: dict[str, LobbyRules] = {
            key: make(self._ctx, self.lobby, db) for key, make in LOBBY_RULES.items()
        }
        self._wakes: dict[int, asyncio.TimerHandle] = {}
        self._background: set[asyncio.Task[Any]] = set()

    @property
    def games(self) -> Mapping[str, Game]:
        return self._ctx.games

    @property
    def listener(self) -> TableListener:
        return self._ctx.listener

    @property
    def config(self) -> ServiceConfig:
        return self._ctx.config

    @property
    def closing(self) -> bool:
        return self._ctx.closing

    def game(self, key: str) -> Game:
        return self._ctx.game(key)

    def game_options(self, table: Table) -> dict[str, Any]:
        return self._ctx.game_options(table)

    def turn_seconds(self, table: Table) -> int:
        return self._ctx.turn_seconds(table)

    @property
    def guild_settings(self) -> GuildSettingsStore:
        """The server settings (/settings) applied to each guild's new tables."""
        assert self._ctx.guild_settings is not None
        return self._ctx.guild_settings

    def lobby_rules(self, game_key: str, kind: type[R]) -> R:
        """The lobby rules of ``game_key`` as their concrete class (e.g. ``TriadLobby``)."""
        rules = self._lobby_rules.get(game_key)
        if not isinstance(rules, kind):
            raise TableError("unknown_game", game=game_key)
        return rules

    def _stake_of(self, table: Table, state: GameState, setup: dict[str, Any]) -> CardStake | None:
        rules = self._lobby_rules.get(table.game.key)
        return rules.stake(table, state, setup) if rules is not None else None

    # ----- start-up and shutdown ------------------------------------------------------------
    async def load(self, *, lazy: bool = False) -> list[Table]:
        """Index every open table and resume timers and computer turns with the time each
        turn had left (stored deadlines; overdue ones spread out). ``lazy``: states load on
        first use (a click, a command in the channel, a deadline), so start-up reads one
        small row per table; otherwise every table loads now. Returns the loaded tables."""
        spreader = OverdueSpreader(self._ctx.clock())
        loop = asyncio.get_running_loop()
        eager: list[OpenTable] = []
        for entry in await self.repo.open_index():
            if entry.game not in self._ctx.games:
                log.error("table %s uses unknown game %s; left closed", entry.id, entry.game)
                continue
            self.registry.index(entry)
            if not lazy:
                eager.append(entry)
        await self.sharing.start()
        loaded = []
        for entry in eager:
            table = await self.registry.ensure(entry.id)
            if table is not None:
                loaded.append(table)
        for entry in eager:  # loaded: resumed now, each turn with the time it had left
            table = self._ctx.tables.get(entry.id)
            if table is None or table.state is None or not self.sharing.owns(entry.guild_id):
                continue
            if self.cpu.pending(table):
                self.cpu.kick(table)
            if entry.wake_at is not None or not self.cpu.must_act(table):
                left = spreader.delay(entry.wake_at, float(self.turn_seconds(table)))
                self.timers.restart(table, left if entry.wake_at is not None else None)
        for entry in self.registry.unloaded():  # woken (and loaded) when due
            if entry.status != "playing" or not self.sharing.owns(entry.guild_id):
                continue
            delay = spreader.delay(entry.wake_at, 0.0)  # none stored: resumed soon, full turn
            self._wakes[entry.id] = loop.call_later(
                max(0.0, delay - self._timer_lead(entry)), self._wake, entry
            )
        return loaded

    def _timer_lead(self, entry: OpenTable) -> float:
        """Wake a waiting table a little before its deadline, so its state is loaded and its
        timer armed with the time left (the timer, not the wake-up, plays the move)."""
        return 0.0 if entry.wake_at is None else 0.2

    def _wake(self, entry: OpenTable) -> None:
        self._wakes.pop(entry.id, None)
        if self._ctx.closing:
            return
        task = asyncio.get_running_loop().create_task(self._resume(entry), name=f"wake-{entry.id}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resume(self, entry: OpenTable) -> None:
        try:
            table = await self.registry.ensure(entry.id)
        except Exception:
            log.exception("table %s could not be loaded", entry.id)
            return
        if table is None or table.state is None or self._ctx.closing:
            return
        if not self.sharing.owns_table(table):
            return
        if self.cpu.tasks_running(table.id) or self.timers.armed(table.id):
            return  # a click or a command got there first: the live path runs it
        if self.cpu.pending(table):
            self.cpu.kick(table)
        left = None if entry.wake_at is None else max(0.0, entry.wake_at - self._ctx.clock())
        self.timers.restart(table, left)

    async def close(self, drain_seconds: float = 5.0) -> None:
        """Stop background work (used on shutdown and by tests that restart the service):
        new moves are refused (``closing``), the moves of clicks under way finish (for up to
        ``drain_seconds``), then timers and computer turns stop and the presentations already
        posted go out, before storage and Discord close."""
        self._ctx.closing = True
        await self.sharing.close()
        for handle in self._wakes.values():
            handle.cancel()
        self._wakes.clear()
        try:
            await asyncio.wait_for(self._moves.idle.wait(), drain_seconds)
        except TimeoutError:
            log.warning("closing with %d moves still under way", self._moves.inflight)
        tasks = [*self.cpu.tasks(), *self.timers.tasks(), *self._background, *self.sharing.tasks()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self.cpu.clear()
        self.timers.clear()
        # Presentations already posted go out (briefly) before storage and Discord close.
        await self._ctx.notify.drain(timeout=drain_seconds)

    # ----- after every change: timers, computer turns, cleanup ------------------------------
    def _after_change(self, table: Table) -> None:
        if self._ctx.closing:
            return
        self.sharing.publish(table)
        if table.record.status != "playing" or table.state is None or not self._owns_it(table):
            self.timers.cancel(table.id)
            if table.record.status in ("finished", "cancelled"):
                self.cpu.forget(table.id)  # (its loop returns: the table is over)
            # Released once its last notification is out: a move whose presentation is still
            # running (an earlier version) may be the one calling here; the last poster will
            # call again after its own delivery.
            if table.record.status in ("finished", "cancelled") and not self._ctx.notify.pending(
                table.id
            ):
                self._ctx.tables.pop(table.id, None)
            return
        if self.cpu.pending(table):
            self.cpu.kick(table)
        self.timers.restart(table)

    def _owns_it(self, table: Table) -> bool:
        """Timers and computer turns run in the process that owns the table's guild."""
        if self.sharing.owns_table(table):
            return True
        self.timers.cancel(table.id)
        return False

    def _stop_background(self, table_id: int) -> None:
        self.timers.cancel(table_id)
        self.cpu.cancel(table_id)
