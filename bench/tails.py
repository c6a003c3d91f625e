"""Where a click's slowest acknowledgements come from (issue 29: ack p99 ≤ 100 ms) under the
load of ``bench/load.py``: each ack slower than the run's p99 is laid against what stalled
either process while it waited — the bot's garbage collections, the bot's event loop turns
that ran long (a watchdog thread samples the loop thread's stack while one runs), and the
same two in the load driver, whose loop is the fake Discord that times the ack.

    .venv/bin/python bench/tails.py --tables 300 --window 45 -- --channel-play 0.5
    .venv/bin/python bench/tails.py --tables 500 --bot-root ../before -- --channel-play 0.5

A loop turn is timed by the watchdog: every 5 ms it hands the loop a callback
(``call_soon_threadsafe``) and, when that callback runs, how late it ran is the turn's
length; turns over 20 ms are recorded with stack samples taken from 15 ms on (the
innermost frames of the loop's thread: what the turn was doing). A collection holds the GIL
through its pause, so a stall that contains one is that collection's. The watchdog costs
each process ~200 wake-ups a second: compare two runs of this tool, not its figures with
``bench/load.py``'s. Figures only; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench.load as load  # noqa: E402
import bench.load_driver as load_driver  # noqa: E402
from bench.gc_census import Window  # noqa: E402
from bench.load_probe import load_average  # noqa: E402

# One process's recorder (the bot's through the prelude below, the driver's by ``exec``):
# a JSON line per collection ("gc") and per loop turn over 20 ms ("stall") to ``_path``.
RECORDER = r"""
def _tails_recorder(_path, _who):
    import gc, json, sys, threading, time
    out = open(_path, 'a', buffering=1)
    started = {}

    def on_gc(phase, info):
        if phase == 'start':
            started['wall'], started['cpu'] = time.time(), time.thread_time()
            return
        out.write(json.dumps({
            'who': _who, 'kind': 'gc', 'generation': info['generation'],
            'start': started['wall'], 'end': time.time(),
            'cpu_ms': (time.thread_time() - started['cpu']) * 1000,
        }) + '\n')

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
                out.write(json.dumps({
                    'who': _who, 'kind': 'stall', 'start': time.time() - late,
                    'end': time.time(), 'samples': samples,
                    'cpu_ms': (time.clock_gettime(clock) - cpu) * 1000,
                }) + '\n')
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
                    frame = sys._current_frames().get(loop_thread)
                    pending['samples'].append(frames(frame))

        threading.Thread(target=run, name='tails-watchdog', daemon=True).start()

    return watch
"""

# In the bot before ``bot.__main__``: its loop watched from ``serve``'s first line.
PRELUDE = (
    RECORDER
    + r"""
import os as _os
if _os.environ.get('MESA_BENCH_TAILS'):
    _tails_watch = _tails_recorder(_os.environ['MESA_BENCH_TAILS'], 'bot')
    import bot.__main__ as _tails_main
    _tails_serve = _tails_main.serve

    async def _tails_watched_serve(*args, **kwargs):
        import asyncio as _asyncio, threading as _threading
        _tails_watch(_asyncio.get_running_loop(), _threading.get_ident())
        return await _tails_serve(*args, **kwargs)

    _tails_main.serve = _tails_watched_serve
