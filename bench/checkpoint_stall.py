"""What the write-ahead log's checkpoints cost the writer's callers (issue 29): moves written at
a fixed rate through the bot's own storage (``TablesRepo.record_action`` with its click's
intent, a ~10-KB state as at 1,000 busy tables) for ``--window`` seconds, long enough for
several checkpoints; per tree: the persist's wall time (queued to answered) p50 / p99 / max and
the persists over 50 ms, the writer's longest transaction, every database thread's CPU per move
by the kernel's clock (the writer's, the checkpoint thread's where there is one) and the
process's bytes written per move. Trees run in separate processes, interleaved, ``--rounds``
times (``--bot-root A,B``); the persist's times are wall-clock: compare trees of one run.

    nice -n 10 .venv/bin/python bench/checkpoint_stall.py --bot-root ../wt-before,.
    .venv/bin/python bench/checkpoint_stall.py --rate 250 --window 60 --rounds 2

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = r"""
import asyncio, json, os, random, sys, tempfile, threading, time
import uvloop
from storage import Intent, open_database
from storage.intents import IntentsRepo
from storage.tables import SeatInfo, TablesRepo

TABLES, RATE, WINDOW, WARMUP = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
SEATS = [SeatInfo(id="1", name="Ana"), SeatInfo(id="2", name="Bea")]
SNOWFLAKE = 1_450_000_000_000_000_000  # the clicks' interaction ids: Discord's, of 2026


def state(version):  # ~10 KB of JSON, a little different at each move, as a game's
    return json.dumps({"v": version, "cards": [f"c{i}-{version % 7}" for i in range(1200)]})


def cpu_by_thread():
    out = {}
    for thread in threading.enumerate():
        if thread.name.startswith("db-") or thread is threading.main_thread():
            clock = time.pthread_getcpuclockid(thread.ident)
            out[thread.name] = time.clock_gettime(clock)
    return out


def written():
    with open("/proc/self/io") as io:
        return dict(line.split(": ") for line in io.read().splitlines())["wchar"]


async def main():
    with tempfile.TemporaryDirectory(dir=os.environ.get("MESA_BENCH_DIR")) as folder:
        db = await open_database(os.path.join(folder, "stall.db"))
        repo, intents = TablesRepo(db), IntentsRepo(db)
        tables = []
        for n in range(TABLES):
            record = await repo.create(
                guild_id="g", channel_id=f"c{n}", game="triad", host_id="1", locale="es",
                options={}, seats=SEATS, seed="s",
            )
            await repo.start(record.id, SEATS, state(0), 0)
            tables.append(await repo.get(record.id))
        persists, busy, clicks = [], set(), [0]
        measuring = [False]

        async def click(table):
            try:
                clicks[0] += 1
                intent = Intent(
                    interaction_id=str(SNOWFLAKE + clicks[0]), application_id="a",
                    token="t" * 160, table_id=table.id, seat="1", version=table.version,
                    action="p 1", locale="es", created_at=time.time(),
                )
                intents.start(intent)
                start = time.perf_counter()
                await repo.record_action(
                    table, seat="1", action="p 1", state_json=state(table.version + 1),
                    version=table.version + 1, intent=intent, wake_at=time.time() + 60,
                )
                if measuring[0]:
                    persists.append((time.perf_counter() - start) * 1000)
                table.version += 1
            finally:
                busy.discard(table.id)

        rng, tasks = random.Random(1), set()
        started, first, n = time.perf_counter(), None, 0
        while True:
            now = time.perf_counter() - started
            if first is None and now >= WARMUP:
                first = (cpu_by_thread(), int(written()))
                db.write_stats.hold_ms_max = 0.0
                measuring[0] = True
            if now >= WARMUP + WINDOW:
                break
            due = n / RATE
            if due > now:
                await asyncio.sleep(due - now)
                continue
            n += 1
            table = tables[rng.randrange(TABLES)]
            if table.id in busy:
                continue
            busy.add(table.id)
            task = asyncio.ensure_future(click(table))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        last = (cpu_by_thread(), int(written()))
        measuring[0] = False
        await asyncio.gather(*tasks)
        longest = db.write_stats.hold_ms_max
        housekeeping = getattr(db._writer, "housekeeping", None)
        checkpoints = vars(housekeeping.stats) if housekeeping is not None else {}
        await db.close()
    per = max(len(persists), 1)
    persists.sort()
    cpu = {name: 1e6 * (last[0][name] - first[0].get(name, 0.0)) / per for name in last[0]}
    print(json.dumps({
        "moves": len(persists),
        "persist p50 ms": persists[len(persists) // 2],
        "persist p99 ms": persists[int(len(persists) * 0.99)],
        "persist max ms": persists[-1],
        "persists > 50 ms": sum(p > 50 for p in persists),
        "longest transaction ms": longest,
        **{f"{name} CPU us/move": us for name, us in sorted(cpu.items())},
        "KB written/move": (last[1] - first[1]) / 1024 / per,
        **{f"checkpoints {name}": value for name, value in checkpoints.items()},
    }))


uvloop.run(main())
"""


def run(root: Path, args: argparse.Namespace) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root.resolve()), "MESA_BENCH_DIR": str(ROOT / "bench")}
    argv = [str(args.tables), str(args.rate), str(args.window), str(args.warmup)]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *argv],
        env=env,
        cwd=root,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-root", default=str(ROOT), help="trees, comma-separated")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=250.0, help="moves per second (250)")
    parser.add_argument("--window", type=float, default=60.0, help="measured seconds (60)")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    roots = [Path(r) for r in args.bot_root.split(",")]
    results: dict[Path, list[dict[str, float]]] = {root: [] for root in roots}
    for round_ in range(args.rounds):
        for root in roots:
            figures = run(root, args)
            results[root].append(figures)
            print(f"round {round_ + 1} {root}: {json.dumps(figures)}", file=sys.stderr)
    for root in roots:
        names = sorted({name for figures in results[root] for name in figures})
        print(f"\n{root} (median of {args.rounds}):")
        for name in names:
            values = [f[name] for f in results[root] if name in f]
            print(f"  {name}: {statistics.median(values):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
