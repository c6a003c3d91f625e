"""Computer turns: one background task per table plays the computer seats' moves through
the move path, one at a time. Searches run in the worker processes (``bot/workers.py``) outside
the table lock; the move itself is played under the lock if the table is still at the version
searched."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot import metrics
from bot.service.choose import GameRef, choose_action_text, game_ref
from bot.service.context import ServiceContext
from bot.service.models import Table
from bot.service.moves import Move, Moves
from bot.service.tasks import TableTasks
from bot.service.timers import TurnTimers
from games.core import Action, Game
from storage import StorageUnavailable

log = logging.getLogger(__name__)

# A computer move the database could not save is tried again after this long (and again, while
# the database stays away): the table goes on by itself once it is back.
RETRY_SECONDS = 2.0
# Metric (``bot.metrics``): a computer move played without a search (its one legal action).
FORCED = "cpu_forced"


@dataclass(eq=False, repr=False)
class ComputerTurns:
    """The computer seats' moves of every table (``TableService`` gives it its collaborators)."""

    ctx: ServiceContext
    moves: Moves
    timers: TurnTimers
    _after_change: Callable[[Table], None]
    _tasks: TableTasks = field(init=False, default_factory=lambda: TableTasks("cpu"))
    # table id -> (version, seconds this loop slept while the table stayed at that version)
    _waited: dict[int, tuple[int, float]] = field(init=False, default_factory=dict)

    def pending(self, table: Table) -> bool:
        """Whether a computer seat may move: one the game waits on, or one with an optional move
        (a call-out, e.g. Amapatolli's catch) it may take. No search here: whether it takes
        it is its search's, in a worker (``_loop``); a search on the event loop held it ~0.4 ms
        for ~1 % of the moves, and a think budget could make it longer."""
        return self._has_move(table, waited_only=False)

    def must_act(self, table: Table) -> bool:
        """Whether a computer seat the game waits on has a legal action: it will move (its turn
        timer is its own loop's to restart)."""
        return self._has_move(table, waited_only=True)

    def _has_move(self, table: Table, *, waited_only: bool) -> bool:
        state = table.state
        if state is None or table.game.is_over(state):
            return False
        to_act = table.game.to_act(state) if waited_only else None
        # (a loop, not ``any`` of a generator: a resumed generator frame per seat, every move)
        for s in table.record.seats:
            if s.is_cpu and (to_act is None or s.id in to_act):
                if table.game.legal_actions(state, s.id):
                    return True
        return False

    def _searches(
        self, table: Table
    ) -> list[tuple[str, bool, tuple[Any, ...] | None, list[Action]]]:
        """(seat, waited on, picklable arguments of ``choose_action_text``, the legal actions
        whose texts they offer) per computer seat that has a legal action, in the order they
        are asked. Built synchronously, so they all describe one version of the state.

        A waited seat with one legal action, in a game whose legal actions are every action
        (``Game.lists_every_action``), has no choice: no arguments (None), no search. Its
        search chose that action anyway (a waited seat cannot decline), and its random
        generator is its own (``rng_for`` of the seat and version), so no later choice
        changes; a third of the load's searches were such (session 30)."""
        state = table.state
        game = table.game
        if state is None or game.is_over(state):
            return []
        to_act = game.to_act(state)
        cpus = [s for s in table.record.seats if s.is_cpu]
        # Made for the first search only: a forced move (one legal action, no search) needs
        # neither (issue 29: ~20 us a call in the live bot)
        extra: dict[str, Any] | None = None
        ref: Game | GameRef = game
        out: list[tuple[str, bool, tuple[Any, ...] | None, list[Action]]] = []
        # Optional moves (call-outs) first, then the seats the game waits on, in seat order:
        # a fixed order keeps a computer-only game reproducible from its seed.
        for only_waited in (False, True):
            for seat in cpus:
                if (seat.id in to_act) != only_waited:
                    continue
                legal = game.legal_actions(state, seat.id)
                if not legal:
                    continue
                if only_waited and len(legal) == 1 and game.lists_every_action:
                    out.append((seat.id, True, None, legal))
                    continue
                if extra is None:
                    extra = self.think_budget(game)
                    ref = game if self.ctx.workers.in_process else game_ref(game)
                args = (
                    ref,
                    game.view(state, seat.id),
                    [a.encode() for a in legal],
                    seat.cpu_level or "normal",
                    state.seed,
                    ("cpu", seat.id, state.version),
                    extra,
                )
                out.append((seat.id, only_waited, args, legal))
        return out

    def think_budget(self, game: Game) -> dict[str, Any]:
        """The one place the computer's think budget is decided: ``cpu_think_seconds`` at the
        game's ``think_rate``, on ``think_clock`` (keyword arguments of ``choose_action``; none
        without a clock: the game's own fixed budget)."""
        clock = self.ctx.think_clock
        if clock is None:
            return {}
        return {"budget": game.think_budget(self.ctx.config.cpu_think_seconds, clock)}

    async def next_move_off_loop(self, table: Table) -> tuple[str, str, Action | None] | None:
        """The next (seat, action text) a computer seat wants to play, if any, each search in a
        worker process: the event loop keeps running. Also the action chosen, of the legal
        actions offered (None: a text not offered), so the move does not parse its text again
        (issue 29)."""
        for seat, waited, args, legal in self._searches(table):
            if args is None:
                metrics.count(FORCED)
                return seat, legal[0].encode(), legal[0]
            with metrics.phase("cpu_search"):
                choice = await self.ctx.workers.run(choose_action_text, *args)
            if choice is None and waited:
                choice = args[2][0]
            if choice is not None:
                texts: list[str] = args[2]
                try:
                    action: Action | None = legal[texts.index(choice)]
                except ValueError:
                    action = None
                return seat, choice, action
        return None

    def kick(self, table: Table) -> None:
        if table.interaction_only and self.ctx.held(table):
            return  # kicked again when it is released
        if not self._tasks.running(table.id):
            self._tasks.start(table.id, self._loop(table))

    def cancel(self, table_id: int) -> None:
        self._tasks.cancel(table_id)
        self.forget(table_id)

    def forget(self, table_id: int) -> None:
        """A table that is over keeps no fair wait (issue 29: one entry per game ended)."""
        self._waited.pop(table_id, None)

    def tasks_running(self, table_id: int) -> bool:
        return self._tasks.running(table_id)

    def tasks(self) -> list[asyncio.Task]:
        return self._tasks.all()

    def clear(self) -> None:
        self._tasks.clear()
        self._waited.clear()

    # ----- fair waits (the game's ``cpu_wait_seconds``, e.g. Amapatolli's "¡Ce!") ---------------
    def fair_wait(self, table: Table) -> float:
        """Seconds the computer seats must still leave the table's current state alone.

        The game says how long in all (``Game.cpu_wait_seconds``, given the human seats); what
        this loop already slept while the table stayed at this version counts towards it. Time
        is only measured through ``ctx.sleep``, so a test's fake sleep is the whole clock.
        """
        state = table.state
        if state is None:
            return 0.0
        humans = frozenset(s.id for s in table.record.seats if not s.is_cpu)
        needed = table.game.cpu_wait_seconds(state, humans)
        if needed <= 0:
            return 0.0
        version, waited = self._waited.get(table.id, (-1, 0.0))
        return max(0.0, needed - (waited if version == table.version else 0.0))

    async def _sleep_on_version(self, table: Table, seconds: float) -> None:
        """Sleep; the time counts towards fair waits only if nothing moved meanwhile."""
        version = table.version
        await self.ctx.sleep(seconds)
        if table.version == version:
            seen, waited = self._waited.get(table.id, (version, 0.0))
            self._waited[table.id] = (version, (waited if seen == version else 0.0) + seconds)

    async def _loop(self, table: Table) -> None:
        try:
            while not self.ctx.closing:
                if delay := self.ctx.cpu_delay(table):
                    await self._sleep_on_version(table, delay)
                if table.interaction_only and self.ctx.held(table):
                    return  # kicked again when it is released
                # Fair ¡Ce!: while a person's window is open the computer waits (the game says
                # how long); the wait counts only while the table stays at one version.
                wait = self.fair_wait(table)
                if wait:
                    await self._sleep_on_version(table, wait)
                    continue
                # The search runs outside the table lock (a person's click is not kept
                # waiting for it) on the state of one version; the move is then played only if
                # the table is still at that version, else searched again.
                version = table.version
                work = await self.next_move_off_loop(table)
                if table.version != version:
                    continue
                if work is None:
                    return
                seat, action_text, action = work
                try:
                    async with table.lock:
                        if table.version != version or table.record.status != "playing":
                            continue
                        _, turn = await self.moves.act_locked_told(
                            table, Move(seat, version, action_text, action=action)
                        )
                except StorageUnavailable:  # nothing saved nor shown: the same turn again
                    log.warning("computer move at table %s not saved; retrying", table.id)
                    await self.ctx.sleep(RETRY_SECONDS)
                    continue
                async with turn as tell:  # outside the table lock, in version order
                    await tell()
                self.timers.restart(table)
                if table.record.status != "playing":
                    self._after_change(table)
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer turn failed at table %s", table.id)
        finally:
            self._tasks.forget_current(table.id)
