"""The garbage collector in the real bot under the load of ``bench/load.py`` (issue 29): every
collection in the measured window, by generation: how often, its CPU (the collecting thread's
clock), the objects it walked and those it freed; and what the freed garbage is, by type
(a young collection in ten, ``--sample-every``, run with ``gc.DEBUG_SAVEALL``: coroutines, frames and tasks named
by their code). Garbage that only the cyclic collector frees is a reference cycle somewhere:
the types say whose.

    .venv/bin/python bench/gc_census.py --tables 500 --window 60
    .venv/bin/python bench/gc_census.py --gc-thresholds 10000,5,10
    .venv/bin/python bench/gc_census.py --bot-root ../main -- --channel-play 0.5
    .venv/bin/python bench/gc_census.py --alternate clock:1e9   # by CPython's count alone

Each collection's pause is printed as the loop sees it (wall) beside its CPU, with the times
the kernel took the core away meanwhile (preempted) and the objects it walked: its generations'
lists, not the young count (allocations minus deallocations of any generation, which older
objects' deaths keep below the list's length). Counting the walked objects lists them
(``gc.get_objects``) as each collection starts: its CPU is kept out of the collection's own, but it costs the bot, so
compare two runs of this tool, not its CPU figures with ``bench/profile_live.py``'s, and
turn it off (``--no-walked``) when comparing CPU: it warms the caches the collection walks.

The collector's own CPU between collections is printed too: each call of the bot's young
step (``collector.collect_young_if_grown`` or ``collect_young``), less the collections inside
it. ``--alternate`` compares young-collection policies in one bot process, taking turns of
``--turn`` seconds, so the machine's drift and load weigh on each alike (the prelude's notes
name the specs):

    .venv/bin/python bench/gc_census.py --tables 300 --window 200 --no-walked \
        --sample-every 1000000 --alternate 'size:5000;bot' -- --channel-play 0.5

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
    def _young_policies(out, now):
        # The collector's own CPU between collections (its checks of the young list): each call
        # of the bot's young step, less the collections (and this census) inside it, one line
        # per call. With MESA_BENCH_GC_ALTERNATE ("spec;spec;..."), young-collection policies
        # take turns of MESA_BENCH_GC_SLICE seconds in this one process (by the wall clock:
        # policy int(time // slice) % n), so the machine's drift weighs on each alike. A spec:
        # "bot" (the tree's own loop, run while its turn lasts), "size:LIMIT[:EVERY]" (session
        # 27's: the young list measured every EVERY s, collected at LIMIT objects),
        # "clock:EVERY" (collected every EVERY s whatever its size), "pace:MS:LEAST:MOST" (every
        # LEAST..MOST s, the period adapted so a collection takes about MS of CPU); "/N" after
        # any of them: generation 1 once N young collections ran since the last (its threshold);
        # "+freeze" at the end: a young collection's survivors frozen as it ends (no
        # generation-1 walk; cycles alive then wait for a thaw), "+freeze1" only generation 1's
        # and older; without either, the tree's own (collector.FREEZE_FROM). Set on the bot's
        # hook (collector.FreezeAfterCollections, which holds its freezes off during a thaw);
        # a tree without one gets a hook of this prelude's for "+freeze".
        import asyncio, gc, json, time
        import bot.ops.collector as collector

        def timed(step, policy=None):
            def step_timed(*args, **kwargs):
                bracket = now['bracket']
                started = time.thread_time()
                try:
                    return step(*args, **kwargs)
                finally:
                    whole = time.thread_time() - started
                    inside = now['bracket'] - bracket
                    # the step's own CPU, and its whole when it collected: the loop's pause
                    row = {'wall': time.time(), 'step_ms': (whole - inside) * 1000}
                    if inside:
                        row['pause_ms'] = whole * 1000
                        row['generation_collected'] = now['last_generation']
                    row['policy'] = now['policy'] if policy is None else policy
                    out.write(json.dumps(row) + '\n')
            return step_timed

        for name in ('collect_young_if_grown', 'collect_young'):
            if hasattr(collector, name):
                setattr(collector, name, timed(getattr(collector, name)))
        specs = [s for s in _os.environ.get('MESA_BENCH_GC_ALTERNATE', '').split(';') if s]
        if not specs:
            return
        turn = float(_os.environ.get('MESA_BENCH_GC_SLICE') or 20)
        set_threshold = gc.set_threshold
        # the tree's own loop: session 27's (by size), or the pace's since
        loop_name = next(
            name for name in ('collect_young_by_pace', 'collect_young_when_grown')
            if hasattr(collector, name)
        )
        own_loop = getattr(collector, loop_name)

        def by_rule():
            generation = 1 if gc.get_count()[1] > gc.get_threshold()[1] else 0
            gc.collect(generation)
            return generation

        def parse(spec):
            spec, _, older = spec.partition('/')
            kind, *values = spec.split(':')
            values = [float(v) for v in values]
            older = int(older) if older else collector.THRESHOLDS[1]
            if kind == 'bot':
                return kind, None, None, older
            if kind == 'size':
                limit, every = (values + [0.25])[:2]

                def step():
                    if len(gc.get_objects(0)) >= limit:
                        by_rule()
                return kind, lambda: every, step, older
            if kind == 'clock':
                return kind, lambda: values[0], by_rule, older
            if kind == 'pace':
                target, least, most = values
                pace = {'every': least}

                def step():
                    if by_rule():
                        return  # generation 1 walks more than the young list: no measure of it
                    ratio = target / max(now.get('last_ms', target), 1e-3)
                    every = pace['every'] * min(2.0, max(0.5, ratio))
                    pace['every'] = min(most, max(least, every))
                return kind, lambda: pace['every'], step, older
            raise ValueError(spec)

        policies = [parse(s.partition('+')[0]) for s in specs]
        # the generation from which survivors are frozen in each turn (None: the tree's own)
        freezing = [
            int(s.partition('+freeze')[2] or 0) if '+freeze' in s else None for s in specs
        ]

        def freeze_young(phase, info):
            if phase == 'stop' and info['generation'] == 0:
                gc.freeze()

        def bot_hook():
            kind = getattr(collector, 'FreezeAfterCollections', None)
            return next((h for h in gc.callbacks if kind and isinstance(h, kind)), None)

        def current():
            return int(time.time() // turn) % len(policies)

        async def alternating():
            own = None
            while True:
                index = now['policy'] = current()
                kind, wait, step, older = policies[index]
                first, _, oldest = gc.get_threshold()
                set_threshold(first, older, oldest)
                hook = bot_hook()
                if hook is not None:
                    own_least = now.setdefault('own_least', hook.least)
                    hook.least = own_least if freezing[index] is None else freezing[index]
                else:
                    if freeze_young in gc.callbacks:
                        gc.callbacks.remove(freeze_young)
                    if freezing[index] == 0:
                        gc.callbacks.append(freeze_young)
                if kind == 'bot':
                    own = asyncio.ensure_future(own_loop())
                    await asyncio.sleep(turn - time.time() % turn + 0.001)
                    own.cancel()
                    continue
                step = timed(step, index)
                while current() == index:
                    await asyncio.sleep(wait())
                    if current() == index:
                        step()

        setattr(collector, loop_name, lambda *_, **__: alternating())

    def _gc_census():
        import collections, gc, json, resource, threading, time
        out = open(_os.environ['MESA_BENCH_GC_CENSUS'], 'a', buffering=1)
        # 'bracket': CPU seconds inside collections and this census's callbacks, so far;
        # 'policy': the young-collection policy in force (--alternate), 0 without
        now = {'n': 0, 'save': False, 'bracket': 0.0, 'policy': 0}
        young = bool(_os.environ.get('MESA_BENCH_GC_YOUNG'))
        every = int(_os.environ.get('MESA_BENCH_GC_SAMPLE_EVERY') or 10)
        walked = not _os.environ.get('MESA_BENCH_GC_NO_WALKED')

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
                now['entered'] = time.thread_time()
                now['n'] += 1
                # the young generation's allocation count, and the objects the collection walks
                # (its generations' lists): the count is allocations minus deallocations of any
                # generation, so deaths of older objects let the young list outgrow it
                now['count'] = gc.get_count()[0]
                # (listing them warms the caches the collection then walks: --no-walked)
                now['walked'] = (
                    sum(len(gc.get_objects(g)) for g in range(generation + 1)) if walked else 0
                )
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
                'policy': now['policy'],
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
            now['last_ms'], now['last_generation'] = cpu_ms, generation
            now['bracket'] += time.thread_time() - now['entered']  # what a step's own leaves out

        gc.callbacks.append(census)
        _young_policies(out, now)
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


def turns(window: Window, turn: float, policies: int) -> list[float]:
    """The seconds of the window each alternated policy was in force (``--alternate``): policy
    ``int(t // turn) % policies`` at wall time ``t``."""
    seconds = [0.0] * policies
    at = window.start_at
    while at < window.end_at:
        ends = min(window.end_at, (at // turn + 1) * turn)
        seconds[int(at // turn) % policies] += ends - at
        at = ends
    return seconds


def report(
    rows: list[dict[str, Any]],
    window: Window,
    moves: int,
    settings: str,
    policies: list[str] | None = None,
    turn: float = 0.0,
) -> str:
    """The census's tables; with ``policies`` alternated every ``turn`` seconds, one per
    policy, its moves taken as the window's in proportion to its seconds (a steady load)."""
    rows = [r for r in rows if window.start_at <= r["wall"] <= window.end_at]
    seconds = max(window.end_at - window.start_at, 1e-9)
    collected = [r for r in rows if "generation" in r]
    lines = [
        f"{len(collected)} collections in the {seconds:.0f}-s window, {moves} moves; {settings};"
        f" load average {' '.join(f'{x:.2f}' for x in load_average())}",
    ]
    if not policies:
        return "\n".join(lines + policy_table(rows, seconds, moves) + tail(collected))
    for index, (policy, share) in enumerate(
        zip(policies, turns(window, turn, len(policies)), strict=True)
    ):
        own = [r for r in rows if r.get("policy", 0) == index]
        lines += ["", f"policy {policy!r}: {share:.0f} s of the window in turns of {turn:.0f} s"]
        lines += policy_table(own, max(share, 1e-9), moves * share / seconds)
    return "\n".join(lines + tail(collected))


def policy_table(rows: list[dict[str, Any]], seconds: float, moves: float) -> list[str]:
    """Each generation's collections, then the collector's CPU per move: the collections and
    its own steps between them (the young list's checks), by the loop thread's clock."""
    per_move = max(moves, 1)
    collected = [r for r in rows if "generation" in r]
    steps = [r["step_ms"] for r in rows if "step_ms" in r]
    lines = [
        "",
        "| generation | collections/s | CPU ms per move | CPU ms mean / p99 / max"
        " | wall ms mean / p99 / max | objects walked mean / p99 / max | young count at start"
        " | preempted / yielded per collection | off the loop's thread | freed per move |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for generation in range(3):
        done = [r for r in collected if r["generation"] == generation]
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
    collections_ms = sum(r["ms"] for r in collected)
    for generation in range(2):
        paused = [r["pause_ms"] for r in rows if r.get("generation_collected", -1) == generation]
        if paused:
            lines += [
                "",
                f"the collector's steps that collected generation {generation}: {len(paused)},"
                f" CPU ms mean / p99 / max {spread(paused, 2)} (the loop's pause: a check and"
                " the collection it starts)",
            ]
    lines += [
        "",
        f"the collector's CPU per move: collections {collections_ms / per_move:.4f} ms"
        f" + its own steps {sum(steps) / per_move:.4f} ms ({len(steps) / seconds:.2f} a second,"
        f" {1000 * sum(steps) / max(len(steps), 1):.1f} us each)"
        f" = {(collections_ms + sum(steps)) / per_move:.4f} ms; {moves / seconds:.1f} moves/s",
    ]
    return lines


def tail(rows: list[dict[str, Any]]) -> list[str]:
    """The long pauses, the garbage by type and the sampled young generations' contents."""
    lines = ["", *long_pauses(rows)]
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
    return lines


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
        "--young",
        action="store_true",
        help="at each sampled young collection, also what it walks (types, references, sizes)",
    )
    parser.add_argument(
        "--sample-every", type=int, default=10, help="list the garbage of one young collection in N"
    )
    parser.add_argument(
        "--alternate",
        default="",
        help="young-collection policies taking turns in the one bot, ';'-separated: bot,"
        " size:LIMIT[:EVERY], clock:EVERY, pace:MS:LEAST:MOST, each with /N for generation 1's"
        " threshold and +freeze (a young collection's survivors frozen) or +freeze1 (only"
        " generation 1's) (the prelude's notes)",
    )
    parser.add_argument("--turn", type=float, default=20.0, help="seconds of each policy's turn")
    parser.add_argument(
        "--no-walked",
        action="store_true",
        help="do not list each collection's objects (it warms the caches the collection walks)",
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
    if args.no_walked:
        os.environ["MESA_BENCH_GC_NO_WALKED"] = "1"
    policies = [spec for spec in args.alternate.split(";") if spec]
    if policies:
        os.environ["MESA_BENCH_GC_ALTERNATE"] = ";".join(policies)
        os.environ["MESA_BENCH_GC_SLICE"] = str(args.turn)
        settings.append(f"young-collection policies alternated every {args.turn:.0f} s")
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
    print(report(rows, window, result["moves"], text, policies, args.turn))
    print(f"bot RSS {result.get('bot_rss_mb')} MB; {result.get('moves_per_s')} moves/s")
    for name in ("ack_ms", "public_edit_ms", "next_view_ms"):
        figures = result.get(name) or {}
        print(f"{name} p50/p99/max {figures.get('p50')}/{figures.get('p99')}/{figures.get('max')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
