"""The database's work per move under the load of ``bench/load.py`` (issue 29): the real bot
(``python -m bot``) against the fake Discord with N busy tables, counted inside the bot for the
measured window only, printed per move: writer jobs by kind (the unit's function), write
transactions (group commits) and thread wake-ups, statements by kind with the bytes of their
parameters, reads by statement, the callbacks the database threads hand back to the event loop,
and the CPU time of each database thread (the kernel's per-thread clock).

    .venv/bin/python bench/profile_storage.py --tables 500 --window 30
    .venv/bin/python bench/profile_storage.py --bot-root ../main   # the same load, another tree
    .venv/bin/python bench/profile_storage.py -- --channel-play 0.5   # bench/load.py's options
    .venv/bin/python bench/profile_storage.py --micro               # the writer alone, in-process
    .venv/bin/python bench/profile_storage.py --units --tables 200  # one move's write, its CPU
    .venv/bin/python bench/profile_storage.py --commits --tables 300 --moves 20  # commit times

``--units`` writes one move at a time (a person's: its click's intent, then the move marking it
done; a computer's: the move alone) with the event loop otherwise idle, and prints the statements
of a person's move and each thread's CPU per move (the best of ``--moves`` rounds over
``--tables`` tables, by the thread's own clock: a loaded machine changes it little), so two trees'
per-move storage work compares (``--bot-root``).

``--commits`` writes moves one at a time through the writer (each its own transaction) on a file
beside ``bench/`` and prints the percentiles of each transaction's time (``db_write``) and of the
move's wait, up to p99.9 and max (a checkpoint of the write-ahead log shows there), and the log's
size at the end.

``--micro`` plays moves the way the click path writes them (an intent started at the click, then
the move's unit marking it done) from many tables at once on a temporary SQLite file, in this
process, while the event loop does CPU work between moves (as the bot's handlers do, so the
database threads have to win the GIL from a busy loop): writer jobs, transactions, callbacks to
the loop and statements per move, the writer thread's CPU per move and the time a move waits
for its commit (p50/p99). Seconds, not a load: quick to compare two trees (``--bot-root``).

The counting is a prelude run in the bot process before the bot (``MESA_BENCH_STORAGE`` names the
file it appends a snapshot to at each SIGUSR2: the window's start and end); it wraps the
writer's ``submit`` and ``_commit_batch``, the SQLite session's ``execute``/``executemany``, the
reads' ``fetchone``/``fetchall`` and the callbacks the threads hand back (``call_soon_threadsafe``
counted where our code and aiosqlite make them), so the counting itself costs the bot some CPU:
compare the thread CPU of two trees under this same tool, not against ``bench/profile_live.py``.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench.load as load  # noqa: E402
from bench.load_probe import cpu_seconds, load_average  # noqa: E402

# Run in the bot before ``bot.__main__``: counters kept in one dict, dumped as a JSON line at
# each SIGUSR2. Written against the storage layer's stable names, so it measures any tree.
PRELUDE = r"""
import os as _os
if _os.environ.get('MESA_BENCH_STORAGE'):
    def _storage_counting():
        import collections, json, signal, threading, time, sqlite3
        import storage.writer as writer_module
        import storage.sqlite as sqlite_module
        counts = collections.Counter()
        statements = collections.Counter()
        statement_bytes = collections.Counter()
        units = collections.Counter()
        reads = collections.Counter()

        def _head(sql):
            words = sql.split()
            return ' '.join(words[:4])[:60]

        def _size(params):
            total = 0
            for p in params:
                if isinstance(p, (str, bytes)):
                    total += len(p)
            return total

        def _unit_name(unit):
            name = getattr(unit, '__qualname__', type(unit).__name__)
            return name.replace('.<locals>', '')

        Writer = writer_module.Writer
        original_submit = Writer.submit
        def submit(self, unit, *args, **kwargs):
            counts['writer jobs'] += 1
            units[_unit_name(unit)] += 1
            return original_submit(self, unit, *args, **kwargs)
        Writer.submit = submit
        # the units a job carries, when a job may carry several (a tree with submit_many)
        if hasattr(Writer, 'submit_many'):
            original_many = Writer.submit_many
            def submit_many(self, many, *args, **kwargs):
                counts['writer jobs'] += 1
                for unit in many:
                    units[_unit_name(unit)] += 1
                return original_many(self, many, *args, **kwargs)
            Writer.submit_many = submit_many
        original_commit = Writer._commit_batch
        def commit_batch(self, conn, batch):
            counts['write transactions (writer wake-ups)'] += 1
            counts['jobs in those transactions'] += len(batch)
            return original_commit(self, conn, batch)
        Writer._commit_batch = commit_batch
        # what the writer thread hands the loop: one call per job or one per batch
        handed = '_resolve_all' if hasattr(writer_module, '_resolve_all') else '_resolve'
        original_resolve = getattr(writer_module, handed)
        def resolve(*args):
            counts['writer callbacks run on the loop'] += 1
            return original_resolve(*args)
        setattr(writer_module, handed, resolve)

        Session = sqlite_module.SqliteSession
        def execute(self, sql, parameters=(), /):
            statements[_head(sql)] += 1
            statement_bytes[_head(sql)] += _size(parameters)
            return sqlite3.Connection.execute(self, sql, parameters)
        def executemany(self, sql, seq, /):
            seq = list(seq)
            statements[_head(sql) + ' (many: rows)'] += len(seq)
            statement_bytes[_head(sql) + ' (many: rows)'] += sum(_size(p) for p in seq)
            return sqlite3.Connection.executemany(self, sql, seq)
        Session.execute = execute
        Session.executemany = executemany

        Reads = sqlite_module.SqliteReads
        for name in ('fetchone', 'fetchall'):
            original = getattr(Reads, name)
            def counted(self, sql, params=(), _original=original):
                reads[_head(sql)] += 1
                counts['reads'] += 1
                return _original(self, sql, params)
            setattr(Reads, name, counted)
        try:
            import aiosqlite.core as aiosqlite_core
            for name in ('set_result', 'set_exception'):
                original = getattr(aiosqlite_core, name)
                def handed(*args, _original=original):
                    counts['aiosqlite callbacks run on the loop'] += 1
                    return _original(*args)
                setattr(aiosqlite_core, name, handed)
        except ImportError:
            pass
        if hasattr(sqlite_module, '_resolve_reads'):
            original_reads = sqlite_module._resolve_reads
            def resolve_reads(*args):
                counts['reader callbacks run on the loop'] += 1
                return original_reads(*args)
            sqlite_module._resolve_reads = resolve_reads

        def thread_cpu():
            cpu = collections.Counter()
            for thread in threading.enumerate():
                if thread.ident is None or thread is threading.main_thread():
                    continue
                with __import__('contextlib').suppress(OSError, ValueError):
                    clock = time.pthread_getcpuclockid(thread.ident)
                    name = thread.name
                    target = getattr(getattr(thread, '_target', None), '__name__', '')
                    if 'connection_worker' in target or name.startswith('db-reader'):
                        name = 'db-reader (aiosqlite or ours)'
                    elif name.startswith('Thread-') or name.startswith('asyncio_'):
                        name = 'other threads'
                    cpu[name] += time.clock_gettime(clock)
            return cpu

        def dump(*_):
            snapshot = {
                'counts': dict(counts), 'statements': dict(statements),
                'statement_bytes': dict(statement_bytes), 'units': dict(units),
                'reads': dict(reads), 'thread_cpu': dict(thread_cpu()),
                'process_cpu': time.process_time(),
            }
            with open(_os.environ['MESA_BENCH_STORAGE'], 'a') as out:
                out.write(json.dumps(snapshot) + '\n')
        signal.signal(signal.SIGUSR2, dump)
    _storage_counting()
