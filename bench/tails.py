"""Where the slowest acknowledgements, public edits and next players' views come from, and how
that builds over minutes (issue 29: ack p99 ≤ 100 ms, next view ≤ 1 s, public ≤ 2 s) under the
load of ``bench/load.py``: each event slower than ``--slow`` ms is laid against what was going
on in the bot at that moment — its garbage collections (by generation), its event loop turns
that ran long (a watchdog thread samples the loop thread's stack while one runs), the database
writer's slow transactions and the write-ahead log checkpoints among them, the pacer's queue of
bot-token calls, the render queue, games ended in the second before — and the same loop
turns and collections in the load driver, whose loop is the fake Discord that times them. A
second table follows the same figures over the window in slices, to show what grows.

    .venv/bin/python bench/tails.py --tables 300 --window 45 -- --channel-play 0.5
    nice -n 10 .venv/bin/python bench/tails.py --tables 1000 --warmup 30 --window 240 \
        --slices 4 -- --channel-play 0.5
    .venv/bin/python bench/tails.py --tables 500 --bot-root ../before -- --channel-play 0.5

A loop turn is timed by the watchdog: every 5 ms it hands the loop a callback
(``call_soon_threadsafe``) and, when that callback runs, how late it ran is the turn's
length; turns over 20 ms are recorded with stack samples taken from 15 ms on (the
innermost frames of the loop's thread: what the turn was doing). A collection holds the GIL
through its pause, so a stall that contains one is that collection's. A checkpoint is read
from the shared-memory index of the write-ahead log (its backfilled frames grew during the
transaction). The bot's queues are sampled every 100 ms by a thread of its own. The watchdog
costs each process ~200 wake-ups a second: compare two runs of this tool, not its figures with
``bench/load.py``'s. Figures only; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import bisect
import collections
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench.load as load  # noqa: E402
import bench.load_driver as load_driver  # noqa: E402
from bench.gc_census import Window  # noqa: E402
from bench.load_probe import load_average  # noqa: E402

# One process's recorder (the bot's through the prelude below, the driver's by ``exec``):
# a JSON line per collection ("gc") and per loop turn over 20 ms ("stall") to ``_path``;
# ``emit`` is shared with the bot's probes (one lock: several threads write the file).
RECORDER = r"""
def _tails_recorder(_path, _who):
    import gc, json, sys, threading, time
    out = open(_path, 'a', buffering=1)
    lock = threading.Lock()
    started = {}

    def emit(record):
        record['who'] = _who
        line = json.dumps(record) + '\n'
        with lock:
            out.write(line)

    def on_gc(phase, info):
        if phase == 'start':
            started['wall'], started['cpu'] = time.time(), time.thread_time()
            return
        emit({
            'kind': 'gc', 'generation': info['generation'], 'collected': info['collected'],
            'start': started['wall'], 'end': time.time(),
            'cpu_ms': (time.thread_time() - started['cpu']) * 1000,
        })

    gc.callbacks.append(on_gc)

    def frames(frame, depth=40):
        names = []
        while frame is not None and len(names) < depth:
            code = frame.f_code
            path = code.co_filename
            for marker in ('/site-packages/', '/bot/', '/bench/', '/tests/', '/lib/python3'):
                if marker in path:
                    path = path[path.index(marker) + 1:]
                    break
            names.append(f'{path}:{code.co_qualname}')
            frame = frame.f_back
        return names

    def watch(loop, loop_thread):
        pending = {'sent': None, 'samples': []}

        clock = time.pthread_getcpuclockid(loop_thread)

        def ran(sent, cpu, samples):
            late = time.monotonic() - sent
            if late > 0.020:
                emit({
                    'kind': 'stall', 'start': time.time() - late,
                    'end': time.time(), 'samples': samples,
                    'cpu_ms': (time.clock_gettime(clock) - cpu) * 1000,
                })
            pending['sent'] = None

        def run():
            while not loop.is_closed():
                time.sleep(0.005)
                sent = pending['sent']
                if sent is None:
                    pending['samples'] = []
                    pending['sent'] = time.monotonic()
                    cpu = time.clock_gettime(clock)
                    try:
                        loop.call_soon_threadsafe(ran, pending['sent'], cpu, pending['samples'])
                    except RuntimeError:  # the loop closed
                        return
                elif time.monotonic() - sent > 0.015 and len(pending['samples']) < 8:
                    try:  # a frame torn down while walked (seen once): that sample is lost
                        frame = sys._current_frames().get(loop_thread)
                        pending['samples'].append(frames(frame))
                    except Exception:
                        pass

        threading.Thread(target=run, name='tails-watchdog', daemon=True).start()

    return watch, emit
