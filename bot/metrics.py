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
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

log = logging.getLogger("mesa.metrics")

LOOP_LAG = "loop_lag"


@dataclass(slots=True)  # slotted: ``add`` runs several times per move (a quarter of its cost)
class Histogram:
    """Count, sum and max, plus a bounded sample reservoir (the newest ``keep`` values, up
    to twice as many kept between trims)."""

    keep: int = 2048
    count: int = 0
    total: float = 0.0
    max: float = 0.0
    samples: list[float] = field(default_factory=list)
    logged: int = 0  # ``count`` when its values were last logged (``flush_log``)

    def add(self, value: float) -> None:
        samples = self.samples
        samples.append(value)  # before it is counted: ``unlogged`` reads the count first
        self.count += 1
        self.total += value
        if value > self.max:  # (no ``max()`` call)
            self.max = value
        # Trimmed once it holds twice ``keep``: trimming at every value past ``keep`` moved
        # the whole reservoir each time (a tenth of a millisecond of the bot's CPU per move).
        if len(samples) >= 2 * self.keep:
            del samples[: len(samples) - self.keep]

    def newest(self) -> list[float]:
        """The newest ``keep`` values."""
        return self.samples[-self.keep :]

    def unlogged(self) -> list[float]:
        """The values added since the last call (those still in the reservoir), now logged."""
        count = self.count
        new, self.logged = count - self.logged, count
        return self.samples[-new:] if new > 0 else []

    def quantile(self, q: float) -> float:
        if not self.samples:
            return 0.0
        ordered = sorted(self.newest())
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0


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
        observe(self.name, (time.perf_counter() - self.start) * 1000)


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
