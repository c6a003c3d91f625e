"""Discord going away and coming back (issue 27): while the gateway is disconnected no click
can reach the bot, so the turn timers are suspended (nobody is timed out for a click they
could not make); when it is connected again (RESUMED, or READY after a new IDENTIFY) they run
on with the time they had left, the overdue ones spread out, and after an outage of more than
``RESHOW_AFTER`` seconds every table whose messages fell behind (edits Discord refused meanwhile,
a REST 5xx spell) is shown again, as at start-up. No discord import: the client calls in."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

log = logging.getLogger(__name__)

RESHOW_AFTER = 5.0  # seconds away after which the tables behind are shown again


class Timers(Protocol):
    def suspend(self) -> None: ...

    def resume(self) -> int: ...


class GatewayOutages:
    def __init__(
        self,
        timers: Callable[[], Timers | None],
        reshow: Callable[[], Coroutine[Any, Any, object]],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._timers = timers
        self._reshow = reshow
        self._clock = clock
        self.since: float | None = None  # when the gateway went away (None: connected)
        self.outages: list[float] = []  # seconds of each outage (logs, tests, bench)
        self._tasks: set[asyncio.Task[object]] = set()

    def disconnected(self) -> None:
        if self.since is not None:
            return
        self.since = self._clock()
        timers = self._timers()
        if timers is not None:
            timers.suspend()
        log.warning("gateway disconnected: turn timers suspended")

    def connected(self, all_shards: bool = True) -> None:
        """A shard is connected again; ``all_shards``: every shard of the process is."""
        if self.since is None or not all_shards:
            return
        away, self.since = self._clock() - self.since, None
        self.outages.append(away)
        timers = self._timers()
        resumed = timers.resume() if timers is not None else 0
        log.warning("gateway back after %.1f s: %d turn timers resumed", away, resumed)
        if away >= RESHOW_AFTER:
            task: asyncio.Task[object] = asyncio.get_running_loop().create_task(
                self._reshow(), name="reshow"
            )
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
