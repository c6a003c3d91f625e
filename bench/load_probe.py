"""What `bench/load.py` reads about processes: CPU time and RSS from /proc, the bot's log
(event-loop lag and phase timings from ``mesa.metrics`` DEBUG lines, discord.py's "Can't keep
up" warnings) and the machine's load average."""

from __future__ import annotations

import contextlib
import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
KEY_VALUE = re.compile(r"(\w+)=(\S+)")


def cpu_seconds(pid: int | str = "self") -> float:
    """User + system CPU time of a process (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def descendants(pid: int) -> list[int]:
    """The processes started by `pid`, their children too (a worker pool's processes)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found.extend(children)
        todo.extend(children)
    return found


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and its live descendants, plus what its reaped children used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    total = sum(int(x) for x in fields[11:15]) / TICKS  # utime stime cutime cstime
    for child in descendants(pid):
        with contextlib.suppress(OSError):
            total += cpu_seconds(child)
    return total


def tree_rss_mb(pid: int) -> float:
    total = rss_mb(pid)
    for child in descendants(pid):
        with contextlib.suppress(OSError):
            total += rss_mb(child)
    return total


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def load_average() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


@dataclass
class CpuMeter:
    """CPU % of one process (with `tree`, and its descendants) over an interval (100 % = one
    core busy)."""

    pid: int | str
    tree: bool = False
    start_cpu: float = 0.0
    start_wall: float = 0.0

    def seconds(self) -> float:
        return tree_cpu_seconds(int(self.pid)) if self.tree else cpu_seconds(self.pid)

    def start(self, now: float) -> None:
        self.start_cpu, self.start_wall = self.seconds(), now

    def percent(self, now: float) -> float:
        wall = max(now - self.start_wall, 1e-9)
        return round(100 * (self.seconds() - self.start_cpu) / wall, 1)


@dataclass
class LogFigures:
    """What a slice of the bot's log says."""

    loop_lag_ms: list[float] = field(default_factory=list)
    phases: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    counts: Counter[str] = field(default_factory=Counter)  # ``count=<name> n=<delta>`` lines
    cant_keep_up: int = 0
    warnings: int = 0
    errors: int = 0


def read_log(path: Path, start: int, end: int | None = None) -> LogFigures:
    """Parse the bot's log between two byte offsets. Metric lines, agreed with the service:
    ``... mesa.metrics: loop_lag_ms=12.3`` and ``... mesa.metrics: phase=persist ms=1.2,0.8``."""
    figures = LogFigures()
    with path.open("rb") as log:
        log.seek(start)
        data = log.read(None if end is None else max(end - start, 0))
    for raw in data.decode("utf-8", "replace").splitlines():
        if "Can't keep up" in raw:
            figures.cant_keep_up += 1
        if " WARNING " in raw:
            figures.warnings += 1
        elif " ERROR " in raw or "Traceback" in raw:
            figures.errors += 1
        if "mesa.metrics" not in raw:
            continue
        pairs = dict(KEY_VALUE.findall(raw.split("mesa.metrics", 1)[1]))
        try:
            if "loop_lag_ms" in pairs:
                figures.loop_lag_ms.append(float(pairs["loop_lag_ms"]))
            if "count" in pairs and "n" in pairs:
                figures.counts[pairs["count"]] += int(pairs["n"])
            if "phase" in pairs and "ms" in pairs:
                figures.phases[pairs["phase"]].extend(float(v) for v in pairs["ms"].split(","))
        except ValueError:
            continue
    return figures