"""


class Counting:
    """``bench/load.py``'s window probe: a SIGUSR2 to the bot at the window's start and end
    (the prelude appends its counters each time) and the bot's CPU from /proc between them."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.pid = 0
        self.cpu_s = 0.0
        self.started = 0.0
        self.window = 0.0

    def start(self, pids: list[int], seconds: float) -> None:
        self.pid = pids[0]
        self.cpu_s = cpu_seconds(self.pid)
        self.started = time.monotonic()
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGUSR2)

    async def stop(self) -> None:
        self.cpu_s = cpu_seconds(self.pid) - self.cpu_s
        self.window = time.monotonic() - self.started
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGUSR2)
        await asyncio.sleep(0.5)  # the bot writes its snapshot

    def window_counts(self) -> dict[str, dict[str, float]]:
        lines = self.out.read_text().splitlines() if self.out.exists() else []
        if len(lines) < 2:
            return {}
        first, last = json.loads(lines[0]), json.loads(lines[1])
        window: dict[str, dict[str, float]] = {}
        for key, after in last.items():
            if not isinstance(after, dict):
                continue
            before = first.get(key, {})
            window[key] = {k: v - before.get(k, 0) for k, v in after.items()}
        return window


def report(counts: dict[str, dict[str, float]], moves: int, probe: Counting, root: Path) -> str:
    per = max(moves, 1)
    lines = [
        f"bot {root}: {moves} moves in {probe.window:.1f} s; bot CPU {probe.cpu_s * 1000 / per:.2f}"
        f" ms per move (counting included); load average"
        f" {' '.join(f'{x:.2f}' for x in load_average())}",
        "",
        "| per move | count |",
        "|---|---:|",
    ]
    for name, n in sorted(counts.get("counts", {}).items()):
        lines.append(f"| {name} | {n / per:.3f} |")
    lines += ["", "| database thread | CPU ms per move |", "|---|---:|"]
    for name, seconds in sorted(counts.get("thread_cpu", {}).items(), key=lambda kv: -kv[1]):
        lines.append(f"| {name} | {seconds * 1000 / per:.3f} |")
    lines += ["", "| writer unit | per move |", "|---|---:|"]
    for name, n in sorted(counts.get("units", {}).items(), key=lambda kv: -kv[1]):
        if n:
            lines.append(f"| {name} | {n / per:.3f} |")
    statements, sizes = counts.get("statements", {}), counts.get("statement_bytes", {})
    lines += ["", "| statement (writer) | per move | bytes per move |", "|---|---:|---:|"]
    for name, n in sorted(statements.items(), key=lambda kv: -kv[1]):
        if n:
            lines.append(f"| {name} | {n / per:.3f} | {sizes.get(name, 0) / per:.0f} |")
    total_statements = sum(statements.values())
    lines.append(
        f"| **all** | **{total_statements / per:.3f}** | **{sum(sizes.values()) / per:.0f}** |"
    )
    lines += ["", "| read | per move |", "|---|---:|"]
    for name, n in sorted(counts.get("reads", {}).items(), key=lambda kv: -kv[1]):
        if n:
            lines.append(f"| {name} | {n / per:.3f} |")
    return "\n".join(lines)


