"""How long a computer player may think: one ``Budget`` for every game's search.

A budget is a number of search steps (``iterations``: rollouts of a Monte-Carlo search, nodes of
an exact one) and, when the caller passes a ``clock``, a number of ``seconds`` on that clock
(``games/`` never reads a clock itself; the bot passes ``time.monotonic``). Without a clock a
search is a pure function of its inputs, which is what tests use. ``Game.think_budget`` turns
the table's think time into a budget at the game's ``think_rate`` (steps a second).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]


@dataclass(frozen=True)
class Budget:
    """How long one search may run: at most ``iterations`` steps, and when ``clock`` is
    given, at most ``seconds`` of that clock (at least ``min_iterations`` steps either way,
    so that every candidate is tried)."""

    iterations: int = 400
    seconds: float | None = None
    clock: Clock | None = None
    min_iterations: int = 0

    def timed(self) -> bool:
        return self.seconds is not None and self.clock is not None

    @classmethod
    def for_seconds(cls, seconds: float, clock: Clock | None, per_second: float) -> Budget:
        """``seconds`` of thinking: steps capped at what ``seconds`` buys at ``per_second``
        steps a second on a quiet machine (a reproducible choice whenever the clock is not
        what stops the search), and stopped by ``clock`` once ``seconds`` have gone by."""
        return cls(iterations=max(8, int(seconds * per_second)), seconds=seconds, clock=clock)


__all__ = ["Budget", "Clock"]
