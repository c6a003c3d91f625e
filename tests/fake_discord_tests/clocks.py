"""A clock of the test's own for the fake's rate limits (``fake.ratelimits.clock``)."""

from __future__ import annotations


class StoppedClock:
    """A clock that moves only when the test moves it (no sleeping, no timing)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