"""

# The bot's own probes, patched in before ``main``: the writer's slow transactions and its
# checkpoints ("write": a transaction in which the log's copied frames grew, or the writer's
# own copy after a checkpoint thread's pass), each game's end ("end"), and every 100 ms its queues ("sample"): the
# pacer's waiting bot-token calls, the render pool's jobs waiting or in a worker's pipe, the
# writer's queue, the write-ahead log's size, the RSS, the asyncio tasks alive.
BOT_PROBES = r"""
def _tails_probes(emit):
    import asyncio, os, struct, threading, time
    import storage.writer as _writer
    import bot.ui.pacer as _pacer
    import bot.pipe_workers as _pipes
    import bot.service.moves as _moves

    pacers, pools, writers = [], [], []  # few, alive while the bot runs
    files = {}

    def keep(cls, into):
        original = cls.__init__
        def __init__(self, *args, **kwargs):
            original(self, *args, **kwargs)
            into.append(self)
        cls.__init__ = __init__

    keep(_pacer.RequestPacer, pacers)
    keep(_pipes.PipeWorkers, pools)
    original_post_init = _writer.Writer.__post_init__
    def __post_init__(self):
        original_post_init(self)
        writers.append(self)
    _writer.Writer.__post_init__ = __post_init__

    def backfilled(conn):
        # The write-ahead log's shared index: frames in the log (mxFrame, offset 16) and frames
        # copied to the database by checkpoints (nBackfill, offset 96), native byte order.
        if 'shm' not in files:
            files['shm'] = None
            try:
                path = [r[2] for r in conn.execute('PRAGMA database_list') if r[1] == 'main'][0]
                files['wal'] = path + '-wal'
                files['shm'] = os.open(path + '-shm', os.O_RDONLY)
            except Exception:
                pass
        if files['shm'] is None:
            return (0, 0)
        head = os.pread(files['shm'], 100, 0)
        if len(head) < 100:
            return (0, 0)
        return struct.unpack_from('=I', head, 16)[0], struct.unpack_from('=I', head, 96)[0]

    original_commit = _writer.Writer._commit_batch
    def _commit_batch(self, conn, batch):
        if not batch:
            return original_commit(self, conn, batch)
        frames, before = backfilled(conn)
        wall, start = time.time(), time.perf_counter()
        try:
            return original_commit(self, conn, batch)
        finally:
            held = time.perf_counter() - start
            after_frames, after = backfilled(conn)
            copied = after - before if after > before else 0
            # With a checkpoint thread, frames copied during a transaction are that thread's.
            by_thread = _checkpoints is not None
            if held > 0.020 or (copied and not by_thread):
                emit({'kind': 'write', 'start': wall, 'end': wall + held, 'units': len(batch),
                      'checkpoint_pages': 0 if by_thread else copied,
                      'wal_frames': max(frames, after_frames)})
    _writer.Writer._commit_batch = _commit_batch

    try:  # the writer's own copy after a checkpoint thread's pass, where there is one
        import storage.checkpoints as _checkpoints
    except ImportError:
        _checkpoints = None
    if _checkpoints is not None:
        original_between = _checkpoints.WalCheckpoints.between_batches
        def between_batches(self, conn):
            frames, before = backfilled(conn)
            wall, start = time.time(), time.perf_counter()
            try:
                return original_between(self, conn)
            finally:
                held = time.perf_counter() - start
                after_frames, after = backfilled(conn)
                copied = after - before if after > before else 0
                if copied:
                    emit({'kind': 'write', 'start': wall, 'end': wall + held, 'units': 0,
                          'checkpoint_pages': copied, 'wal_frames': max(frames, after_frames)})
        _checkpoints.WalCheckpoints.between_batches = between_batches

    original_record = _moves.finished_record
    def finished_record(*args, **kwargs):
        emit({'kind': 'end', 'start': time.time()})
        return original_record(*args, **kwargs)
    _moves.finished_record = finished_record

    def rss_mb():
        with open('/proc/self/statm') as f:
            return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE') / 2**20

    def sample():
        while True:
            time.sleep(0.1)
            try:
                render = [p for p in list(pools) if p.metered]
                states = [p._state for p in render if p._state is not None]
                wal = files.get('wal')
                emit({
                    'kind': 'sample', 'start': time.time(),
                    'pacer_waiting': sum(len(p._waiting) for p in list(pacers)),
                    'render_waiting': sum(len(s.waiting) for s in states),
                    'render_in_pipes': sum(len(w.jobs) for s in states for w in s.workers),
                    'writer_queue': sum(w._jobs.qsize() for w in list(writers)),
                    'wal_mb': os.path.getsize(wal) / 2**20 if wal and os.path.exists(wal) else 0,
                    'rss_mb': rss_mb(),
                    'tasks': len(asyncio.tasks._all_tasks),
                })
            except Exception as exc:  # a pool resized under us: the next sample
                emit({'kind': 'sample_error', 'start': time.time(), 'error': repr(exc)})

    threading.Thread(target=sample, name='tails-sampler', daemon=True).start()
