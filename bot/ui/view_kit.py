"""What every part of the Discord presentation shares (``bot/ui/listener.py`` composes them):
the bot it draws for, the bot token's pacer, the freshest interaction tokens, what the messages
show (crash recovery), the closed-DM gate, and the workers: every message a table owns has one
``Slot``, whose one worker shows the table's *latest* state, one REST call at a time; a change
only marks the slot dirty, so intermediate versions are skipped and a message never shows an
older version after a newer one. Sending to a DM or a channel with the bot token lives here
too: every part does it.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Generic, Protocol, TypeVar

import discord

from bot import metrics
from bot.i18n import translator
from bot.service import Table, TableService
from bot.ui import payload as sending
from bot.ui.anywhere import InteractionOnlyTables
from bot.ui.dm_gate import DmGate
from bot.ui.ephemeral import EphemeralViews
from bot.ui.fresh import TableMessageAges
from bot.ui.items import start_now, started_here
from bot.ui.lobby_answer import LobbyAnswers
from bot.ui.messages import (
    Payload,
    finish,
)
from bot.ui.pacer import Priority, RequestPacer
from bot.ui.pacer import priority as pace_at
from bot.ui.play_from import PlayPlaces
from bot.ui.presenter import GamePresenter
from bot.ui.shown import ShownStore
from bot.ui.table_ends import TableEnds
from bot.ui.tokens import Hook, Tokens
from storage.kept import KeptAtMost, of_people

log = logging.getLogger(__name__)

DMS_CLOSED = 50007
NO_MUTUAL_GUILD = 50278
# Seconds since a player's last click at a table after which their turn gets a notice DM.
NOTICE_AFTER = 60.0
# A table that is over is forgotten once its views are out (``ViewKit.settled``): a view held
# by a click is waited for until its release, and forgotten anyway after SETTLE_SECONDS.
SETTLE_SECONDS = 30.0
T = TypeVar("T")
K = TypeVar("K")  # what a kind of view is keyed by: a table id, (table id, seat)


# The trace of the slot change whose work the current task runs (``stage_done``).
_tracing: ContextVar[_Stages | None] = ContextVar("mesa_view_trace", default=None)


class ListenerHost(Protocol):
    """What the listener needs of the bot (``MesaBot`` is one), so it does not import it."""

    @property
    def tables(self) -> TableService: ...

    def presenter(self, game_key: str) -> GamePresenter: ...

    async def locale_of(self, user_id: str) -> str: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


@dataclass
class Slot:
    """One message a table owns, and what it currently shows."""

    busy: asyncio.Lock = field(default_factory=asyncio.Lock)  # one REST call at a time
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    build: Callable[[], Payload] | None = None  # the public message's latest builder
    final: bool = False  # the public message shows the table closed: nothing replaces it
    message_id: int | None = None  # a DM view's message
    digest: str | None = None  # the DM payload it shows
    image: str | None = None  # the digest of the image attached to the message
    waiting: bool = False  # the DM view showed "your turn"
    holds: int = 0  # a click being answered with this view: the worker waits for it
    shown_version: int | None = None  # the game version the public message shows
    # What it shows next, given the slot. Never a closure over the slot: a slot and its work
    # would be a reference cycle, which only a full collection frees once the slot is
    # dropped, and slots live long enough to be frozen (``bot/ops/collector.py``): every
    # finished table's slots, their builders and the tables they show waited for the thaw.
    work: Callable[[Slot], Awaitable[None]] | None = None
    older: list[int] = field(default_factory=list)  # earlier DM views, buttons still on
    clickable: bool = False  # the DM view (message_id) shows components
    mention: tuple[str, ...] = ()  # the seats the live turn mention names
    # The public message: its worker waits for the global pacer BEFORE it takes the latest
    # change, so a table whose edit waits shows its newest version with one call. None of
    # that when the change is already shown (answered in place): ``skip_version``.
    paced: bool = False
    skip_version: int | None = None
    mention_hook: Hook | None = None  # the table token whose follow-up is the live mention
    notice_id: int | None = None  # a DM hand's live turn notice (deleted when the turn passes)
    token_key: Any = None  # its key in the listener's ``Tokens`` (the public message's)
    paced_turn: bool = False  # its worker waited for the pacer for the change it shows
    paced_at: float | None = None  # when its worker last had a bot-token turn (kit's clock)
    wake: asyncio.Event | None = None  # set to end a coalescing wait (the game ended, closed)
    # The public message: whether its latest change lets a person act who acts from the table
    # (the message is their view): such a change is never held by coalescing.
    lets_act: Callable[[], Awaitable[bool]] | None = None
    recheck: bool = False  # a change came during a coalescing wait: is it one that lets act?
    clicked: bool = False  # a DM hand its player clicked: they play from it
    # The per-stage trace (``ViewKit._drain_slot``): what the slot shows, and since when
    # (``time.perf_counter``) a change waits to be shown (None: nothing waits).
    kind: str = "view"
    since: float | None = None
    # Its change waited for a click answered with the view (released): the clicker's own view,
    # started at once and traced as ``mover`` (issue 25: what the mover waits for).
    urgent: bool = False
    # Set when its last hold ends (``ViewKit.release``): what ``ViewKit.settled`` waits for.
    released: asyncio.Event | None = None

    async def take_by(self, deadline: float) -> bool:
        """Take ``busy`` if it is free by ``deadline`` (loop time): a click answered with this
        view in time; False (not taken) when an edit under way holds it longer. A free lock
        is taken at once (``asyncio.wait_for``'s task would cost the click's answer three
        loop turns: under load, three loop lags)."""
        if not self.busy.locked():
            await self.busy.acquire()  # free: returns without giving the loop a turn
            return True
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(self.busy.acquire(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            return False
        return True

    def idle(self) -> bool:
        """Nothing of it waits to be shown, nor is being shown, nor held by a click: a change
        its worker would leave as it is needs no worker (issue 29: a task and its trace)."""
        return not self.dirty and not self.holds and (self.task is None or self.task.done())

    def needs_pacing(self) -> bool:
        return self.paced and not (
            self.skip_version is not None and self.skip_version == self.shown_version
        )


class SlotSet(Generic[K]):
    """The slots of one kind of view (the public messages, the DM hands...), by key, each
    shown by its worker (``ViewKit.kick``); a click answered with the view holds its slot."""

    def __init__(self, kit: ViewKit, kind: str = "view") -> None:
        self._kit = kit
        self._kind = kind  # the slots' name in the per-stage trace: public, dm, hand
        self._slots: dict[K, Slot] = {}
        # ``key``'s slot, None if it has none: the dict's own ``get`` (a C call, no Python
        # frame: ~12 lookups a move, issue 29)
        self.get: Callable[[K], Slot | None] = self._slots.get
        kit.slot_sets.append(self)  # a table that is over: its slots go (``ViewKit``)

    def __iter__(self) -> Iterator[K]:
        return iter(self._slots)

    def of(self, key: K) -> Slot:
        """``key``'s slot, a new one if it has none."""
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = Slot(kind=self._kind)
        return slot

    def pop(self, key: K) -> Slot | None:
        return self._slots.pop(key, None)

    def kick(self, key: K, work: Callable[[Slot], Awaitable[None]]) -> Slot:
        """``key``'s slot shows ``work(slot)`` next (``ViewKit.kick``)."""
        slot = self._slots.get(key)  # (``of``'s own, without its call)
        if slot is None:
            slot = self._slots[key] = Slot(kind=self._kind)
        self._kit.kick(slot, work)
        return slot

    def hold(self, key: K) -> None:
        """A click is being answered with this view: its worker waits until ``release``."""
        self.of(key).holds += 1

    def release(self, key: K) -> None:
        self._kit.release(self._slots.get(key))


