"""CPU of the fake Discord apart from the simulated players, though both run on one event loop in
the bench's process: every callback the loop runs is timed (thread CPU time) and charged to the
fake or to the driver by the code it runs.

A task step is charged by its coroutine's file: the fake's server, REST, interactions, gateway
and aiohttp's server side are "fake"; the players (bench/, tests/fakediscord/users.py) and
anything else are "driver". A transport's read callback is charged by its protocol's module
(aiohttp's web protocol parses the bot's requests: "fake"). Costs about a microsecond per
callback; installed only while a window is measured."""

from __future__ import annotations

import asyncio
import time
from typing import Any

FAKE_MARKERS = (
    "tests/fakediscord/",
    "/aiohttp/web",
    "/aiohttp/http_websocket",
    "/aiohttp/_websocket",
)
DRIVER_MARKERS = ("tests/fakediscord/users.py", "/bench/")


def _origin_file(callback: Any) -> str:
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        return code.co_filename if code is not None else ""
    protocol = getattr(owner, "_protocol", None)
    if protocol is not None:
        module = type(protocol).__module__
        return "/" + module.replace(".", "/") + ".py"
    code = getattr(callback, "__code__", None) or getattr(
        getattr(callback, "__func__", None), "__code__", None
    )
    return code.co_filename if code is not None else ""


def charge_to(path: str) -> str:
    if any(marker in path for marker in DRIVER_MARKERS):
        return "driver"
    if any(marker in path for marker in FAKE_MARKERS):
        return "fake"
    return "driver"


class LoopCpu:
    """Thread CPU seconds of the loop's callbacks, by "fake" and "driver"."""

    def __init__(self) -> None:
        self.seconds = {"fake": 0.0, "driver": 0.0}
        self._kinds: dict[str, str] = {}
        self._saved: Any = None

    def charge(self, callback: Any, seconds: float) -> None:
        path = _origin_file(callback)
        kind = self._kinds.get(path)
        if kind is None:
            kind = self._kinds[path] = charge_to(path)
        self.seconds[kind] += seconds

    def install(self) -> None:
        """Time every callback of every event loop of this process from now on."""
        if self._saved is not None:
            return
        handle_run = self._saved = asyncio.events.Handle._run
        clock = time.thread_time
        meter = self

        def timed_run(handle: asyncio.events.Handle) -> None:
            start = clock()
            try:
                handle_run(handle)
            finally:
                meter.charge(handle._callback, clock() - start)  # type: ignore[attr-defined]

        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]

    def uninstall(self) -> None:
        if self._saved is not None:
            asyncio.events.Handle._run = self._saved  # type: ignore[method-assign]
            self._saved = None

    def percent(self, wall: float) -> dict[str, float]:
        """CPU % (100: one core) of each over `wall` seconds."""
        wall = max(wall, 1e-9)
        return {kind: round(100 * s / wall, 1) for kind, s in self.seconds.items()}


async def sample_loop_lag(into: list[float], every: float = 0.1) -> None:
    """Append this loop's lag (ms: how late a `every`-second sleep wakes) until cancelled. The
    fake's loop lag delays how it sees requests arrive: a lagging fake counts paced requests
    as bunched."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(every)
        into.append(max(0.0, (loop.time() - start - every) * 1000))
