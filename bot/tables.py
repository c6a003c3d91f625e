"""The table service: lobbies, actions, persistence, computer turns and turn timers.

No discord import: the Discord side talks to it with plain ids and action texts, and hears back
through a ``TableListener``. Handling one action (ARCHITECTURE.md):

1. take the table's lock;  2. check the version;  3. ``apply`` (the engine validates);
4. persist snapshot + action row in one transaction;  5. tell the listener;
6. schedule computer seats that are to act, through the same path.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, Field, ValidationError

from bot.errors import TableError
from games.core import Event, Game, GameState, IllegalAction, Outcome, rng_for
from storage import (
    CardTransfer,
    ChannelBusy,
    Database,
    SeatInfo,
    StaleVersion,
    StandingDelta,
    TableRecord,
    TablesRepo,
)

log = logging.getLogger(__name__)

CPU_PREFIX = "cpu"


def is_human_id(seat_id: str) -> bool:
    """Computer seats are ``cpu1``, ``cpu2``...; people are Discord user ids."""
    return not seat_id.startswith(CPU_PREFIX)


class TableOptions(BaseModel):
    """Options every table has, whatever the game."""

    turn_seconds: int | None = Field(default=None, ge=10, le=3600)
    cpu_level: str = "normal"


@dataclass
class Table:
    """A table in memory: its stored record, the live game state and its lock."""

    record: TableRecord
    game: Game
    state: GameState | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_events: list[Event] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def version(self) -> int:
        return self.state.version if self.state is not None else self.record.version

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state) if self.state is not None else None

    def seat(self, seat_id: str) -> SeatInfo | None:
        return self.record.seat(seat_id)

    def human_seats(self) -> list[SeatInfo]:
        return [s for s in self.record.seats if not s.is_cpu]


class TableListener(Protocol):
    """What the presentation layer hears. Called after the change is persisted."""

    async def lobby_changed(self, table: Table) -> None: ...

    async def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> None: ...

    async def table_closed(self, table: Table, reason: str) -> None: ...

    async def seat_replaced(self, table: Table, seat_id: str) -> None: ...


@dataclass(frozen=True)
class ServiceConfig:
    turn_timeout_seconds: int = 120
    timeouts_before_replacement: int = 3
    cpu_delay_seconds: float = 1.0
    cpu_think_seconds: float = 2.0  # the time budget a searching computer player may use


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
        ai_kwargs: Callable[[Game, float], dict[str, Any]] | None = None,
    ) -> None:
        self.repo = TablesRepo(db)
        self.games = games
        self.listener = listener
        self.config = config or ServiceConfig()
        self._seed_factory = seed_factory or (lambda: secrets.token_hex(8))
        self._sleep = sleep
        # Extra keyword arguments of a game's ``choose_action`` from ``cpu_think_seconds``.
        self._ai_kwargs = ai_kwargs
        self._tables: dict[int, Table] = {}
        self._cpu_tasks: dict[int, asyncio.Task] = {}
        self._timers: dict[int, asyncio.Task] = {}
        self._closing = False

    # ----- lookup ---------------------------------------------------------------------------
    def get(self, table_id: int) -> Table:
        table = self._tables.get(table_id)
        if table is None:
            raise TableError("no_table")
        return table

    def find(self, table_id: int) -> Table | None:
        return self._tables.get(table_id)

    def in_channel(self, channel_id: str) -> Table | None:
        return next((t for t in self._tables.values() if t.record.channel_id == channel_id), None)

    def tables(self) -> list[Table]:
        return list(self._tables.values())

    def game(self, key: str) -> Game:
        game = self.games.get(key)
        if game is None:
            raise TableError("unknown_game", game=key)
        return game

    # ----- start-up and shutdown ------------------------------------------------------------
    async def load(self) -> list[Table]:
        """Rebuild every open table from storage and resume timers and computer turns."""
        loaded = []
        for record in await self.repo.open_tables():
            game = self.games.get(record.game)
            if game is None:
                log.error("table %s uses unknown game %s; left closed", record.id, record.game)
                continue
            table = Table(record=record, game=game)
            if record.status == "playing" and record.state:
                table.state = game.load_state(record.state)
            self._tables[record.id] = table
            loaded.append(table)
        for table in loaded:
            if table.state is not None:
                self._after_change(table)
        return loaded

    async def close(self) -> None:
        """Stop background work (used on shutdown and by tests that restart the service)."""
        self._closing = True
        tasks = [*self._cpu_tasks.values(), *self._timers.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._cpu_tasks.clear()
        self._timers.clear()

    # ----- lobby ----------------------------------------------------------------------------
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
    ) -> Table:
        game = self.game(game_key)
        options = dict(options or {})
        table_opts = {k: options.pop(k) for k in list(options) if k in TableOptions.model_fields}
        try:
            game_options = game.parse_options(options)
            table_options = TableOptions.model_validate(table_opts)
        except ValidationError as exc:
            raise TableError("invalid_options", detail=_first_error(exc)) from exc
        if table_options.cpu_level not in game.ai_levels:
            raise TableError("invalid_options", detail=f"cpu_level={table_options.cpu_level}")
        stored_options = {**game_options.model_dump(mode="json"), **table_options.model_dump()}
        try:
            record = await self.repo.create(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game_key,
                host_id=host_id,
                locale=locale,
                options=stored_options,
                seats=[SeatInfo(id=host_id, name=host_name)],
                seed=seed or self._seed_factory(),
            )
        except ChannelBusy as exc:
            raise TableError("channel_busy") from exc
        table = Table(record=record, game=game)
        self._tables[record.id] = table
        await self.listener.lobby_changed(table)
        return table

    def game_options(self, table: Table) -> dict[str, Any]:
        return {k: v for k, v in table.record.options.items() if k not in TableOptions.model_fields}

    def table_options(self, table: Table) -> TableOptions:
        return TableOptions.model_validate(
            {k: v for k, v in table.record.options.items() if k in TableOptions.model_fields}
        )

    async def join(self, table_id: int, user_id: str, name: str) -> Table:
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if table.seat(user_id):
                raise TableError("already_joined")
            if len(table.record.seats) >= table.game.max_players:
                raise TableError("table_full", max=table.game.max_players)
            seats = [*table.record.seats, SeatInfo(id=user_id, name=name)]
            await self._save_lobby(table, seats)
        await self.listener.lobby_changed(table)
        return table

    async def leave(self, table_id: int, user_id: str) -> Table:
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if not table.seat(user_id):
                raise TableError("not_joined")
            seats = [s for s in table.record.seats if s.id != user_id]
            if not any(not s.is_cpu for s in seats):
                await self._close_locked(table, "cancelled")
                closed = True
            else:
                if table.record.host_id == user_id:  # the longest-seated human hosts next
                    table.record.host_id = next(s.id for s in seats if not s.is_cpu)
                await self._save_lobby(table, seats)
                closed = False
        if closed:
            await self.listener.table_closed(table, "empty")
        else:
            await self.listener.lobby_changed(table)
        return table

    async def add_cpu(self, table_id: int, by: str, level: str | None = None) -> Table:
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_host(table, by)
            level = level or self.table_options(table).cpu_level
            if level not in table.game.ai_levels:
                raise TableError("invalid_options", detail=f"cpu_level={level}")
            if len(table.record.seats) >= table.game.max_players:
                raise TableError("table_full", max=table.game.max_players)
            taken = {s.id for s in table.record.seats}
            n = next(i for i in range(1, 100) if f"{CPU_PREFIX}{i}" not in taken)
            seat = SeatInfo(id=f"{CPU_PREFIX}{n}", name=f"CPU {n}", cpu_level=level)
            await self._save_lobby(table, [*table.record.seats, seat])
        await self.listener.lobby_changed(table)
        return table

    async def remove(self, table_id: int, by: str, seat_id: str) -> Table:
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_host(table, by)
            if seat_id == by or not table.seat(seat_id):
                raise TableError("cannot_remove")
            await self._save_lobby(table, [s for s in table.record.seats if s.id != seat_id])
        await self.listener.lobby_changed(table)
        return table

    async def start(
        self,
        table_id: int,
        by: str,
        *,
        setup: dict[str, Any] | None = None,
        host_only: bool = True,
    ) -> Table:
        """Deal. ``setup`` is extra keyword input of the game's ``new`` (e.g. Triple Triad's
        chosen hands); it is stored with the table so a replay can rebuild the same game."""
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if host_only:
                self._require_host(table, by)
            if len(table.record.seats) < table.game.min_players:
                raise TableError("not_enough_players", min=table.game.min_players)
            seats = [s.id for s in table.record.seats]
            if setup:
                table.record.meta = {**table.record.meta, "setup": setup}
                await self.repo.set_meta(table.id, table.record.meta)
            state = table.game.new(
                seats, table.record.seed, self.game_options(table), **(setup or {})
            )
            await self.repo.start(
                table.id, table.record.seats, table.game.dump_state(state), state.version
            )
            table.record.status = "playing"
            table.record.state = table.game.dump_state(state)
            table.record.version = state.version
            table.state = state
            table.last_events = []
        await self.listener.game_changed(table, [], None, False)
        self._after_change(table)
        return table

    async def rematch(self, table_id: int, by: str) -> Table:
        """A new lobby in the same channel with the same players and options, seated in the
        order the game's rules give for a rematch (e.g. the last-placed player starts)."""
        record = await self.repo.get(table_id)
        if record is None or record.status != "finished" or not record.state:
            raise TableError("no_table")
        if record.seat(by) is None:
            raise TableError("not_seated")
        game = self.game(record.game)
        order = game.rematch_seats(game.load_state(record.state))
        # Humans whom the timer replaced are not seated again; they can join like anyone.
        seats = [
            seat
            for seat_id in order
            if (seat := record.seat(seat_id)) is not None
            and (not is_human_id(seat.id) or not seat.is_cpu)
        ]
        try:
            new = await self.repo.create(
                guild_id=record.guild_id,
                channel_id=record.channel_id,
                game=record.game,
                host_id=by,
                locale=record.locale,
                options=record.options,
                seats=seats,
                seed=self._seed_factory(),
            )
        except ChannelBusy as exc:
            raise TableError("channel_busy") from exc
        table = Table(record=new, game=game)
        self._tables[new.id] = table
        await self.listener.lobby_changed(table)
        return table

    async def cancel(self, table_id: int, by: str, *, may_manage: bool = False) -> None:
        """The host (or a member who may manage the channel) ends a lobby or a game."""
        table = self.get(table_id)
        async with table.lock:
            if table.record.status not in ("lobby", "playing"):
                raise TableError("no_table")
            if by != table.record.host_id and not may_manage:
                raise TableError("not_host")
            await self._close_locked(table, "cancelled")
        await self.listener.table_closed(table, "stopped")

    # ----- play -----------------------------------------------------------------------------
    async def act(self, table_id: int, seat: str, version: int | None, action_text: str) -> Table:
        """Apply a player's action. ``version`` is the table version the player saw (``None``
        skips the check, for actions typed fresh such as a modal)."""
        table = self.get(table_id)
        async with table.lock:
            events = await self._act_locked(table, seat, version, action_text, by_timer=False)
            await self.listener.game_changed(table, events, seat, False)
        self._after_change(table)
        return table

    async def _act_locked(
        self, table: Table, seat: str, version: int | None, action_text: str, *, by_timer: bool
    ) -> list[Event]:
        if table.record.status != "playing" or table.state is None:
            raise TableError("not_playing")
        if table.seat(seat) is None:
            raise IllegalAction("not_a_player")
        if version is not None and version != table.state.version:
            raise TableError("stale", version=version, current=table.state.version)
        action = table.game.decode_action(action_text)
        new_state, events = table.game.apply(table.state, seat, action)
        outcome = table.game.outcome(new_state)
        meta = dict(table.record.meta)
        if not by_timer:
            meta["timeouts"] = {**meta.get("timeouts", {}), seat: 0}
        state_json = table.game.dump_state(new_state)
        try:
            await self.repo.record_action(
                table.record,
                seat=seat,
                action=action.encode(),
                state_json=state_json,
                version=new_state.version,
                by_timer=by_timer,
                meta=meta,
                finished=outcome is not None,
                standings=self._standings(table, outcome) if outcome else None,
                transfers=self._transfers(outcome) if outcome else None,
                # A card staked here may have left its owner in another game meanwhile: that
                # transfer is skipped rather than leaving this game unable to finish.
                skip_unheld_cards=True,
            )
        except StaleVersion as exc:  # another process wrote first: reload and refuse
            raise TableError("stale", version=version, current=table.state.version) from exc
        table.state = new_state
        table.last_events = events
        table.record.state = state_json
        table.record.version = new_state.version
        table.record.meta = meta
        if outcome is not None:
            table.record.status = "finished"
        return events

    def _standings(self, table: Table, outcome: Outcome) -> list[StandingDelta]:
        winners = set(outcome.winners)
        team_winners = set(outcome.team_winners)
        stats = outcome.stats
        everyone_tied = outcome.is_draw
        return [
            StandingDelta(
                user_id=s.id,
                won=int(s.id in winners and not everyone_tied),  # a draw is no win
                points=int(outcome.points.get(s.id, 0)),
                team_won=int(s.id in team_winners),
                stats={k: int(v) for k, v in (stats.get(s.id) or {}).items() if v}
                | ({"draws": 1} if everyone_tied else {}),
            )
            for s in table.record.seats
            if is_human_id(s.id)  # a human replaced by the computer still counts
        ]

    @staticmethod
    def _transfers(outcome: Outcome) -> list[CardTransfer]:
        return [
            CardTransfer(
                card_id=t.card,
                from_user=t.giver if is_human_id(t.giver) else None,
                to_user=t.receiver if is_human_id(t.receiver) else None,
            )
            for t in outcome.transfers
        ]

    # ----- after every change: timers, computer turns, cleanup ------------------------------
    def _after_change(self, table: Table) -> None:
        if self._closing:
            return
        if table.record.status != "playing" or table.state is None:
            self._cancel_timer(table.id)
            if table.record.status in ("finished", "cancelled"):
                self._tables.pop(table.id, None)
            return
        if self._cpu_pending(table):
            self._kick_cpu(table)
        self._restart_timer(table)

    def _cpu_pending(self, table: Table) -> bool:
        """Whether a computer seat will move; cheap when one is waited on (no search)."""
        state = table.state
        if state is None or table.game.outcome(state) is not None:
            return False
        to_act = table.game.to_act(state)
        if any(
            s.is_cpu and s.id in to_act and table.game.legal_actions(state, s.id)
            for s in table.record.seats
        ):
            return True
        return self._cpu_work(table) is not None

    def _cpu_work(self, table: Table) -> tuple[str, str] | None:
        """The next (seat, action text) a computer seat wants to play, if any."""
        state = table.state
        if state is None or table.game.outcome(state) is not None:
            return None
        to_act = table.game.to_act(state)
        cpus = [s for s in table.record.seats if s.is_cpu]
        # Optional moves (call-outs) first, then the seats the game waits on, in seat order:
        # a fixed order keeps a computer-only game reproducible from its seed.
        for only_waited in (False, True):
            for seat in cpus:
                if (seat.id in to_act) != only_waited:
                    continue
                legal = table.game.legal_actions(state, seat.id)
                if not legal:
                    continue
                rng = rng_for(state.seed, "cpu", seat.id, state.version)
                extra = (
                    self._ai_kwargs(table.game, self.config.cpu_think_seconds)
                    if self._ai_kwargs
                    else {}
                )
                choice = table.game.choose_action(
                    table.game.view(state, seat.id),
                    legal,
                    seat.cpu_level or "normal",
                    rng,
                    **extra,
                )
                if choice is None and only_waited:
                    choice = legal[0]
                if choice is not None:
                    return seat.id, choice.encode()
        return None

    def _kick_cpu(self, table: Table) -> None:
        task = self._cpu_tasks.get(table.id)
        if task is None or task.done():
            self._cpu_tasks[table.id] = asyncio.create_task(
                self._cpu_loop(table), name=f"cpu-{table.id}"
            )

    async def _cpu_loop(self, table: Table) -> None:
        try:
            while not self._closing:
                if self.config.cpu_delay_seconds:
                    await self._sleep(self.config.cpu_delay_seconds)
                async with table.lock:
                    # A search may take its whole time budget: off the event loop (the state
                    # only changes under this lock, so the thread reads a stable state).
                    work = await asyncio.to_thread(self._cpu_work, table)
                    if work is None:
                        return
                    seat, action_text = work
                    events = await self._act_locked(
                        table, seat, table.version, action_text, by_timer=False
                    )
                    await self.listener.game_changed(table, events, seat, False)
                self._restart_timer(table)
                if table.record.status != "playing":
                    self._after_change(table)
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer turn failed at table %s", table.id)
        finally:
            if self._cpu_tasks.get(table.id) is asyncio.current_task():
                self._cpu_tasks.pop(table.id, None)

    def _waiting_humans(self, table: Table) -> list[str]:
        if table.state is None or table.game.outcome(table.state) is not None:
            return []
        to_act = table.game.to_act(table.state)
        return [s.id for s in table.record.seats if not s.is_cpu and s.id in to_act]

    def turn_seconds(self, table: Table) -> int:
        return self.table_options(table).turn_seconds or self.config.turn_timeout_seconds

    def _restart_timer(self, table: Table) -> None:
        self._cancel_timer(table.id)
        if self._closing or not self._waiting_humans(table):
            return
        version = table.version
        self._timers[table.id] = asyncio.create_task(
            self._timer(table, version), name=f"timer-{table.id}"
        )

    def _cancel_timer(self, table_id: int) -> None:
        task = self._timers.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _timer(self, table: Table, version: int) -> None:
        await self._sleep(self.turn_seconds(table))
        if self._timers.get(table.id) is asyncio.current_task():
            self._timers.pop(table.id, None)
        await self.expire_turn(table.id, version)

    async def expire_turn(self, table_id: int, version: int | None = None) -> list[str]:
        """The turn timer ran out: the computer plays for every waited-on human seat.

        Returns the seats played for. A seat that times out ``timeouts_before_replacement``
        times in a row becomes a computer seat. Tests call this directly instead of waiting.
        """
        table = self.get(table_id)
        played: list[str] = []
        replaced: list[str] = []
        async with table.lock:
            if version is not None and table.version != version:
                return []
            for seat in self._waiting_humans(table):
                if table.state is None or seat not in table.game.to_act(table.state):
                    continue
                action = table.game.default_action(table.state, seat)
                meta = dict(table.record.meta)
                timeouts = {**meta.get("timeouts", {})}
                timeouts[seat] = timeouts.get(seat, 0) + 1
                meta["timeouts"] = timeouts
                table.record.meta = meta
                if timeouts[seat] >= self.config.timeouts_before_replacement:
                    table.record.seats = [
                        s.model_copy(update={"cpu_level": "normal"}) if s.id == seat else s
                        for s in table.record.seats
                    ]
                    replaced.append(seat)
                events = await self._act_locked(
                    table, seat, table.version, action.encode(), by_timer=True
                )
                played.append(seat)
                await self.listener.game_changed(table, events, seat, True)
                if table.record.status != "playing":
                    break
        for seat in replaced:
            await self.listener.seat_replaced(table, seat)
        self._after_change(table)
        return played

    async def wait_idle(self, table_id: int) -> None:
        """Wait until no computer turn is running at the table (tests, graceful shutdown)."""
        while (task := self._cpu_tasks.get(table_id)) is not None and not task.done():
            await asyncio.wait({task})

    # ----- replay ---------------------------------------------------------------------------
    async def replay(self, table_id: int) -> GameState:
        """Rebuild a table's state from its seed and action log (history, determinism)."""
        record = await self.repo.get(table_id)
        if record is None:
            raise TableError("no_table")
        game = self.game(record.game)
        options = {k: v for k, v in record.options.items() if k not in TableOptions.model_fields}
        state = game.new(
            [s.id for s in record.seats], record.seed, options, **record.meta.get("setup", {})
        )
        for row in await self.repo.actions(table_id):
            state, _ = game.apply(state, row.seat, game.decode_action(row.action))
        return state

    # ----- helpers --------------------------------------------------------------------------
    def _require_lobby(self, table: Table) -> None:
        if table.record.status != "lobby":
            raise TableError("not_in_lobby")

    def _require_host(self, table: Table, by: str) -> None:
        if by != table.record.host_id:
            raise TableError("not_host")

    async def _save_lobby(self, table: Table, seats: list[SeatInfo]) -> None:
        await self.repo.update_lobby(table.id, seats, table.record.host_id)
        table.record.seats = seats

    async def _close_locked(self, table: Table, status: str) -> None:
        await self.repo.close(table.id, status)  # type: ignore[arg-type]
        table.record.status = status  # type: ignore[assignment]
        self._cancel_timer(table.id)
        task = self._cpu_tasks.pop(table.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._tables.pop(table.id, None)


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where}: {err.get('msg', '')}" if where else str(err.get("msg", ""))
