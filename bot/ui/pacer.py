"""Keep the bot token's REST calls inside Discord's global rate limit (50 requests/s per bot).

discord.py honours per-route buckets and backs off after a global 429, but it does not pace:
at a few hundred busy tables the bot would send ~100 bot-token requests/s, and repeated global
429s end in a temporary Cloudflare ban of the whole bot. Interaction callbacks and their
webhook edits are exempt from the limit, so only bot-token calls are paced.

Every bot-token request passes one gate (``bot/ui/http_gate.py``, around discord.py's HTTP
session) that counts it here at the moment it is SENT, retries after a 429 included: a sliding
window over actual sends, so no window of ``window`` seconds holds more than ``per_second`` of
them. Callers take turns by ``Priority``, then in arrival order: the view that lets the next
player act first, then the public tables (each table's one worker waits here once per change,
so waiting tables are served round-robin, and the worker shows its table's newest version once
its turn comes), then set-up and housekeeping.

A turn is either taken at the gate (the request waits there, at the priority its caller set
with ``priority``), or ahead of time with ``acquire`` (a public table's worker waits for its
turn BEFORE it takes its table's newest version): such a turn holds one place in the window
until the task's next bot-token request uses it (then it counts at the moment it is sent), it is
``release``d (nothing needed the bot token: an interaction token edited), or ``window`` seconds
pass (then it counted as a call made when it was granted). So the window's sends plus the turns
held never exceed ``per_second``; the turn is held only while waiting on the clock, never
across the call itself. Counting sends, not plans, matters: when the event loop stalls, calls
planned apart would otherwise all start together after it (measured at 300 tables on a loaded
machine: 61 calls in one second with planned moments).

Counting sends is not enough either: Discord counts a request when it ARRIVES, anywhere between
our send and its answer coming back, and a loaded host (our loop, the network, Discord's side)
can hold requests sent apart and let them arrive together (the fake once saw 52 in one second
from a pacer that sent 45). So each request is also counted from its send until its answer came
back (``landed``), and a request starts only while fewer than ``ceiling`` requests are in flight
or answered within the last ``window`` (turns held ahead count too): any ``window`` of Discord's
clock then holds at most ``ceiling`` arrivals, whatever the delays. Proof: of the requests
arriving in one window, the last one sent saw every other either in flight or answered after
that window began, which is less than ``window`` before its own send. ``ceiling`` is Discord's
limit for the default budget (45 sent + 5 = 50); it binds only when answers are slow.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import heapq
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from enum import IntEnum
from typing import Protocol

from bot import metrics

POLL = 0.05  # seconds: the dispatcher's longest nap while every counted request is in flight


class Priority(IntEnum):
    """Who goes first when bot-token calls queue (lower first)."""

    RETRY = -1  # a request Discord refused with a 429: it already had its turn
    NEXT_PLAYER = 0  # the view (or notice) that lets the player to act act
    PUBLIC = 1  # a public table's edit
    HOUSEKEEPING = 2  # set-up, channel notices, buttons off, deletions


class SharedBudget(Protocol):
    """A budget shared with the other processes of the same bot token
    (``storage/token_budget.py``): ``take`` returns once one more call may go."""

    async def take(self) -> None: ...

    def strained(self) -> bool:
        """Whether the shared budget ran short lately (every process's calls together)."""
        ...

    async def close(self) -> None: ...


class Turn:
    """One place in the window, granted ahead of the request that will use it: the next
    bot-token request of the task that took it (tasks it starts inherit the context, not the
    turn)."""

    __slots__ = ("granted", "owner", "task")

    def __init__(self, granted: float, owner: RequestPacer) -> None:
        self.granted = granted
        self.owner = owner
        self.task: asyncio.Task[object] | None = None


def _own_turn() -> Turn | None:
    """The current task's turn (None: it holds none), taken out of its context."""
    turn = _turn.get()
    if turn is None:
        return None
    _turn.set(None)
    return turn if turn.task is asyncio.current_task() else None


# The priority of the bot-token requests the current task sends, and the turn it holds.
_priority: ContextVar[Priority] = ContextVar("mesa_pacer_priority", default=Priority.HOUSEKEEPING)
_turn: ContextVar[Turn | None] = ContextVar("mesa_pacer_turn", default=None)


@contextlib.contextmanager
def priority(level: Priority) -> Iterator[None]:
    """The bot-token requests sent inside (by this task) wait their turn at ``level``."""
    token = _priority.set(level)
    try:
        yield
    finally:
        _priority.reset(token)


class RequestPacer:
    def __init__(
        self,
        per_second: int,
        *,
        shared: SharedBudget | None = None,
        window: float = 1.0,
        spread: int = 1,
        ceiling: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        """At most ``per_second`` calls in any ``window`` seconds; ``per_second`` ≤ 0 turns
        pacing off (a bot whose global limit Discord raised). ``spread`` > 1 also allows at
        most ``ceil(per_second / spread)`` calls in any ``window / spread``: a second's calls
        never leave in one burst, so a burst delayed on its way (a loaded host, a slow network)
        cannot arrive in the same second of Discord's as the next one. ``ceiling``: at most
        that many requests in flight or answered in any ``window`` (module docstring); by
        default ``per_second`` and a ninth more (Discord's 50 for the default 45)."""
        self.per_second = per_second
        self.ceiling = ceiling if ceiling is not None else per_second + max(1, per_second // 9)
        self.spread = max(1, spread)
        self._part = max(1, -(-per_second // self.spread))  # calls allowed per part
        self.shared = shared  # every shard process's one budget, taken before each call
        self.window = window
        self._clock = clock
        self._sleep = sleep
        self._starts: deque[float] = deque()  # when the calls of the last window were sent
        self._landed: deque[float] = deque()  # when the answers of the last window came back
        self.in_flight = 0  # counted requests sent, not answered yet
        self._held: deque[Turn] = deque()  # turns granted ahead, not used yet (oldest first)
        # Callers waiting for a turn: (priority, arrival, their future), smallest first.
        self._waiting: list[tuple[int, int, asyncio.Future[Turn]]] = []
        self._arrivals = itertools.count()
        self._dispatcher: asyncio.Task[None] | None = None
        self._napping = False  # the dispatcher waits for room
        self._paused_until = 0.0  # a global 429 said: nothing before then
        self.sent = 0  # bot-token requests counted at the gate (tests, metrics)

    @property
    def enabled(self) -> bool:
        return self.per_second > 0

    def _forget_old(self, now: float) -> None:
        edge = now - self.window
        while self._starts and self._starts[0] <= edge:
            self._starts.popleft()
        while self._landed and self._landed[0] <= edge:
            self._landed.popleft()
        while self._held and self._held[0].granted <= edge:
            self._held.popleft()  # never used: it counted as a call made when granted

    def free_in(self, now: float) -> float:
        """Seconds from ``now`` until one more call may start (0: at once)."""
        if not self.enabled:
            return 0.0
        self._forget_old(now)
        paused = max(0.0, self._paused_until - now)
        wait = max(paused, self._room_in(now, self.per_second, self.window))
        if self.spread > 1:
            wait = max(wait, self._room_in(now, self._part, self.window / self.spread))
        return max(wait, self._answers_room_in(now))

    def _answers_room_in(self, now: float) -> float:
        """Seconds until fewer than ``ceiling`` requests are in flight, answered within the last
        ``window`` or held ahead; while that needs one in flight to land, ``POLL`` (a landing
        wakes the dispatcher before)."""
        over = self.in_flight + len(self._landed) + len(self._held) - self.ceiling
        if over < 0:
            return 0.0
        if over < len(self._landed):
            return max(0.0, self._landed[over] + self.window - now)
        return POLL

    def strained(self, share: float) -> bool:
        """Whether the budget is contested: callers wait for a turn, the last ``window``'s
        calls (sent, or turns held ahead) reach ``share`` of ``per_second``, or the shared
        budget ran short lately. ``share`` ≤ 0: always; pacing off: never (nothing to
        contest). What a caller that could spare the budget asks before it does (a played
        table's bot-token edits coalesce only then: ``ViewKit._coalesce``)."""
        if share <= 0:
            return True
        if not self.enabled:
            return False
        if self._waiting:
            return True
        self._forget_old(self._clock())
        if len(self._starts) + len(self._held) >= share * self.per_second:
            return True
        return self.shared is not None and self.shared.strained()

    def set_off(self) -> None:
        """A counted request is on its way (``landed`` once its answer came back)."""
        self.in_flight += 1

    def landed(self) -> None:
        """A counted request's answer came back (or it failed): from now it counts only until
        ``window`` has passed; a dispatcher waiting for room is woken."""
        self.in_flight = max(0, self.in_flight - 1)
        if self.enabled:
            self._landed.append(self._clock())
            self._wake()

    def _room_in(self, now: float, allowed: int, span: float) -> float:
        """Seconds until fewer than ``allowed`` calls (sent or held) fall in the last ``span``."""
        # Both are oldest first: the starts inside the span are a tail found by bisection, and
        # only a few turns are held, so no merge of every start is walked per call (issue 29:
        # ``heapq.merge``'s generator was ~6 % of the HTTP area's CPU at 1,000 tables).
        edge = now - span
        starts = self._starts
        first = bisect.bisect_right(starts, edge)
        held = [t.granted for t in self._held if t.granted > edge] if self._held else None
        over = len(starts) - first + (len(held) if held else 0) - allowed
        if over < 0:
            return 0.0
        if held:
            at = sorted([*itertools.islice(starts, first, None), *held])[over]
        else:
            at = starts[first + over]
        return max(0.0, at + span - now)

    def take(self, now: float) -> None:
        """Count a call sent at ``now``."""
        self.sent += 1
        if self.enabled:
            self._starts.append(now)

    def pause(self, seconds: float) -> None:
        """Discord answered a global 429: no bot-token call for ``seconds``."""
        self._paused_until = max(self._paused_until, self._clock() + seconds)
        metrics.count("pace.global_429")

    async def acquire(self, priority: Priority = Priority.HOUSEKEEPING) -> None:
        """Wait until one more bot-token call fits in the global limit and every caller of a
        higher priority (or the same one, arrived earlier) had its turn; the current task's next
        bot-token request then uses that turn (``release`` gives it back unused)."""
        if not self.enabled:
            return
        self.release()
        asked = self._clock()
        if self.shared is None and not self._waiting and self.free_in(asked) == 0:
            turn = self._grant(asked)  # room and nobody ahead: at once
        else:
            future: asyncio.Future[Turn] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (int(priority), next(self._arrivals), future))
            if self._dispatcher is None or self._dispatcher.done():
                self._dispatcher = asyncio.get_running_loop().create_task(self._dispatch())
            try:
                turn = await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():
                    self._give_back(future.result(), freed=True)
                raise
            metrics.count("pace.waited")
            metrics.observe("pace", (self._clock() - asked) * 1000)
        turn.task = asyncio.current_task()
        _turn.set(turn)

    def release(self) -> None:
        """Give back the current task's turn if no request used it."""
        turn = _own_turn()
        if turn is not None and turn.owner is self:
            self._give_back(turn, freed=True)

    async def sending(self) -> None:
        """A bot-token request is about to be sent (``bot/ui/http_gate.py``): use the current
        task's turn, or wait for one at the task's priority; count it now, and as in flight
        until ``landed``."""
        turn = _own_turn()
        now = self._clock()
        if turn is not None and turn.owner is self and self._give_back(turn, freed=False):
            if now >= self._paused_until:  # (the turn was granted with room for it)
                self.take(now)
                self.set_off()
                return
            level = Priority.RETRY  # a global 429 came meanwhile: wait it out, first in line
        else:
            level = _priority.get()
        await self.acquire(level)
        turn = _own_turn()
        if turn is not None:
            self._give_back(turn, freed=False)
        self.take(self._clock())
        self.set_off()

    def _grant(self, now: float) -> Turn:
        turn = Turn(now, self)
        if self.enabled:
            self._held.append(turn)
        return turn

    def _give_back(self, turn: Turn, *, freed: bool = True) -> bool:
        """Stop holding ``turn``'s place (``freed``: unused; else its request is sent now and
        counted instead); False when it had expired already."""
        try:
            self._held.remove(turn)
        except ValueError:
            return False
        if freed:
            self._wake()  # the dispatcher sleeps until a place frees: one just did
        return True

    def _wake(self) -> None:
        if self._napping and self._dispatcher is not None:
            self._napping = False
            self._dispatcher.cancel()
            self._dispatcher = asyncio.get_running_loop().create_task(self._dispatch())

    async def _dispatch(self) -> None:
        """Give turns while callers wait: the first in line, each once there is room."""
        while self._waiting:
            wait = self.free_in(self._clock())
            if wait > 0:
                self._napping = True  # a turn given back early wakes it (``_give_back``)
                try:
                    await self._sleep(wait)
                finally:
                    if self._dispatcher is asyncio.current_task():
                        self._napping = False
                continue
            _, _, future = heapq.heappop(self._waiting)
            if future.done():  # its caller gave up (cancelled)
                continue
            if self.shared is not None:
                await self.shared.take()  # the other processes' calls count too
            turn = self._grant(self._clock())
            if future.done():
                self._give_back(turn, freed=True)
            else:
                future.set_result(turn)
            await asyncio.sleep(0)  # let it start before the next turn is given
