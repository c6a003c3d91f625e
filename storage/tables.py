"""Tables: a lobby or game in one channel, its stored state (every few moves, with the version
it is at: bot/service/snapshots.py) and its action log."""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from storage.collections import (
    CardStake,
    CardTransfer,
    apply_transfers,
    release_stakes,
    stake_cards,
)
from storage.db import Database
from storage.intents import Intent, intent_key, mark_done
from storage.ratings import (
    FINISH_LOCK,
    RATING_CHANGES_META,
    FinishedGame,
    Rate,
    apply_finished,
)
from storage.rows import as_model
from storage.sql import INTEGRITY_ERRORS, Transaction, utc_now
from storage.standings import StandingDelta, apply_standings
from storage.stored_state import packer, unpack

TableStatus = Literal["lobby", "playing", "finished", "cancelled"]
OPEN_STATUSES = ("lobby", "playing")


class ChannelBusy(Exception):
    """The channel already has an open table (one active table per channel, threads aside)."""


class StaleVersion(Exception):
    """The table's stored version is not the one the writer started from."""


class SeatInfo(BaseModel):
    id: str
    name: str
    cpu_level: str | None = None  # None for a human seat

    @property
    def is_cpu(self) -> bool:
        return self.cpu_level is not None


class TableRecord(BaseModel):
    id: int
    guild_id: str
    channel_id: str
    game: str
    status: TableStatus
    host_id: str
    locale: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    seed: str
    message_id: str | None = None
    state: str | None = None
    version: int = 0
    # The version ``state`` is at: the state is stored every few moves, not at every one
    # (bot/service/snapshots.py replays the actions after it); None without a state (a lobby).
    state_version: int | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
    # A table in a thread of its own: the text channel /play was typed in and its short line
    # there (``channel_id`` is then the thread's; storage/threads.py binds them).
    parent_channel_id: str | None = None
    parent_message_id: str | None = None

    @property
    def stored_version(self) -> int:
        """The version of the stored ``state`` (the actions after it are in the log)."""
        return 0 if self.state_version is None else self.state_version

    def seat(self, seat_id: str) -> SeatInfo | None:
        # A plain loop, not next() over a generator (issue 29: called tens of times per move;
        # the generator's frame cost more than the comparisons).
        for seat in self.seats:
            if seat.id == seat_id:
                return seat
        return None


class OpenTable(BaseModel):
    """An open table as start-up indexes it (no state loaded)."""

    id: int
    guild_id: str
    channel_id: str
    game: str
    status: TableStatus
    wake_at: float | None = None


class ActionRow(BaseModel):
    version: int
    seat: str
    action: str
    by_timer: bool


def _record(row: Any) -> TableRecord:
    values = dict(row)
    values["state"] = unpack(values.get("state"))  # (SQLite's deflated: storage/stored_state.py)
    return as_model(TableRecord, values, json_columns=("options", "seats", "meta"))


def _seats_json(seats: list[SeatInfo]) -> str:
    return json.dumps([s.model_dump() for s in seats])


@functools.lru_cache(maxsize=16)
def _move_update(state: bool, seats: bool, meta: bool, finished: bool) -> str:
    """A move's guarded UPDATE of its table (parameters: [state, its version], version,
    [seats], [meta], wake_at, updated_at, id, expected version). The state only when the move
    stores it (a snapshot: bot/service/snapshots.py), the seats and meta only when the move
    changed them, the status only when it ends the game (issue 29: JSON made and written for
    nothing; setting the status rewrote its three partial indexes)."""
    columns = ["state = ?", "state_version = ?"] if state else []
    columns += ["version = ?"]
    columns += ["seats = ?"] if seats else []
    columns += ["meta = ?"] if meta else []
    columns += ["wake_at = ?", "updated_at = ?"]
    columns += ["status = 'finished'"] if finished else []
    return (
        f"UPDATE tables SET {', '.join(columns)}"
        " WHERE id = ? AND version = ? AND status = 'playing'"
    )


