"""Write-behind: changes are known in memory at once and stored together a little later, off the
path of the click that made them (what each message shows, where a player plays)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


class FlushLater:
    """Runs ``flush`` ``delay`` seconds after the first change since its last run; ``close``
    runs it at once (a drain or shutdown loses nothing that was known)."""

    def __init__(self, delay: float, flush: Callable[[], Awaitable[None]]) -> None:
        self.delay = delay
        self._flush = flush
        self._task: asyncio.Task[None] | None = None

    def schedule(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._later())

    async def _later(self) -> None:
        await asyncio.sleep(self.delay)
        await self._flush()

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        await self._flush()