MICRO = r"""
import asyncio, json, os, sys, tempfile, time
from pathlib import Path
from storage import Intent, IntentsRepo, SeatInfo, TablesRepo, open_database
import storage.writer as writer_module
import storage.sqlite as sqlite_module

if os.environ.get("MESA_BENCH_SWITCH_MS"):  # the interpreter's GIL switch interval, tried
    sys.setswitchinterval(float(os.environ["MESA_BENCH_SWITCH_MS"]) / 1000)
TABLES, MOVES, BUSY_MS, THINK_MS = (
    int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
)
STATE = json.dumps({"board": [[i, "x" * 20] for i in range(100)], "hands": {"1": list(range(40))}})
SNOWFLAKE = 1_450_000_000_000_000_000  # the clicks' interaction ids: Discord's, of 2026
counts = {"callbacks": 0, "statements": 0}
# what the writer thread hands the loop: one call per job (``_resolve``) or per batch
name = "_resolve_all" if hasattr(writer_module, "_resolve_all") else "_resolve"
original = getattr(writer_module, name)
def counted(*args, _original=original):
    counts["callbacks"] += 1
    return _original(*args)
setattr(writer_module, name, counted)
Session = sqlite_module.SqliteSession
base_execute = Session.execute
def execute(self, sql, parameters=(), /):
    counts["statements"] += 1
    return base_execute(self, sql, parameters)
Session.execute = execute


def _spin(n):
    total = 0
    for i in range(n):
        total += i
    return total


def _calibrate(ms):
    # a fixed amount of CPU work (not a wall-clock wait: a loaded machine stretches that)
    n = 100_000
    start = time.thread_time()
    _spin(n)
    return max(1, int(n * ms / 1000 / max(time.thread_time() - start, 1e-6)))


SPIN = _calibrate(BUSY_MS)


def busy(ms):
    _spin(SPIN)


async def table_moves(repo, intents, record, waits):
    for n in range(MOVES):
        intent = Intent(
            interaction_id=str(SNOWFLAKE + record.id * 100_000 + n), application_id="a", token="t",
            table_id=record.id, seat="1", version=record.version, action="p 1",
            locale="es", created_at=time.time(),
        )
        intents.start(intent)
        busy(BUSY_MS)  # the handler's work between the click and the move
        started = time.perf_counter()
        await repo.record_action(
            record, seat="1", action="p 1", state_json=STATE, version=record.version + 1,
            intent=intent,  # seats and meta unchanged, as a person's move leaves them
        )
        waits.append((time.perf_counter() - started) * 1000)
        record.version += 1
        busy(BUSY_MS)  # presenting the move
        await asyncio.sleep(THINK_MS / 1000 * (0.5 + (n * 7919 + record.id * 104729) % 100 / 100))


async def main():
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "micro.db")
        repo, intents = TablesRepo(db), IntentsRepo(db)
        seats = [SeatInfo(id="1", name="Ana"), SeatInfo(id="2", name="Bea")]
        records = []
        for t in range(TABLES):
            record = await repo.create(
                guild_id="g", channel_id=f"c{t}", game="triad", host_id="1", locale="es",
                options={}, seats=seats, seed="s",
            )
            await repo.start(record.id, seats, STATE, 0)
            records.append(await repo.get(record.id))
        writer = db._writer
        clock = time.pthread_getcpuclockid(writer._thread.ident)
        before = db.write_stats.transactions, db.write_stats.units
        counts["callbacks"] = counts["statements"] = 0
        spin0 = time.thread_time()
        for _ in range(20):
            busy(BUSY_MS)
        spin_ms = (time.thread_time() - spin0) * 1000 / 20
        cpu0, thread0, wall0 = time.process_time(), time.clock_gettime(clock), time.perf_counter()
        loop0 = time.thread_time()
        waits = []
        await asyncio.gather(*(table_moves(repo, intents, r, waits) for r in records))
        wall = time.perf_counter() - wall0
        loop_cpu = time.thread_time() - loop0
        moves = TABLES * MOVES
        writer_cpu = time.clock_gettime(clock) - thread0
        process_cpu = time.process_time() - cpu0
        waits.sort()
        print(json.dumps({
            "moves": moves,
            "writer jobs": (db.write_stats.units - before[1]) / moves,
            "transactions": (db.write_stats.transactions - before[0]) / moves,
            "callbacks to the loop": counts["callbacks"] / moves,
            "statements": counts["statements"] / moves,
            "writer thread CPU ms": 1000 * writer_cpu / moves,
            "process CPU ms (loop's busy work excluded)": 1000 * process_cpu / moves - 2 * spin_ms,
            "loop thread CPU ms (busy work excluded)": 1000 * loop_cpu / moves - 2 * spin_ms,
            "wall ms": 1000 * wall / moves,
            "commit wait p50 ms": waits[len(waits) // 2],
            "commit wait p99 ms": waits[int(len(waits) * 0.99)],
        }))
        await db.close()

asyncio.run(main())
"""