class TablesRepo:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._pack = packer(db.dialect)  # a state as the backend stores it

    async def create(
        self,
        *,
        guild_id: str,
        channel_id: str,
        game: str,
        host_id: str,
        locale: str,
        options: dict[str, Any],
        seats: list[SeatInfo],
        seed: str,
        meta: dict[str, Any] | None = None,
        link_from: tuple[int, str] | None = None,
        parent_channel_id: str | None = None,
    ) -> TableRecord:
        """A new lobby. ``link_from`` = (table id, meta key): that table's meta records the new
        table's id under the key in the same transaction (a finished table and its rematch:
        a crash never leaves the one without the other). ``parent_channel_id``: the table is
        bound for a thread of that channel (not held to one open table per channel)."""

        def unit(conn: Transaction) -> Any:
            row = conn.execute(
                "INSERT INTO tables (guild_id, channel_id, game, status, host_id, locale,"
                " options, seats, seed, meta, parent_channel_id)"
                " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    game,
                    host_id,
                    locale,
                    json.dumps(options),
                    _seats_json(seats),
                    seed,
                    json.dumps(meta or {}),
                    parent_channel_id,
                ),
            ).fetchone()
            if link_from is not None:
                source, key = link_from
                found = conn.execute("SELECT meta FROM tables WHERE id = ?", (source,)).fetchone()
                linked = {**(json.loads(found[0]) if found and found[0] else {}), key: row["id"]}
                conn.execute(
                    "UPDATE tables SET meta = ? WHERE id = ?", (json.dumps(linked), source)
                )
            return row

        try:
            row = await self.db.write(unit)
        except INTEGRITY_ERRORS as exc:
            raise ChannelBusy(channel_id) from exc
        return _record(row)

    async def unshown_lobbies(self) -> list[int]:
        """Lobbies whose message was never posted (a process killed between creating the
        lobby and showing it, e.g. a rematch): start-up shows them."""
        rows = await self.db.fetchall(
            "SELECT id FROM tables WHERE status = 'lobby' AND message_id IS NULL"
            # not those on their way into a thread (bot/ui/threads.py places those)
            " AND (parent_channel_id IS NULL OR channel_id <> parent_channel_id) ORDER BY id"
        )
        return [int(r[0]) for r in rows]

    async def get(self, table_id: int) -> TableRecord | None:
        row = await self.db.fetchone("SELECT * FROM tables WHERE id = ?", (table_id,))
        return _record(row) if row else None

    async def open_tables(self) -> list[TableRecord]:
        rows = await self.db.fetchall(
            "SELECT * FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id"
        )
        return [_record(r) for r in rows]

    async def open_index(self) -> list[OpenTable]:
        """What start-up needs of every open table, without its state: id, channel, game,
        status and next wake-up (``tables_open`` index; states load on first use)."""
        rows = await self.db.fetchall(
            "SELECT id, guild_id, channel_id, game, status, wake_at FROM tables"
            " WHERE status IN ('lobby', 'playing') ORDER BY id"
        )
        return [
            OpenTable(id=r[0], guild_id=r[1], channel_id=r[2], game=r[3], status=r[4], wake_at=r[5])
            for r in rows
        ]

    async def update_lobby(self, table_id: int, seats: list[SeatInfo], host_id: str) -> None:
        await self.db.execute(
            "UPDATE tables SET seats = ?, host_id = ?, updated_at = ?"
            " WHERE id = ? AND status = 'lobby'",
            (_seats_json(seats), host_id, utc_now(), table_id),
        )

    async def update_seats(
        self, table_id: int, seats: list[SeatInfo], host_id: str, meta: dict[str, Any]
    ) -> None:
        """Who controls each seat of a game in progress (a person or the computer), the host
        and the table's meta, in one write (a person leaving, coming back, being removed)."""
        changed = await self.db.execute(
            "UPDATE tables SET seats = ?, host_id = ?, meta = ?, updated_at = ?"
            " WHERE id = ? AND status = 'playing'",
            (_seats_json(seats), host_id, json.dumps(meta), utc_now(), table_id),
        )
        if changed != 1:
            raise StaleVersion(table_id)

    async def set_message(self, table_id: int, message_id: str | None) -> None:
        await self.db.execute(
            "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id)
        )

    async def set_meta(self, table_id: int, meta: dict[str, Any]) -> None:
        await self.db.execute(
            "UPDATE tables SET meta = ? WHERE id = ?", (json.dumps(meta), table_id)
        )

    async def start(
        self,
        table_id: int,
        seats: list[SeatInfo],
        state_json: str,
        version: int,
        *,
        meta: dict[str, Any] | None = None,
        stake: CardStake | None = None,
    ) -> None:
        """The lobby becomes a game, in one transaction with its ``meta`` (e.g. the setup a
        replay needs) and the cards it puts at stake (``CardsAtStake`` if a player lacks free
        copies: then nothing is written and the table is still a lobby)."""
        seats_json = _seats_json(seats)
        meta_json = None if meta is None else json.dumps(meta)
        pack = self._pack

        def unit(conn: Transaction) -> None:
            cur = conn.execute(
                "UPDATE tables SET status = 'playing', seats = ?, state = ?, state_version = ?,"
                " version = ?, meta = COALESCE(?, meta), updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (seats_json, pack(state_json), version, version, meta_json, utc_now(), table_id),
            )
            if cur.rowcount != 1:
                raise StaleVersion(table_id)
            if stake is not None:
                stake_cards(conn, table_id, stake)

        await self.db.write(unit)

    async def close(
        self,
        table_id: int,
        status: TableStatus = "cancelled",
        *,
        state: tuple[str, int] | None = None,
    ) -> None:
        """Close the table; ``state``: its state's JSON and version, stored with it (a game
        closed between two stored states: bot/service/snapshots.py)."""
        pack = self._pack

        def unit(conn: Transaction) -> None:
            conn.execute(
                "UPDATE tables SET status = ?, updated_at = ? WHERE id = ?",
                (status, utc_now(), table_id),
            )
            if state is not None:
                conn.execute(
                    "UPDATE tables SET state = ?, state_version = ? WHERE id = ?",
                    (pack(state[0]), state[1], table_id),
                )
            release_stakes(conn, table_id)

        await self.db.write(unit)

    def record_action(
        self,
        table: TableRecord,
        *,
        seat: str,
        action: str,
        state_json: str | None,
        version: int,
        by_timer: bool = False,
        seats: list[SeatInfo] | None = None,
        meta: dict[str, Any] | None = None,
        finished: bool = False,
        standings: list[StandingDelta] | None = None,
        transfers: list[CardTransfer] | None = None,
        skip_unheld_cards: bool = False,
        finished_game: FinishedGame | None = None,
        rate: Rate | None = None,
        intent: Intent | None = None,
        wake_at: float | None = None,
    ) -> asyncio.Future[dict[str, tuple[float, float]]]:
        """Write the action row, the new state when given (``state_json``: a snapshot, at
        version ``version``; None leaves the stored one, which the actions after it rebuild:
        bot/service/snapshots.py) and (when the game ended) the standings and card transfers
        as ONE writer unit: one round trip, one transaction, guarded by the
        previous version so two writers cannot both win, and all-or-nothing (a failure
        anywhere leaves nothing of it). ``seats`` / ``meta``: written when given (the move
        changed them: a timer's move hands a seat to the computer and counts its timeouts),
        the stored ones left as they are when None. ``intent``: the click this move answers,
        marked done in the same transaction; ``wake_at``: the table's next deadline (unix
        seconds).

        Queued when called, and answered by the writer's own future (awaited as a coroutine's
        result was): no task around it whose first step queues it a loop turn later and whose
        end wakes the mover one more turn after the commit (issue 25: under load every view of
        a move waited a loop lag for each).

        Returns the rating changes in the table's guild (user -> (ordinal before, after);
        empty unless this move finished a rated game); the same transaction stores them in the
        table's meta (``RATING_CHANGES_META``), so whatever shows the table later reads them."""
        meta_dict = meta if meta is not None else table.meta
        snapshot = state_json is not None
        sql = _move_update(snapshot, seats is not None, meta is not None, finished)
        changed: tuple[object, ...] = (version,)
        if seats is not None:
            changed += (_seats_json(seats),)
        if meta is not None:
            changed += (json.dumps(meta),)
        changed += (None if finished else wake_at,)
        # Read now, not in the writer thread: the caller's record changes after the commit.
        table_id, expected, guild_id, game = table.id, table.version, table.guild_id, table.game
        pack = self._pack

        def unit(conn: Transaction) -> dict[str, tuple[float, float]]:
            # The guard first: a stale writer fails as StaleVersion, not on the action key.
            # Under PostgreSQL a second writer at the same version (another process) waits for
            # the first one's row lock, then finds the version moved: one of them wins. The
            # state deflated here, in the writer's thread, not on the event loop.
            state = (pack(state_json), version) if state_json is not None else ()
            cur = conn.execute(sql, (*state, *changed, utc_now(), table_id, expected))
            if cur.rowcount != 1:
                raise StaleVersion(table_id)
            conn.execute(
                "INSERT INTO actions (table_id, version, seat, action, by_timer)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, version, seat, action, int(by_timer)),
            )
            if standings or transfers or finished_game is not None:
                # Everything a game's end writes across tables, in one order for every process.
                conn.lock(FINISH_LOCK)
            if standings:
                apply_standings(conn, guild_id, game, standings)
            if transfers:
                apply_transfers(conn, game, transfers, table_id, skip_unheld=skip_unheld_cards)
            changes: dict[str, tuple[float, float]] = {}
            if finished_game is not None:  # the outcome, history and ratings (storage/ratings.py)
                changes = apply_finished(conn, finished_game, rate).get(guild_id, {})
            if changes:
                shown = {u: list(pair) for u, pair in changes.items()}
                conn.execute(
                    "UPDATE tables SET meta = ? WHERE id = ?",
                    (json.dumps({**meta_dict, RATING_CHANGES_META: shown}), table_id),
                )
            if finished:
                release_stakes(conn, table_id)
            if intent is not None:
                mark_done(conn, intent)
            return changes

        # Decided: a cancelled mover still learns whether its move committed (moves.py).
        # It writes the whole intent: its click's own write, if in the same batch, is not run.
        covers = None if intent is None else intent_key(intent)
        return self.db.submit(unit, decided=True, covers=covers)

    async def actions(self, table_id: int, after: int = 0) -> list[ActionRow]:
        """The table's logged moves, those after version ``after`` (all by default)."""
        return await self.db.models(
            ActionRow,
            "SELECT version, seat, action, by_timer FROM actions WHERE table_id = ?"
            " AND version > ? ORDER BY version",
            (table_id, after),
        )
