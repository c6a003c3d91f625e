"""The load driver's own cost over a run, slice by slice (``bench/load.py --driver-slices N``):
this process is the fake Discord and the simulated players, and it times every ack, so its
cost must not grow with the run's length. Per slice of the window: moves, this process's CPU
per move (kernel clock), its loop lag p99 / max, its collections (n, the longest pause, the
total), its RSS, what the fake holds (messages, interactions, gateway frames kept for a
RESUME) and the frozen objects; with ``profile``, Python calls per move over the first
``PROFILE_SECONDS`` of the first and the last slice (cProfile on the thread's CPU clock; its
cost inflates those two slices' CPU and loop lag, not the others', and the fake's lag is in
every ack measured meanwhile: take latencies from a run without it) and the
functions called most, and those with the most own time, per move in each (a scan that grows
with the run is one call whose own time grows)."""

from __future__ import annotations

import cProfile
import gc
import pstats
import time
from dataclasses import dataclass, field
from typing import Any

from bench.load_driver import World, percentiles
from bench.load_probe import cpu_seconds, rss_mb
from tests.fakediscord.server import FakeDiscord

TOP_CALLED = 8
PROFILE_SECONDS = 10.0


@dataclass
class Slice:
    start: float  # seconds from the window's start
    moves: int = 0
    cpu_s: float = 0.0
    lag_ms: list[float] = field(default_factory=list)
    # (generation, CPU ms) of each collection: the loop thread's clock (a busy machine's
    # preemptions are not the collector's)
    collections: list[tuple[int, float]] = field(default_factory=list)
    rss_mb: float = 0.0
    held: dict[str, int] = field(default_factory=dict)
    profiled: bool = False
    profiled_moves: int = 0
    calls: int = 0
    top_calls: list[tuple[str, int]] = field(default_factory=list)
    top_time: list[tuple[str, float]] = field(default_factory=list)  # own time, s (profiled)


class DriverSlices:
    """Slices of the window, advanced by ``tick`` (called once a second by the window's loop)."""

    def __init__(
        self, fake: FakeDiscord, world: World, count: int, window: float, profile: bool
    ) -> None:
        self.fake, self.world = fake, world
        self.count, self.width = max(count, 1), window / max(count, 1)
        self.profile = profile
        self.slices: list[Slice] = []
        self._profiler: cProfile.Profile | None = None
        self._profile_until = 0.0
        self._profile_moves_at = 0
        self._gc_cpu = 0.0
        self._started_at = 0.0
        self._cpu_at = self._moves_at = 0.0
        self._lag: list[float] = []
        self._lag_at = 0

    def start(self, now: float, lag: list[float]) -> None:
        self._started_at, self._lag = now, lag
        gc.callbacks.append(self._on_gc)
        self._open(now)

    def tick(self, now: float) -> None:
        if self._profiler is not None and now >= self._profile_until:
            self._stop_profile()
        index = min(int((now - self._started_at) / self.width), self.count - 1)
        if index >= len(self.slices):
            self._close(now)
            self._open(now)

    def finish(self, now: float) -> None:
        self._close(now)
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    def _open(self, now: float) -> None:
        index = len(self.slices)
        current = Slice(start=now - self._started_at)
        self.slices.append(current)
        self._cpu_at, self._moves_at = cpu_seconds(), self.world.stats.version_steps
        self._lag_at = len(self._lag)
        if self.profile and index in (0, self.count - 1):
            current.profiled = True
            self._profile_until = now + PROFILE_SECONDS
            self._profile_moves_at = self.world.stats.version_steps
            self._profiler = cProfile.Profile(time.thread_time)
            self._profiler.enable()

    def _close(self, now: float) -> None:
        current = self.slices[-1]
        if self._profiler is not None:
            self._stop_profile()
        current.cpu_s = cpu_seconds() - self._cpu_at
        current.moves = self.world.stats.version_steps - int(self._moves_at)
        current.lag_ms = self._lag[self._lag_at :]
        current.rss_mb = rss_mb("self")
        current.held = held_by(self.fake)

    def _stop_profile(self) -> None:
        current, profiler = self.slices[-1], self._profiler
        assert profiler is not None
        profiler.disable()
        self._profiler = None
        current.profiled_moves = self.world.stats.version_steps - self._profile_moves_at
        stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
        current.calls = sum(row[1] for row in stats.values())
        top = sorted(stats.items(), key=lambda item: -item[1][1])[:TOP_CALLED]
        current.top_calls = [(_name(key), row[1]) for key, row in top]
        slowest = sorted(stats.items(), key=lambda item: -item[1][2])[:TOP_CALLED]
        current.top_time = [(_name(key), row[2]) for key, row in slowest]

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_cpu = time.thread_time()
        elif self.slices:
            ms = (time.thread_time() - self._gc_cpu) * 1000
            self.slices[-1].collections.append((info["generation"], ms))

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for s in self.slices:
            per_move = max(s.moves, 1)
            lag = percentiles(s.lag_ms)
            row: dict[str, Any] = {
                "start_s": round(s.start),
                "moves": s.moves,
                "cpu_ms_per_move": round(s.cpu_s * 1000 / per_move, 3),
                "lag_p99_ms": lag["p99"],
                "lag_max_ms": lag["max"],
                "collections": len(s.collections),
                "collection_max_ms": round(max((ms for _, ms in s.collections), default=0.0), 1),
                "collection_ms": round(sum(ms for _, ms in s.collections), 1),
                # by generation: n, the longest CPU ms
                "collections_by_generation": {
                    g: [len(mss), round(max(mss), 1)]
                    for g in (0, 1, 2)
                    if (mss := [ms for gen, ms in s.collections if gen == g])
                },
                "rss_mb": round(s.rss_mb, 1),
                **s.held,
            }
            if s.profiled:
                per_move = max(s.profiled_moves, 1)
                row["profiled_moves"] = s.profiled_moves
                row["calls_per_move"] = round(s.calls / per_move, 1)
                row["top_calls_per_move"] = {
                    name: round(n / per_move, 2) for name, n in s.top_calls
                }
                row["top_own_us_per_move"] = {
                    name: round(t * 1e6 / per_move, 1) for name, t in s.top_time
                }
            out.append(row)
        return out


