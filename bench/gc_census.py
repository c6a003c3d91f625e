"""The garbage collector in the real bot under the load of ``bench/load.py`` (issue 29): every
collection in the measured window, by generation: how often, its CPU (the collecting thread's
clock), the objects it walked and those it freed; and what the freed garbage is, by type
(a young collection in ten, ``--sample-every``, run with ``gc.DEBUG_SAVEALL``: coroutines, frames and tasks named
by their code). Garbage that only the cyclic collector frees is a reference cycle somewhere:
the types say whose.

    .venv/bin/python bench/gc_census.py --tables 500 --window 60
    .venv/bin/python bench/gc_census.py --gc-thresholds 10000,5,10
    .venv/bin/python bench/gc_census.py --bot-root ../main -- --channel-play 0.5

Counting the walked objects lists them (``gc.get_objects``) as each collection of the older
generations starts: its CPU is kept out of the collection's own, but it costs the bot, so
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
        import collections, gc, json, time
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

        def census(phase, info):
            generation = info['generation']
            if phase == 'start':
                now['n'] += 1
                if generation:
                    now['walked'] = sum(len(gc.get_objects(g)) for g in range(generation + 1))
                else:
                    now['walked'] = gc.get_count()[0]
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
                now['cpu'] = time.thread_time()
                return
            row = {
                'wall': now['wall'], 'generation': generation,
                'ms': (time.thread_time() - now['cpu']) * 1000,
                'walked': now['walked'], 'collected': info['collected'],
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


def report(rows: list[dict[str, Any]], window: Window, moves: int, settings: str) -> str:
    rows = [r for r in rows if window.start_at <= r["wall"] <= window.end_at]
    seconds = max(window.end_at - window.start_at, 1e-9)
    per_move = max(moves, 1)
    lines = [
        f"{len(rows)} collections in the {seconds:.0f}-s window, {moves} moves; {settings};"
        f" load average {' '.join(f'{x:.2f}' for x in load_average())}",
        "",
        "| generation | collections/s | CPU ms per move | pause mean / max ms | objects walked"
        " per collection | freed per move |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for generation in range(3):
        done = [r for r in rows if r["generation"] == generation]
        if not done:
            continue
        pauses = [r["ms"] for r in done]
        lines.append(
            f"| {generation} | {len(done) / seconds:.2f} | {sum(pauses) / per_move:.3f}"
            f" | {sum(pauses) / len(done):.1f} / {max(pauses):.1f}"
            f" | {sum(r['walked'] for r in done) / len(done):,.0f}"
            f" | {sum(r['collected'] for r in done) / per_move:.1f} |"
        )
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


async def main(argv: list[str] | None = None) -> int:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="45"
    )
    parser.add_argument("--gc-thresholds", default="", help="e.g. 10000,10,10 (the bot's: none)")
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
