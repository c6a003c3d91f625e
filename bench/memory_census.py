"""What the bot's memory holds and what grows in it, in the real bot under the load of
``bench/load.py`` (issue 29: bot RSS <= 400 MB at 1,000 busy tables). A thread in the bot
process takes a census every ``--every`` seconds and the report compares the window's first
and last ones:

- RSS (anonymous and file-backed), Python's allocated blocks, the objects the garbage
  collector tracks (not frozen / frozen), and the tracked objects by type (not frozen);
- with ``--trace N``, ``tracemalloc`` (N frames per allocation): the allocation sites whose
  live bytes grew most, by file and line; at the end, first (the walks below take minutes
  with tracemalloc on), the 10 sites grown most since the census before and their largest
  tracebacks, and with ``--site-holders`` who holds those sites' live objects (referrer
  chains from a sample, up to a non-container object: slow, passes over every object);
- ``games.core.eventlog.LOG_DUMPS``: its entries, the bytes of their events, hits / misses;
- the containers reachable from the bot (its attributes, walked breadth first: dicts, lists,
  deques, sets), by path (``[]`` for a container's entries): their sizes, so a cache or a
  per-table dict that keeps growing shows by name;
- at the end: the deep size of what the bot holds (image cache, token hooks, ephemeral views,
  event texts, log dumps, metrics, one open table by field), the image cache's hits by LRU
  distance and the catalogue texts' (``bot.i18n._rendered``) calls by distance;
- with ``--thaw-probe``, at the end of the window: one collection of every object, frozen ones
  included (what ``bot.ops.collector``'s thaw does every 30 minutes): the cyclic garbage that
  waited among the frozen objects, and the RSS it gives back.

    .venv/bin/python bench/memory_census.py --tables 300 --window 60
    .venv/bin/python bench/memory_census.py --tables 200 --window 60 --trace 1 --thaw-probe
    .venv/bin/python bench/memory_census.py --bot-root ../before -- --channel-play 0.5

A census stops the bot for its duration (the walk, a tracemalloc snapshot), and ``--trace``
slows every allocation: compare two runs of this tool, not its CPU or latency figures with
``bench/load.py``'s. Figures only; nothing is asserted.
"""

from __future__ import annotations

import asyncio
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

