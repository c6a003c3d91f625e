"""Inside the bot process of `bench/profile_scale.py`: the garbage collector's work (``gc.callbacks``),
the event loop's ready queue and timer heap, counted between two signals from the bench.

SIGUSR1 opens the measured window (counters reset); SIGUSR2 closes it and writes one JSON object
to ``MESA_SCALE_PROBE`` (the file the bench named). Loaded by the bench's launcher from this file's
path, so a ``--bot-root`` checkout without it can be measured too; nothing of Mesa imports it."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any

SAMPLE_EVERY = 0.05  # seconds between two looks at the loop's queues


class Probe:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.loop: asyncio.AbstractEventLoop | None = None
        self.measuring = False
        self._gc_started = 0.0
        self.profiler: Any = None
        self._reset()

    def _reset(self) -> None:
        self.gc_runs = [0, 0, 0]
        self.gc_seconds = [0.0, 0.0, 0.0]  # thread CPU time inside collections, by generation
        self.gc_collected = [0, 0, 0]
        self.ready: list[int] = []
        self.scheduled: list[int] = []
        self.rss_mb: list[float] = []
        self.started_cpu = time.process_time()
        self.started_wall = time.monotonic()
        self.started_threads = thread_cpu()

    # gc.callbacks
    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.thread_time()
            return
        if not self.measuring:
            return
        generation = info["generation"]
        self.gc_runs[generation] += 1
        self.gc_seconds[generation] += time.thread_time() - self._gc_started
        self.gc_collected[generation] += info["collected"]

    async def sample(self) -> None:
        loop = asyncio.get_running_loop()
        self.loop = loop
        while True:
            await asyncio.sleep(SAMPLE_EVERY)
            if self.measuring:
                # other callbacks ready besides this sampler's own wake-up
                self.ready.append(len(loop._ready))  # type: ignore[attr-defined]
                self.scheduled.append(len(loop._scheduled))  # type: ignore[attr-defined]
                if len(self.ready) % 20 == 1:  # about once a second
                    self.rss_mb.append(rss_mb())

    def open_window(self, *_: Any) -> None:
        self._reset()
        self.measuring = True
        if os.environ.get("MESA_SCALE_CALLS"):
            import cProfile

            self.profiler = cProfile.Profile(time.thread_time)
            self.profiler.enable()  # the loop's thread (signals run there)

    def _stop_calls(self) -> dict[str, list[float]]:
        """function -> [calls, own CPU s, with callees CPU s] of the window (cProfile)."""
        profiler, self.profiler = self.profiler, None
        if profiler is None:
            return {}
        import pstats

        profiler.disable()
        stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
        return {
            f"{path}:{line}:{name}": [calls, own, total]
            for (path, line, name), (_, calls, own, total, _) in stats.items()
        }

    def close_window(self, *_: Any) -> None:
        if not self.measuring:
            return
        self.measuring = False
        try:
            self._write()
        except Exception as exc:  # never stop the bot: say it in the file
            self.out.write_text(json.dumps({"error": repr(exc)}))

    def _write(self) -> None:
        cpu = time.process_time() - self.started_cpu
        wall = time.monotonic() - self.started_wall
        threads = thread_cpu()
        by_thread: dict[str, float] = {}
        for tid, (name, seconds) in threads.items():
            before = self.started_threads.get(tid, (name, 0.0))[1]
            by_thread[name] = by_thread.get(name, 0.0) + seconds - before
        calls = self._stop_calls()
        report = {
            "calls": calls,
            "tracked_types": type_counts(gc.get_objects(), 25),
            "garbage_types": cyclic_garbage(25),
            "wall_s": wall,
            "cpu_s": cpu,
            "cpu_by_thread_s": by_thread,
            "gc_runs": self.gc_runs,
            "gc_cpu_s": self.gc_seconds,
            "gc_collected": self.gc_collected,
            "gc_thresholds": list(gc.get_threshold()),
            "gc_frozen": gc.get_freeze_count(),
            "gc_tracked": len(gc.get_objects()),
            "ready": self.ready,
            "scheduled": self.scheduled,
            "rss_mb": self.rss_mb + [rss_mb()],
            "tasks": len(asyncio.all_tasks(self.loop)) if self.loop is not None else None,
            "task_names": task_names(self.loop),
        }
        self.out.write_text(json.dumps(report))


def rss_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def task_names(loop: asyncio.AbstractEventLoop | None) -> dict[str, int]:
    """The loop's tasks by name, numbers blanked ("timer-#")."""
    if loop is None:
        return {}
    counts: dict[str, int] = {}
    for task in asyncio.all_tasks(loop):
        name = task.get_name()
        if name.startswith("Task-"):  # unnamed: by its coroutine
            coro = task.get_coro()
            name = "coroutine " + getattr(coro, "__qualname__", "?")
            owner = getattr(getattr(coro, "cr_frame", None), "f_locals", {}).get("self")
            if owner is not None and hasattr(owner, "timeout"):  # a discord.py view's timer
                name += f" of {type(owner).__qualname__} (timeout {owner.timeout})"
        name = re.sub(r"\d+", "#", name)
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items(), key=lambda x: -x[1])[:15])


def type_counts(objects: list[Any], top: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for obj in objects:
        kind = type(obj)
        module = kind.__dict__.get("__module__")
        name = f"{module if isinstance(module, str) else '?'}.{kind.__qualname__}"
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items(), key=lambda x: -x[1])[:top])


def cyclic_garbage(top: int) -> dict[str, int]:
    """What a full collection would free now, by type (objects only a collection frees)."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = type_counts(gc.garbage, top)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


def thread_cpu() -> dict[int, tuple[str, float]]:
    """Each thread of this process: (name, user + system CPU seconds), from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    names = {t.native_id: t.name for t in threading.enumerate()}
    found: dict[int, tuple[str, float]] = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue
        name = names.get(int(task.name)) or stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        found[int(task.name)] = (name, (int(fields[11]) + int(fields[12])) / ticks)
    return found


def install(out: str) -> None:
    """Count from now on in this process; wrap ``asyncio.run`` so the sampler runs on the
    bot's loop."""
    probe = Probe(Path(out))
    # A/B runs of one checkout: these settings win over the bot's own (bot/ops/collector.py)
    thresholds = os.environ.get("MESA_SCALE_GC_THRESHOLD")
    if thresholds:
        gc.set_threshold(*(int(x) for x in thresholds.split(",")))
        setattr(gc, "set_threshold", lambda *_: None)  # noqa: B010
    if os.environ.get("MESA_SCALE_NO_FREEZE"):
        setattr(gc, "freeze", lambda: None)  # noqa: B010
    gc.callbacks.append(probe.on_gc)
    signal.signal(signal.SIGUSR1, probe.open_window)
    signal.signal(signal.SIGUSR2, probe.close_window)
    real_run = asyncio.run

    async def with_sampler(main: Any) -> Any:
        sampler = asyncio.create_task(probe.sample(), name="scale-probe")
        try:
            return await main
        finally:
            sampler.cancel()

    def run(main: Any, **kwargs: Any) -> Any:
        return real_run(with_sampler(main), **kwargs)

    setattr(asyncio, "run", run)  # noqa: B010
