"""Keep the bot token's REST calls inside Discord's global rate limit (50 requests/s per bot).

discord.py honours per-route buckets and backs off after a global 429, but it does not pace:
at a few hundred busy tables the bot would send ~100 bot-token requests/s, and repeated global
429s end in a temporary Cloudflare ban of the whole bot. Interaction callbacks and their
webhook edits are exempt from the limit, so only bot-token calls go through the pacer.

A sliding window over the moments calls actually START: a caller waits while ``per_second``
calls started in the last ``window`` seconds. Callers take turns by ``Priority``, then in
arrival order: the view that lets the next player act first, then the public tables (each
table's one worker waits here once per change, so waiting tables are served round-robin, and
the worker shows its table's newest version once its turn comes), then set-up and
housekeeping; the turn is held only while waiting on the clock, never across the call itself.
Interaction-token edits (bot/ui/tokens.py) never come here. Counting actual starts, not planned ones, matters: when
the event loop stalls, calls planned apart would otherwise all start together after it
(measured at 300 tables on a loaded machine: 61 calls in one second with planned moments).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable
from enum import IntEnum
from typing import Protocol

from bot import metrics


class Priority(IntEnum):
    """Who goes first when bot-token calls queue (lower first)."""

    NEXT_PLAYER = 0  # the view (or notice) that lets the player to act act
    PUBLIC = 1  # a public table's edit
    HOUSEKEEPING = 2  # set-up, channel notices, buttons off, deletions


class SharedBudget(Protocol):
    """A budget shared with the other processes of the same bot token
    (``storage/token_budget.py``): ``take`` returns once one more call may go."""

    async def take(self) -> None: ...

    async def close(self) -> None: ...


class RequestPacer:
    def __init__(
        self,
        per_second: int,
        *,
        shared: SharedBudget | None = None,
        window: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        """At most ``per_second`` calls in any ``window`` seconds; ``per_second`` ≤ 0 turns
        pacing off (a bot whose global limit Discord raised)."""
        self.per_second = per_second
        self.shared = shared  # every shard process's one budget, taken before each call
        self.window = window
        self._clock = clock
        self._sleep = sleep
        # When the last ``per_second`` calls started, oldest first.
        self._starts: deque[float] = deque(maxlen=max(1, per_second))
        # Callers waiting for a turn: (priority, arrival, their future), smallest first.
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()
        self._dispatcher: asyncio.Task[None] | None = None

    @property
    def enabled(self) -> bool:
        return self.per_second > 0

    def free_in(self, now: float) -> float:
        """Seconds from ``now`` until one more call may start (0: at once)."""
        if not self.enabled or len(self._starts) < self.per_second:
            return 0.0
        return max(0.0, self._starts[0] + self.window - now)

    def take(self, now: float) -> None:
        """Count a call starting at ``now``."""
        if self.enabled:
            self._starts.append(now)

    async def acquire(self, priority: Priority = Priority.HOUSEKEEPING) -> None:
        """Wait until one more bot-token call fits in the global limit and every caller of a
        higher priority (or the same one, arrived earlier) had its turn, then count it."""
        if not self.enabled:
            return
        asked = self._clock()
        if self.shared is None and not self._waiting and self.free_in(asked) == 0:
            self.take(asked)  # room and nobody ahead: at once
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (int(priority), next(self._arrivals), turn))
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.get_running_loop().create_task(self._dispatch())
        await turn
        now = self._clock()
        metrics.count("pace.waited")
        metrics.observe("pace", (now - asked) * 1000)

    async def _dispatch(self) -> None:
        """Give turns while callers wait: the first in line, each once there is room."""
        while self._waiting:
            wait = self.free_in(self._clock())
            if wait > 0:
                await self._sleep(wait)
                continue
            _, _, turn = heapq.heappop(self._waiting)
            if turn.done():  # its caller gave up (cancelled)
                continue
            if self.shared is not None:
                await self.shared.take()  # the other processes' calls count too
            self.take(self._clock())
            if not turn.done():
                turn.set_result(None)
            await asyncio.sleep(0)  # let it start before the next turn is given
