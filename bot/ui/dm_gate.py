"""Whether to DM a player whose DMs were found closed: tried again later, with back-off.

A player who closes their DMs is told once (in the channel) and then not DMed on every change;
but one who opens them again must be DMed again. So the closed mark is retried: after a refusal
the next DM is tried ``base_seconds`` later, doubling on each refusal in a row up to
``max_seconds``; a DM that goes through clears the mark. The mark and the back-off are stored
(``players.dms_closed``, ``dms_retry_at``, ``dms_failures``), so they survive restarts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from storage.kept import KeptAtMost, of_people


class DmStore(Protocol):
    async def dms_state(self, user_id: str) -> tuple[bool, float | None, int]: ...

    async def dm_failed(self, user_id: str, retry_at: float) -> int: ...

    async def set_dms_closed(self, user_id: str, closed: bool) -> None: ...


@dataclass
class _Known:
    closed: bool
    retry_at: float | None
    failures: int
    trying: bool = False  # a try is under way: its DMs go out until it is decided
    refused_at: float | None = None


class DmGate:
    def __init__(
        self,
        store: Callable[[], DmStore],
        *,
        base_seconds: float = 60.0,
        max_seconds: float = 3600.0,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self.base_seconds = base_seconds
        self.max_seconds = max_seconds
        self._now = now
        # Of the people met lately (storage/kept.py): a miss costs a read of the players table
        # (a try under way is forgotten with it: at worst the next DM tries once more).
        self._known: KeptAtMost[str, _Known] = of_people()

    async def _get(self, seat: str) -> _Known:
        known = self._known.get(seat)
        if known is None:
            closed, retry_at, failures = await self._store().dms_state(seat)
            known = self._known[seat] = _Known(closed, retry_at, failures)
        return known

    async def marked_closed(self, seat: str) -> bool:
        """Whether ``seat``'s DMs are known closed (the turn mention names them)."""
        return not seat.isdigit() or (await self._get(seat)).closed

    def known_closed(self, seat: str) -> bool | None:
        """``marked_closed`` when this process knows it without reading the store; None when
        it does not."""
        if not seat.isdigit():
            return True
        known = self._known.get(seat)
        return None if known is None else known.closed

    async def blocked(self, seat: str) -> bool:
        """Whether not to DM ``seat`` now: closed, and the next try is not due yet. When it is
        due, the DMs go out (a try) until one is refused or delivered."""
        if not seat.isdigit():
            return True
        known = await self._get(seat)
        if not known.closed or known.trying:
            return False
        if known.retry_at is not None and self._now() < self._due(known):
            return True
        known.trying = True
        return False

    async def refused(self, seat: str) -> bool:
        """A DM to ``seat`` was refused (DMs closed). True the first time (tell the channel)."""
        known = await self._get(seat)
        first = not known.closed
        known.closed, known.trying = True, False
        known.failures += 1
        known.refused_at = self._now()
        known.retry_at = known.refused_at + self._backoff(known.failures)
        known.failures = await self._store().dm_failed(seat, known.retry_at)
        return first

    async def delivered(self, seat: str) -> None:
        """A DM to ``seat`` went through: their DMs are open (again)."""
        known = await self._get(seat)
        known.trying = False
        if known.closed:
            known.closed, known.retry_at, known.failures = False, None, 0
            await self._store().set_dms_closed(seat, False)

    def _due(self, known: _Known) -> float:
        """When the next try is due: the last refusal plus the back-off (as configured now)."""
        assert known.retry_at is not None
        if known.refused_at is None:  # loaded from storage: the refusal it was stored after
            known.refused_at = known.retry_at - self._backoff(known.failures)
        return known.refused_at + self._backoff(known.failures)

    def _backoff(self, failures: int) -> float:
        return min(self.max_seconds, self.base_seconds * (2 ** max(0, failures - 1)))
