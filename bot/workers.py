"""Process pools for CPU-heavy work that must not run on the event loop: computer-player
searches (``bot/service/cpu.py``) and image rendering (``bot/ui``).

``Workers`` is a ``ProcessPoolExecutor``; the bot's two pools are its pipe-fed kind
(``bot.pipe_workers.PipeWorkers``, without the executor's helper threads; the search pool is
built by ``bot.pipe_workers.create_workers``), which share this module's guards, names and
priorities. ``Workers`` itself stays for the benches that compare the two, and as the base of
``InlineWorkers`` (tests' pools in a thread).

Threads do not help here (the GIL serialises pure-Python search and most of Pillow's Python
side); processes do. The pool uses the ``spawn`` start method: the bot process has threads
(aiosqlite, the database writer) and forking a threaded process can copy a held lock into the
child. Workers start lazily on first use.

A pool may be given an ``initializer`` run by each worker as it starts: the bot's search pool
passes ``warm_up_games`` (a game whose engine has a ``warm_up()``, e.g. Triple Triad's compiled
search, prepares it there) and ``python -m bot`` calls ``start()``, which spawns the workers
at once so that happens at start-up, not on a player's move (elsewhere, e.g. tests' bots, the
workers start and warm up on the first computer move).

Workers die with the bot: a worker whose parent is gone (the bot killed with SIGKILL, or by the
OOM killer, and restarted by a supervisor that restarts only the main process) would otherwise
live on idle, reparented to init, holding its memory (issue 27: 94 workers, 5.2 GB after 25
kills). Each worker, as it starts (``_worker_start``, before the pool's own ``initializer``),
takes two guards:

- Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` (through ctypes, no dependency): the kernel kills the
  worker the moment its parent dies, even if the worker is busy in compiled code that holds
  the GIL. The signal follows the parent *thread* that spawned the worker; the pool spawns its
  workers from the event loop's thread (``run``/``start``) or its own manager thread, both of
  which live as long as the bot, so a worker is never killed while its bot runs.
- A watch of the parent pid (a daemon thread polling ``os.getppid()`` every
  ``PARENT_POLL_SECONDS``): the portable fallback where prctl is missing (macOS, other Unixes),
  and the guard for the moment before prctl ran (a parent already gone is seen at once).

Everything sent to a worker must be picklable: module-level functions and plain data (view
models, action texts, seeds), never a ``Table`` or a connection.

Usage (one pool per kind of job and bot process, created at start-up and shared)::

    workers = create_workers(settings.worker_processes)   # None -> os.cpu_count()
    text = await workers.run(some_module_level_function, arg1, arg2)
    workers.shutdown()
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# The bot's two pools' process names (``bench/load.py`` puts their CPU apart by them).
RENDER_POOL = "mesa-render"
SEARCH_POOL = "mesa-search"
PARENT_POLL_SECONDS = 0.5


class Superseded(Exception):
    """A job no longer wanted when a worker became free for it (an image whose message has
    moved on): it was not run."""


class Sent:
    """A job's function whose arguments go to a pipe-fed worker (``bot.pipe_workers``) in a
    form of their own, plain data (no class or function in them, each looked up by its module
    and name at every pickling and unpickling), and are rebuilt there by ``arguments`` before
    the call, within the worker's "unpickle" stage. Pools that do not pickle their jobs call
    it with its arguments as they are."""

    def arguments(self, sent: tuple[Any, ...]) -> tuple[Any, ...]:
        return sent


def default_size() -> int:
    return os.cpu_count() or 1


class Workers:
    """A lazily started ``ProcessPoolExecutor`` of ``size`` processes (default: cores)."""

    # Whether work runs in this process (then arguments need not be picklable).
    in_process = False
    # Jobs worth handing to one worker at a time: the executor queues the rest itself.
    depth = 1
    # Whether ``run`` orders waiting jobs itself (``rank``, ``since``, ``wanted``: the pipe
    # pool); else its caller keeps them waiting and hands out ``size * depth`` at a time.
    ordered = False

    def __init__(
        self,
        size: int | None = None,
        initializer: Callable[[], None] | None = None,
        name: str | None = None,
        niceness: int = 0,
    ) -> None:
        self.size = size or default_size()
        self.initializer = initializer
        self.name = name  # the workers' process name (``/proc/PID/comm``), for the benches
        self.niceness = niceness  # added to the workers' OS niceness (``lower_priority``)
        self._pool: ProcessPoolExecutor | None = None

    @property
    def executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(os.getpid(), self.initializer, self.name, self.niceness),
            )
        return self._pool

    def start(self) -> None:
        """Spawns the workers now (they run ``initializer`` in the background) instead of on
        the first ``run``."""
        self.executor.submit(int)

    async def run(
        self,
        fn: Callable[..., T],
        *args: Any,
        rank: int = 1,
        since: float | None = None,
        wanted: Callable[[], bool] | None = None,
        affinity: Hashable | None = None,
    ) -> T:
        """``fn(*args)`` in a worker process; the event loop keeps running meanwhile. This pool
        runs jobs in the order they come (``rank``, ``since`` and ``affinity`` matter to ordered
        pools only);
        ``Superseded`` at once if ``wanted()`` is false."""
        if wanted is not None and not wanted():
            raise Superseded
        return await self._submit(fn, *args)

    async def _submit(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _worker_start(
    parent: int,
    initializer: Callable[[], None] | None,
    name: str | None = None,
    niceness: int = 0,
) -> None:
    """Every worker's initializer: die with ``parent`` (the bot), take the pool's ``name``
    and ``niceness``, then the pool's own initializer."""
    die_with_parent(parent)
    if name:
        set_process_name(name)
    lower_priority(niceness)
    if initializer is not None:
        initializer()


def die_with_parent(parent: int) -> str:
    """Make this process exit when ``parent`` is gone: ``PR_SET_PDEATHSIG`` where the kernel
    offers it, and always a watch of the parent pid. Which guard holds: ``"pdeathsig+watch"``
    or ``"watch"``."""
    how = "pdeathsig+watch" if _set_parent_death_signal() else "watch"
    if os.getppid() != parent:  # died before the guard was set: nobody will signal us
        os._exit(0)
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()
    return how


def _set_parent_death_signal() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


PR_SET_NAME = 15  # <linux/prctl.h>


def set_process_name(name: str) -> bool:
    """This process's name as ``ps`` and ``/proc/PID/comm`` show it (Linux; at most 15 bytes),
    so a bench can tell the render pool's CPU from the search pool's. False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(PR_SET_NAME, ctypes.c_char_p(name.encode()[:15]), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def lower_priority(niceness: int) -> int:
    """Add ``niceness`` to this process's OS niceness (issue 25: on a busy machine the bot's
    event loop, which answers clicks and sends the mover's view, gets the CPU before images of
    public tables and computer searches, which nobody is waiting on as urgently). Returns the
    niceness now; unchanged where the OS refuses."""
    if niceness <= 0:
        return os.nice(0)
    try:
        return os.nice(niceness)
    except OSError:
        return os.nice(0)


def _watch_parent(parent: int) -> None:
    """Exit as soon as this process's parent is no longer ``parent`` (reparented: it died)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(0)


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

    async def _submit(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)