# Run in the bot before ``bot.__main__``: a thread appends one JSON line per census to the file
# MESA_BENCH_MEMORY names; a census when the file MESA_BENCH_MEMORY + ".now" appears (the
# window's end), then the thaw probe if MESA_BENCH_MEMORY_THAW is set.
PRELUDE = r"""
import os as _os
if _os.environ.get('MESA_BENCH_MEMORY'):
    def _memory_census():
        import collections, gc, json, sys, threading, time, types, weakref
        path = _os.environ['MESA_BENCH_MEMORY']
        every = float(_os.environ.get('MESA_BENCH_MEMORY_EVERY') or 15)
        frames = int(_os.environ.get('MESA_BENCH_MEMORY_TRACE') or 0)
        thaw = bool(_os.environ.get('MESA_BENCH_MEMORY_THAW'))

        import importlib.util
        spec = importlib.util.spec_from_file_location('mesa_bench_walk', _os.environ['MESA_BENCH_WALK'])
        bench_walk = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench_walk)

        def _label(o):
            return bench_walk.label(o, cells=bench_walk.CELL_TYPE)
        holders_wanted = bool(_os.environ.get('MESA_BENCH_MEMORY_HOLDERS'))
        if frames:
            import tracemalloc
            tracemalloc.start(frames)
        import bot.client
        bots = []
        original = bot.client.MesaBot.__init__

        def remember(self, *args, **kwargs):
            original(self, *args, **kwargs)
            bots.append(weakref.ref(self))

        bot.client.MesaBot.__init__ = remember
        # The renderer's image cache: for each image answered from it, the bytes of the images
        # used more recently (its LRU distance: a cache of fewer bytes would have missed it).
        import bot.ui.rendering as rendering
        hits = []
        draw = rendering.Renderer.render

        async def render(self, request, *args, **kwargs):
            cache = self._cache
            digest = request.digest
            if digest in cache:
                newer = 0
                for key in reversed(cache):
                    if key == digest:
                        break
                    newer += len(cache[key] or b'')
                hits.append(newer)
            return await draw(self, request, *args, **kwargs)

        rendering.Renderer.render = render
        # The catalogues' cache of rendered texts (``bot.i18n._rendered``, an lru_cache): for
        # each call whose key was seen before, how many calls since (an LRU cache of N entries
        # keeps at least the hits under N; the bench's own dict of keys grows the RSS).
        import bot.i18n as i18n
        rendered = i18n._rendered
        last_call = {}
        text_gaps = []

        def counted(*key):
            calls = len(text_gaps) + len(last_call)
            seen = last_call.get(key)
            if seen is not None:
                text_gaps.append(calls - seen)
            last_call[key] = calls
            return rendered(*key)

        counted.cache_info = rendered.cache_info
        i18n._rendered = counted
        skip = (type(sys), type, type(remember), type(len), type(threading.Thread.run))
        containers = (dict, list, set, frozenset, collections.deque, tuple)

        import ctypes

        class Mallinfo2(ctypes.Structure):
            _fields_ = [(name, ctypes.c_size_t) for name in (
                'arena', 'ordblks', 'smblks', 'hblks', 'hblkhd', 'usmblks', 'fsmblks',
                'uordblks', 'fordblks', 'keepcost')]

        libc = ctypes.CDLL('libc.so.6')
        libc.mallinfo2.restype = Mallinfo2

        def mallinfo():
            return libc.mallinfo2()

        def status():
            found = {}
            for line in open('/proc/self/status').read().splitlines():
                key, _, value = line.partition(':')
                if key in ('VmRSS', 'RssAnon', 'RssFile', 'VmHWM'):
                    found[key] = int(value.split()[0])
            return found

        def label(o):
            kind = type(o)
            return kind.__qualname__ if kind.__module__ == 'builtins' else f'{kind.__module__}.{kind.__qualname__}'

        def walk(root, limit=400_000):
            # path pattern -> [containers, entries]
            sizes = collections.defaultdict(lambda: [0, 0])
            seen = {id(root)}
            todo = collections.deque([(root, 'bot')])
            while todo and len(seen) < limit:
                o, where = todo.popleft()
                if isinstance(o, containers):
                    sizes[where][0] += 1
                    sizes[where][1] += len(o)
                    if isinstance(o, dict):
                        children = list(o.values())
                        inner = where + '{}'
                    else:
                        children = list(o)
                        inner = where + '[]'
                    children = [(c, inner) for c in children]
                elif isinstance(o, (weakref.WeakValueDictionary, weakref.WeakKeyDictionary, weakref.WeakSet)):
                    sizes[where][0] += 1
                    sizes[where][1] += len(o)
                    children = []
                else:
                    children = [(c, f'{where}.{name}') for name, c in bench_walk.fields(o).items()]
                for child, place in children:
                    if id(child) in seen or isinstance(child, skip) or child is None:
                        continue
                    if isinstance(child, (str, bytes, int, float, bool)):
                        continue
                    seen.add(id(child))
                    if place.count('.') + place.count('[') + place.count('{') > 12:
                        continue
                    todo.append((child, place))
            return {k: v for k, v in sizes.items() if v[1] >= 20}

        def deep_size(root, stop=(), limit=2_000_000):
            # bytes reachable from root (shared objects counted too: an upper bound of what
            # dropping it gives back), modules, classes, functions and ``stop`` left out
            seen, todo, total = {id(root), *stop}, [root], 0
            while todo and len(seen) < limit:
                o = todo.pop()
                total += sys.getsizeof(o)
                for child in gc.get_referents(o):
                    if id(child) not in seen and not isinstance(child, skip):
                        seen.add(id(child))
                        todo.append(child)
            return total, len(seen)

        def json_size(root):
            # bytes of a JSON-like tree (dicts, lists, strings, numbers) without what it shares
            seen, todo, total = set(), [root], 0
            while todo:
                o = todo.pop()
                if id(o) in seen:
                    continue
                seen.add(id(o))
                total += sys.getsizeof(o)
                if isinstance(o, dict):
                    todo.extend(o.keys())
                    todo.extend(o.values())
                elif isinstance(o, (list, tuple)):
                    todo.extend(o)
            return total

        def interaction_json(interactions):
            # what the kept interactions hold of their gateway events: the clicked message's
            # payload (a LazyMessage keeps it to parse on a first read) and the click's data
            payloads = []
            for i in interactions:
                message = getattr(i, 'message', None)
                payload = getattr(message, '_payload', None)
                if payload is not None:
                    payloads.append(payload)
                payloads.append(getattr(i, 'data', None))
            return json_size(payloads), len(payloads)

        def holders(b):
            import bot.i18n, bot.ui.messages, games.core.eventlog
            found = {
                'renderer._cache': b.renderer._cache,
                'listener.tokens._hooks': b.listener.tokens._hooks,
                'listener.ephemerals': b.listener.ephemerals,
                'presenters event_texts': [p.event_texts for p in b._presenters.values()],
                'LOG_DUMPS': games.core.eventlog.LOG_DUMPS._kept,
                'alt texts': bot.ui.messages._ALT_TEXTS,
                'metrics.histograms': __import__('bot.metrics').metrics.histograms,
                'listener.shown': b.listener.shown,
                'tables (service)': b.tables,
                'ws parsers': getattr(b.ws, '_discord_parsers', None),
                'connection state': b._connection,
            }
            # the bot and what it holds directly (its connection, HTTP client, loop...) are
            # reached from everywhere: not counted in any holder
            stop = {id(b), id(b._connection), *map(id, vars(b).values())}
            stop |= {id(v) for v in vars(b._connection).values() if not isinstance(v, (dict, list))}
            sizes = {
                k: deep_size(v, stop - {id(v)}) for k, v in found.items() if v is not None
            }
            # one open table, by field (the game and the presenters shared by every table, and
            # the bot, left out), summed over the tables
            shared = stop | {id(g) for g in b.games.values()} | {id(p) for p in b._presenters.values()}
            per_field = collections.Counter()
            objects = collections.Counter()
            tables = list(b.tables._ctx.tables.values())
            for table in tables:
                for name, value in bench_walk.fields(table).items():
                    if id(value) in shared or name == 'game':
                        continue
                    size, count = deep_size(value, shared)
                    per_field[name] += size
                    objects[name] += count
            for name, size in per_field.items():
                sizes[f'tables ({len(tables)}): .{name}'] = [size, objects[name]]
            sizes['tokens: hooks\' interactions\' JSON'] = interaction_json(
                [h.interaction for h in b.listener.tokens._hooks.values()]
            )
            sizes['ephemerals: views\' interactions\' JSON'] = interaction_json(
                [v.interaction for v in b.listener.ephemerals._views.values()]
            )
            info = bot.i18n._rendered.cache_info()
            sizes['i18n._rendered (hits, misses, size)'] = [info.hits, info.misses, info.currsize]
            return sizes

        def site_holders(sites, sample=64, depth=7):
            # who holds the live objects of ``sites`` ((file, line) pairs): one pass over every
            # object the collector tracks (frozen ones included) finds the containers whose
            # referents were allocated there (by type), then for a sample of them, pass by
            # pass, the first referrer of each, up to an object that is not a plain container
            # (or ``depth`` steps): the holder's chain. Objects the collector stopped tracking
            # (tuples and dicts of atomic values) are nobody's referrer here.
            import tracemalloc
            gc.unfreeze()  # the frozen generation is not in get_objects (the bot ends next)
            objects = gc.get_objects()
            gc.freeze()
            wanted = set(sites)
            ours = {id(objects)}
            by_type = {site: collections.Counter() for site in sites}
            chains = {site: [] for site in sites}
            for o in objects:
                for child in gc.get_referents(o):
                    frames = tracemalloc._get_object_traceback(child)
                    if frames is None or frames[0] not in wanted:
                        continue
                    site = frames[0]
                    by_type[site][label(o)] += 1
                    if len(chains[site]) < sample:
                        chains[site].append([label(child), o])
            plain = (dict, list, tuple, set, frozenset, collections.deque, types.CellType)
            for _ in range(depth):
                open_ends = {}
                for site in sites:
                    for chain in chains[site]:
                        tip = chain[-1]
                        if isinstance(tip, str) or not isinstance(tip, plain):
                            continue
                        open_ends.setdefault(id(tip), []).append(chain)
                if not open_ends:
                    break
                ours |= {id(c) for chain_list in chains.values() for c in chain_list}
                found = {}
                for o in objects:
                    if id(o) in ours:
                        continue
                    for child in gc.get_referents(o):
                        if id(child) in open_ends and id(child) not in found:
                            found[id(child)] = o
                for key, waiting in open_ends.items():
                    holder = found.get(key)
                    for chain in waiting:
                        chain[-1] = label(chain[-1])
                        chain.append(holder if holder is not None else '(no tracked holder)')
            names = {}
            for name, module in list(sys.modules.items()):
                for key, value in list(getattr(module, '__dict__', {}).items()):
                    names.setdefault(id(value), f' ({name}.{key})')
            out = []
            for site in sites:
                paths = collections.Counter(
                    ' <- '.join(c if isinstance(c, str) else label(c) for c in chain)
                    + ('' if isinstance(chain[-1], str) else names.get(id(chain[-1]), ''))
                    for chain in chains[site]
                )
                out.append([f'{site[0]}:{site[1]}', by_type[site].most_common(6), paths.most_common(6)])
            del objects
            return out

        def log_dumps():
            # games.core.eventlog.LOG_DUMPS: entries, the bytes of their distinct encoded
            # events (objects' sizes), and its hits and misses where it counts them
            import games.core.eventlog as eventlog

            dumps = eventlog.LOG_DUMPS
            entries = list(dumps._kept.values())
            events = {id(b): sys.getsizeof(b) for entry in entries for b in entry[1]}
            return [
                len(entries),
                sum(events.values()),
                getattr(dumps, 'hits', None),
                getattr(dumps, 'misses', None),
            ]

        def census(final=False):
            row = {'wall': time.time(), 'final': final, **status()}
            if final and frames:
                # the tracebacks first, and written at once: the walks below take minutes with
                # tracemalloc on at 1,000 tables (session 24's final census never arrived)
                snapshot = tracemalloc.take_snapshot()
                early = {'wall': row['wall'], 'final_traces': True}
                # the sites that grew most since the previous census, their tracebacks only
                # (grouping every trace by traceback takes minutes)
                grown = sorted(
                    snapshot.statistics('lineno'),
                    key=lambda s: previous_sites.get(str(s.traceback[0].filename) + ':' + str(s.traceback[0].lineno), 0) - s.size,
                )[:10]
                sites = [(s.traceback[0].filename, s.traceback[0].lineno) for s in grown]
                early['grown_sites'] = [
                    [f'{f}:{n}', s.size - previous_sites.get(f'{f}:{n}', 0)] for (f, n), s in zip(sites, grown)
                ]
                try:
                    if frames > 1:
                        # grouped by hand: Snapshot.filter_traces matches each trace by fnmatch
                        wanted = set(sites)
                        grouped = {}
                        for _domain, size, trace, _total in snapshot.traces._traces:
                            if trace[0] in wanted:  # the allocating frame (the newest first)
                                known = grouped.setdefault(trace, [0, 0])
                                known[0] += size
                                known[1] += 1
                        # the three largest tracebacks of each site, by the site's growth
                        largest = []
                        for site in sites:
                            mine = [kv for kv in grouped.items() if kv[0][0] == site]
                            largest += sorted(mine, key=lambda kv: -kv[1][0])[:3]
                        early['tracebacks'] = [
                            (size, count, tracemalloc.Traceback(trace).format())
                            for trace, (size, count) in largest
                        ]
                        del grouped, largest
                except Exception as exc:
                    early['tracebacks'] = [(0, 0, [repr(exc)])]
                del snapshot
                out_file.write(json.dumps(early) + '\n')
                if holders_wanted:  # (tens of minutes at 1,000 tables on a loaded machine)
                    try:
                        found = site_holders(sites)
                    except Exception as exc:
                        found = [['error', [], [[repr(exc), 0]]]]
                    out_file.write(json.dumps({'wall': row['wall'], 'final_traces': True, 'site_holders': found}) + '\n')
            row['blocks'] = sys.getallocatedblocks()
            row['log_dumps'] = log_dumps()
            info = mallinfo()
            # glibc's heaps (every arena): bytes in use, free but kept, mmapped blocks
            row['malloc'] = [info.uordblks, info.fordblks, info.hblkhd, info.arena]
            row['gc_count'] = gc.get_count()
            row['frozen'] = gc.get_freeze_count()
            objects = gc.get_objects()
            row['tracked'] = len(objects)
            row['types'] = collections.Counter(map(label, objects)).most_common(80)
            del objects
            live = [r() for r in bots]
            live = [b for b in live if b is not None]
            if live:
                row['tables'] = live[0].open_tables()
                row['containers'] = walk(live[0])
                if final:
                    try:
                        row['holders'] = holders(live[0])
                    except Exception as exc:
                        row['holders'] = {'error': [repr(exc), 0]}
            row['image_cache_hits'] = list(hits)
            row['text_gaps'] = [len(last_call), *text_gaps]
            if live:
                row['image_cache'] = [len(live[0].renderer._cache), live[0].renderer._cached_bytes, live[0].renderer.renders, live[0].renderer.reused]
            if frames:
                snapshot = tracemalloc.take_snapshot()
                row['traced'] = tracemalloc.get_traced_memory()[0]
                stats = snapshot.statistics('lineno')
                row['sites'] = [
                    (str(s.traceback[0].filename) + ':' + str(s.traceback[0].lineno), s.size, s.count)
                    for s in stats[:300]
                ]
                previous_sites.clear()
                previous_sites.update((k, size) for k, size, _ in row['sites'])
                del snapshot, stats
            return row

        def run():
            nonlocal out_file
            with open(path, 'a', buffering=1) as out:
                out_file = out
                while True:
                    deadline = time.monotonic() + every
                    while time.monotonic() < deadline and not _os.path.exists(path + '.now'):
                        time.sleep(0.2)
                    final = _os.path.exists(path + '.now')
                    out.write(json.dumps(census(final)) + '\n')
                    if final:
                        if thaw:
                            before = status()
                            gc.unfreeze()
                            # every object thawed, the garbage kept (DEBUG_SAVEALL) to be counted
                            # by type (the sources of cycles), then freed by a second collection:
                            # the thaw's CPU is both collections'
                            gc.set_debug(gc.DEBUG_SAVEALL)
                            started = time.thread_time()
                            collected = gc.collect()
                            ms = (time.thread_time() - started) * 1000
                            gc.set_debug(0)
                            kinds = collections.Counter(map(_label, gc.garbage)).most_common(30)
                            gc.garbage.clear()
                            started = time.thread_time()
                            gc.collect()
                            ms += (time.thread_time() - started) * 1000
                            gc.freeze()
                            collected_at = status()
                            libc.malloc_trim(0)
                            out.write(json.dumps({'thaw': True, 'collected': collected, 'ms': ms, 'before': before, 'after': collected_at, 'trimmed': status(), 'blocks': sys.getallocatedblocks(), 'kinds': kinds}) + '\n')
                        _os.remove(path + '.now')
                        return

        out_file = None
        previous_sites = {}
        threading.Thread(target=run, name='memory-census', daemon=True).start()
    _memory_census()
"""


