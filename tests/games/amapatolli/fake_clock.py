"""A fake clock for the table service's injectable ``sleep``: sleepers wake only when a test
advances the clock past their deadline, so "5 seconds" take no real time and no luck."""

from __future__ import annotations

import asyncio


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (self.now + seconds, future)
        self._sleepers.append(entry)
        try:
            await future
        finally:
            self._sleepers.remove(entry)

    def deadlines(self) -> list[float]:
        return sorted(d for d, f in self._sleepers if not f.done())

    async def advance(self, seconds: float) -> None:
        """Move time on and let every sleeper whose deadline passed run."""
        self.now += seconds
        for deadline, future in list(self._sleepers):
            if deadline <= self.now and not future.done():
                future.set_result(None)
        for _ in range(5):
            await asyncio.sleep(0)

    async def until_sleeping(self, predicate=lambda deadline: True, what: str = "a sleeper"):
        """Wait (real time, as a guard only) until someone sleeps until a matching deadline."""

        async def poll() -> None:
            while not any(predicate(d) for d in self.deadlines()):
                await asyncio.sleep(0.001)

        await asyncio.wait_for(poll(), timeout=60)  # a hang bound: a busy machine is slow
