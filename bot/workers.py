"""One process pool for CPU-heavy work that must not run on the event loop: computer-player
searches (``bot/service/cpu.py``) and image rendering (``bot/ui``).

Threads do not help here (the GIL serialises pure-Python search and most of Pillow's Python
side); processes do. The pool uses the ``spawn`` start method: the bot process has threads
(aiosqlite, the database writer) and forking a threaded process can copy a held lock into the
child. Workers start lazily on first use.

A pool may be given an ``initializer`` run by each worker as it starts: the bot's search pool
passes ``warm_up_games`` (a game whose engine has a ``warm_up()``, e.g. Triple Triad's compiled
search, prepares it there) and ``python -m bot`` calls ``start()``, which spawns the workers
at once so that happens at start-up, not on a player's move (elsewhere, e.g. tests' bots, the
workers start and warm up on the first computer move).

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

    def __init__(
        self, size: int | None = None, initializer: Callable[[], None] | None = None
    ) -> None:
        self.size = size or default_size()
        self.initializer = initializer
        self._pool: ProcessPoolExecutor | None = None

    @property
    def executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=self.initializer,
            )
        return self._pool

    def start(self) -> None:
        """Spawns the workers now (they run ``initializer`` in the background) instead of on
        the first ``run``."""
        self.executor.submit(int)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process; the event loop keeps running meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def create_workers(size: int | None, initializer: Callable[[], None] | None = None) -> Workers:
    """The bot's workers from the ``worker_processes`` setting: None one process per core,
    0 no child processes (a thread), n that many processes (each running ``initializer``
    first)."""
    return InlineWorkers() if size == 0 else Workers(size, initializer)


def warm_up_games() -> None:
    """A worker's initializer: every game engine with a ``warm_up()`` prepares its computer
    players (Triple Triad loads its compiled search)."""
    from bot.registry import load_games

    for game in load_games().values():
        hook = getattr(game, "warm_up", None)
        if callable(hook):
            hook()


class InlineWorkers(Workers):
    """Runs the work in a thread of this process: for tests and tools that do not want child
    processes. Same API as ``Workers``."""

    def __init__(self) -> None:
        super().__init__(1)

    def start(self) -> None:
        """Nothing to spawn."""

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)