async def timed_rest(
    call: Awaitable[T],
    kind: str,
    pacer: RequestPacer | None = None,
    priority: Priority = Priority.HOUSEKEEPING,
) -> T:
    """A REST call, timed as ``phase=rest`` and counted as ``rest.<kind>``; a bot-token call
    names the ``pacer`` that keeps it inside the global limit: its requests wait their turn
    there by ``priority`` when they are sent (``bot/ui/http_gate.py``). Without one, the call
    uses the turn its task took ahead (``RequestPacer.acquire``), if any."""
    # (``metrics.count`` and ``observe``'s own, without their calls: every request)
    metrics.counters[f"rest.{kind}"] += 1
    start = time.perf_counter()
    try:
        if pacer is None:
            return await call
        with pace_at(priority):
            return await call
    finally:
        metrics.histograms["rest"].add((time.perf_counter() - start) * 1000)


async def ready_by(work: Coroutine[Any, Any, T], deadline: float) -> T:
    """``work``'s result if it is ready by ``deadline`` (loop time), else ``TimeoutError`` and
    ``work`` cancelled, as ``asyncio.wait_for``; but ``work`` starts now, and work that needs no
    wait (an image drawn already, or none) costs a click's answer no loop turn, not the three
    of ``wait_for``'s task (issue 25: each turn is a loop lag under load), and no task
    (``started_here``: ``work`` is an image's ``finish``)."""
    task = started_here(work)
    if task.done():
        return task.result()
    return await asyncio.wait_for(task, max(0.0, deadline - asyncio.get_running_loop().time()))