"""
)


def record_acks(into: list[dict[str, float]]) -> None:
    """Keep each measured ack with its wall-clock span (the fake's ``answered_after`` counts
    from the click's creation), beside the driver's own figures."""
    original = load_driver.World._request

    def _request(world: Any, record: Any) -> None:
        m = load_driver.CALLBACK_PATH.match(record.path)
        if m is not None and world.measuring:
            inter = world.fake.interactions.all.get(int(m.group(1)))
            if inter is not None and inter.answered_after is not None:
                created = time.time() - (time.monotonic() - inter.created_real)
                queued = (
                    inter.dispatched_real - inter.created_real
                    if inter.dispatched_real is not None
                    else None
                )
                into.append(
                    {"start": created, "ms": inter.answered_after * 1000, "queued": queued or 0.0}
                )
        original(world, record)

    load_driver.World._request = _request  # type: ignore[method-assign,assignment]


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


def report(rows: list[dict[str, Any]], acks: list[dict[str, float]], window: Window) -> str:
    inside = [r for r in rows if window.start_at <= r["start"] <= window.end_at]
    seconds = max(window.end_at - window.start_at, 1e-9)
    lines = [f"window {seconds:.0f} s; load average {' '.join(f'{x:.2f}' for x in load_average())}"]
    lines += [
        "",
        "| process | what | n | per s | wall ms p50 / p99 / max | total ms | on its CPU |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for who in ("bot", "driver"):
        for kind in ("gc", "stall"):
            groups: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
            for r in inside:
                if r["who"] == who and r["kind"] == kind:
                    label = f"collection gen {r['generation']}" if kind == "gc" else "turn > 20 ms"
                    groups[label].append(r)
            for label, done in sorted(groups.items()):
                ms = [(r["end"] - r["start"]) * 1000 for r in done]
                cpu = sum(r["cpu_ms"] for r in done)
                lines.append(
                    f"| {who} | {label} | {len(ms)} | {len(ms) / seconds:.2f}"
                    f" | {percentile(ms, 0.5):.1f} / {percentile(ms, 0.99):.1f} / {max(ms):.1f}"
                    f" | {sum(ms):.0f} | {100 * cpu / max(sum(ms), 1e-9):.0f} % |"
                )
    if not acks:
        return "\n".join(lines + ["", "no acks measured"])
    p99 = percentile([a["ms"] for a in acks], 0.99)
    slow = [a for a in acks if a["ms"] >= p99]
    # What overlapped each slow ack, in ms of its wait: each process's collections, then its
    # long turns beyond those, split by the loop thread's own CPU in them (on CPU) and the
    # rest (the thread runnable but no core free, or waiting for the GIL); the rest of the
    # wait is none of these (the round trip, ordinary turns queued behind each other).
    causes = (
        "bot gc",
        "bot long turn on CPU",
        "bot long turn not on CPU",
        "driver gc",
        "driver long turn on CPU",
        "driver long turn not on CPU",
    )
    shares: dict[str, list[float]] = {c: [] for c in causes}
    blamed: collections.Counter[str] = collections.Counter()
    for ack in slow:
        start, end = ack["start"], ack["start"] + ack["ms"] / 1000
        spent = dict.fromkeys(causes, 0.0)
        for who in ("bot", "driver"):
            gc_s = sum(
                overlap(start, end, r["start"], r["end"])
                for r in rows
                if r["who"] == who and r["kind"] == "gc"
            )
            on_cpu = not_on_cpu = 0.0
            for r in rows:
                if r["who"] == who and r["kind"] == "stall":
                    shared = overlap(start, end, r["start"], r["end"])
                    wall = max(1000 * (r["end"] - r["start"]), 1e-9)
                    on_cpu += shared * min(1.0, r["cpu_ms"] / wall)
                    not_on_cpu += shared * (1 - min(1.0, r["cpu_ms"] / wall))
            spent[f"{who} gc"] = gc_s * 1000
            spent[f"{who} long turn on CPU"] = max(0.0, on_cpu - gc_s) * 1000
            spent[f"{who} long turn not on CPU"] = not_on_cpu * 1000
        for c in causes:
            shares[c].append(spent[c])
        top = max(causes, key=lambda c: spent[c])
        blamed[top if spent[top] >= 0.25 * ack["ms"] else "none ≥ 25 % of it"] += 1
    lines += [
        "",
        f"acks {len(acks)}, p50 / p99 / max {percentile([a['ms'] for a in acks], 0.5):.1f}"
        f" / {p99:.1f} / {max(a['ms'] for a in acks):.1f} ms; the {len(slow)} at or over p99"
        f" (mean {sum(a['ms'] for a in slow) / len(slow):.1f} ms, in the fake before the bot"
        f" saw them {1000 * sum(a['queued'] for a in slow) / len(slow):.1f} ms) overlapped:",
        "",
        "| cause | slow acks it overlapped | mean ms of their wait | the largest cause of |",
        "|---|---:|---:|---:|",
    ]
    for c in causes:
        hit = [x for x in shares[c] if x > 0]
        lines.append(f"| {c} | {len(hit)} | {sum(shares[c]) / len(slow):.1f} | {blamed[c]} |")
    lines.append(f"| none ≥ 25 % of the wait | | | {blamed['none ≥ 25 % of it']} |")
    stalls = [r for r in inside if r["kind"] == "stall"]
    gcs = [r for r in rows if r["kind"] == "gc"]
    places: collections.Counter[str] = collections.Counter()
    place_ms: collections.Counter[str] = collections.Counter()
    for r in stalls:
        in_gc = any(
            g["who"] == r["who"] and overlap(r["start"], r["end"], g["start"], g["end"]) > 0
            for g in gcs
        )
        place = f"{r['who']}: " + ("(a collection)" if in_gc else where(r["samples"]))
        places[place] += 1
        place_ms[place] += (r["end"] - r["start"]) * 1000
    lines += ["", "loop turns over 20 ms by what their stack samples show (n, total ms):"]
    lines += [f"  {places[p]:4d}  {place_ms[p]:7.0f}  {p}" for p, _ in place_ms.most_common(25)]
    return "\n".join(lines)


async def main(argv: list[str] | None = None) -> int:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="45"
    )
    parser.add_argument(
        "--keep",
        type=Path,
        help="also copy the raw records (JSON lines) here, the bot's log beside",
    )
    args = parser.parse_args(own)
    load_args = load.probe_args(args, passed)
    load.BOT_LAUNCHER = PRELUDE + load.BOT_LAUNCHER
    acks: list[dict[str, float]] = []
    record_acks(acks)
    with tempfile.TemporaryDirectory(prefix="mesa-tails-") as folder:
        out = Path(folder) / "tails.jsonl"
        os.environ["MESA_BENCH_TAILS"] = str(out)
        scope: dict[str, Any] = {}
        exec(RECORDER, scope)
        watch = scope["_tails_recorder"](str(out), "driver")
        import threading

        watch(asyncio.get_running_loop(), threading.get_ident())
        window = Window()
        load_args.window_probe = window
        bot_folder = Path(folder) / "bot"
        bot_folder.mkdir()
        result = await load.run_one(args.tables, load_args, bot_folder)
        text = out.read_text() if out.exists() else ""
        if args.keep:
            args.keep.write_text(text + json.dumps({"acks": acks}) + "\n")
            log = bot_folder / "bot.log"
            if log.exists():
                shutil.copy(log, args.keep.with_suffix(".log"))
        rows = [json.loads(line) for line in text.splitlines() if line]
    print(report(rows, acks, window))
    print(f"bot RSS {result.get('bot_rss_mb')} MB; {result.get('moves_per_s')} moves/s")
    print(
        f"bot log: {result.get('bot_log_warnings')} warnings, {result.get('bot_log_errors')}"
        f" errors; CPU per move bot {result.get('bot_cpu_ms_per_move')} ms"
    )
    for name in ("ack_ms", "public_edit_ms", "next_view_ms", "loop_lag_ms", "fake_loop_lag_ms"):
        figures = result.get(name) or {}
        print(f"{name} p50/p99/max {figures.get('p50')}/{figures.get('p99')}/{figures.get('max')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