# What the one-move scripts (``UNITS``, ``COMMITS``) share: their arguments, a table's state
# and seats.
ONE_MOVE = r"""
import asyncio, json, os, sys, tempfile, time
from pathlib import Path
from storage import Intent, IntentsRepo, SeatInfo, TablesRepo, open_database

TABLES, ROUNDS = int(sys.argv[1]), int(sys.argv[2])
STATE = json.dumps({"board": [[i, "x" * 20] for i in range(100)], "hands": {"1": list(range(40))}})
SNOWFLAKE = 1_450_000_000_000_000_000  # the clicks' interaction ids: Discord's, of 2026
SEATS = [SeatInfo(id="1", name="Ana"), SeatInfo(id="2", name="Bea")]
"""


UNITS = (
    ONE_MOVE
    + r"""


def intent_of(record, n):
    return Intent(
        interaction_id=str(SNOWFLAKE + record.id * 100_000 + n), application_id="a", token="t" * 100,
        table_id=record.id, seat="1", version=record.version, action="p 1", locale="es",
        created_at=time.time(),
    )


async def one_round(repo, intents, records, n, person):
    # one move at a time, as a click queues it: its intent, then its move (one batch)
    for record in records:
        intent = intent_of(record, n) if person else None
        if intent is not None:
            intents.start(intent)
        # seats and meta as they were (a person's move whose timeouts are 0 already)
        await repo.record_action(
            record, seat="1", action="p 1", state_json=STATE, version=record.version + 1,
            intent=intent, wake_at=time.time() + 60,
        )
        record.version += 1


async def main():
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "units.db")
        repo, intents = TablesRepo(db), IntentsRepo(db)
        records = []
        for t in range(TABLES):
            record = await repo.create(
                guild_id="g", channel_id=f"c{t}", game="triad", host_id="1", locale="es",
                options={}, seats=SEATS, seed="s",
            )
            await repo.start(record.id, SEATS, STATE, 0)
            records.append(await repo.get(record.id))
        writer = db._writer
        clock = time.pthread_getcpuclockid(writer._thread.ident)
        statements = []
        await writer.submit(lambda c: c.set_trace_callback(statements.append), transactional=False)
        await one_round(repo, intents, records, 0, True)  # counted, not timed
        await writer.submit(lambda c: c.set_trace_callback(None), transactional=False)
        figures = {"statements (person's move)": len(statements) / TABLES}
        for person in (True, False):
            best_writer = best_loop = best_both = float("inf")
            for n in range(1, ROUNDS + 1):
                writer0, loop0 = time.clock_gettime(clock), time.thread_time()
                await one_round(repo, intents, records, n + (0 if person else ROUNDS), person)
                spent_writer = time.clock_gettime(clock) - writer0
                spent_loop = time.thread_time() - loop0
                best_writer = min(best_writer, spent_writer)
                best_loop = min(best_loop, spent_loop)
                # the best round of both together (two trees that split the work between
                # the threads differently compare on it)
                best_both = min(best_both, spent_writer + spent_loop)
            kind = "person's move" if person else "computer's move"
            figures[f"writer thread CPU us ({kind})"] = 1e6 * best_writer / TABLES
            figures[f"loop thread CPU us ({kind})"] = 1e6 * best_loop / TABLES
            figures[f"both threads CPU us ({kind})"] = 1e6 * best_both / TABLES
        print(json.dumps(figures))
        await db.close()

asyncio.run(main())
"""
)