def stage_done(stage: str) -> None:
    """Inside a slot's work: the work's stage ``stage`` ends now (timed as
    ``view_<kind>_<stage>`` when the slot's worker traces it, else nothing)."""
    trace = _tracing.get()
    if trace is not None:  # (``_Stages.mark``'s own, without its call: ~5 stages a move)
        now = time.perf_counter()
        metrics.histograms[trace.names[stage]].add((now - trace.last) * 1000)
        trace.last = now


class _Stages:
    """Where the time of one change of a slot goes, from the moment it waited to be shown to
    the moment its worker had shown it: observed as ``view_<kind>_<stage>`` timings (ms) for
    ``bench/load.py``'s per-stage breakdown. Stages: ``queued`` (behind the slot's previous
    change, or a click answering with the view), ``coalesce`` (a table being played waiting
    out ``public_every`` for the bot token), ``pace`` (the bot token's turn), ``busy`` (the
    slot's lock), then the work's own stages (``stage_done``: e.g. ``restore``, ``render``)
    and ``sent`` (the rest of the work: the REST call, split further by ``gate_wait``,
    ``http_*`` and ``token_edit``), and ``total``."""

    __slots__ = ("names", "since", "last")

    def __init__(self, slot: Slot) -> None:
        now = time.perf_counter()
        kind = "mover" if slot.urgent else slot.kind
        names = self.names = _NAMES.get(kind) or _stage_names(kind)
        since = self.since = slot.since if slot.since is not None else now
        metrics.histograms[names["queued"]].add((now - since) * 1000)  # (its first stage)
        self.last = now

    def mark(self, stage: str) -> None:
        """The stage that ends now."""
        now = time.perf_counter()
        # (``metrics.observe``'s own, without its call: ~15 marks a move, session 31)
        metrics.histograms[self.names[stage]].add((now - self.last) * 1000)
        self.last = now

    def done(self) -> None:
        """The last stage (``sent``) ends now, and with it the change's ``total``."""
        now = time.perf_counter()
        names = self.names
        metrics.histograms[names["sent"]].add((now - self.last) * 1000)
        metrics.histograms[names["total"]].add((now - self.since) * 1000)


# Every stage a trace marks (``ViewKit._drain_slot`` and the works' ``stage_done``).
STAGES = ("queued", "coalesce", "pace", "busy", "restore", "checks", "build", "render", "sent")
# The metric names of each kind of slot, built once, not per stage of every change.
_NAMES = {
    kind: {stage: f"view_{kind}_{stage}" for stage in (*STAGES, "total")}
    for kind in ("view", "public", "dm", "hand", "mention", "mover")
}


def _stage_names(kind: str) -> dict[str, str]:
    """The metric names of a kind of slot not listed above, built for this change."""
    return {stage: f"view_{kind}_{stage}" for stage in (*STAGES, "total")}


def _set_clock(kit: ViewKit, clock: Callable[[], float]) -> None:
    kit._clock = kit.tokens.clock = clock