def held_by(fake: FakeDiscord) -> dict[str, int]:
    """What the fake holds now: messages, interactions, gateway frames kept for a RESUME; and
    the objects frozen out of this process's collections."""
    return {
        "messages": len(fake.messages),
        "interactions": len(fake.interactions.all),
        "replay_frames": sum(len(s.events) for s in fake.gateway.sessions.values()),
        "frozen": gc.get_freeze_count(),
    }


def _name(key: tuple[str, int, str]) -> str:
    path, line, function = key
    for marker in ("/site-packages/", "/bench/", "/tests/", "/lib/python3"):
        if marker in path:
            path = path[path.index(marker) + 1 :]
            break
    return f"{path}:{line}:{function}" if line else function


def lines(rows: list[dict[str, Any]], tables: int) -> list[str]:
    """The slices as a table, then the most called functions of the profiled slices."""
    if not rows:
        return []
    out = [
        f"{tables} tables: the driver (fake + players) by slice of the window",
        "| slice from s | moves | driver CPU ms/move | loop lag p99 / max ms | collections n,"
        " max / total CPU ms (by generation: n, max) | RSS MB | fake messages / interactions / replay frames | frozen"
        " | Python calls/move |",
        "|" + "---:|" * 9,
    ]
    for r in rows:
        out.append(
            f"| {r['start_s']} | {r['moves']} | {r['cpu_ms_per_move']}"
            f" | {r['lag_p99_ms']} / {r['lag_max_ms']}"
            f" | {r['collections']}, {r['collection_max_ms']} / {r['collection_ms']}"
            f" ({'; '.join(f'{g}: {n}, {ms}' for g, (n, ms) in r['collections_by_generation'].items())})"
            f" | {r['rss_mb']} | {r['messages']} / {r['interactions']} / {r['replay_frames']}"
            f" | {r['frozen']} | {r.get('calls_per_move', '')} |"
        )
    for r in rows:
        if "top_calls_per_move" in r:
            out.append(f"slice from {r['start_s']} s, most called per move:")
            out += [f"  {n:9.2f}  {name}" for name, n in r["top_calls_per_move"].items()]
            out.append(f"slice from {r['start_s']} s, most own time per move (us, profiled):")
            out += [f"  {t:9.1f}  {name}" for name, t in r["top_own_us_per_move"].items()]
    return out
