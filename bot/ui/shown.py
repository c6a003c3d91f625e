"""What every message a table owns last showed, kept in the database (``storage/presented``).

The listener keeps one ``Slot`` per message in memory; this store mirrors the parts a restarted
bot needs: the public message's shown version (start-up shows again the tables behind), each DM
view's message, digest and "your turn" state (so a restarted bot edits the same DM and only when
the view changed), the older DM views whose buttons are still on (turned off at the end or on
/stop), and the live closed-DM turn mention (replaced or deleted after a restart too).

Writes are batched: a row is queued only after Discord accepted the change, and the queue is
written every ``FLUSH_SECONDS`` in one transaction. A crash loses at most that much: the
stored state then lags the screen, and the only cost is one more edit after the restart.
``FlushLater`` is that write-behind; where players play (``bot/ui/play_from.py``) uses it too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from storage import PresentedRepo, Shown, StorageUnavailable
from storage.presented import MENTION, PUBLIC

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.3
RETRY_SECONDS = (2.0, 5.0, 15.0, 60.0)  # a public edit given up on is tried again after these


class Cancellable(Protocol):
    def cancel(self) -> None: ...


Schedule = Callable[[float, Callable[[], None]], Cancellable]


def _call_later(delay: float, callback: Callable[[], None]) -> Cancellable:
    return asyncio.get_running_loop().call_later(delay, callback)


class FlushLater:
    """Write-behind: changes are known in memory at once and stored together a little later,
    off the path of the click that made them. ``schedule`` (at a change) runs ``flush``
    ``delay`` seconds after the first change since its last run; ``close`` (a drain, a
    shutdown) cancels that wait and runs it at once, so nothing known is lost; a flush already
    under way is awaited, not cancelled (its rows are out of the queue already). A change made
    while a flush is under way (its rows were taken before it) gets another flush after it."""

    def __init__(self, delay: float, flush: Callable[[], Awaitable[None]]) -> None:
        self.delay = delay
        self._flush = flush
        self._task: asyncio.Task[None] | None = None
        self._waiting = False  # the task is still in its delay (cancelling it loses nothing)
        self._again = False  # a change came while the task was flushing

    def schedule(self) -> None:
        if self._task is None or self._task.done():
            self._waiting = True
            self._task = asyncio.get_running_loop().create_task(self._later())
        elif not self._waiting:
            self._again = True

    async def _later(self) -> None:
        while True:
            try:
                await asyncio.sleep(self.delay)
            finally:
                self._waiting = False
            self._again = False
            await self._flush()
            if not self._again:
                return
            self._waiting = True

    async def close(self) -> None:
        task = self._task
        if task is not None and not task.done():
            if self._waiting:
                task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await self._flush()


class ShownStore:
    def __init__(
        self,
        repo: Callable[[], PresentedRepo | None],
        *,
        retry_seconds: tuple[float, ...] = RETRY_SECONDS,
        schedule: Schedule = _call_later,
    ) -> None:
        self._repo = repo
        self.retry_seconds = retry_seconds  # the last one repeats until an edit gets through
        self.schedule = schedule  # the timer a retry waits on
        self._dirty: dict[tuple[int, str], Shown] = {}
        self._loaded: dict[int, dict[str, Shown]] = {}  # table -> stored rows not yet restored
        self._restored: set[tuple[int, str]] = set()
        self._writes = FlushLater(FLUSH_SECONDS, self.flush)
        self._retries: dict[int, tuple[int, Cancellable]] = {}

    # ----- remembering (after Discord accepted a change) ------------------------------------
    def public(
        self, table_id: int, message_id: str | None, version: int, image: str | None
    ) -> None:
        self._put(table_id, PUBLIC, message_id, version, {"image": image})
        self.succeeded(table_id)

    def private(self, table_id: int, seat: str, version: int, slot: Any) -> None:
        """``slot``: the listener's DM slot (message_id, digest, image, waiting, clickable,
        older)."""
        self._put(
            table_id,
            seat,
            None if slot.message_id is None else str(slot.message_id),
            version,
            {
                "digest": slot.digest,
                "image": slot.image,
                "waiting": slot.waiting,
                "clickable": slot.clickable,
                "older": list(slot.older),
            },
        )

    def mention(self, table_id: int, message_id: int | None, seats: tuple[str, ...]) -> None:
        self._put(
            table_id,
            MENTION,
            None if message_id is None else str(message_id),
            0,
            {"seats": list(seats)},
        )

    def _put(
        self,
        table_id: int,
        slot: str,
        message_id: str | None,
        version: int,
        state: dict[str, Any],
    ) -> None:
        self._restored.add((table_id, slot))  # memory is the truth from now on
        self._dirty[(table_id, slot)] = Shown(
            table_id=table_id, slot=slot, message_id=message_id, version=version, state=state
        )
        self._writes.schedule()

    async def flush(self) -> None:
        rows, self._dirty = list(self._dirty.values()), {}
        repo = self._repo()
        if not rows or repo is None:
            return
        try:
            await repo.save(rows)
        except StorageUnavailable:  # the writer told the outage once; one more edit at worst
            log.warning("could not store what %d messages show: database unavailable", len(rows))
        except Exception:  # a lost row costs one more edit after a restart
            log.exception("could not store what %d messages show", len(rows))

    async def close(self) -> None:
        for _, handle in self._retries.values():
            handle.cancel()
        self._retries.clear()
        await self._writes.close()

    # ----- restoring (the first time a slot is used after a restart) ---------------------
    async def restore(self, table_id: int, slot: str) -> Shown | None:
        """The stored row of ``slot`` the first time it is asked for since start-up (None
        afterwards, or when nothing was stored)."""
        key = (table_id, slot)
        if key in self._restored:
            return None
        self._restored.add(key)
        rows = await self._rows(table_id)
        return rows.pop(slot, None)

    async def stored_seats(self, table_id: int) -> list[str]:
        """The seats with a stored DM view at ``table_id`` not restored yet."""
        rows = await self._rows(table_id)
        return [
            s for s in rows if s not in (PUBLIC, MENTION) and (table_id, s) not in self._restored
        ]

    async def _rows(self, table_id: int) -> dict[str, Shown]:
        rows = self._loaded.get(table_id)
        if rows is None:
            repo = self._repo()
            rows = {} if repo is None else await repo.of_table(table_id)
            self._loaded[table_id] = rows
        return rows

    def forget(self, table_id: int, seats: Sequence[str]) -> None:
        """``table_id`` is over and its last views are out (``bot/ui/table_ends.py``): what
        this process knows of its rows goes (by their keys: not a walk of every table's). Rows
        still queued are written all the same; a retry of its last word (``retry_later``) is
        kept: the result is always shown, and that showing ends the table again."""
        self._loaded.pop(table_id, None)
        for slot in (PUBLIC, MENTION, *seats):
            self._restored.discard((table_id, slot))

    # ----- a public edit given up on (retries exhausted) is tried again later ---------------
    def retry_later(self, table_id: int, again: Callable[[], None]) -> None:
        attempt, handle = self._retries.get(table_id, (0, None))
        if handle is not None:
            handle.cancel()
        delay = self.retry_seconds[min(attempt, len(self.retry_seconds) - 1)]
        self._retries[table_id] = (attempt + 1, self.schedule(delay, again))

    def succeeded(self, table_id: int) -> None:
        entry = self._retries.pop(table_id, None)
        if entry is not None:
            entry[1].cancel()