"""

# In the bot before ``bot.__main__``: its loop watched from ``serve``'s first line.
PRELUDE = (
    RECORDER
    + BOT_PROBES
    + r"""
import os as _os
if _os.environ.get('MESA_BENCH_TAILS'):
    _tails_watch, _tails_emit = _tails_recorder(_os.environ['MESA_BENCH_TAILS'], 'bot')
    if _os.environ.get('MESA_BENCH_GC_THRESHOLDS'):  # other thresholds than the bot's own
        import gc as _gc
        _gc.set_threshold(*map(int, _os.environ['MESA_BENCH_GC_THRESHOLDS'].split(',')))
        _gc.set_threshold = lambda *_: None
    _tails_probes(_tails_emit)
    import bot.__main__ as _tails_main
    _tails_serve = _tails_main.serve

    async def _tails_watched_serve(*args, **kwargs):
        import asyncio as _asyncio, threading as _threading
        _tails_watch(_asyncio.get_running_loop(), _threading.get_ident())
        return await _tails_serve(*args, **kwargs)

    _tails_main.serve = _tails_watched_serve
"""
)


@dataclass
class Timed:
    """The driver's measured events by kind ("ack", "public", "next"): (wall start, ms)."""

    events: dict[str, list[tuple[float, float]]] = field(
        default_factory=lambda: collections.defaultdict(list)
    )
    queued: dict[float, float] = field(default_factory=dict)  # an ack's wait in the fake