class ViewKit:
    # The kit's clock (monotonic seconds; a test moves it): the tokens age by the same one, set
    # through to them, not read through a wrapper (a Python call per read, ~4 a move); read by
    # a C getter (``operator.attrgetter``), as a plain attribute is.
    clock: Callable[[], float] = property(attrgetter("_clock"), _set_clock)  # type: ignore[assignment]

    def __init__(self, bot: ListenerHost, pacer: RequestPacer) -> None:
        self.bot = bot
        self.pacer = pacer
        # user -> DM channel id, of the people met lately: a miss costs a bot-token call
        # (POST /users/@me/channels, unless discord.py's 128 kept DM channels have it)
        self._dm_channels: KeptAtMost[str, int] = of_people()
        self._tasks: set[asyncio.Task[None]] = set()
        # Every kind of view's slots, keyed by table id or (table id, seat) (``SlotSet``).
        self.slot_sets: list[SlotSet[Any]] = []
        self.ephemerals = EphemeralViews()  # each player's "Ver mi mano" answer, still editable
        # The freshest interaction token of each public message ("public", table) and DM hand
        # ("dm", table, seat): edits through it skip the bot token's budget (bot/ui/tokens.py).
        self._clock: Callable[[], float] = time.monotonic
        self.tokens = Tokens(self._clock, on_offer=self._token_offered)  # (``clock`` sets it)
        # Table messages about an hour old are posted afresh (bot/ui/fresh.py, error 30046).
        self.ages = TableMessageAges(lambda: self.clock())
        # When each (table, player) last clicked at the table: a player who did lately is
        # watching, and needs no turn notice (``PrivateViews._turn_notice``).
        self.last_click: dict[tuple[int, str], float] = {}
        self.notice_after = NOTICE_AFTER
        # Least seconds between two bot-token edits of a table being played (settings'
        # ``public_edit_every_seconds``; 0: no coalescing), kept only while the bot token's
        # budget is contested: its last second used ``coalesce_share`` of it or more, or
        # callers queue (settings' ``public_edit_coalesce_share``; 0: whatever the load).
        self.public_every = 0.0
        self.coalesce_share = 0.0
        # DM hands posted / edited with the bot token only when they let their player act
        # (settings' ``dm_views_when_needed``; ``PrivateViews._not_needed_yet``).
        self.dm_when_needed = False
        # Slots waiting out ``public_every`` for the bot token, by token key (else by id)
        self._coalescing: dict[Any, Slot] = {}
        self._draining = 0  # drain() under way: nothing waits to coalesce
        # Crash recovery (bot/ui/shown.py, dm_gate.py): what the slots show, kept in the
        # database; closed DMs retried with back-off.
        self.shown = ShownStore(
            lambda: getattr(getattr(self.bot, "tables", None), "presented", None)
        )
        self.dms = DmGate(lambda: self.bot.tables.players)
        # Who plays from the tables' ephemeral hands, not their DMs (bot/ui/play_from.py).
        self.places = PlayPlaces(lambda: self.bot.tables.players)
        # /play commands whose response is their lobby (bot/ui/lobby_answer.py).
        self.answers = LobbyAnswers(self.tokens)
        # Tables that live on interaction tokens alone: paused without one (bot/ui/anywhere.py).
        self.anywhere = InteractionOnlyTables(self)
        # Show a table again (public message and private views): set by the listener.
        self.represent: Callable[[Table], Awaitable[None]] = _nothing
        # Whoever keeps entries by table forgets a table once it is over (bot/ui/table_ends.py).
        self.ends = TableEnds()
        self.ends.subscribe(self._forget_table)
        self.ends.subscribe(self.shown.forget)
        self.ends.subscribe(self.ephemerals.forget)

    def table_slots(self, table_id: int, seats: Sequence[str]) -> list[Slot]:
        """The slots of ``table_id``'s views (of every kind, by their keys)."""
        return [slot for _, _, slot in self._slots_of(table_id, seats)]

    def _slots_of(
        self, table_id: int, seats: Sequence[str]
    ) -> Iterator[tuple[SlotSet[Any], Any, Slot]]:
        """(its set, its key, the slot) of each of ``table_id``'s views, looked up by their
        keys (the table's id, or (table id, seat)): not a walk of every table's slots."""
        keys = [table_id, *((table_id, seat) for seat in seats)]
        for slots in self.slot_sets:
            for key in keys:
                slot = slots.get(key)
                if slot is not None:
                    yield slots, key, slot

    def _forget_table(self, table_id: int, seats: Sequence[str]) -> None:
        """A table that is over: its idle slots, clicks, tokens, message age and pause (by
        their keys; a slot a late click holds goes at its release: ``PrivateViews``)."""
        for slots, key, slot in list(self._slots_of(table_id, seats)):
            if slot.idle():
                slots.pop(key)
        self.tokens.drop(("public", table_id))
        for seat in seats:
            self.last_click.pop((table_id, seat), None)
            # their last click on its DM hand may post their next table's (``DmFollowUps``)
            self.tokens.carry(("dm", table_id, seat), next_dm_key(seat))
        self.ages.ended(table_id)
        self.anywhere.forget(table_id)

    async def settled(
        self,
        slots: Iterable[Slot | None],
        tasks: Iterable[asyncio.Task[Any]],
        within: float = SETTLE_SECONDS,
    ) -> None:
        """Wait until ``slots`` have shown everything asked of them (none waits, is being
        shown, or is held by a click being answered: woken by its release, not polled) and
        ``tasks`` are done: a table's last views, before it is forgotten (an entry put back by
        a last edit would stay). A hold is waited for ``within`` seconds at most."""
        await asyncio.gather(*tasks, return_exceptions=True)
        deadline = self.clock() + within
        for slot in slots:
            while slot is not None and not slot.idle() and self.clock() < deadline:
                if slot.task is not None and not slot.task.done():
                    await self.shown_done(slot)
                elif not await _released(slot, deadline - self.clock()):
                    return  # a hold that never ended: forgotten anyway

    async def drain_tasks(self) -> None:
        self._draining += 1
        try:
            for slot in list(self._coalescing.values()):
                _end_wait(slot)  # show it now
            while pending := [t for t in self._tasks if not t.done()]:
                await asyncio.gather(*pending, return_exceptions=True)
        finally:
            self._draining -= 1

    async def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.anywhere.close()

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def kick(self, slot: Slot, work: Callable[[Slot], Awaitable[None]]) -> None:
        """Mark ``slot`` dirty with ``work``, the latest change's presentation (it replaces any
        older one not started yet: the table the service handed us may be a frozen copy of
        that change), and make sure its worker runs."""
        slot.dirty = True
        slot.work = work
        if slot.since is None:
            slot.since = time.perf_counter()
        if slot.wake is not None:
            if slot.skip_version is None:
                _end_wait(slot)  # no longer a table being played: shown at once
            elif not slot.wake.is_set():
                slot.recheck = True  # a change that lets someone act ends the wait
                slot.wake.set()
        if not slot.holds and (slot.task is None or slot.task.done()):
            if slot.urgent:  # the clicker's own view: up to its first wait now, not in a turn
                slot.task = start_now(self._drain_slot(slot))
                if slot.task is not None:
                    self._tasks.add(slot.task)
                    slot.task.add_done_callback(self._tasks.discard)
            else:  # (``spawn``'s own, without its call: most moves' views)
                task = slot.task = asyncio.get_running_loop().create_task(self._drain_slot(slot))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _drain_slot(self, slot: Slot) -> None:
        while slot.dirty and not slot.holds and slot.work is not None:
            slot.paced_turn = False
            trace = _Stages(slot)
            slot.urgent = False  # a later change is no click's answer
            urgency = Priority.PUBLIC
            by_bot_token = slot.needs_pacing() and self.tokens.fresh(slot.token_key, None) is None
            if by_bot_token:
                if await _lets_act(slot):
                    urgency = Priority.NEXT_PLAYER  # its player's view: at once, first in line
                else:
                    outcome = await self._coalesce(slot)
                    trace.mark("coalesce")
                    if outcome is _Waited.DONE:
                        return  # answered in place meanwhile: its release starts the worker
                    if outcome is _Waited.LETS_ACT:
                        urgency = Priority.NEXT_PLAYER
                # (asked again after those waits: a token may have come meanwhile)
                by_bot_token = (
                    slot.needs_pacing() and self.tokens.fresh(slot.token_key, None) is None
                )
            if by_bot_token:
                slot.paced_turn = True
                await self.pacer.acquire(urgency)
                trace.mark("pace")
                slot.paced_at = self.clock()
                if slot.holds or not slot.dirty:
                    return  # answered in place meanwhile: its release starts the worker again
            slot.dirty = False
            slot.since = None  # a change from now on waits anew
            # (the lock's own acquire and release: ``async with`` adds a coroutine to enter
            # and one to leave, each change)
            await slot.busy.acquire()
            try:
                trace.mark("busy")
                work = slot.work  # the latest, also if a change came while waiting
                if work is None:
                    return
                traced = _tracing.set(trace)  # the work marks its own stages (``stage_done``)
                try:
                    if slot.paced_turn:  # a bot-token call after its turn's goes at its priority
                        with pace_at(urgency):
                            await work(slot)
                    else:
                        await work(slot)
                except Exception:
                    log.exception("showing a table change failed")
                finally:
                    _tracing.reset(traced)
                    if slot.paced_turn:
                        self.pacer.release()  # an interaction token edited, or nothing was sent
                    trace.done()  # ``sent``, and the ``total``
            finally:
                slot.busy.release()

    async def _coalesce(self, slot: Slot) -> _Waited:
        """A table being played whose last bot-token edit is under ``public_every`` seconds
        old waits out the rest while the bot token's budget is contested: the changes
        meanwhile go out as one edit of the newest. With budget to spare it goes at once: the
        window exists to keep many tables inside the global limit, and holding one table's
        edit for seconds then saves nobody a call (issue 29: DM-played tables whose table token
        aged out waited up to 5 s each with the pacer idle, public p99 past 2 s after 14
        minutes). A change meanwhile that lets a person act who acts from the table ends the
        wait (``LETS_ACT``): the window never holds the view that lets someone act. ``DONE``
        when there is nothing left to do (answered in place meanwhile)."""
        if (
            self.public_every <= 0
            or self._draining
            or slot.skip_version is None
            or slot.paced_at is None
        ):
            return _Waited.GO
        if slot.paced_at + self.public_every - self.clock() <= 0:
            return _Waited.GO
        if not self.pacer.strained(self.coalesce_share):
            metrics.count("public.coalescing_spared")  # budget to spare: not held
            return _Waited.GO
        metrics.count("public.coalesced")
        key = slot.token_key if slot.token_key is not None else id(slot)
        self._coalescing[key] = slot
        outcome = _Waited.GO
        try:
            while (rest := slot.paced_at + self.public_every - self.clock()) > 0:
                slot.wake, slot.recheck = asyncio.Event(), False
                try:
                    await asyncio.wait_for(slot.wake.wait(), rest)
                except TimeoutError:
                    break
                if not slot.recheck or self._draining:
                    break  # ended for good: a fresh token, the game's end, a drain
                if await _lets_act(slot):
                    metrics.count("public.coalescing_ended_to_let_act")
                    outcome = _Waited.LETS_ACT
                    break
        finally:
            slot.wake, slot.recheck = None, False
            self._coalescing.pop(key, None)
        return _Waited.DONE if slot.holds or not slot.dirty else outcome

    def _token_offered(self, key: Any) -> None:
        """A fresh interaction token may edit ``key``'s message: the window only holds back
        bot-token edits, so a change waiting it out goes now, through that token (exempt)."""
        slot = self._coalescing.get(key)
        if slot is not None and slot.wake is not None:
            metrics.count("public.coalescing_ended_by_token")
            _end_wait(slot)

    async def shown_done(self, slot: Slot | None) -> None:
        """Wait until ``slot``'s worker has shown everything asked of it so far."""
        if slot is not None and slot.task is not None:
            await asyncio.gather(asyncio.shield(slot.task), return_exceptions=True)

    def release(self, slot: Slot | None) -> None:
        if slot is None:
            return
        slot.holds = max(0, slot.holds - 1)
        if slot.dirty and slot.work is not None:
            slot.urgent = not slot.holds  # what the click's answer left for its worker
            self.kick(slot, slot.work)
        if not slot.holds and slot.released is not None:
            slot.released.set()  # (after the kick: a waiter finds its worker started)
            slot.released = None

    async def closed_dms(self, seat: str) -> bool:
        return await self.dms.blocked(seat)

    async def dm_channel(
        self, seat: str, priority: Priority = Priority.HOUSEKEEPING
    ) -> discord.PartialMessageable:
        """``seat``'s DM channel, opened once (``POST /users/@me/channels``) and then kept."""
        channel_id = self._dm_channels.get(seat)
        if channel_id is None:
            channel = await timed_rest(
                self.bot.create_dm(discord.Object(id=int(seat))), "dm_open", self.pacer, priority
            )
            channel_id = self._dm_channels[seat] = channel.id
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def dm(
        self,
        table: Table,
        seat: str,
        *,
        payload: Payload | None = None,
        content: str | None = None,
        priority: Priority = Priority.HOUSEKEEPING,
    ) -> discord.Message | None:
        if table.interaction_only or await self.closed_dms(seat):
            return None  # (no DM from a table where the bot may not post: its hands are there)
        try:
            channel = await self.dm_channel(seat, priority)
            if payload is not None:
                sent = await timed_rest(
                    channel.send(**payload.send_kwargs()), "dm_send", self.pacer, priority
                )
            else:
                sent = await timed_rest(
                    channel.send(content=content), "dm_send", self.pacer, priority
                )
            await self.dms.delivered(seat)
            return sent
        except discord.Forbidden as exc:
            if exc.code in (DMS_CLOSED, NO_MUTUAL_GUILD):
                if await self.dms.refused(seat):  # told once; retried later with back-off
                    tr = translator(table.record.locale)
                    await self.send_channel(table, tr("notice.dms_closed", player=f"<@{seat}>"))
            else:
                log.warning("DM to %s refused: %s", seat, exc)
        except discord.HTTPException:
            log.exception("DM to %s failed", seat)
        return None

    async def send_channel(self, table: Table, content: str) -> None:
        if table.interaction_only:
            await self.anywhere.follow_up(table, content)
            return
        channel = self.bot.get_partial_messageable(int(table.record.channel_id))
        try:
            await timed_rest(
                channel.send(content=content, allowed_mentions=discord.AllowedMentions(users=True)),
                "channel_send",
                self.pacer,
            )
        except discord.HTTPException:
            log.exception("could not post to channel of table %s", table.id)

    async def delete_dm(self, seat: str, message_id: int) -> None:
        channel = await self.dm_channel(seat)
        try:
            await timed_rest(
                channel.get_partial_message(message_id).delete(), "dm_delete", self.pacer
            )
        except discord.HTTPException:
            log.info("could not delete a turn notice of %s", seat)

    async def edit_through_token(
        self, key: Any, message_id: int, payload: Payload, kind: str
    ) -> bool:
        """Edit ``message_id`` through ``key``'s fresh interaction token (``bot/ui/tokens.py``
        keeps them). False when there is none, or it was refused (expired early, revoked, the
        message gone): then dropped, and the payload's image attached again for the bot
        token's edit, this once."""
        hook = self.tokens.fresh(key, message_id)
        if hook is None:
            return False
        metrics.counters[f"rest.{kind}"] += 1  # (as ``timed_rest``)
        start = time.perf_counter()
        message, ref = hook.target
        try:
            # the edited message is not read back: not parsed either (``bot/ui/payload.py``)
            await sending.edit_followup(hook.interaction, message, payload.edit_kwargs(), ref=ref)
        except discord.HTTPException as exc:
            # The token is never logged: only the status and Discord's code.
            log.info(
                "a %s through an interaction token was refused (%s %s)", kind, exc.status, exc.code
            )
            self.tokens.drop(key, hook)
            metrics.count("token.refused")
            await reattach(payload)
            return False
        metrics.counters["token.edit"] += 1
        metrics.histograms["token_edit"].add((time.perf_counter() - start) * 1000)
        return True


