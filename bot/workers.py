"""One process pool for CPU-heavy work that must not run on the event loop: computer-player
searches (``bot/service/cpu.py``) and image rendering (``bot/ui``).

Threads do not help here (the GIL serialises pure-Python search and most of Pillow's Python
side); processes do. The pool uses the ``spawn`` start method: the bot process has threads
(aiosqlite, the database writer) and forking a threaded process can copy a held lock into the
child. Workers start lazily on first use.

Everything sent to a worker must be picklable: module-level functions and plain data (view
models, action texts, seeds), never a ``Table`` or a connection.

Usage (one ``Workers`` per bot process, created at start-up and shared)::

    workers = Workers(settings.worker_processes)   # None -> os.cpu_count()
    text = await workers.run(some_module_level_function, arg1, arg2)
    workers.shutdown()
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def default_size() -> int:
    return os.cpu_count() or 1


class Workers:
    """A lazily started ``ProcessPoolExecutor`` of ``size`` processes (default: cores)."""

    # Whether work runs in this process (then arguments need not be picklable).
    in_process = False

    def __init__(self, size: int | None = None) -> None:
        self.size = size or default_size()
        self._pool: ProcessPoolExecutor | None = None

    @property
    def executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.size, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process; the event loop keeps running meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def create_workers(size: int | None) -> Workers:
    """The bot's workers from the ``worker_processes`` setting: None one process per core,
    0 no child processes (a thread), n that many processes."""
    return InlineWorkers() if size == 0 else Workers(size)


class InlineWorkers(Workers):
    """Runs the work in a thread of this process: for tests and tools that do not want child
    processes. Same API as ``Workers``."""

    def __init__(self) -> None:
        super().__init__(1)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)