COMMITS = (
    ONE_MOVE
    + r"""


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main():
    # next to the bot's own data (the file system checkpoints fsync on), not in /tmp
    with tempfile.TemporaryDirectory(dir=os.environ.get("MESA_BENCH_DIR")) as folder:
        writes = []
        db = await open_database(
            Path(folder) / "commits.db",
            observe=lambda name, ms: writes.append(ms) if name == "db_write" else None,
        )
        repo = TablesRepo(db)
        records = []
        for t in range(TABLES):
            record = await repo.create(
                guild_id="g", channel_id=f"c{t}", game="triad", host_id="1", locale="es",
                options={}, seats=SEATS, seed="s",
            )
            await repo.start(record.id, SEATS, STATE, 0)
            records.append(await repo.get(record.id))
        writes.clear()
        waits = []
        for _ in range(ROUNDS):
            for record in records:  # one move at a time: each its own transaction
                began = time.perf_counter()
                await repo.record_action(
                    record, seat="1", action="p 1", state_json=STATE, version=record.version + 1
                )
                waits.append((time.perf_counter() - began) * 1000)
                record.version += 1
        wal = Path(folder) / "commits.db-wal"
        figures = {}
        for name, values in (("db_write", writes), ("move's wait", waits)):
            for label, q in (("p50", 0.5), ("p99", 0.99), ("p99.9", 0.999)):
                figures[f"{name} {label} ms"] = pct(values, q)
            figures[f"{name} max ms"] = max(values)
        figures["WAL MB at the end"] = (wal.stat().st_size if wal.exists() else 0) / 1e6
        print(json.dumps(figures))
        await db.close()

asyncio.run(main())
"""
)