def next_dm_key(seat: str) -> tuple[str, str]:
    """The key in ``Tokens`` of ``seat``'s last click on a DM hand of a table that is over."""
    return ("dm_next", seat)


class _Waited(enum.Enum):
    """How a coalescing wait ended (``ViewKit._coalesce``)."""

    GO = "go"  # show the newest change now (the window is over, or was never needed)
    LETS_ACT = "lets_act"  # a change lets a person act from the table: now, first in line
    DONE = "done"  # nothing left: answered in place meanwhile


def _end_wait(slot: Slot) -> None:
    """End ``slot``'s coalescing wait for good: its newest change goes now."""
    if slot.wake is not None:
        slot.recheck = False
        slot.wake.set()


async def _released(slot: Slot, within: float) -> bool:
    """Wait until ``slot``'s last hold (a click being answered with it, within Discord's 3 s)
    is released, for ``within`` seconds at most: False when it was not."""
    if within <= 0:
        return False
    if slot.released is None:
        slot.released = asyncio.Event()
    try:
        await asyncio.wait_for(slot.released.wait(), within)
    except TimeoutError:
        return False
    return True


async def _lets_act(slot: Slot) -> bool:
    """Whether the slot's latest change lets a person act who acts from its message."""
    return slot.lets_act is not None and await slot.lets_act()


async def _nothing(table: Table) -> None:
    return None


async def reattach(payload: Payload) -> None:
    """A failed request closed the payload's files: attach the image again (from the cache)."""
    payload.files = []
    if payload.image is not None and not payload.keep_image:
        await finish(payload)
