"""The garbage collector in the real bot under the load of ``bench/load.py`` (issue 29): every
collection in the measured window, by generation: how often, its CPU (the collecting thread's
clock), the objects it walked and those it freed; and what the freed garbage is, by type
(a young collection in ten, ``--sample-every``, run with ``gc.DEBUG_SAVEALL``: coroutines, frames and tasks named
by their code). Garbage that only the cyclic collector frees is a reference cycle somewhere:
the types say whose.

    .venv/bin/python bench/gc_census.py --tables 500 --window 60
    .venv/bin/python bench/gc_census.py --gc-thresholds 10000,5,10
    .venv/bin/python bench/gc_census.py --bot-root ../main -- --channel-play 0.5
    .venv/bin/python bench/gc_census.py --young-check 1e9   # young collections by count only

Each collection's pause is printed as the loop sees it (wall) beside its CPU, with the times
the kernel took the core away meanwhile (preempted) and the objects it walked: its generations'
lists, not the young count (allocations minus deallocations of any generation, which older
objects' deaths keep below the list's length). Counting the walked objects lists them
(``gc.get_objects``) as each collection starts: its CPU is kept out of the collection's own, but it costs the bot, so
compare two runs of this tool, not its CPU figures with ``bench/profile_live.py``'s.
Figures only; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench.load as load  # noqa: E402
from bench.load_probe import load_average  # noqa: E402

# Run in the bot before ``bot.__main__``: one JSON line per collection, appended to the file
# MESA_BENCH_GC_CENSUS names. MESA_BENCH_GC_THRESHOLDS ("a,b,c") tries other thresholds than
# ``bot/ops/collector.py``'s (another freezing policy: ``--bot-root`` of another checkout).
PRELUDE = r"""
import os as _os
if _os.environ.get('MESA_BENCH_GC_CENSUS'):
    def _gc_census():
        import collections, gc, json, resource, threading, time
        out = open(_os.environ['MESA_BENCH_GC_CENSUS'], 'a', buffering=1)
        now = {'n': 0, 'save': False}
        young = bool(_os.environ.get('MESA_BENCH_GC_YOUNG'))
        every = int(_os.environ.get('MESA_BENCH_GC_SAMPLE_EVERY') or 10)

        import importlib.util
        spec = importlib.util.spec_from_file_location('mesa_bench_walk', _os.environ['MESA_BENCH_WALK'])
        walk = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(walk)

        def label(o):
            return walk.label(o, tasks=True)

        loop_thread = threading.get_ident()  # the prelude runs on the thread the loop will

        def census(phase, info):
            generation = info['generation']
            if phase == 'start':
                now['n'] += 1
                # the young generation's allocation count, and the objects the collection walks
                # (its generations' lists): the count is allocations minus deallocations of any
                # generation, so deaths of older objects let the young list outgrow it
                now['count'] = gc.get_count()[0]
                now['walked'] = sum(len(gc.get_objects(g)) for g in range(generation + 1))
                if now['n'] % every == 0 and generation < 2:
                    gc.set_debug(gc.DEBUG_SAVEALL)
                    now['save'] = True
                    if young and generation == 0:
                        # what the young collection walks: its objects, and the references
                        # it follows from them (into any generation)
                        objects = gc.get_objects(0)
                        now['young'] = collections.Counter(map(label, objects)).most_common(25)
                        now['edges'] = sum(len(gc.get_referents(o)) for o in objects)
                        sized = [
                            (len(o), label(o)) for o in objects
                            if isinstance(o, (list, dict, set, tuple))
                        ]
                        now['largest'] = sorted(sized, reverse=True)[:8]
                        del objects, sized
                now['wall'] = time.time()
                usage = resource.getrusage(resource.RUSAGE_THREAD)
                now['switches'] = (usage.ru_nivcsw, usage.ru_nvcsw)
                now['cpu'] = time.thread_time()
                now['started'] = time.perf_counter()
                return
            # the pause as the event loop sees it (wall) beside the collecting thread's CPU,
            # and the kernel's count of times it took the core away (involuntary switches) or
            # the thread gave it up (voluntary: waiting, e.g. for the GIL) meanwhile
            wall_ms = (time.perf_counter() - now['started']) * 1000
            cpu_ms = (time.thread_time() - now['cpu']) * 1000
            usage = resource.getrusage(resource.RUSAGE_THREAD)
            row = {
                'wall': now['wall'], 'generation': generation,
                'ms': cpu_ms, 'wall_ms': wall_ms,
                'preempted': usage.ru_nivcsw - now['switches'][0],
                'yielded': usage.ru_nvcsw - now['switches'][1],
                'count': now['count'], 'loop_thread': threading.get_ident() == loop_thread,
                'walked': now['walked'], 'collected': info['collected'],
                'uncollectable': info['uncollectable'],
            }
            for key in ('young', 'edges', 'largest'):
                if key in now:
                    row[key] = now.pop(key)
            if now['save']:
                gc.set_debug(0)
                now['save'] = False
                garbage = list(gc.garbage)
                gc.garbage.clear()
                row['garbage'] = collections.Counter(map(label, garbage)).most_common(60)
                del garbage
            out.write(json.dumps(row) + '\n')

        gc.callbacks.append(census)
        if _os.environ.get('MESA_BENCH_GC_YOUNG_CHECK'):
            import bot.ops.collector as collector
            collector.YOUNG_CHECK_SECONDS = float(_os.environ['MESA_BENCH_GC_YOUNG_CHECK'])
        if _os.environ.get('MESA_BENCH_GC_YOUNG_LIMIT'):
            import bot.ops.collector as collector
            collector.YOUNG_LIMIT = int(_os.environ['MESA_BENCH_GC_YOUNG_LIMIT'])
        if _os.environ.get('MESA_BENCH_GC_THRESHOLDS'):
            gc.set_threshold(*map(int, _os.environ['MESA_BENCH_GC_THRESHOLDS'].split(',')))
            gc.set_threshold = lambda *_: None
    _gc_census()