class Window:
    """``bench/load.py``'s window probe: the window's bounds; at its end, the last census."""

    def __init__(self, census: Path) -> None:
        self.census = census
        self.start_at = self.end_at = 0.0

    def start(self, pids: list[int], seconds: float) -> None:
        self.start_at = time.time()

    async def stop(self) -> None:
        self.end_at = time.time()
        flag = Path(str(self.census) + ".now")
        flag.touch()
        # a bound against a hang only: the census and the probe take seconds, minutes with
        # tracemalloc on and a million objects (the holders' passes)
        for _ in range(4 * 1800):
            if not flag.exists():
                break
            await asyncio.sleep(0.25)


def _delta_table(
    first: dict[str, Any], last: dict[str, Any], top: int, title: str, unit: str
) -> list[str]:
    keys = set(first) | set(last)
    rows = sorted(((last.get(k, 0) - first.get(k, 0), k) for k in keys), reverse=True)
    lines = ["", title, f"| {unit} first | last | delta | what |", "|---:|---:|---:|---|"]
    for delta, key in rows[:top]:
        lines.append(f"| {first.get(key, 0):,} | {last.get(key, 0):,} | {delta:+,} | `{key}` |")
    return lines


def report(rows: list[dict[str, Any]], window: Window, moves: int, top: int) -> str:
    censuses = [r for r in rows if "thaw" not in r and "final_traces" not in r]
    # the last census before the window opens (the first after it, if none) and the last one
    before = [r for r in censuses if r["wall"] <= window.start_at] or censuses[:1]
    inside = [r for r in censuses if r["wall"] >= before[-1]["wall"]]
    if len(inside) < 2:
        return f"fewer than two censuses from the window's start ({len(censuses)} in all)"
    first, last = inside[0], inside[-1]
    span = max(last["wall"] - first["wall"], 1e-9)
    per_move = max(moves, 1) * span / max(window.end_at - window.start_at, 1e-9)
    lines = [
        f"{len(censuses)} censuses, {len(inside)} in the window ({span:.0f} s between the first"
        f" and the last), {moves} moves in the window; load average"
        f" {' '.join(f'{x:.2f}' for x in load_average())}",
        "",
        "| since start s | RSS MB | anon MB | Python blocks | tracked (not frozen) | frozen |"
        " traced MB | malloc used / free / mmapped MB | tables |",
        "|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for r in censuses:
        traced = f"{r['traced'] / 2**20:.1f}" if "traced" in r else "-"
        lines.append(
            f"| {r['wall'] - censuses[0]['wall']:.0f}{' (end)' if r['final'] else ''}"
            f" | {r['VmRSS'] / 1024:.1f} | {r.get('RssAnon', 0) / 1024:.1f} | {r['blocks']:,}"
            f" | {r['tracked']:,} | {r['frozen']:,} | {traced}"
            f" | {' / '.join(f'{x / 2**20:.1f}' for x in r['malloc'][:3])} | {r.get('tables', '-')} |"
        )
    if "log_dumps" in last:
        lines += [
            "",
            "games.core.eventlog.LOG_DUMPS: entries, bytes of encoded events, hits / misses",
        ]
        for r in censuses:
            entries, size, hits, misses = r.get("log_dumps", [0, 0, None, None])
            rate = f" ({hits / max(hits + misses, 1):.1%} hits)" if hits is not None else ""
            lines.append(
                f"  {r['wall'] - censuses[0]['wall']:5.0f} s: {entries:,} entries, {size / 2**20:.2f} MB,"
                f" {hits} / {misses}{rate}"
            )
    grew = (last["VmRSS"] - first["VmRSS"]) * 1024
    lines += [
        "",
        f"RSS {first['VmRSS'] / 1024:.1f} -> {last['VmRSS'] / 1024:.1f} MB over the window:"
        f" {grew / per_move / 1024:+.2f} KB per move; Python blocks"
        f" {(last['blocks'] - first['blocks']) / per_move:+.1f} per move; tracked objects"
        f" {(last['tracked'] + last['frozen'] - first['tracked'] - first['frozen']) / per_move:+.1f}"
        " per move",
    ]
    if "traced" in first and "traced" in last:
        lines.append(
            f"tracemalloc: {(last['traced'] - first['traced']) / per_move / 1024:+.2f} KB per move"
            " traced"
        )
        lines += _delta_table(
            {k: size for k, size, _ in first["sites"]},
            {k: size for k, size, _ in last["sites"]},
            top,
            "allocation sites by growth of live bytes (top 300 sites of each census):",
            "bytes",
        )
    lines += _delta_table(
        dict(first["types"]),
        dict(last["types"]),
        top,
        "tracked objects not frozen, by type (top 80 types of each census):",
        "objects",
    )
    if "containers" in first and "containers" in last:
        lines += _delta_table(
            {k: v[1] for k, v in first["containers"].items()},
            {k: v[1] for k, v in last["containers"].items()},
            top,
            "containers reachable from the bot, by path (entries summed over the path's"
            " containers):",
            "entries",
        )
        largest = sorted(last["containers"].items(), key=lambda kv: -kv[1][1])[:top]
        lines += ["", "largest at the end: entries (containers) path"]
        lines += [f"  {v[1]:9,} ({v[0]:,})  {k}" for k, v in largest]
    for r in rows:
        if "tracebacks" in r:
            lines += ["", "largest allocation tracebacks at the end (of the sites grown most):"]
            for size, count, trace in r["tracebacks"][:30]:
                lines.append(f"  {size / 1024:,.0f} KiB in {count:,} blocks")
                lines += [f"    {t}" for t in trace[-16:]]
        if "grown_sites" in r:
            lines += ["", "sites grown most since the census before the last (bytes):"]
            lines += [f"  {size:+,} {site}" for site, size in r["grown_sites"]]
        if "site_holders" in r:
            lines += [
                "",
                "who holds the top sites' live objects at the end (referrers by type;"
                " sampled chains, object <- first referrer <- ...):",
            ]
            for site, types, chains in r["site_holders"]:
                lines.append(f"  {site}: held by {', '.join(f'{k} {n:,}' for k, n in types)}")
                lines += [f"    {n:3d}x {chain}" for chain, n in chains]
        if r.get("thaw"):
            lines += [
                "",
                f"thaw probe: one collection of every object freed {r['collected']:,} objects"
                f" ({r['ms']:.0f} ms CPU); RSS {r['before']['VmRSS'] / 1024:.1f} ->"
                f" {r['after']['VmRSS'] / 1024:.1f} MB; Python blocks after {r['blocks']:,};"
                f" then malloc_trim(0): RSS {r['trimmed']['VmRSS'] / 1024:.1f} MB",
            ]
            if r.get("kinds"):
                lines.append("  what it freed, by type (a cycle's members: whose cycles they are):")
                lines += [f"  {n:>10,}  {kind}" for kind, n in r["kinds"]]
    if "holders" in last:
        lines += ["", "deep size of what the bot holds at the end (shared objects in each):"]
        lines += [
            f"  {v[0] / 2**20:9.2f} MB {v[1]:>10,} objects  {k}"
            for k, v in last["holders"].items()
            if not k.startswith("i18n")
        ]
        lines += [f"  {k}: {v}" for k, v in last["holders"].items() if k.startswith("i18n")]
    if "text_gaps" in last:
        keys, *gaps = last["text_gaps"]
        calls = keys + len(gaps)
        lines += [
            "",
            f"catalogue texts rendered with parameters: {calls:,} calls, {keys:,} keys; calls of a"
            " key seen before that an LRU cache of N entries answers (at least):",
        ]
        for n in (1024, 2048, 4096, 8192, 16384, 32768):
            kept = sum(1 for g in gaps if g <= n)
            lines.append(f"  {n:6d}: {kept:,} ({kept / max(calls, 1):.1%} of the calls)")
    if "image_cache" in last:
        entries, size, renders, reused = last["image_cache"]
        distances = sorted(last["image_cache_hits"])
        lines += [
            "",
            f"renderer's image cache at the end: {entries:,} images, {size / 2**20:.1f} MB;"
            f" {renders:,} drawn, {reused:,} reused ({len(distances):,} from the cache since"
            " start); hits a cache of N MB keeps (LRU distance):",
        ]
        for mb in (1, 2, 4, 8, 16, 32, 64):
            kept = sum(1 for d in distances if d < mb * 2**20)
            lines.append(f"  {mb:3d} MB: {kept:,} ({kept / max(len(distances), 1):.1%})")
    return "\n".join(lines)


async def main(argv: list[str] | None = None) -> int:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="45"
    )
    parser.add_argument("--every", type=float, default=15.0, help="seconds between censuses")
    parser.add_argument("--trace", type=int, default=0, help="tracemalloc frames (0: off)")
    parser.add_argument("--thaw-probe", action="store_true", help="collect every object at the end")
    parser.add_argument(
        "--site-holders",
        action="store_true",
        help="with --trace: who holds the grown sites' objects at the end (slow: passes over"
        " every object with tracemalloc on)",
    )
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--save", type=Path, help="keep the censuses (JSON lines) in this file")
    args = parser.parse_args(own)
    load_args = load.probe_args(args, passed)
    load.BOT_LAUNCHER = PRELUDE + load.BOT_LAUNCHER
    os.environ["MESA_BENCH_WALK"] = str(ROOT / "bench" / "walk.py")  # the prelude loads it
    os.environ["MESA_BENCH_MEMORY_EVERY"] = str(args.every)
    if args.trace:
        os.environ["MESA_BENCH_MEMORY_TRACE"] = str(args.trace)
    if args.thaw_probe:
        os.environ["MESA_BENCH_MEMORY_THAW"] = "1"
    if args.site_holders:
        os.environ["MESA_BENCH_MEMORY_HOLDERS"] = "1"
    with tempfile.TemporaryDirectory(prefix="mesa-memory-") as folder:
        out = Path(folder) / "census.jsonl"
        os.environ["MESA_BENCH_MEMORY"] = str(out)
        window = Window(out)
        load_args.window_probe = window
        bot_folder = Path(folder) / "bot"
        bot_folder.mkdir()
        result = await load.run_one(args.tables, load_args, bot_folder)
        rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
        if args.save and out.exists():
            args.save.write_text(out.read_text())
    print(report(rows, window, result["moves"], args.top))
    print(
        f"bot RSS at the end {result.get('bot_rss_mb')} MB; {result.get('moves_per_s')} moves/s;"
        f" bot tree {args.bot_root}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
