"""What the garbage collector's thaw walks in the real bot under the load of ``bench/load.py``
(issue 29): at the end of the window, every object the collector tracks, frozen ones included,
by type and by owner (the open tables by field and game, the listener's, the service's and the
bot's other attributes, module globals: ``bench/heap_probe.py``), per open table; then the
thaw of ``bot/ops/collector.py`` (one collection of every object): what it frees (the cyclic
garbage frozen since the bot started, by type, per minute) and its CPU on the collecting
thread's clock, the fastest of ``--rounds`` (a count of work the machine's load hardly moves).
``--thaw-at-start`` thaws as the window starts, so the garbage counted is the window's alone:
how fast the steady state freezes garbage for the next thaw.

    .venv/bin/python bench/heap_census.py --tables 300 --window 30
    .venv/bin/python bench/heap_census.py --tables 1000 --warmup 120 -- --channel-play 0.5
    .venv/bin/python bench/heap_census.py --tables 300 --window 240 --thaw-at-start
    .venv/bin/python bench/heap_census.py --tables 300 --window 240 --thaw-at-start --freeze-from 0
    .venv/bin/python bench/heap_census.py --bot-root ../before --tables 300

The census stops the bot for its duration (seconds at 1,000 tables). Figures only; nothing is
asserted.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench.load as load  # noqa: E402
from bench.load_probe import load_average  # noqa: E402
from bench.memory_census import Window  # noqa: E402

# Run in the bot before ``bot.__main__``: when the file MESA_BENCH_HEAP + ".now" appears (the
# window's end), a thread runs ``bench/heap_probe.py``'s census (loaded by its path: the bot's
# own tree may be another checkout) and writes it to MESA_BENCH_HEAP as one JSON line.
PRELUDE = r"""
import os as _os
if _os.environ.get('MESA_BENCH_HEAP'):
    def _heap_census():
        import importlib.util, json, threading, time, weakref
        import bot.client
        if _os.environ.get('MESA_BENCH_FREEZE_FROM'):
            # another freezing policy than the tree's (read as the bot's hook is made)
            import bot.ops.collector
            bot.ops.collector.FREEZE_FROM = int(_os.environ['MESA_BENCH_FREEZE_FROM'])
        started = time.monotonic()
        path = _os.environ['MESA_BENCH_HEAP']
        spec = importlib.util.spec_from_file_location('heap_probe', _os.environ['MESA_BENCH_HEAP_PROBE'])
        probe = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(probe)
        bots = []
        original = bot.client.MesaBot.__init__

        def remember(self, *args, **kwargs):
            original(self, *args, **kwargs)
            bots.append(weakref.ref(self))

        bot.client.MesaBot.__init__ = remember

        def rss_kb():
            for line in open('/proc/self/status'):
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
            return 0

        def run():
            since, rss_start = started, 0
            while not _os.path.exists(path + '.now'):
                if _os.path.exists(path + '.start'):
                    # a thaw as the window starts: what the census frees then is the frozen
                    # garbage of the window alone (the steady state's, not the start-up's)
                    probe.thaw()
                    since, rss_start = time.monotonic(), rss_kb()
                    _os.remove(path + '.start')
                time.sleep(0.2)
            try:
                live = [b() for b in bots if b() is not None]
                row = {
                    'uptime_s': time.monotonic() - since, 'rss_kb': rss_kb(),
                    'rss_start_kb': rss_start,
                }
                row.update(probe.census(live[0], int(_os.environ.get('MESA_BENCH_HEAP_ROUNDS') or 5)))
                row['rss_after_kb'] = rss_kb()
            except Exception as exc:
                row = {'error': repr(exc)}
            with open(path, 'w') as out:
                out.write(json.dumps(row) + '\n')
            _os.remove(path + '.now')

        threading.Thread(target=run, name='heap-census', daemon=True).start()
    _heap_census()
"""


class ThawAtStart(Window):
    """The window's bounds, a thaw in the bot as the window starts, the census at its end."""

    def start(self, pids: list[int], seconds: float) -> None:
        super().start(pids, seconds)
        Path(str(self.census) + ".start").touch()


