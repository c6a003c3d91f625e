"""Timers a test can see: ``loop.call_later`` that remembers each timer's fate, for the
product's injectable schedules (``bot/ui/shown.ShownStore.schedule``: the public retries)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class RecordedTimer:
    def __init__(self, delay: float, callback: Callable[[], None]) -> None:
        self.delay = delay
        self.fired = False
        self.cancelled = False
        self._callback = callback
        self._handle = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self.fired = True
        self._callback()

    def cancel(self) -> None:
        if not self.fired:
            self.cancelled = True
        self._handle.cancel()

    def fire(self) -> None:
        """Run it now, as if its delay had passed (a test's clock, not the wall's)."""
        assert not (self.fired or self.cancelled)
        self._handle.cancel()
        self._fire()


class RecordedTimers:
    """A schedule (``(delay, callback) -> cancellable``) that lists what it was asked."""

    def __init__(self) -> None:
        self.all: list[RecordedTimer] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> RecordedTimer:
        timer = RecordedTimer(delay, callback)
        self.all.append(timer)
        return timer

    def waiting(self) -> list[RecordedTimer]:
        """The timers neither run nor cancelled yet."""
        return [t for t in self.all if not (t.fired or t.cancelled)]
