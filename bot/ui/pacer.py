"""Keep the bot token's REST calls inside Discord's global rate limit (50 requests/s per bot).

discord.py honours per-route buckets and backs off after a global 429, but it does not pace:
at a few hundred busy tables the bot would send ~100 bot-token requests/s, and repeated global
429s end in a temporary Cloudflare ban of the whole bot. Interaction callbacks and their
webhook edits are exempt from the limit, so only bot-token calls go through the pacer.

Sliding window by reservation: a caller gets the earliest moment at which fewer than
``per_second`` calls fall in the second before it, and sleeps until then. Reservations are
made in arrival order, so waiting is first come, first served, and no lock is held while
waiting. A caller that is cancelled while waiting leaves its moment unused (never more calls
than allowed).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

from bot import metrics


class RequestPacer:
    def __init__(
        self,
        per_second: int,
        *,
        window: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """At most ``per_second`` calls in any ``window`` seconds; ``per_second`` ≤ 0 turns
        pacing off (a bot whose global limit Discord raised)."""
        self.per_second = per_second
        self.window = window
        self._clock = clock
        # The moments of the last ``per_second`` calls, oldest first.
        self._moments: deque[float] = deque(maxlen=max(1, per_second))

    @property
    def enabled(self) -> bool:
        return self.per_second > 0

    def reserve(self) -> float:
        """Take the next free moment and return how long to wait for it (seconds)."""
        if not self.enabled:
            return 0.0
        now = self._clock()
        moment = now
        if len(self._moments) == self._moments.maxlen:
            moment = max(now, self._moments[0] + self.window)
        if self._moments and moment < self._moments[-1]:
            moment = self._moments[-1]  # first come, first served
        self._moments.append(moment)
        return moment - now

    async def acquire(self) -> None:
        """Wait until one more bot-token call fits in the global limit."""
        wait = self.reserve()
        if wait > 0:
            metrics.count("pace.waited")
            metrics.observe("pace", wait * 1000)
            await asyncio.sleep(wait)
