"""THE move path. Every action, a person's, a computer's or a timer's, goes through here:

1. take the table's lock (``act``; the computer and the timer take it themselves);
2. check the version the player saw;  3. ``apply`` (the engine validates);
4. persist the action row, the state when the move stores it (every few moves and at the end:
   ``snapshots.py``) (+ standings, card transfers and ratings when it ends) as ONE
   writer unit (``storage/writer.py``: one round trip, one transaction, committed before step 5);
   the rating changes it returns are kept in the table's meta, as that transaction stored them;
5. post the listener's notification (``notify.py``) and release the lock; the notification is
   delivered *outside* the lock, so presenting never blocks the next move: a person's move
   (``play``) and a computer's (``act_locked_told``) tell the listener themselves, in their own
   task, when their turn in the table's line comes; a timer's move awaits a delivery by a task
   of its own.
Scheduling what comes next (computer turns, the turn timer) is the caller's: for a person's
move (``play``, the click path, ``TableService.act``) the service's ``after_change``.

When other processes share the tables (PostgreSQL, ``bot/service/shared.py``), the database
decides: a click whose version disagrees with memory, or a write that loses the version guard
(``StaleVersion``), first catches the table up from the database (``ctx.refresh``); then the
click is judged again: refused as stale if the player saw an older version, re-applied on the
fresh state if it carried no version (a modal's typed action, the timer).

Each step is timed into ``bot.metrics``: ``lock_wait``, ``apply``, ``persist`` (and
``notify`` in notify.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot import metrics
from bot.errors import TableError
from bot.service.context import ServiceContext
from bot.service.models import Table, is_human_id
from bot.service.notify import Delivery, Turn
from bot.service.results import card_transfers, finished_record, standing_deltas
from bot.service.snapshots import stores_state
from bot.service.table_registry import TableRegistry
from bot.service.wake import next_wake
from games.core import Action, Event, GameState, IllegalAction
from storage import RATING_CHANGES_META, Intent, StaleVersion

ATTEMPTS = 3  # a move without a version, re-applied after losing the guard to another process


@dataclass(frozen=True, slots=True)
class Move:
    """A move as the path carries it: the seat, the table version its player saw (None: not
    checked, for an action typed fresh or the timer's), the action's text, whether the turn
    timer played it, and the click it answers (``intent``: marked done in its transaction).
    ``action``: the text's action, when the caller holds it already (a computer's choice among
    the legal actions it was offered, the timer's default action): not parsed again. ``apply``
    judges it as it judges a decoded one."""

    seat: str
    version: int | None
    text: str
    by_timer: bool = False
    intent: Intent | None = None
    action: Action | None = None


class _Lost(Exception):
    """The version-guarded write lost to another process's commit (shared tables only)."""


class Moves:
    def __init__(
        self,
        ctx: ServiceContext,
        registry: TableRegistry | None = None,
        after_change: Callable[[Table], None] = lambda table: None,
    ) -> None:
        """``registry`` finds the table of a move that did not bring it (``play``);
        ``after_change`` schedules what comes after a person's move (timers, computer turns)."""
        self.ctx = ctx
        self._registry = registry
        self._after_change = after_change
        self.inflight = 0  # people's moves under way (a shutdown waits for them: ``idle``)
        self.idle = asyncio.Event()
        self.idle.set()

    async def play(
        self,
        table_id: int,
        seat: str,
        version: int | None,
        action_text: str,
        *,
        intent: Intent | None = None,
        table: Table | None = None,
    ) -> Table:
        """A person's move, the click path's entry into the service (``TableService.act``):
        steps 1-5, then the move's presentation awaited (outside the lock, in version order)
        and what comes next scheduled. ``version`` is the table version the player saw
        (``None`` skips the check, for actions typed fresh such as a modal); ``intent`` the
        recorded click it answers (marked done in the move's transaction); ``table`` the live
        table ``table_id`` names, when the caller found it already (a click looks it up once).
        Refused with ``TableError("restarting")`` once the service is closing."""
        if self.ctx.closing:
            raise TableError("restarting")
        if table is None:
            assert self._registry is not None, "a move without its table needs the registry"
            table = await self._registry.ensure(table_id) or self._registry.get(table_id)
        self.inflight += 1
        self.idle.clear()
        try:
            _, turn = await self.act(table, Move(seat, version, action_text, intent=intent))
            try:
                async with turn as tell:  # outside the table lock, in version order
                    await tell()
            finally:
                self._after_change(table)
        finally:
            self.inflight -= 1
            if not self.inflight:
                self.idle.set()
        return table

    async def act(self, table: Table, move: Move) -> tuple[list[Event], Turn]:
        """Steps 1-5 of a person's move; returns the events and the notification's turn, for
        the caller to tell the listener outside the lock (``async with turn as tell``)."""
        start = time.perf_counter()
        async with table.lock:
            # (``metrics.observe``'s own, without its call: every move)
            metrics.histograms["lock_wait"].add((time.perf_counter() - start) * 1000)
            info = table.seat(move.seat)
            if info is not None and info.is_cpu and is_human_id(move.seat):  # left, timed out
                raise TableError("seat_played_by_cpu")
            events = await self._apply_and_persist(table, move)
            return events, self.ctx.notify.turn(table, events, move.seat, False)

    async def act_locked(self, table: Table, move: Move) -> tuple[list[Event], Delivery]:
        """Steps 2-5 for a caller holding ``table.lock`` (the timer's move). The caller awaits
        the returned delivery after releasing the lock."""
        events = await self._apply_and_persist(table, move)
        return events, self.ctx.notify.game_changed(table, events, move.seat, move.by_timer)

    async def act_locked_told(self, table: Table, move: Move) -> tuple[list[Event], Turn]:
        """``act_locked`` for a caller that tells the listener itself once it released the
        lock (a computer's move: ``async with turn as tell: await tell()``), as a person's move
        does: no delivery task, and no loop turn between the move's commit and its views."""
        events = await self._apply_and_persist(table, move)
        return events, self.ctx.notify.turn(table, events, move.seat, move.by_timer)

    async def _apply_and_persist(self, table: Table, move: Move) -> list[Event]:
        version = move.version
        refresh = self.ctx.refresh
        behind = table.state is not None and version not in (None, table.state.version)
        if refresh is not None and behind:
            await refresh(table)  # memory may be behind another process: the database says
        for _ in range(ATTEMPTS):
            try:
                return await self._attempt(table, move)
            except _Lost:
                metrics.count("stale_moves")
                assert refresh is not None
                await refresh(table)
                if version is not None:
                    current = table.state.version if table.state is not None else None
                    raise TableError("stale", version=version, current=current) from None
        raise TableError("stale", version=version, current=table.record.version)

    async def _attempt(self, table: Table, move: Move) -> list[Event]:
        seat, version, by_timer = move.seat, move.version, move.by_timer
        if table.record.status != "playing" or table.state is None:
            raise TableError("not_playing")
        if table.seat(seat) is None:
            raise IllegalAction("not_a_player")
        if version is not None and version != table.state.version:
            raise TableError("stale", version=version, current=table.state.version)
        game = table.game
        with metrics.phase("apply"):
            action = move.action if move.action is not None else game.decode_action(move.text)
            new_state, events = game.apply(table.state, seat, action)
            outcome = game.outcome(new_state)
            # Dumped only when stored (snapshots.py): the actions rebuild the states between.
            finished = outcome is not None
            stores = stores_state(table.record, new_state.version, finished)
            state_json = game.dump_state(new_state) if stores else None
            wake_at = next_wake(
                game, table.record.seats, new_state, self.ctx.turn_seconds(table), self.ctx.clock
            )
        # A person's or computer's move sets its seat's timeouts in a row to 0; the meta is
        # written only when that changed it, and a timer's move writes the seats and meta it
        # changed in the record (timers.py) before moving.
        meta = table.record.meta
        timeouts = meta.get("timeouts", {})
        if not by_timer and timeouts.get(seat) != 0:
            meta = {**meta, "timeouts": {**timeouts, seat: 0}}
        meta_changed = by_timer or meta is not table.record.meta
        # The writer's own future, which refuses cancellation (``storage.writer.Decided``): a
        # mover cancelled meanwhile is woken only once the write is decided, so it keeps
        # memory in step with the database without a shield (one loop turn more per move).
        write = self.ctx.repo.record_action(
            table.record,
            seat=seat,
            action=action.encode(),
            state_json=state_json,
            version=new_state.version,
            by_timer=by_timer,
            seats=table.record.seats if by_timer else None,
            meta=meta if meta_changed else None,
            finished=finished,
            standings=standing_deltas(table, outcome) if outcome else None,
            transfers=card_transfers(outcome) if outcome else None,
            # A card staked here may have left its owner in another game meanwhile: that
            # transfer is skipped rather than leaving this game unable to finish.
            skip_unheld_cards=True,
            # The outcome, history and ratings, in the same transaction (results.py).
            **(finished_record(table, outcome) if outcome else {}),
            intent=move.intent,
            wake_at=wake_at,
        )
        start = time.perf_counter()
        try:
            changes = await write
        except StaleVersion as exc:  # another process wrote first
            if self.ctx.refresh is not None:
                raise _Lost() from exc  # caught up and judged again by the caller
            raise TableError("stale", version=version, current=table.state.version) from exc
        except asyncio.CancelledError:
            # Woken once the write was decided: keep memory in step with the database, or
            # every later move would fail the version guard.
            if not await _committed(write):
                raise
            meta = with_rating_changes(meta, write.result())
            self._remember(table, seat, new_state, events, state_json, meta, finished)
            table.last_by_timer = by_timer
            # Persisted, so shown: a shutdown cancels computer turns after its drain, and a move
            # committed then would otherwise stay unshown until the next start.
            self.ctx.notify.game_changed(table, events, seat, by_timer)
            raise
        finally:
            metrics.histograms["persist"].add((time.perf_counter() - start) * 1000)
        meta = with_rating_changes(meta, changes)
        self._remember(table, seat, new_state, events, state_json, meta, finished)
        table.last_by_timer = by_timer
        metrics.counters["moves"] += 1
        return events

    @staticmethod
    def _remember(
        table: Table,
        seat: str,
        new_state: GameState,
        events: list[Event],
        state_json: str | None,
        meta: dict,
        finished: bool,
    ) -> None:
        table.state = new_state
        table.last_events = events
        table.last_actor = seat
        if state_json is not None:  # the stored state, as the row has it now
            table.record.state = state_json
            table.record.state_version = new_state.version
        table.record.version = new_state.version
        table.record.meta = meta
        if finished:
            table.record.status = "finished"


def with_rating_changes(meta: dict, changes: dict[str, tuple[float, float]]) -> dict:
    """``meta`` as the final transaction stored it: with the game's rating changes in the
    table's guild (``RATING_CHANGES_META``: user -> [before, after] ordinals), if any."""
    if not changes:
        return meta
    return {**meta, RATING_CHANGES_META: {u: list(pair) for u, pair in changes.items()}}


async def _committed(write: asyncio.Future[dict[str, tuple[float, float]]]) -> bool:
    try:
        await write
    except BaseException:
        return False
    return True
