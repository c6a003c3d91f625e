"""Tables shared by several bot processes (PostgreSQL, shards split over processes).

The rules, for a process that does not hold the only copy of the truth:

- **Correctness comes from the database.** A move commits only if the row's stored version is
  still the one it started from (``TablesRepo.record_action``: one UPDATE ... WHERE version =
  expected, which takes the row lock and checks the version in one statement, inside the
  move's transaction). The in-process ``table.lock`` only orders this process's own moves.
  When the version in memory disagrees with a click, or the write loses (``StaleVersion``),
  the table is caught up from the database (``refresh``) and the click is judged again.
- **One presenter per table.** The process that runs the shard of the table's guild presents
  it (edits its public message and DM views), runs its turn timer and plays its computer
  seats. Another process that moves the table (a DM click: Discord sends every DM interaction
  to shard 0) answers the click itself and tells nobody else directly: the change feed
  (``feed.py``) carries the news, and the owner catches up and presents.
- **Catching up** replays the logged actions after the copy's version through the engine
  (deterministic), so the owner presents the same events the mover saw; if that fails (a gap,
  an unknown copy) the stored state (with the moves after it: ``snapshots.py``) is shown
  without events.
- **No edit twice.** The mover's process answers a click on the mover's DM view in place (the
  acknowledgement and the edit in one call) and says so on the feed (``ViewShown``); the owner,
  about to edit that view for the same version, waits for that word (``ViewsShownElsewhere``,
  at most ``GRACE_SECONDS``) and leaves a view that already shows the same thing alone.
- **A table the owner had not loaded** (start-up loads lazily) has no copy to replay from: the
  game is rebuilt from its seed in the worker pool (``replay.tail_events``) and the events of
  the moves its public message has not shown yet (``presented``; the last move when nothing
  is stored) are presented with it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from bot import metrics
from bot.service.context import ServiceContext
from bot.service.feed import TableChange, ViewShown
from bot.service.models import Table, TableListener, is_human_id
from bot.service.notify import Delivery
from bot.service.replay import Deal, tail_events
from bot.service.snapshots import rebuilt, restored
from games.core import Event, Game, GameState
from storage import ActionRow, PresentedRepo, TableRecord
from storage.presented import PUBLIC

log = logging.getLogger(__name__)

LIVE = ("playing", "finished")
OVER = ("finished", "cancelled")
GRACE_SECONDS = 2.0  # how long the owner waits for the mover's process to say it answered
HEARD_KEPT = 4096  # ViewShown notices kept for an owner that has not asked yet


class ViewsShownElsewhere:
    """What other processes said they showed in players' DM views (``ViewShown``), for the
    owner about to present them: ``expect`` when it catches up with a move another process
    made (that process is answering the mover's click), ``wait`` before editing that view."""

    def __init__(self, grace: float = GRACE_SECONDS) -> None:
        self.grace = grace
        self._heard: OrderedDict[tuple[int, str], ViewShown] = OrderedDict()
        self._expected: dict[tuple[int, str], tuple[int, asyncio.Future[ViewShown]]] = {}

    def expect(self, table_id: int, seat: str, version: int) -> None:
        key = (table_id, seat)
        heard = self._heard.get(key)
        if heard is not None and heard.version == version:
            return  # already here
        future: asyncio.Future[ViewShown] = asyncio.get_running_loop().create_future()
        self._expected[key] = (version, future)

    def heard(self, shown: ViewShown) -> None:
        key = (shown.table_id, shown.seat)
        expected = self._expected.get(key)
        if expected is not None and expected[0] == shown.version and not expected[1].done():
            expected[1].set_result(shown)
        self._heard[key] = shown
        self._heard.move_to_end(key)
        while len(self._heard) > HEARD_KEPT:
            self._heard.popitem(last=False)

    def forget(self, table_id: int, seats: Sequence[str]) -> None:
        """``table_id`` is over: no word of its views is waited for any more."""
        for seat in seats:
            self._heard.pop((table_id, seat), None)
            self._expected.pop((table_id, seat), None)

    async def wait(self, table_id: int, seat: str, version: int) -> ViewShown | None:
        """What the mover's process showed in ``seat``'s DM view at ``version``: at once if
        known or not expected (None), else once it says so, or None after ``grace``."""
        key = (table_id, seat)
        heard = self._heard.get(key)
        if heard is not None and heard.version == version:
            self._expected.pop(key, None)
            return self._heard.pop(key)
        expected = self._expected.get(key)
        if expected is None or expected[0] != version:
            return None
        try:
            return await asyncio.wait_for(asyncio.shield(expected[1]), self.grace)
        except TimeoutError:
            log.info("table %s: no word on %s's DM view at version %s", table_id, seat, version)
            return None
        finally:
            if self._expected.get(key) is expected:
                del self._expected[key]
            if (found := self._heard.get(key)) is not None and found.version == version:
                del self._heard[key]


# What a process that does not present a table does once it is over (its game ended, or it
# closed): it forgets what it holds of it (the DM views it answered clicks on, their tokens,
# drafts), as the owner does after its last views (``bot/ui/table_ends.py``).
OverElsewhere = Callable[[Table], None]


def nothing_held(table: Table) -> None:
    pass


class OwnedTablesOnly:
    """The listener of a process that shares tables: it presents only the tables of guilds
    this process runs the shard of (the owner presents the rest). Of the others it passes on
    one thing, that the table is over (``over_elsewhere``): shard 0 answers DM clicks at every
    shard's tables, and would otherwise keep what it holds of them for good (issue 29)."""

    def __init__(
        self,
        inner: TableListener,
        owns: Callable[[str | None], bool],
        over_elsewhere: OverElsewhere = nothing_held,
    ) -> None:
        self.inner = inner
        self.owns = owns
        self.over_elsewhere = over_elsewhere

    def _mine(self, table: Table) -> bool:
        return self.owns(table.record.guild_id)

    async def lobby_changed(self, table: Table) -> None:
        if self._mine(table):
            await self.inner.lobby_changed(table)

    async def game_changed(
        self, table: Table, events: list[Event], actor: str | None, by_timer: bool
    ) -> None:
        if self._mine(table):
            await self.inner.game_changed(table, events, actor, by_timer)
        elif is_over(table):
            self.over_elsewhere(table)

    async def table_closed(self, table: Table, reason: str) -> None:
        if self._mine(table):
            await self.inner.table_closed(table, reason)
        else:
            self.over_elsewhere(table)

    async def seat_replaced(self, table: Table, seat_id: str) -> None:
        if self._mine(table):
            await self.inner.seat_replaced(table, seat_id)

    async def seat_changed(self, table: Table, seat_id: str, change: str) -> None:
        if self._mine(table):
            await self.inner.seat_changed(table, seat_id, change)

    async def rematch_opened(self, finished: Table, rematch: Table) -> None:
        if self._mine(finished):
            await self.inner.rematch_opened(finished, rematch)


class CatchUp:
    """Brings this process's copy of a table up to the database, presenting what changed
    when this process owns the table."""

    def __init__(
        self,
        ctx: ServiceContext,
        owns: Callable[[str | None], bool],
        presented: PresentedRepo | None = None,
        views: ViewsShownElsewhere | None = None,
    ) -> None:
        self.ctx = ctx
        self.owns = owns
        self.presented = presented
        self.views = views
        self.caught_up = 0  # tables caught up from another process's change (tests, metrics)

    def owns_table(self, table: Table) -> bool:
        return self.owns(table.record.guild_id)

    async def refresh(self, table: Table) -> Delivery | None:
        """Catch ``table`` up to its stored row; the caller holds ``table.lock``. Returns the
        presentation posted (an owned table that moved), or None when nothing changed."""
        record = await self.ctx.repo.get(table.id)
        if record is None or not _newer(record, table):
            return None
        state, events, actor, by_timer = await self._replayed(table, record)
        table.record = record
        table.state = state
        table.last_events = events
        table.last_actor = actor
        self.caught_up += 1
        metrics.count("caught_up")
        log.debug("table %s caught up to version %s (%s)", table.id, record.version, record.status)
        if record.status in LIVE and state is not None:
            self._expect_answer(table, actor)
            return self.ctx.notify.game_changed(table, events, actor, by_timer)
        return None

    def _expect_answer(self, table: Table, actor: str | None) -> None:
        """The move came from another process, which answers the mover's click itself (not
        a game's last move: that process answers it without the view, which it no longer
        holds, and says nothing; the owner shows the end at once)."""
        if table.record.status != "playing":
            return
        if self.views is not None and actor is not None and is_human_id(actor):
            if self.owns_table(table):
                self.views.expect(table.id, actor, table.record.version)

    async def first_sight(self, table: Table) -> Delivery | None:
        """Present a table just loaded because another process moved it (the caller holds
        ``table.lock``), with the events of the moves its public message has not shown."""
        if table.state is None or table.record.status not in LIVE:
            return None
        version = table.record.version
        shown = await self.presented.of_table(table.id) if self.presented is not None else {}
        public = shown.get(PUBLIC)
        since = public.version if public is not None else version - 1
        if since >= version:
            return None  # its message shows this version already
        record = table.record
        actions = [(a.seat, a.action, a.by_timer) for a in await self.ctx.repo.actions(table.id)]
        tail = None
        if record.state and actions and len(actions) == version:  # else: a gap in the log
            deal = Deal.of(table.game, record)
            tail = await self.ctx.workers.run(
                tail_events, deal, actions, since, record.state, record.stored_version
            )
        events = tail.events if tail is not None else []
        actor = tail.actor if tail is not None else None
        by_timer = tail.by_timer if tail is not None else False
        table.last_events, table.last_actor = events, actor
        self._expect_answer(table, actor)
        self.caught_up += 1
        metrics.count("caught_up")
        return self.ctx.notify.game_changed(table, events, actor, by_timer)

    async def _replayed(
        self, table: Table, record: TableRecord
    ) -> tuple[GameState | None, list[Event], str | None, bool]:
        """The stored state, reached by replaying the logged actions after the copy's version
        (their events kept for the presentation); the stored one (``rebuilt``) when that is not
        possible or the replay disagrees with it. The copy's replay is checked against the
        stored state where it passes through it (the copy at or before the stored version:
        one replay, not two); a copy already past it is checked against the stored state
        with the moves after it replayed."""
        game = table.game
        if record.status not in LIVE or not record.state:
            return None, [], None, False
        start = table.state
        if start is None or table.record.status != "playing" or start.version >= record.version:
            return await restored(self.ctx.repo, game, record), [], None, False
        since = min(start.version, record.stored_version)
        logged = await self.ctx.repo.actions(table.id, after=since)
        at_stored = start if start.version == record.stored_version else None
        state: GameState = start
        events: list[Event] = []
        actor, by_timer = None, False
        try:
            for row in logged:
                if not start.version < row.version <= record.version:
                    continue
                state, more = game.apply(state, row.seat, game.decode_action(row.action))
                events.extend(more)
                actor, by_timer = row.seat, row.by_timer
                if state.version == record.stored_version:
                    at_stored = state
        except Exception:  # a gap or an engine refusal: the stored state is the truth
            log.warning("table %s: replay to version %s failed", table.id, record.version)
            return rebuilt(game, record, logged), [], None, False
        if state.version == record.version and self._agrees(game, record, logged, at_stored, state):
            return state, events, actor, by_timer
        return rebuilt(game, record, logged), [], None, False

    @staticmethod
    def _agrees(
        game: Game,
        record: TableRecord,
        logged: list[ActionRow],
        at_stored: GameState | None,
        replayed: GameState,
    ) -> bool:
        """Whether the copy's replay agrees with storage: at the stored state's version when
        it passed through it (the engines are pure: the moves after it agree then too), else
        at the end with the stored state and the moves after it (``rebuilt``)."""
        assert record.state is not None
        if at_stored is not None:
            return game.dump_state(at_stored) == game.dump_state(game.load_state(record.state))
        return game.dump_state(replayed) == game.dump_state(rebuilt(game, record, logged))


def is_over(table: Table) -> bool:
    """Whether ``table``'s game ended or it was closed (a lobby is not over)."""
    status = table.record.status
    if status in OVER:
        return True
    return status == "playing" and table.state is not None and table.game.is_over(table.state)


def _newer(record: TableRecord, table: Table) -> bool:
    return record.version != table.record.version or record.status != table.record.status


def change_of(table: Table) -> TableChange:
    return TableChange(table_id=table.id, version=table.record.version, status=table.record.status)


def is_news(change: TableChange, table: Table | None) -> bool:
    """Whether ``change`` may be ahead of this process's copy (our own commits come back as
    changes too: those are not news)."""
    if table is None:
        return True
    return change.version > table.record.version or (
        change.version == table.record.version and change.status != table.record.status
    )


def spawn(tasks: set[asyncio.Task[Any]], coro: Any, name: str) -> None:
    task = asyncio.get_running_loop().create_task(coro, name=name)
    tasks.add(task)
    task.add_done_callback(tasks.discard)
