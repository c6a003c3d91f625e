"""Keep the bot token's REST calls inside Discord's global rate limit (50 requests/s per bot).

discord.py honours per-route buckets and backs off after a global 429, but it does not pace:
at a few hundred busy tables the bot would send ~100 bot-token requests/s, and repeated global
429s end in a temporary Cloudflare ban of the whole bot. Interaction callbacks and their
webhook edits are exempt from the limit, so only bot-token calls go through the pacer.

A sliding window over the moments calls actually START: a caller waits while ``per_second``
calls started in the last ``window`` seconds. Callers take turns in arrival order (an
``asyncio.Lock`` is first come, first served); the turn is held only while waiting on the
clock, never across the call itself. Counting actual starts, not planned ones, matters: when
the event loop stalls, calls planned apart would otherwise all start together after it
(measured at 300 tables on a loaded machine: 61 calls in one second with planned moments).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable

from bot import metrics


class RequestPacer:
    def __init__(
        self,
        per_second: int,
        *,
        window: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        """At most ``per_second`` calls in any ``window`` seconds; ``per_second`` ≤ 0 turns
        pacing off (a bot whose global limit Discord raised)."""
        self.per_second = per_second
        self.window = window
        self._clock = clock
        self._sleep = sleep
        # When the last ``per_second`` calls started, oldest first.
        self._starts: deque[float] = deque(maxlen=max(1, per_second))
        self._turn = asyncio.Lock()

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

    async def acquire(self) -> None:
        """Wait until one more bot-token call fits in the global limit, then count it."""
        if not self.enabled:
            return
        asked = self._clock()
        async with self._turn:
            while (wait := self.free_in(self._clock())) > 0:
                await self._sleep(wait)
            now = self._clock()
            self.take(now)
        if now - asked > 0.0005:
            metrics.count("pace.waited")
            metrics.observe("pace", (now - asked) * 1000)
