"""``TableService``: the one door the Discord side uses into lobbies, moves, timers, computer
turns and replays. It wires the parts (``lobby``, ``moves``, ``cpu``, ``timers``, ``replay``)
around one shared ``ServiceContext`` and decides what runs after each change."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from bot.errors import TableError
from bot.service.choose import game_ref
from bot.service.context import ServiceContext
from bot.service.cpu import ComputerTurns
from bot.service.feed import ChangeFeed, NoFeed, TableChange, ViewShown
from bot.service.guild_settings import GuildSettings, GuildSettingsStore
from bot.service.lobby import Lobby, LobbyRules, Place
from bot.service.models import ServiceConfig, Table, TableListener, TableOptions
from bot.service.moves import Moves
from bot.service.replay import ReplayResult, public_views, rebuild
from bot.service.seats import SeatChanges
from bot.service.shared import (
    LIVE,
    CatchUp,
    OwnedTablesOnly,
    ViewsShownElsewhere,
    change_of,
    is_news,
    spawn,
)
from bot.service.timers import TurnTimers
from bot.service.triad import TriadLobby
from bot.service.wake import OverdueSpreader
from bot.workers import InlineWorkers, Workers
from games.core import Game, GameState
from storage import (
    CardStake,
    Database,
    GuildSettingsRepo,
    Intent,
    IntentsRepo,
    OpenTable,
    PlayersRepo,
    PresentedRepo,
    TableRecord,
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
    ) -> None:
        """``feed``: how other processes' changes are heard (``NoFeed``: none share the
        tables); ``owns``: whether this process runs the shard of a guild (it then presents
        that guild's tables and runs their timers and computer turns; all by default);
        ``origin``: this process among those sharing the database (the intents it resolves
        after a restart are its own); ``think_clock``: what computer players' think time runs
        on (``time.monotonic`` in the bot; None: fixed, reproducible search budgets)."""
        self.repo = TablesRepo(db)
        self._feed: ChangeFeed = feed or NoFeed()
        self._owns: Callable[[str | None], bool] = owns or (lambda guild_id: True)
        if self._feed.shared:
            listener = OwnedTablesOnly(listener, self._owns)
        self.intents = IntentsRepo(db, origin)
        self.presented = PresentedRepo(db)  # what the presentation last showed (bot/ui/shown)
        self._players = PlayersRepo(db)
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
        self._views = ViewsShownElsewhere()
        self._feed.watch_views(self._views.heard)
        self._catch_up = CatchUp(self._ctx, self._owns, self.presented, self._views)
        if self._feed.shared:
            self._ctx.refresh = self._catch_up.refresh
        self._moves = Moves(self._ctx)
        self._timers = TurnTimers(self._ctx, self._moves, self._after_change)
        self._cpu = ComputerTurns(self._ctx, self._moves, self._timers, self._after_change)
        self._lobby = Lobby(
            self._ctx,
            after_change=self._after_change,
            stop_background=self._stop_background,
            stake_of=self._stake_of,
        )
        self._seats = SeatChanges(self._ctx, self._lobby, after_change=self._after_change)
        self._lobby_rules: dict[str, LobbyRules] = {
            key: make(self._ctx, self._lobby, db) for key, make in LOBBY_RULES.items()
        }
        # Open tables not loaded yet (start-up loads states lazily, on first use).
        self._unloaded: dict[int, OpenTable] = {}
        self._by_channel: dict[str, int] = {}
        self._loading: dict[int, asyncio.Future[Table | None]] = {}
        self._wakes: dict[int, asyncio.TimerHandle] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._inflight = 0  # moves of clicks under way (shutdown waits for them)
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def games(self) -> Mapping[str, Game]:
        return self._ctx.games

    @property
    def listener(self) -> TableListener:
        return self._ctx.listener

    @property
    def config(self) -> ServiceConfig:
        return self._ctx.config

    # ----- lookup ---------------------------------------------------------------------------
    def get(self, table_id: int) -> Table:
        return self._ctx.get(table_id)

    async def why_gone(self, table_id: int) -> TableError:
        """Why table ``table_id`` is not open: it never existed, its game finished, or it was
        closed before the end (the refusal a stale button or command then names)."""
        record = await self.repo.get(table_id)
        if record is None:
            return TableError("no_such_table", table=table_id)
        if record.status == "finished":
            return TableError("table_finished", table=table_id)
        if record.status == "cancelled":
            return TableError("table_closed", table=table_id)
        return TableError("table_gone", table=table_id)

    def find(self, table_id: int) -> Table | None:
        return self._ctx.tables.get(table_id)

    def in_channel(self, channel_id: str) -> Table | None:
        return next(
            (t for t in self._ctx.tables.values() if t.record.channel_id == channel_id), None
        )

    async def ensure(self, table_id: int) -> Table | None:
        """The table, loading it from storage if start-up left it unloaded (lazy loading)."""
        table = self._ctx.tables.get(table_id)
        if table is not None or (table_id not in self._unloaded and not self._feed.shared):
            return table  # shared: a table another process opened is read from the database
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load_one(table_id)
            future.set_result(table)
            return table
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a waiter re-raises it
            raise
        finally:
            self._loading.pop(table_id, None)

    def suspend_turn_timers(self) -> None:
        """Discord is away (no click can arrive): stop every turn timer, keeping its time left."""
        self._timers.suspend(self._ctx.tables)

    def resume_turn_timers(self) -> int:
        """Discord is back: the suspended timers run on (the overdue ones spread out)."""
        return self._timers.resume()

    async def unshown_lobbies(self) -> list[Table]:
        """Lobbies of this process's guilds whose message was never posted (killed between
        creating and showing them): start-up shows them, so their players can join and start
        without typing a command."""
        found = []
        for table_id in await self.repo.unshown_lobbies():
            table = await self.ensure(table_id)
            if table is not None and self._owns(table.record.guild_id):
                found.append(table)
        return found

    async def ensure_channel(self, channel_id: str) -> Table | None:
        """The channel's open table, loaded if needed."""
        table_id = self._by_channel.get(channel_id)
        if table_id is not None and table_id in self._unloaded:
            await self.ensure(table_id)
        return self.in_channel(channel_id)

    async def ensure_guild(self, guild_id: str) -> list[Table]:
        """Every open table of the guild, loading those start-up left unloaded (/tables)."""
        for entry in [e for e in self._unloaded.values() if e.guild_id == guild_id]:
            await self.ensure(entry.id)
        return [t for t in self._ctx.tables.values() if t.record.guild_id == guild_id]

    @property
    def unloaded_count(self) -> int:
        return len(self._unloaded)

    @property
    def closing(self) -> bool:
        return self._ctx.closing

    def tables(self) -> list[Table]:
        return list(self._ctx.tables.values())

    def game(self, key: str) -> Game:
        return self._ctx.game(key)

    def game_options(self, table: Table) -> dict[str, Any]:
        return self._ctx.game_options(table)

    def table_options(self, table: Table) -> TableOptions:
        return self._ctx.table_options(table)

    def turn_seconds(self, table: Table) -> int:
        return self._ctx.turn_seconds(table)

    @property
    def guild_settings(self) -> GuildSettingsStore:
        """The server settings (/settings) applied to each guild's new tables."""
        assert self._ctx.guild_settings is not None
        return self._ctx.guild_settings

    async def settings_of(self, guild_id: str) -> GuildSettings:
        return await self.guild_settings.get(guild_id)

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
            self._unloaded[entry.id] = entry
            self._by_channel[entry.channel_id] = entry.id
            if not lazy:
                eager.append(entry)
        if self._feed.shared:
            await self._feed.start(self._heard, self._resync)
        loaded = []
        for entry in eager:
            table = await self.ensure(entry.id)
            if table is not None:
                loaded.append(table)
        for entry in eager:  # loaded: resumed now, each turn with the time it had left
            table = self._ctx.tables.get(entry.id)
            if table is None or table.state is None or not self._owns(entry.guild_id):
                continue
            if self._cpu.pending(table):
                self._cpu.kick(table)
            if entry.wake_at is not None or not self._cpu.pending(table):
                left = spreader.delay(entry.wake_at, float(self.turn_seconds(table)))
                self._timers.restart(table, left if entry.wake_at is not None else None)
        for entry in list(self._unloaded.values()):  # woken (and loaded) when due
            if entry.status != "playing" or not self._owns(entry.guild_id):
                continue
            delay = spreader.delay(entry.wake_at, 0.0)  # none stored: resumed soon, full turn
            self._wakes[entry.id] = loop.call_later(
                max(0.0, delay - self._timer_lead(entry)), self._wake, entry
            )
        return loaded

    async def _load_one(self, table_id: int) -> Table | None:
        entry = self._unloaded.get(table_id)
        record = await self.repo.get(table_id)
        self._unloaded.pop(table_id, None)
        if entry is not None and self._by_channel.get(entry.channel_id) == table_id:
            del self._by_channel[entry.channel_id]
        if record is None or record.status not in ("lobby", "playing"):
            return None
        live = self._ctx.tables.get(table_id)
        if live is not None:
            return live
        game = self._ctx.games[record.game]
        table = Table(record=record, game=game)
        if record.status == "playing" and record.state:
            table.state = game.load_state(record.state)
        self._ctx.tables[record.id] = table
        return table

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
            table = await self.ensure(entry.id)
        except Exception:
            log.exception("table %s could not be loaded", entry.id)
            return
        if table is None or table.state is None or self._ctx.closing:
            return
        if not self._catch_up.owns_table(table):
            return
        if self._cpu.tasks_running(table.id) or self._timers.armed(table.id):
            return  # a click or a command got there first: the live path runs it
        if self._cpu.pending(table):
            self._cpu.kick(table)
        left = None if entry.wake_at is None else max(0.0, entry.wake_at - self._ctx.clock())
        self._timers.restart(table, left)

    async def close(self, drain_seconds: float = 5.0) -> None:
        """Stop background work (used on shutdown and by tests that restart the service):
        new moves are refused (``closing``), the moves of clicks under way finish (for up to
        ``drain_seconds``), then timers and computer turns stop and the presentations already
        posted go out, before storage and Discord close."""
        self._ctx.closing = True
        await self._feed.close()
        for handle in self._wakes.values():
            handle.cancel()
        self._wakes.clear()
        try:
            await asyncio.wait_for(self._idle.wait(), drain_seconds)
        except TimeoutError:
            log.warning("closing with %d moves still under way", self._inflight)
        tasks = [*self._cpu.tasks(), *self._timers.tasks(), *self._background]
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._cpu.clear()
        self._timers.clear()
        # Presentations already posted go out (briefly) before storage and Discord close.
        await self._ctx.notify.drain(timeout=drain_seconds)

    # ----- lobby (bot/service/lobby.py) -----------------------------------------------------
    async def open(
        self,
        *,
        guild_id: str,
        channel_id: str,
        game_key: str,
        host_id: str,
        host_name: str,
        locale: str,
        options: dict[str, Any] | None = None,
        seed: str | None = None,
        place: Place | None = None,
    ) -> Table:
        return await self._lobby.open(
            guild_id=guild_id,
            channel_id=channel_id,
            game_key=game_key,
            host_id=host_id,
            host_name=host_name,
            locale=locale,
            options=options,
            seed=seed,
            place=place,
        )

    async def join(self, table_id: int, user_id: str, name: str) -> Table:
        return await self._lobby.join(table_id, user_id, name)

    async def leave(self, table_id: int, user_id: str) -> Table:
        return await self._lobby.leave(table_id, user_id)

    async def add_cpu(self, table_id: int, by: str, level: str | None = None) -> Table:
        return await self._lobby.add_cpu(table_id, by, level)

    async def remove(self, table_id: int, by: str, seat_id: str) -> Table:
        return await self._lobby.remove(table_id, by, seat_id)

    async def start(
        self,
        table_id: int,
        by: str,
        *,
        setup: dict[str, Any] | None = None,
        host_only: bool = True,
    ) -> Table:
        return await self._lobby.start(table_id, by, setup=setup, host_only=host_only)

    async def rematch(self, table_id: int, by: str) -> Table:
        return await self._lobby.rematch(table_id, by)

    async def cancel(self, table_id: int, by: str, *, may_manage: bool = False) -> None:
        await self._lobby.cancel(table_id, by, may_manage=may_manage)

    # ----- seats of a game in progress (bot/service/seats.py) ---------------------------------
    async def leave_game(self, table_id: int, user_id: str) -> Table:
        """``user_id`` leaves a game in progress; the computer plays their seat on."""
        return await self._seats.leave(table_id, user_id)

    async def rejoin(self, table_id: int, user_id: str) -> Table:
        """``user_id`` takes back the seat the computer took (after leaving or timeouts)."""
        return await self._seats.rejoin(table_id, user_id)

    async def kick(
        self, table_id: int, by: str, seat_id: str, *, may_manage: bool = False
    ) -> Table:
        """The host (or a member who may manage the channel) hands ``seat_id`` to the computer
        for the rest of the game."""
        return await self._seats.kick(table_id, by, seat_id, may_manage=may_manage)

    # ----- play (bot/service/moves.py, timers.py, cpu.py, replay.py) ------------------------
    async def act(
        self,
        table_id: int,
        seat: str,
        version: int | None,
        action_text: str,
        *,
        intent: Intent | None = None,
    ) -> Table:
        """Apply a player's action. ``version`` is the table version the player saw (``None``
        skips the check, for actions typed fresh such as a modal); ``intent`` the recorded
        click it answers (marked done in the move's transaction). Refused with
        ``TableError("restarting")`` once the service is closing."""
        if self._ctx.closing:
            raise TableError("restarting")
        table = await self.ensure(table_id) or self.get(table_id)
        self._inflight += 1
        self._idle.clear()
        try:
            _, delivery = await self._moves.act(table, seat, version, action_text, intent)
            try:
                await delivery  # presented outside the table lock, in version order
            finally:
                self._after_change(table)
        finally:
            self._inflight -= 1
            if not self._inflight:
                self._idle.set()
        return table

    async def expire_turn(self, table_id: int, version: int | None = None) -> list[str]:
        """The turn timer ran out: the computer plays for every waited-on human seat.

        Returns the seats played for. A seat that times out ``timeouts_before_replacement``
        times in a row becomes a computer seat. Tests call this directly instead of waiting.
        """
        return await self._timers.expire_turn(table_id, version)

    async def wait_idle(self, table_id: int) -> None:
        """Wait until no computer turn is running at the table (tests, graceful shutdown)."""
        await self._cpu.wait_idle(table_id)

    async def replay(self, table_id: int) -> GameState:
        """Rebuild a table's state from its seed and action log (history, determinism)."""
        record = await self.repo.get(table_id)
        if record is None:
            raise TableError("no_such_table", table=table_id)
        return rebuild(self.game(record.game), record, await self.repo.actions(table_id))

    async def replay_views(self, table_id: int) -> tuple[TableRecord, ReplayResult]:
        """A finished table's public view at every version, rebuilt from seed + action log in
        the worker pool and checked against the stored final state (``replay.py``)."""
        record = await self.repo.get(table_id)
        if record is None:
            raise TableError("no_such_table", table=table_id)
        if record.status != "finished":
            raise TableError("replay_not_finished", table=table_id)
        actions = [(a.seat, a.action) for a in await self.repo.actions(table_id)]
        result = await self._ctx.workers.run(
            public_views,
            game_ref(self.game(record.game)),
            [s.id for s in record.seats],
            record.seed,
            record.options,
            record.meta.get("setup", {}),
            actions,
            record.state,
        )
        return record, result

    # ----- what the presentation stores -----------------------------------------------------
    async def set_message(self, table: Table, message_id: str | None) -> None:
        """Remember the table's public message (edited on every change, after a restart too).
        ``table`` may be the listener's frozen copy: the live table is updated too."""
        table.record.message_id = message_id
        live = self._ctx.tables.get(table.id)
        if live is not None:
            live.record.message_id = message_id
        await self.repo.set_message(table.id, message_id)

    async def record_intent(self, intent: Intent) -> None:
        """A click about to be acknowledged before its move committed (see storage/intents)."""
        await self.intents.record(intent)

    async def settle_intent(self, interaction_id: str) -> None:
        """A recorded click was refused and answered: nothing to resolve after a restart."""
        await self.intents.settle(interaction_id)

    async def dms_closed(self, user_id: str) -> bool:
        return await self._players.dms_closed(user_id)

    async def dms_state(self, user_id: str) -> tuple[bool, float | None, int]:
        """(DMs marked closed, when to try again, refusals in a row)."""
        return await self._players.dms_state(user_id)

    async def dm_refused(self, user_id: str, retry_at: float) -> int:
        return await self._players.dm_failed(user_id, retry_at)

    async def finished_table(self, table_id: int) -> Table | None:
        """A table read from storage as it is (e.g. a finished game whose result must be
        shown again after a restart); not kept among the open tables."""
        record = await self.repo.get(table_id)
        if record is None or record.game not in self._ctx.games:
            return None
        game = self._ctx.games[record.game]
        table = Table(record=record, game=game)
        if record.state:
            table.state = game.load_state(record.state)
        return table

    async def set_dms_closed(self, user_id: str, closed: bool) -> None:
        await self._players.set_dms_closed(user_id, closed)

    # ----- after every change: timers, computer turns, cleanup ------------------------------
    def _after_change(self, table: Table) -> None:
        if self._ctx.closing:
            return
        if self._feed.shared:
            spawn(self._background, self._feed.publish(change_of(table)), f"publish-{table.id}")
        if table.record.status != "playing" or table.state is None or not self._owns_it(table):
            self._timers.cancel(table.id)
            # Released once its last notification is out: a move whose presentation is still
            # running (an earlier version) may be the one calling here; the last poster will
            # call again after its own delivery.
            if table.record.status in ("finished", "cancelled") and not self._ctx.notify.pending(
                table.id
            ):
                self._ctx.tables.pop(table.id, None)
            return
        if self._cpu.pending(table):
            self._cpu.kick(table)
        self._timers.restart(table)

    # ----- DM views answered by a process that does not own the table (shared.py) ---------
    def view_answered(
        self,
        table: Table,
        seat: str,
        message_id: int | None,
        digest: str | None,
        version: int | None = None,
        clickable: bool = True,
    ) -> None:
        """This process answered (``message_id``, showing the view of ``version``) or could not
        answer (None) a click on ``seat``'s DM view at a table another process owns: that
        process is told, so it does not edit the view again to show the same thing."""
        if not self._feed.shared or self._owns(table.record.guild_id):
            return
        version = table.record.version if version is None else version
        shown = ViewShown(table.id, seat, version, message_id, digest, clickable)
        spawn(self._background, self._feed.publish_view(shown), f"view-{table.id}")

    async def view_shown_elsewhere(
        self, table_id: int, seat: str, version: int
    ) -> ViewShown | None:
        """What the process that made ``seat``'s move at ``version`` showed in their DM view
        (waiting briefly for its word when it is expected); None when unknown."""
        if not self._feed.shared:
            return None
        return await self._views.wait(table_id, seat, version)

    def owns(self, guild_id: str | None) -> bool:
        """Whether this process presents (and runs the timers of) ``guild_id``'s tables."""
        return self._owns(guild_id)

    def _owns_it(self, table: Table) -> bool:
        """Timers and computer turns run in the process that owns the table's guild."""
        if self._catch_up.owns_table(table):
            return True
        self._timers.cancel(table.id)
        return False

    # ----- other processes' changes (bot/service/shared.py) ---------------------------------
    def _heard(self, change: TableChange) -> None:
        if self._ctx.closing or not is_news(change, self._ctx.tables.get(change.table_id)):
            return
        spawn(self._background, self._catch_up_with(change), f"catch-up-{change.table_id}")

    def _resync(self) -> None:
        """The feed may have missed changes (its connection dropped and is back): every table
        held is read from the database again (the owner presents what moved)."""
        if self._ctx.closing:
            return
        for table in list(self._ctx.tables.values()):
            spawn(self._background, self._catch_up_with(change_of(table)), f"resync-{table.id}")

    async def _catch_up_with(self, change: TableChange) -> None:
        """Another process changed a table: bring our copy up to date; the owner presents the
        change and runs what comes next (timers, computer turns)."""
        try:
            table = self._ctx.tables.get(change.table_id)
            delivery = None
            if table is not None:
                async with table.lock:
                    delivery = await self._catch_up.refresh(table)
            elif change.status in LIVE:
                record = await self.repo.get(change.table_id)
                if record is None or not self._owns(record.guild_id):
                    return  # read from the database when a click needs it
                table = await self.ensure(change.table_id)
                if table is None or table.state is None:
                    return
                async with table.lock:  # shown with the events its message has not shown
                    delivery = await self._catch_up.first_sight(table)
            if table is None:
                return
            if delivery is not None:
                await delivery
            if table.record.status in ("finished", "cancelled") and not self._owns(
                table.record.guild_id
            ):
                self._ctx.tables.pop(table.id, None)
                return
            self._after_change(table)
        except Exception:
            log.exception("catching up with table %s failed", change.table_id)

    def _stop_background(self, table_id: int) -> None:
        self._timers.cancel(table_id)
        self._cpu.cancel(table_id)
