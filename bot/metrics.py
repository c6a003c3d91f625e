"""In-memory counters and timing histograms, plus the event-loop lag monitor.

No exporter yet (a later issue exports ``snapshot()``). At DEBUG the observations are also
lines on the ``mesa.metrics`` logger, in a format ``bench/load.py`` parses:

    loop_lag_ms=<float>                once per monitor interval (default 1 s)
    phase=<name> ms=<float>[,<float>…] each phase's timings since the last line, written by the
                                       monitor once per interval (a line per timing cost the
                                       bot ~7 % of its CPU under load) and by ``flush_log()``,
                                       read from the histograms' reservoirs (an observation
                                       is one append, whatever the level)

Phases of a move: ``lock_wait``, ``apply``, ``persist``, ``notify`` (bot/service), ``db_write``
(the write lock held by one transaction, from the writer thread), ``cpu_search`` (a computer's
search in a worker); ``render`` and ``rest`` come from the Discord side through the same
``phase()`` / ``observe()``.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable

log = logging.getLogger("mesa.metrics")

LOOP_LAG = "loop_lag"


class Histogram:
    """Count, sum and max, plus a bounded sample reservoir (the newest ``keep`` values, up
    to twice as many kept between trims).

    ``add`` is the reservoir's own ``list.append`` (a C call, no Python frame: ~40 values a
    move, issue 29); count, sum and max take in the values appended since they were last read
    (``_fold``), which also trims the reservoir: each read does, and the loop-lag monitor's
    ``flush_log`` reads every histogram once an interval, so the reservoir holds at most twice
    ``keep`` values plus an interval's."""

    __slots__ = ("keep", "samples", "add", "_count", "_total", "_max", "_folded", "logged", "_lock")

    def __init__(self, keep: int = 2048) -> None:
        self.keep = keep
        self.samples: list[float] = []
        self.add: Callable[[float], None] = self.samples.append
        self._count = 0
        self._total = 0.0
        self._max = 0.0
        self._folded = 0  # the values of ``samples`` already in count, sum and max
        self.logged = 0  # ``count`` when its values were last logged (``flush_log``)
        # The database writer thread adds concurrently (an append is atomic); two readers
        # (the loop, an exporter's thread) must not take the same values in twice.
        self._lock = threading.Lock()

    def _fold(self) -> None:
        """Take the values appended since the last fold into count, sum and max; trim the
        reservoir once it holds twice ``keep`` (trimming it at every value past ``keep`` moved
        the whole reservoir each time)."""
        with self._lock:
            samples = self.samples
            end = len(samples)  # (values appended meanwhile wait for the next fold)
            if end > self._folded:
                new = samples[self._folded : end]
                self._count += len(new)
                self._total += sum(new)
                highest = max(new)
                if highest > self._max:
                    self._max = highest
            self._folded = end
            if end >= 2 * self.keep:
                del samples[: end - self.keep]  # only folded values: the first ``end``
                self._folded = self.keep

    @property
    def count(self) -> int:
        self._fold()
        return self._count

    @property
    def total(self) -> float:
        self._fold()
        return self._total

    @property
    def max(self) -> float:
        self._fold()
        return self._max

    def newest(self) -> list[float]:
        """The newest ``keep`` values."""
        return self.samples[-self.keep :]

    def unlogged(self) -> list[float]:
        """The values added since the last call (those still in the reservoir), now logged."""
        self._fold()
        with self._lock:  # (an exporter's fold may trim meanwhile: the slice is read as one)
            count, end = self._count, self._folded  # (values appended since: the next time)
            new, self.logged = count - self.logged, count
            return self.samples[max(0, end - new) : end] if new > 0 else []

    def quantile(self, q: float) -> float:
        if not self.samples:
            return 0.0
        ordered = sorted(self.newest())
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def mean(self) -> float:
        count = self.count
        return self._total / count if count else 0.0


counters: Counter[str] = Counter()
histograms: dict[str, Histogram] = defaultdict(Histogram)


def count(name: str, n: int = 1) -> None:
    counters[name] += n


def observe(phase_name: str, ms: float) -> None:
    """Record one timing of ``phase_name`` in milliseconds (logged at DEBUG by ``flush_log``:
    ~50 observations a move asked the logger's level each, at every level, issue 29)."""
    histograms[phase_name].add(ms)


def flush_log() -> None:
    """Log the timings observed since the last flush, one DEBUG line per phase (at another
    level nothing is logged, and they count as logged)."""
    debug = log.isEnabledFor(logging.DEBUG)
    # Copied first: the database writer thread observes concurrently.
    for name, histogram in list(histograms.items()):
        if len(histogram.samples) == histogram._folded and histogram._count == histogram.logged:
            continue  # nothing new (asked without a call per histogram: ~60 a second)
        values = histogram.unlogged()
        if debug and values and name != LOOP_LAG:  # (the monitor logs its own lines)
            log.debug("phase=%s ms=%s", name, _joined(values))


def _joined(values: list[float]) -> str:
    """``values`` as ``1.000,2.500``: one format of them all (a third less than one per value)."""
    return ("%.3f," * len(values) % tuple(values))[:-1]


class PhaseTimer:
    """Times a ``with`` block as one phase (``phase``): a slotted object, not a
    ``contextmanager`` (no generator and no wrapper object per timed block)."""

    __slots__ = ("name", "start")

    def __init__(self, phase_name: str) -> None:
        self.name = phase_name
        self.start = 0.0

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        histograms[self.name].add((time.perf_counter() - self.start) * 1000)  # (``observe``)


def phase(phase_name: str) -> PhaseTimer:
    """Time the block as ``phase_name`` (recorded even when it raises)."""
    return PhaseTimer(phase_name)


def snapshot() -> dict[str, dict[str, float]]:
    """Counters and per-histogram count/mean/p50/p99/max, for an exporter or a bench."""
    out: dict[str, dict[str, float]] = {
        "counters": {k: float(v) for k, v in list(counters.items())}
    }
    # Copied first: the database writer thread records ``db_write`` concurrently.
    for name, h in list(histograms.items()):
        out[name] = {
            "count": h.count,
            "mean": h.mean,
            "p50": h.quantile(0.5),
            "p99": h.quantile(0.99),
            "max": h.max,
        }
    return out


def reset() -> None:
    counters.clear()
    histograms.clear()


async def monitor_loop_lag(interval: float = 1.0) -> None:
    """Forever: sleep ``interval`` and record how much later than asked the loop woke us."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(interval)
        lag_ms = max(0.0, (loop.time() - start - interval) * 1000)
        histograms[LOOP_LAG].add(lag_ms)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("loop_lag_ms=%.3f", lag_ms)
        flush_log()  # (at another level: only what is logged is marked, no line)


def start_loop_lag_monitor(interval: float = 1.0) -> asyncio.Task[None]:
    """Start the monitor on the running loop; cancel the task to stop it."""
    return asyncio.create_task(monitor_loop_lag(interval), name="loop-lag-monitor")