"""


class Window:
    """``bench/load.py``'s window probe: the wall-clock bounds of the measured window."""

    def __init__(self) -> None:
        self.start_at = self.end_at = 0.0

    def start(self, pids: list[int], seconds: float) -> None:
        self.start_at = time.time()

    async def stop(self) -> None:
        self.end_at = time.time()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def spread(values: list[float], digits: int = 1) -> str:
    """mean / p99 / max"""
    return " / ".join(
        f"{x:,.{digits}f}"
        for x in (sum(values) / len(values), percentile(values, 0.99), max(values))
    )


def report(rows: list[dict[str, Any]], window: Window, moves: int, settings: str) -> str:
    rows = [r for r in rows if window.start_at <= r["wall"] <= window.end_at]
    seconds = max(window.end_at - window.start_at, 1e-9)
    per_move = max(moves, 1)
    lines = [
        f"{len(rows)} collections in the {seconds:.0f}-s window, {moves} moves; {settings};"
        f" load average {' '.join(f'{x:.2f}' for x in load_average())}",
        "",
        "| generation | collections/s | CPU ms per move | CPU ms mean / p99 / max"
        " | wall ms mean / p99 / max | objects walked mean / p99 / max | young count at start"
        " | preempted / yielded per collection | off the loop's thread | freed per move |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for generation in range(3):
        done = [r for r in rows if r["generation"] == generation]
        if not done:
            continue
        pauses = [r["ms"] for r in done]
        walls = [r.get("wall_ms", r["ms"]) for r in done]
        lines.append(
            f"| {generation} | {len(done) / seconds:.2f} | {sum(pauses) / per_move:.3f}"
            f" | {spread(pauses)} | {spread(walls)}"
            f" | {spread([r['walked'] for r in done], 0)}"
            f" | {sum(r.get('count', 0) for r in done) / len(done):,.0f}"
            f" | {sum(r.get('preempted', 0) for r in done) / len(done):.2f}"
            f" / {sum(r.get('yielded', 0) for r in done) / len(done):.2f}"
            f" | {sum(not r.get('loop_thread', True) for r in done)}"
            f" | {sum(r['collected'] for r in done) / per_move:.1f} |"
        )
    lines += ["", *long_pauses(rows)]
    garbage: collections.Counter[str] = collections.Counter()
    sampled = [r for r in rows if "garbage" in r]
    for r in sampled:
        garbage.update(dict(r["garbage"]))
    total = sum(garbage.values())
    lines += [
        "",
        f"garbage freed by {len(sampled)} sampled collections ({total} objects), by type:",
    ]
    lines += [f"  {n:7d}  {kind}" for kind, n in garbage.most_common(40)]
    walked = [r for r in rows if "young" in r]
    if walked:
        young: collections.Counter[str] = collections.Counter()
        for r in walked:
            young.update(dict(r["young"]))
        edges = sum(r["edges"] for r in walked) / len(walked)
        lines += [
            "",
            f"young generation at {len(walked)} sampled collections (--young): references"
            f" followed {edges:,.0f} per collection; objects by type:",
        ]
        lines += [f"  {n:7d}  {kind}" for kind, n in young.most_common(25)]
        largest = sorted((tuple(x) for r in walked for x in r["largest"]), reverse=True)[:12]
        lines += ["largest containers:"] + [f"  {n:7d}  {kind}" for n, kind in largest]
    return "\n".join(lines)


def long_pauses(rows: list[dict[str, Any]], over_ms: float = 20.0) -> list[str]:
    """The collections whose pause (wall) passed ``over_ms``: their CPU beside it, and how
    many times the kernel took the core away meanwhile; wall far above CPU is preemption (the
    render workers, the writer, the load driver on the same cores), not the collector's work."""
    lines = [f"collections over {over_ms:.0f} ms of wall time:"]
    for generation in range(3):
        done = [r for r in rows if r["generation"] == generation and "wall_ms" in r]
        long = [r for r in done if r["wall_ms"] > over_ms]
        if not long:
            continue
        cpu_long = [r for r in done if r["ms"] > over_ms]
        preempted = [r for r in long if r["preempted"]]
        lines.append(
            f"  generation {generation}: {len(long)} of {len(done)};"
            f" wall {spread([r['wall_ms'] for r in long])} ms,"
            f" CPU {spread([r['ms'] for r in long])} ms,"
            f" walked {sum(r['walked'] for r in long) / len(long):,.0f};"
            f" {len(preempted)} preempted (wall {sum(r['wall_ms'] - r['ms'] for r in long) / len(long):.1f} ms"
            f" above CPU on average); {len(cpu_long)} over {over_ms:.0f} ms of CPU"
        )
    return lines


async def main(argv: list[str] | None = None) -> int:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="45"
    )
    parser.add_argument("--gc-thresholds", default="", help="e.g. 10000,10,10 (the bot's: none)")
    parser.add_argument(
        "--young-check",
        default="",
        help="seconds between the bot's checks of its young generation's size (1e9: off)",
    )
    parser.add_argument(
        "--young-limit",
        default="",
        help="the young generation's size that makes the bot collect it (the bot's: YOUNG_LIMIT)",
    )
    parser.add_argument(
        "--young",
        action="store_true",
        help="at each sampled young collection, also what it walks (types, references, sizes)",
    )
    parser.add_argument(
        "--sample-every", type=int, default=10, help="list the garbage of one young collection in N"
    )
    args = parser.parse_args(own)
    load_args = load.probe_args(args, passed)
    load.BOT_LAUNCHER = PRELUDE + load.BOT_LAUNCHER
    os.environ["MESA_BENCH_WALK"] = str(ROOT / "bench" / "walk.py")  # the prelude loads it
    settings = []
    os.environ["MESA_BENCH_GC_SAMPLE_EVERY"] = str(args.sample_every)
    if args.young:
        os.environ["MESA_BENCH_GC_YOUNG"] = "1"
    if args.young_check:
        os.environ["MESA_BENCH_GC_YOUNG_CHECK"] = args.young_check
        settings.append(f"the young generation's size checked every {args.young_check} s")
    if args.young_limit:
        os.environ["MESA_BENCH_GC_YOUNG_LIMIT"] = args.young_limit
        settings.append(f"a young collection at {args.young_limit} objects")
    if args.gc_thresholds:
        os.environ["MESA_BENCH_GC_THRESHOLDS"] = args.gc_thresholds
        settings.append(f"thresholds {args.gc_thresholds}")
    with tempfile.TemporaryDirectory(prefix="mesa-gc-") as folder:
        out = Path(folder) / "census.jsonl"
        os.environ["MESA_BENCH_GC_CENSUS"] = str(out)
        window = Window()
        load_args.window_probe = window
        bot_folder = Path(folder) / "bot"
        bot_folder.mkdir()
        result = await load.run_one(args.tables, load_args, bot_folder)
        rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    text = "; ".join(settings) or f"the settings of {args.bot_root}/bot/ops/collector.py"
    print(report(rows, window, result["moves"], text))
    print(f"bot RSS {result.get('bot_rss_mb')} MB; {result.get('moves_per_s')} moves/s")
    for name in ("ack_ms", "public_edit_ms", "next_view_ms"):
        figures = result.get(name) or {}
        print(f"{name} p50/p99/max {figures.get('p50')}/{figures.get('p99')}/{figures.get('max')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
