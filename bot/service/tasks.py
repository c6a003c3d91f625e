"""One background task per table (a turn timer, a computer-turn loop)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


class TableTasks:
    """At most one running task per table id; a task may cancel or forget its own entry."""

    def __init__(self, kind: str) -> None:
        self._kind = kind
        self._tasks: dict[int, asyncio.Task[Any]] = {}

    def get(self, table_id: int) -> asyncio.Task[Any] | None:
        return self._tasks.get(table_id)

    def start(self, table_id: int, work: Coroutine[Any, Any, Any]) -> None:
        self._tasks[table_id] = asyncio.create_task(work, name=f"{self._kind}-{table_id}")

    def running(self, table_id: int) -> bool:
        task = self._tasks.get(table_id)
        return task is not None and not task.done()

    def cancel(self, table_id: int) -> None:
        """Forget the table's task and cancel it (unless it is the caller itself)."""
        task = self._tasks.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def forget_current(self, table_id: int) -> None:
        """Called by a task that is finishing: drop its entry if it is still the table's."""
        if self._tasks.get(table_id) is asyncio.current_task():
            self._tasks.pop(table_id, None)

    def all(self) -> list[asyncio.Task[Any]]:
        return list(self._tasks.values())

    def clear(self) -> None:
        self._tasks.clear()
