"""Lobbies: open, join, leave, add or remove a computer, start, cancel, rematch; and the
per-game hook (``LobbyRules``) a game with a lobby of its own plugs in.

Notifications are posted (``ctx.notify``) right as the table lock is released, with no await in
between, so they keep the order of the changes (see notify.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol

from pydantic import ValidationError

from bot.errors import TableError
from bot.places import INTERACTION_ONLY
from bot.service.context import ServiceContext
from bot.service.fairness import FAIR_META, new_seal
from bot.service.guild_settings import SERVER_DEFAULTS
from bot.service.models import (
    CPU_PREFIX,
    Table,
    TableOptions,
    first_error,
    is_human_id,
)
from games.core import GameState
from storage import CardStake, ChannelBusy, SeatInfo, TableRecord, TableStatus

MetaChange = Callable[[dict[str, Any]], dict[str, Any]]
# What a game's start puts at stake (Triple Triad's cards), from its first state and its setup;
# None: nothing.
StakeOf = Callable[[Table, GameState, dict[str, Any]], CardStake | None]
# Where a new lobby goes once stored (bot/ui/threads.py: a thread of its own).
Place = Callable[[TableRecord], Awaitable[TableRecord]]
REMATCH = "rematch"  # meta key of a finished table: the id of its rematch lobby


class LobbyRules(Protocol):
    """What a game's own lobby adds to the common one (Triple Triad's challenge and card
    picks: ``bot/service/triad.py``). Its state lives in the table's ``meta[meta_key]`` and
    changes through ``Lobby.update_meta``; the game starts when ``setup`` says it may."""

    game_key: str
    meta_key: str

    async def setup(self, table: Table) -> dict[str, Any] | None:
        """The extra keyword input of the game's ``new`` once the lobby may start (it is
        stored for replays), or None while it may not."""
        ...

    def stake(self, table: Table, state: GameState, setup: dict[str, Any]) -> CardStake | None:
        """What the game's start puts at stake (written in the start's transaction, which
        refuses with ``CardsAtStake`` when a player lacks free copies)."""
        ...


class Lobby:
    def __init__(
        self,
        ctx: ServiceContext,
        *,
        after_change: Callable[[Table], None],
        stop_background: Callable[[int], None],
        stake_of: StakeOf | None = None,
    ) -> None:
        self.ctx = ctx
        self._stake_of: StakeOf = stake_of or (lambda table, state, setup: None)
        self._after_change = after_change
        self._stop_background = stop_background
        self._rematch_lock = asyncio.Lock()

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
        interaction_only: bool = False,
    ) -> Table:
        """A new lobby in ``channel_id``. ``place``: the table goes into a thread of that
        channel; it runs once the lobby is stored and before it is shown, and returns the
        record as placed (in its thread, or inline when no thread could be made).
        ``interaction_only``: opened where the bot may not post (``bot/places.py``): stored
        with the table, which then lives on interaction tokens alone."""
        game = self.ctx.game(game_key)
        options = dict(options or {})
        meta: dict[str, Any] = {INTERACTION_ONLY: True} if interaction_only else {}
        if self.ctx.guild_settings is not None:  # the server's defaults (/settings)
            settings = await self.ctx.guild_settings.get(guild_id)
            options, locale, filled = settings.for_new_table(game_key, channel_id, options, locale)
            if filled:
                meta[SERVER_DEFAULTS] = filled
        table_opts = {k: options.pop(k) for k in list(options) if k in TableOptions.model_fields}
        # Game options the game refuses raise IllegalAction(BAD_OPTIONS) (every game alike),
        # answered as the game explains it (``<game>.error.bad_options``, else the common text).
        game_options = game.parse_options(options)
        try:
            table_options = TableOptions.model_validate(table_opts)
        except ValidationError as exc:
            raise TableError("invalid_options", detail=first_error(exc)) from exc
        if table_options.cpu_level not in game.ai_levels:
            raise TableError("invalid_options", detail=f"cpu_level={table_options.cpu_level}")
        stored_options = {**game_options.model_dump(mode="json"), **table_options.model_dump()}
        try:
            record = await self.ctx.repo.create(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game_key,
                host_id=host_id,
                locale=locale,
                options=stored_options,
                seats=[SeatInfo(id=host_id, name=host_name)],
                seed=seed or self.ctx.seed_factory(),
                meta=meta,
                parent_channel_id=channel_id if place is not None else None,
            )
        except ChannelBusy as exc:
            raise TableError("channel_busy") from exc
        if place is not None:
            record = await place(record)
        table = Table(record=record, game=game)
        self.ctx.tables[record.id] = table
        await self.ctx.notify.lobby_changed(table)
        return table

    @asynccontextmanager
    async def _changing(self, table_id: int) -> AsyncIterator[Table]:
        """A lobby changed under its lock (refused unless still a lobby), then the listener
        told: the frame of every change that keeps it a lobby (not one the change raises)."""
        table = self.ctx.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            yield table
        await self.ctx.notify.lobby_changed(table)

    async def _add_seat(self, table: Table, seat: SeatInfo) -> None:
        if len(table.record.seats) >= table.game.max_players:
            raise TableError("table_full", max=table.game.max_players)
        await self._save_seats(table, [*table.record.seats, seat])

    async def join(self, table_id: int, user_id: str, name: str) -> Table:
        async with self._changing(table_id) as table:
            if table.seat(user_id):
                raise TableError("already_joined")
            await self._add_seat(table, SeatInfo(id=user_id, name=name))
        return table

    async def leave(self, table_id: int, user_id: str) -> Table:
        table = self.ctx.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if not table.seat(user_id):
                raise TableError("not_joined")
            seats = [s for s in table.record.seats if s.id != user_id]
            if not any(not s.is_cpu for s in seats):
                await self.close_locked(table, "cancelled")
                closed = True
            else:
                if table.record.host_id == user_id:  # the longest-seated human hosts next
                    table.record.host_id = next(s.id for s in seats if not s.is_cpu)
                await self._save_seats(table, seats)
                closed = False
        if closed:
            await self.ctx.notify.table_closed(table, "empty")
        else:
            await self.ctx.notify.lobby_changed(table)
        return table

    async def add_cpu(self, table_id: int, by: str, level: str | None = None) -> Table:
        async with self._changing(table_id) as table:
            self._require_host(table, by)
            level = level or self.ctx.table_options(table).cpu_level
            if level not in table.game.ai_levels:
                raise TableError("invalid_options", detail=f"cpu_level={level}")
            taken = {s.id for s in table.record.seats}
            n = next(i for i in range(1, 100) if f"{CPU_PREFIX}{i}" not in taken)
            seat = SeatInfo(id=f"{CPU_PREFIX}{n}", name=f"CPU {n}", cpu_level=level)
            await self._add_seat(table, seat)
        return table

    async def remove(self, table_id: int, by: str, seat_id: str) -> Table:
        async with self._changing(table_id) as table:
            self._require_host(table, by)
            if seat_id == by or not table.seat(seat_id):
                raise TableError("cannot_remove")
            await self._save_seats(table, [s for s in table.record.seats if s.id != seat_id])
        return table

    async def update_meta(self, table_id: int, key: str, change: MetaChange) -> Table:
        """Replace ``meta[key]`` of a lobby by ``change(current)`` (which may refuse by
        raising), persist it, then tell the listener: a game's lobby state (``LobbyRules``)."""
        async with self._changing(table_id) as table:
            new = change(dict(table.record.meta.get(key) or {}))
            meta = {**table.record.meta, key: new}
            await self.ctx.repo.set_meta(table.id, meta)
            table.record.meta = meta
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
        table = self.ctx.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if host_only:
                self._require_host(table, by)
            if len(table.record.seats) < table.game.min_players:
                raise TableError("not_enough_players", min=table.game.min_players)
            seats = [s.id for s in table.record.seats]
            state = table.game.new(
                seats, table.record.seed, self.ctx.game_options(table), **(setup or {})
            )
            # The deal's seal (salt, commitment, deal digest) is stored with the start, before
            # the table shows its commitment (bot/service/fairness.py).
            meta = {
                **table.record.meta,
                **({"setup": setup} if setup else {}),
                FAIR_META: new_seal(table.game, state, table.record.seed),
            }
            # One transaction: the start, its setup (for replays) and the cards it stakes.
            state_json = table.game.dump_state(state)
            await self.ctx.repo.start(
                table.id,
                table.record.seats,
                state_json,
                state.version,
                meta=meta,
                stake=self._stake_of(table, state, setup or {}),
            )
            table.record.meta = meta
            table.record.status = "playing"
            table.record.state = state_json
            table.record.state_version = table.record.version = state.version
            table.state = state
            table.last_events = []
        await self.ctx.notify.game_changed(table, [], None, False)
        self._after_change(table)
        return table

    async def start_when_ready(self, table_id: int, rules: LobbyRules) -> bool:
        """Start a lobby with ``rules``' setup once they allow it; True if it started (here or
        by a concurrent click)."""
        table = self.ctx.get(table_id)
        if table.record.status != "lobby":
            return False
        setup = await rules.setup(table)
        if setup is None:
            return False
        try:
            await self.start(table.id, table.record.host_id, setup=setup, host_only=False)
        except TableError as exc:
            if exc.code == "not_in_lobby":  # two confirmed at once: the other click started
                return True
            raise
        return True

    async def rematch(self, table_id: int, by: str) -> Table:
        """A new lobby in the same channel with the same players and options, seated in the
        order the game's rules give for a rematch (e.g. the last-placed player starts)."""
        async with self._rematch_lock:  # two presses at once: the second is told it is open
            record = await self.ctx.repo.get(table_id)
            if record is None:
                raise TableError("no_such_table", table=table_id)
            if record.status != "finished" or not record.state:
                raise TableError("not_finished", table=table_id)
            if record.seat(by) is None:
                raise TableError("not_seated")
            if record.meta.get(REMATCH) is not None:
                raise TableError("rematch_open")
            # The lobby and the finished table's link to it commit together; a crash before
            # the lobby is shown leaves a lobby without message, which start-up shows
            # (``TableRegistry.unshown_lobbies``).
            table = await self._open_rematch(record, by)
            record.meta = {**record.meta, REMATCH: table.id}
        await self.ctx.notify.lobby_changed(table)
        finished = Table(record=record, game=table.game)
        await self.ctx.notify.post(
            record.id, lambda: self.ctx.listener.rematch_opened(finished, table)
        )
        return table

    async def _open_rematch(self, record: TableRecord, by: str) -> Table:
        game = self.ctx.game(record.game)
        assert record.state is not None  # a finished table has its final state
        order = game.rematch_seats(game.load_state(record.state))
        # Humans whom the timer replaced are not seated again; they can join like anyone.
        seats = [
            seat
            for seat_id in order
            if (seat := record.seat(seat_id)) is not None
            and (not is_human_id(seat.id) or not seat.is_cpu)
        ]
        try:
            new = await self.ctx.repo.create(
                guild_id=record.guild_id,
                channel_id=record.channel_id,
                game=record.game,
                host_id=by,
                locale=record.locale,
                options=record.options,
                seats=seats,
                seed=self.ctx.seed_factory(),
                meta={INTERACTION_ONLY: True} if record.meta.get(INTERACTION_ONLY) else None,
                link_from=(record.id, REMATCH),  # one transaction: both or neither
            )
        except ChannelBusy as exc:
            raise TableError("channel_busy") from exc
        table = Table(record=new, game=game)
        self.ctx.tables[new.id] = table
        return table

    async def cancel(self, table_id: int, by: str, *, may_manage: bool = False) -> None:
        """The host (or a member who may manage the channel) ends a lobby or a game."""
        table = self.ctx.get(table_id)
        async with table.lock:
            if table.record.status not in ("lobby", "playing"):
                raise TableError("table_gone", table=table_id)
            if by != table.record.host_id and not may_manage:
                raise TableError("not_host")
            await self.close_locked(table, "cancelled")
        await self.ctx.notify.table_closed(table, "stopped")

    async def close_locked(self, table: Table, status: TableStatus) -> None:
        # A game closed between two stored states stores its last one: a closed table's row
        # is whole, for whatever reads it later (snapshots.py).
        state, closing = table.state, None
        if state is not None and table.record.stored_version < state.version:
            closing = (table.game.dump_state(state), state.version)
        await self.ctx.repo.close(table.id, status, state=closing)
        table.record.status = status
        self._stop_background(table.id)
        self.ctx.tables.pop(table.id, None)

    # ----- helpers --------------------------------------------------------------------------
    @staticmethod
    def _require_lobby(table: Table) -> None:
        if table.record.status != "lobby":
            raise TableError("not_in_lobby")

    @staticmethod
    def _require_host(table: Table, by: str) -> None:
        if by != table.record.host_id:
            raise TableError("not_host")

    async def _save_seats(self, table: Table, seats: list[SeatInfo]) -> None:
        await self.ctx.repo.update_lobby(table.id, seats, table.record.host_id)
        table.record.seats = seats
