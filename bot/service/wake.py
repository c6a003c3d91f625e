"""Each table's next wake-up, stored with its move, and resuming them after a restart.

A table that waits on a person wakes at the turn deadline (the timer plays for them); one that
waits on a computer wakes at once. The time is wall-clock (unix seconds) so it means the same
after a restart: a restarted bot resumes every turn with the time it had left, instead of
re-arming every timer at full length (which made them all fire together one turn later).
Deadlines that passed while the bot was down are spread ``OVERDUE_SPACING`` apart, so a restart
after a long outage is not a storm of timer moves either.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from games.core import Game, GameState
from storage import SeatInfo

OVERDUE_SPACING = 0.05  # seconds between two overdue wake-ups after a restart
FIRST_OVERDUE = 0.5  # the first overdue one waits this long (start-up finishes first)


def next_wake(
    game: Game,
    seats: list[SeatInfo],
    state: GameState,
    turn_seconds: float,
    now: Callable[[], float] = time.time,
) -> float | None:
    """When the table must next act on its own after ``state``: None once the game is over."""
    if game.is_over(state):
        return None
    to_act = game.to_act(state)
    for s in seats:  # (a loop, not ``any`` of a generator: a generator frame per seat a move)
        if not s.is_cpu and s.id in to_act:
            return now() + turn_seconds
    return now()


class OverdueSpreader:
    """Hands out the delays of wake-ups after a restart: the time left, or a slot in a queue
    ``OVERDUE_SPACING`` apart for those already due."""

    def __init__(self, now: float | None = None) -> None:
        self.now = time.time() if now is None else now
        self._overdue = 0

    def delay(self, wake_at: float | None, default: float) -> float:
        """Seconds from now until a table stored with ``wake_at`` should wake (``default``
        when nothing was stored)."""
        left = default if wake_at is None else wake_at - self.now
        if left > FIRST_OVERDUE:
            return left
        self._overdue += 1
        return FIRST_OVERDUE + self._overdue * OVERDUE_SPACING