def report(row: dict[str, Any], moves: int, top: int, thawed: bool) -> str:
    if "error" in row:
        return f"the census failed: {row['error']}"
    tables = max(row["tables"], 1)
    games = row["games"]
    thaw = row["thaw"]
    minutes = row["uptime_s"] / 60
    since = "the window's start (a thaw then)" if thawed else "the bot's start"
    lines = [
        f"{row['tables']} open tables in memory ({', '.join(f'{g} {n}' for g, n in games.items())});"
        f" {moves} moves in the window; load average"
        f" {' '.join(f'{x:.2f}' for x in load_average())}",
        f"tracked objects {row['tracked']:,} ({row['frozen']:,} frozen); after the thaw's"
        f" first collection {row['live']:,}, {row['live'] / tables:,.0f} per open table;"
        f" bot RSS {row['rss_kb'] / 1024:.1f} MB"
        + (
            f" ({row['rss_start_kb'] / 1024:.1f} MB at the window's start, after its thaw)"
            if row.get("rss_start_kb")
            else ""
        ),
        "",
        f"thaw (one collection of every object): first {thaw['first_ms']:.0f} ms of CPU, freeing"
        f" {thaw['freed']:,} objects of {thaw.get('bytes', 0) / 2**20:.1f} MB"
        f" ({thaw['freed'] / max(minutes, 1e-9):,.0f} a minute over the"
        f" {minutes:.1f} minutes since {since}); then {len(thaw['ms'])} rounds: fastest"
        f" {min(thaw['ms'], default=0):.0f} ms ({' '.join(f'{ms:.0f}' for ms in thaw['ms'])});"
        f" RSS after {row['rss_after_kb'] / 1024:.1f} MB",
        f"frozen garbage per move in the window: {thaw['freed'] / max(moves, 1):.1f} objects"
        f" ({thaw.get('bytes', 0) / max(moves, 1):,.0f} bytes; meaningful with --thaw-at-start);"
        " by type:",
        *(f"  {n:8,}  {kind}" for kind, n in thaw["garbage"][: 2 * top]),
        "",
        "what is left, by owner (the first whose references reach it: bench/heap_probe.py):",
        "| owner | tracked objects | per table (of its game) | top types |",
        "|---|---:|---:|---|",
    ]
    shown_owners = [
        o for i, o in enumerate(row["by_owner"]) if i < 3 * top or o[0].startswith("table[")
    ]
    for owner, n, kinds in shown_owners:
        if owner.startswith("table["):
            per = n / max(games.get(owner[6 : owner.index("]")], 0), 1)
        else:
            per = n / tables
        shown = ", ".join(f"{k} {c:,}" for k, c in kinds[:5])
        lines.append(f"| `{owner}` | {n:,} | {per:,.1f} | {shown} |")
    lines += ["", "who refers to a sample of the unreached objects (referrer -> object):"]
    lines += [f"  {n:6,}  {what}" for what, n in row.get("unreached_holders", [])]
    lines += ["", "what is left, by type:"]
    lines += [f"  {n:9,}  {kind}" for kind, n in row["by_type"][: 2 * top]]
    return "\n".join(lines)


async def main(argv: list[str] | None = None) -> int:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="45"
    )
    parser.add_argument("--rounds", type=int, default=5, help="timed full collections (5)")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument(
        "--thaw-at-start",
        action="store_true",
        help="thaw as the window starts: the census's frozen garbage is the window's alone",
    )
    parser.add_argument(
        "--freeze-from",
        type=int,
        choices=(0, 1),
        help="freeze the survivors of collections of this generation or older (the tree's"
        " collector.FREEZE_FROM: none)",
    )
    parser.add_argument("--save", type=Path, help="keep the census (JSON) in this file")
    args = parser.parse_args(own)
    load_args = load.probe_args(args, passed)
    load.BOT_LAUNCHER = PRELUDE + load.BOT_LAUNCHER
    os.environ["MESA_BENCH_HEAP_PROBE"] = str(ROOT / "bench" / "heap_probe.py")
    os.environ["MESA_BENCH_HEAP_ROUNDS"] = str(args.rounds)
    if args.freeze_from is not None:
        os.environ["MESA_BENCH_FREEZE_FROM"] = str(args.freeze_from)
    with tempfile.TemporaryDirectory(prefix="mesa-heap-") as folder:
        out = Path(folder) / "heap.json"
        os.environ["MESA_BENCH_HEAP"] = str(out)
        window = ThawAtStart(out) if args.thaw_at_start else Window(out)
        load_args.window_probe = window
        bot_folder = Path(folder) / "bot"
        bot_folder.mkdir()
        result = await load.run_one(args.tables, load_args, bot_folder)
        row = json.loads(out.read_text()) if out.exists() else {"error": "no census written"}
        if args.save:
            args.save.write_text(json.dumps(row))
    print(report(row, result["moves"], args.top, args.thaw_at_start))
    print(
        f"bot RSS at the end {result.get('bot_rss_mb')} MB; {result.get('moves_per_s')} moves/s;"
        f" bot tree {args.bot_root}"
        + (
            ""
            if args.freeze_from is None
            else f", survivors frozen from generation {args.freeze_from}"
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