async def micro(args: argparse.Namespace) -> int:
    """``MICRO`` run by the interpreter of this venv with ``--bot-root``'s tree first on the
    path, ``--repeat`` times; prints each run's figures and their medians."""
    if args.commits:
        script, argv = COMMITS, [str(args.tables), str(args.moves)]
        title = (
            f"commits {args.bot_root}: {args.tables} tables x {args.moves} rounds, one move at a"
            " time through the writer (SQLite), on the disk of bench/"
        )
    elif args.units:
        script, argv = UNITS, [str(args.tables), str(args.moves)]
        title = (
            f"units {args.bot_root}: {args.tables} tables, one move at a time on an idle loop,"
            f" CPU per move the best of {args.moves} rounds by each thread's clock"
        )
    else:
        script = MICRO
        argv = [str(args.tables), str(args.moves), str(args.busy_ms), str(args.think_ms)]
        title = (
            f"micro {args.bot_root}: {args.tables} tables x {args.moves} moves, loop busy"
            f" {args.busy_ms} ms twice per move, {args.think_ms:.0f} ms (0.5-1.5 x) between a"
            " table's moves"
        )
    runs: list[dict[str, float]] = []
    env = {
        **os.environ,
        "PYTHONPATH": str(args.bot_root.resolve()),
        "MESA_BENCH_DIR": str(ROOT / "bench"),
    }
    if args.switch_ms:
        env["MESA_BENCH_SWITCH_MS"] = str(args.switch_ms)
    for _ in range(args.repeat):
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            script,
            *argv,
            env=env,
            cwd=args.bot_root,  # ``-c`` puts the working directory first on the path
            stdout=asyncio.subprocess.PIPE,
        )
        out, _ = await process.communicate()
        runs.append(json.loads(out.decode().strip().splitlines()[-1]))
    print(f"{title}; load average {' '.join(f'{x:.2f}' for x in load_average())}")
    print("| per move | " + " | ".join(f"run {i + 1}" for i in range(len(runs))) + " | median |")
    print("|---|" + "---:|" * (len(runs) + 1))
    for key in runs[0]:
        values = [run[key] for run in runs]
        cells = " | ".join(f"{v:.3f}" for v in values)
        print(f"| {key} | {cells} | {sorted(values)[len(values) // 2]:.3f} |")
    return 0


def waits(result: dict[str, Any]) -> str:
    """What the database's speed shows as (the bot's ``mesa.metrics`` phases, ms p50/p99): a
    move's wait for its commit, a transaction's time, a click's wait for its intent; and the
    load's ack and next view, the latencies those feed."""
    parts = [f"{result.get('moves_per_s')} moves/s"]
    phases = result.get("phase_ms") or {}
    for label, figure in (
        ("persist", phases.get("persist")),
        ("db_write", phases.get("db_write")),
        ("intent_record", phases.get("intent_record")),
        ("ack", result.get("ack_ms")),
        ("next view", result.get("next_view_ms")),
        ("public table", result.get("public_edit_ms")),
    ):
        figure = figure or {}
        parts.append(f"{label} p50/p99 {figure.get('p50')}/{figure.get('p99')}")
    return "waits (ms): " + "; ".join(parts)


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, list[str]]:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="45"
    )
    parser.add_argument("--micro", action="store_true", help="the writer alone, in-process")
    parser.add_argument(
        "--units", action="store_true", help="a move's write alone, one at a time: CPU per move"
    )
    parser.add_argument(
        "--commits", action="store_true", help="moves one at a time: each commit's time, p99.9"
    )
    parser.add_argument("--moves", type=int, default=30, help="--micro: moves per table (30)")
    parser.add_argument("--busy-ms", type=float, default=0.5, help="--micro: loop work (0.5)")
    parser.add_argument("--repeat", type=int, default=3, help="--micro: runs (3)")
    parser.add_argument(
        "--switch-ms", type=float, default=0.0, help="--micro: sys.setswitchinterval, ms (5)"
    )
    parser.add_argument(
        "--think-ms", type=float, default=200.0, help="--micro: a table's pause between moves"
    )
    return parser.parse_args(own), passed


async def main(argv: list[str] | None = None) -> int:
    args, passed = parse_args(argv)
    if args.micro or args.units or args.commits:
        return await micro(args)
    load_args = load.probe_args(args, passed)
    load.BOT_LAUNCHER = PRELUDE + load.BOT_LAUNCHER
    with tempfile.TemporaryDirectory(prefix="mesa-storage-") as folder:
        out = Path(folder) / "storage.jsonl"
        os.environ["MESA_BENCH_STORAGE"] = str(out)
        probe = Counting(out)
        load_args.window_probe = probe
        bot_folder = Path(folder) / "bot"
        bot_folder.mkdir()
        result = await load.run_one(args.tables, load_args, bot_folder)
        print(report(probe.window_counts(), result["moves"], probe, args.bot_root))
        print(waits(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