def record_events(into: Timed) -> None:
    """Keep each measured ack, public edit and next view with its wall-clock span, beside the
    driver's own figures (the same samples ``bench/load.py`` reports)."""
    original = load_driver.World._request

    def _request(world: Any, record: Any) -> None:
        m = load_driver.CALLBACK_PATH.match(record.path)
        if m is not None and world.measuring:
            inter = world.fake.interactions.all.get(int(m.group(1)))
            if inter is not None and inter.answered_after is not None:
                created = time.time() - (time.monotonic() - inter.created_real)
                into.events["ack"].append((created, inter.answered_after * 1000))
                if inter.dispatched_real is not None:
                    into.queued[created] = inter.dispatched_real - inter.created_real
        original(world, record)

    load_driver.World._request = _request  # type: ignore[method-assign,assignment]
    kind = threading.local()
    original_sample = load_driver.LoadTable.sample

    def sample(table: Any, pending: Any, shown_version: int) -> Any:
        made = original_sample(table, pending, shown_version)
        what = getattr(kind, "now", None)
        if what == "public" or (what == "next" and shown_version == pending.version + 1):
            into.events[what].append((time.time() - made.ms / 1000, made.ms))
        return made

    def marked(name: str, method: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            kind.now = name
            try:
                return method(*args, **kwargs)
            finally:
                kind.now = None

        return call

    load_driver.LoadTable.sample = sample  # type: ignore[method-assign,assignment]
    load_driver.LoadTable.public_changed = marked(  # type: ignore[method-assign]
        "public", load_driver.LoadTable.public_changed
    )
    load_driver.LoadTable.next_view_changed = marked(  # type: ignore[method-assign]
        "next", load_driver.LoadTable.next_view_changed
    )


def overlap(a_start: float, a_end: float, b_start: float, b_end: float) -> float:
    return max(0.0, min(a_end, b_end) - max(a_start, b_start))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def where(samples: list[list[str]]) -> str:
    """A stall's place: the innermost frame of ours (bot/), else the innermost one, of the
    sample taken most often."""
    places = []
    for stack in samples:
        ours = [f for f in stack if f.startswith("bot/")]
        places.append((ours[0] if ours else stack[0]) if stack else "(no frame)")
    return collections.Counter(places).most_common(1)[0][0] if places else "(not sampled)"


class Spans:
    """Intervals (start, end, record) sorted by start, asked what overlaps a span: the longest
    interval bounds how far back to look."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = sorted(rows, key=lambda r: r["start"])
        self.starts = [r["start"] for r in self.rows]
        self.longest = max((r["end"] - r["start"] for r in self.rows), default=0.0)

    def within(self, start: float, end: float) -> list[dict[str, Any]]:
        first = bisect.bisect_left(self.starts, start - self.longest)
        last = bisect.bisect_right(self.starts, end)
        return [r for r in self.rows[first:last] if r["end"] > start]

    def overlap_ms(self, start: float, end: float) -> float:
        return 1000 * sum(
            overlap(start, end, r["start"], r["end"]) for r in self.within(start, end)
        )


class Series:
    """The bot's 100-ms samples: the largest value of a field over a span."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = sorted(rows, key=lambda r: r["start"])
        self.starts = [r["start"] for r in self.rows]

    def peak(self, name: str, start: float, end: float) -> float:
        first = bisect.bisect_left(self.starts, start)
        last = bisect.bisect_right(self.starts, end + 0.1)
        return max((r.get(name, 0) for r in self.rows[first:last]), default=0.0)


# What may have held a slow event up, each (name, test of the event's span, what it measures):
# a span is "hit" by a cause when the test says so; the causes overlap (an event may have
# several). The thresholds: a quarter of the slow bound for pauses, the window's own typical
# queue for queues (see ``report``).
def causes(rows: list[dict[str, Any]], slow_ms: float) -> list[tuple[str, Any]]:
    def of(who: str, kind: str, test: Any = None) -> Spans:
        return Spans(
            [r for r in rows if r["who"] == who and r["kind"] == kind and (test is None or test(r))]
        )

    bot_full = of("bot", "gc", lambda r: r["generation"] == 2)
    bot_young = of("bot", "gc", lambda r: r["generation"] < 2)
    bot_stall = of("bot", "stall")
    checkpoints = of("bot", "write", lambda r: r["checkpoint_pages"] > 0)
    slow_writes = of(
        "bot", "write", lambda r: r["checkpoint_pages"] == 0 and r["end"] - r["start"] > 0.05
    )
    driver_gc = of("driver", "gc")
    driver_stall = of("driver", "stall")
    ends = sorted(r["start"] for r in rows if r["kind"] == "end")
    series = Series([r for r in rows if r["kind"] == "sample"])
    pause = slow_ms / 4

    def ends_before(start: float, end: float) -> float:
        return bisect.bisect_right(ends, end) - bisect.bisect_left(ends, start - 1.0)

    return [
        ("bot full collection (gen 2) overlapped", lambda s, e: bot_full.overlap_ms(s, e) > 0),
        (
            f"bot young collections ≥ {pause:.0f} ms",
            lambda s, e: bot_young.overlap_ms(s, e) >= pause,
        ),
        (
            f"bot loop turns ≥ {pause:.0f} ms in all",
            lambda s, e: bot_stall.overlap_ms(s, e) >= pause,
        ),
        ("a WAL checkpoint in the writer", lambda s, e: checkpoints.overlap_ms(s, e) > 0),
        (
            "a writer transaction > 50 ms (no checkpoint)",
            lambda s, e: slow_writes.overlap_ms(s, e) > 0,
        ),
        ("driver (fake) collection", lambda s, e: driver_gc.overlap_ms(s, e) > 0),
        (
            f"driver (fake) loop turns ≥ {pause:.0f} ms",
            lambda s, e: driver_stall.overlap_ms(s, e) >= pause,
        ),
        ("game ends in the second before ≥ 8", lambda s, e: ends_before(s, e) >= 8),
        ("pacer queue ≥ 45 calls", lambda s, e: series.peak("pacer_waiting", s, e) >= 45),
        ("render queue ≥ 20 jobs waiting", lambda s, e: series.peak("render_waiting", s, e) >= 20),
        ("writer queue ≥ 64 units", lambda s, e: series.peak("writer_queue", s, e) >= 64),
    ]


KINDS = ("ack", "public", "next")


def shares(
    tests: list[tuple[str, Any]], events: list[tuple[float, float]], cap: int = 4000
) -> tuple[list[float], float]:
    """Each cause's share of ``events`` (every one, or ``cap`` spread evenly), and the share
    that none of them hit."""
    step = max(1, len(events) // cap)
    picked = events[::step]
    hits = [0] * len(tests)
    none = 0
    for start, ms in picked:
        end = start + ms / 1000
        hit = False
        for i, (_, test) in enumerate(tests):
            if test(start, end):
                hits[i] += 1
                hit = True
        none += not hit
    n = max(len(picked), 1)
    return [100 * h / n for h in hits], 100 * none / n


def report(
    rows: list[dict[str, Any]], timed: Timed, window: Window, slow_ms: float, slices: int
) -> str:
    w_start, w_end = window.start_at, window.end_at
    inside = [r for r in rows if w_start <= r["start"] <= w_end]
    seconds = max(w_end - w_start, 1e-9)
    lines = [f"window {seconds:.0f} s; load average {' '.join(f'{x:.2f}' for x in load_average())}"]
    lines += [
        "",
        "| process | what | n | per s | wall ms p50 / p99 / max | total ms | on its CPU |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for who in ("bot", "driver"):
        groups: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
        for r in inside:
            if r["who"] != who:
                continue
            if r["kind"] == "gc":
                groups[f"collection gen {r['generation']}"].append(r)
            elif r["kind"] == "stall":
                groups["turn > 20 ms"].append(r)
            elif r["kind"] == "write":
                label = "checkpoint (writer)" if r["checkpoint_pages"] else "transaction > 20 ms"
                groups[label].append(r)
        for label, done in sorted(groups.items()):
            ms = [(r["end"] - r["start"]) * 1000 for r in done]
            cpu = [r["cpu_ms"] for r in done if "cpu_ms" in r]
            lines.append(
                f"| {who} | {label} | {len(ms)} | {len(ms) / seconds:.2f}"
                f" | {percentile(ms, 0.5):.1f} / {percentile(ms, 0.99):.1f} / {max(ms):.1f}"
                f" | {sum(ms):.0f} | "
                + (f"{100 * sum(cpu) / max(sum(ms), 1e-9):.0f} % |" if cpu else "|")
            )
    events = {
        k: sorted(e for e in timed.events.get(k, []) if w_start <= e[0] <= w_end) for k in KINDS
    }
    tests = causes(rows, slow_ms)
    lines += [
        "",
        f"slow: over {slow_ms:.0f} ms. Each cause's share of the slow events (of all events in"
        " brackets: a cause no commoner among the slow ones than among all explains nothing):",
        "",
        "| cause | "
        + " | ".join(
            f"{k} ({len(events[k])}, {sum(ms > slow_ms for _, ms in events[k])} slow,"
            f" p99 {percentile([ms for _, ms in events[k]], 0.99):.0f} ms)"
            for k in KINDS
        )
        + " |",
        "|---|" + "---:|" * len(KINDS),
    ]
    table = {}
    for k in KINDS:
        slow = [e for e in events[k] if e[1] > slow_ms]
        table[k] = (shares(tests, slow), shares(tests, events[k], cap=1500))
    for i, (name, _) in enumerate(tests):
        cells = [f"{table[k][0][0][i]:.0f} % ({table[k][1][0][i]:.0f} %)" for k in KINDS]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    cells = [f"{table[k][0][1]:.0f} % ({table[k][1][1]:.0f} %)" for k in KINDS]
    lines.append("| none of these | " + " | ".join(cells) + " |")
    lines += slice_table(rows, events, w_start, seconds, slow_ms, slices)
    stalls = [r for r in inside if r["kind"] == "stall"]
    gcs = Spans([r for r in rows if r["kind"] == "gc"])
    places: collections.Counter[str] = collections.Counter()
    place_ms: collections.Counter[str] = collections.Counter()
    for r in stalls:
        in_gc = any(g["who"] == r["who"] for g in gcs.within(r["start"], r["end"]))
        place = f"{r['who']}: " + ("(a collection)" if in_gc else where(r["samples"]))
        places[place] += 1
        place_ms[place] += (r["end"] - r["start"]) * 1000
    lines += ["", "loop turns over 20 ms by what their stack samples show (n, total ms):"]
    lines += [f"  {places[p]:4d}  {place_ms[p]:7.0f}  {p}" for p, _ in place_ms.most_common(25)]
    return "\n".join(lines)


def slice_table(
    rows: list[dict[str, Any]],
    events: dict[str, list[tuple[float, float]]],
    w_start: float,
    seconds: float,
    slow_ms: float,
    slices: int,
) -> list[str]:
    """The window in ``slices`` equal parts: the latencies and what may cause them, part by
    part (what grows over the window)."""
    width = seconds / max(slices, 1)
    lines = [
        "",
        f"over the window, {slices} slices of {width:.0f} s:",
        "",
        "| slice s | ack p99 / slow | public p99 / slow | next p99 / slow | bot gen 2 n, CPU ms"
        " mean / max | gen 1 n, CPU ms mean / max | gen 0 n, CPU ms mean / max"
        " | bot turns ≥ 50 ms n, max | checkpoints n, max ms, MB"
        " | game ends | pacer queue mean / max | render queue mean / max | writer queue max"
        " | WAL MB max | RSS MB end | asyncio tasks mean / max |",
        "|---|" + "---:|" * 15,
    ]
    for i in range(slices):
        a, b = w_start + i * width, w_start + (i + 1) * width
        part = [r for r in rows if a <= r["start"] < b]
        cells = [f"{i * width:.0f}–{(i + 1) * width:.0f}"]
        for k in KINDS:
            ms = [m for s, m in events[k] if a <= s < b]
            cells.append(f"{percentile(ms, 0.99):.0f} / {sum(m > slow_ms for m in ms)}")

        def n_max(chosen: list[dict[str, Any]]) -> str:
            ms = [1000 * (r["end"] - r["start"]) for r in chosen]
            return f"{len(ms)}, {max(ms, default=0):.0f}"

        def cpu_of(chosen: list[dict[str, Any]]) -> str:
            ms = [r["cpu_ms"] for r in chosen]
            mean = sum(ms) / max(len(ms), 1)
            return f"{len(ms)}, {mean:.0f} / {max(ms, default=0):.0f}"

        bot = [r for r in part if r["who"] == "bot"]
        for generation in (2, 1, 0):
            cells.append(
                cpu_of([r for r in bot if r["kind"] == "gc" and r["generation"] == generation])
            )
        cells.append(
            n_max([r for r in bot if r["kind"] == "stall" and r["end"] - r["start"] >= 0.05])
        )
        points = [r for r in bot if r["kind"] == "write" and r["checkpoint_pages"]]
        mb = sum(r["checkpoint_pages"] for r in points) * 4096 / 2**20
        cells.append(n_max(points) + f", {mb:.0f}")
        cells.append(str(sum(r["kind"] == "end" for r in bot)))
        samples = [r for r in bot if r["kind"] == "sample"]

        def mean_max(name: str, samples: list[dict[str, Any]] = samples) -> str:
            values = [r[name] for r in samples]
            return f"{sum(values) / max(len(values), 1):.1f} / {max(values, default=0):.0f}"

        cells += [mean_max("pacer_waiting"), mean_max("render_waiting")]
        cells.append(f"{max((r['writer_queue'] for r in samples), default=0)}")
        cells.append(f"{max((r['wal_mb'] for r in samples), default=0):.0f}")
        cells.append(f"{samples[-1]['rss_mb']:.0f}" if samples else "")
        cells.append(mean_max("tasks") if samples and "tasks" in samples[0] else "")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


async def main(argv: list[str] | None = None) -> int:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="45"
    )
    parser.add_argument("--slow", type=float, default=100.0, help="slow events: over this (100 ms)")
    parser.add_argument("--slices", type=int, default=4, help="parts of the window (4)")
    parser.add_argument(
        "--gc-thresholds", default="", help="the bot's collector thresholds, e.g. 5000,4,10"
    )
    parser.add_argument(
        "--keep",
        type=Path,
        help="also copy the raw records (JSON lines) here, the bot's log beside",
    )
    args = parser.parse_args(own)
    load_args = load.probe_args(args, passed)
    load.BOT_LAUNCHER = PRELUDE + load.BOT_LAUNCHER
    timed = Timed()
    record_events(timed)
    with tempfile.TemporaryDirectory(prefix="mesa-tails-") as folder:
        out = Path(folder) / "tails.jsonl"
        os.environ["MESA_BENCH_TAILS"] = str(out)
        if args.gc_thresholds:
            os.environ["MESA_BENCH_GC_THRESHOLDS"] = args.gc_thresholds
        scope: dict[str, Any] = {}
        exec(RECORDER, scope)
        watch, _ = scope["_tails_recorder"](str(out), "driver")
        watch(asyncio.get_running_loop(), threading.get_ident())
        window = Window()
        load_args.window_probe = window
        bot_folder = Path(folder) / "bot"
        bot_folder.mkdir()
        result = await load.run_one(args.tables, load_args, bot_folder)
        text = out.read_text() if out.exists() else ""
        if args.keep:
            events = {k: v for k, v in timed.events.items()}
            window_at = {"start": window.start_at, "end": window.end_at}
            args.keep.write_text(text + json.dumps({"events": events, "window": window_at}) + "\n")
            log = bot_folder / "bot.log"
            if log.exists():
                shutil.copy(log, args.keep.with_suffix(".log"))
        rows = [json.loads(line) for line in text.splitlines() if line]
    print(report(rows, timed, window, args.slow, args.slices))
    print(f"bot RSS {result.get('bot_rss_mb')} MB; {result.get('moves_per_s')} moves/s")
    print(
        f"bot log: {result.get('bot_log_warnings')} warnings, {result.get('bot_log_errors')}"
        f" errors; CPU per move bot {result.get('bot_cpu_ms_per_move')} ms,"
        f" with renders {result.get('bot_and_renders_cpu_ms_per_move')} ms"
    )
    for name in ("ack_ms", "public_edit_ms", "next_view_ms", "loop_lag_ms", "fake_loop_lag_ms"):
        figures = result.get(name) or {}
        print(f"{name} p50/p99/max {figures.get('p50')}/{figures.get('p99')}/{figures.get('max')}")
    # A public table played from DMs is edited with the bot token once its table token aged out
    # (14 minutes): what a long soak shows apart from the tables played at the table.
    for play, figures in (result.get("public_edit_ms_by_play") or {}).items():
        print(
            f"public_edit_ms {play} p50/p99/max {figures.get('p50')}/{figures.get('p99')}/{figures.get('max')}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
