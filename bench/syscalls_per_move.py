"""The kernel's share of the bot's CPU per move under ``bench/load.py``'s load (issue 29): each
thread's user and system CPU by the kernel's clock (``/proc/<pid>/task/<tid>/stat``), its
context switches and minor page faults, and its system calls by kind (``perf trace -s``), per
move, for the bot process and its worker processes (renders, searches); and the REST requests
and the connections opened for them per move (``TokenWire``'s counts).

    nice -n 10 .venv/bin/python bench/syscalls_per_move.py                 # 100 tables, 60 s
    nice -n 10 .venv/bin/python bench/syscalls_per_move.py --kernel        # + perf record
    nice -n 10 .venv/bin/python bench/syscalls_per_move.py --strace --keep-dir /tmp/sys
    nice -n 10 .venv/bin/python bench/syscalls_per_move.py --bot-root ../other    # before/after

The load is ``bench/load.py``'s (its options after ``--``). A tracer costs the bot system time
of its own (``perf trace`` took the bot's from 0.32 to 2.7 ms per move), so the measured
window is cut in two: its first half untraced gives the CPU figures, its second half traced
the calls, each per its own moves (the version steps the public messages showed, humans' and
computers', as ``bench/load.py`` counts them). ``perf trace`` reads the kernel's tracepoints
without stopping the bot (root, or ``perf_event_paranoid`` low enough); ``--strace`` stops it
at every call but names each file descriptor (``--keep-dir``: ``strace.txt``, e.g. which
writes go to a socket, a pipe, the log); ``--kernel`` samples the bot with ``perf record`` and
prints each thread's kernel time by where it goes (system calls by kind, TCP send, softirqs,
switches, page faults). A thread is named by the bot's own ``threading`` names (a SIGUSR2 has
the bot write them with its ``TokenWire``'s counts, ``THREADS_PRELUDE``): the event loop's
"MainThread", the storage writer's "db-writer", aiosqlite's readers, the checkpointer; a worker
process by its title (``mesa-render`` / ``mesa-search``). Calls that never enter the kernel
(``time.monotonic``, ``time.time``, ``perf_counter``: the vDSO) are not seen, as they cost no
system time; CPU-time clocks (``time.process_time``, ``thread_time``) are real calls.

Session 33 (100 tables, ~24 moves/s, five runs, a shared 2-core VM): the bot process's system
time is 6.8-9.9 % of its CPU (0.25-0.46 ms per move of 3.8-4.7), the event loop's thread
0.24-0.35 of it. ``--kernel`` on the loop's thread (ms per move): write 0.12 (TCP send 0.09:
the fake's receiving side runs in the bot's call on loopback), epoll_pwait 0.10, futex 0.05,
read 0.04, page faults 0.02, getpid 0.005. The loop's calls per move: getpid 21-23 (CPython
3.11's ``asyncio.get_running_loop`` and ``Future()`` without a loop call ``getpid()``; 0.19 us
each), epoll_pwait 12 (a loop turn each), read 7 (one per REST answer, gateway message, eventfd
wake-up; a pipe reply takes two: length then body), write 7 (one per REST request, 3.1 a move,
and per job written to a worker, 0.85; the rest is the bench's own DEBUG metric lines, 73 a
second), futex 5 (GIL and queue hand-offs with the writer thread, which makes as many), 10
context switches. No ``epoll_ctl`` churn, ``setsockopt``, ``getsockname``, nor
``clock_gettime`` per request. The writer: pwrite64 9, fcntl 7.5 (SQLite's locks), 1.3 eventfd
writes (one hand-back per batch) per move; a render worker: 2 reads and a write per image,
~12 ``clock_gettime`` (its stages' ``process_time``). Connections opened: 0.006-0.042 per move
in four runs (socket, connect, setsockopt, getsockname, ... and a handshake each; 0.06 in a
traced half on a loaded machine) while the idle pool gave the newest connection first, none in
four runs since it gives the one idle longest (``token_wire._Origin.idle_one``).

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench.load as load  # noqa: E402
from bench.load_probe import TICKS, descendants, load_average  # noqa: E402

# At each SIGUSR2 the bot appends a line to MESA_BENCH_THREADS: its threads' names by native id,
# and its REST connections' counts (``TokenWire``: requests written, connections opened).
THREADS_PRELUDE = (
    "import os as _os\n"
    "if _os.environ.get('MESA_BENCH_THREADS'):\n"
    "    import json as _json, signal as _signal, threading as _threading\n"
    "    import bot.ui.token_wire as _token_wire\n"
    "    _wires, _wire_init = [], _token_wire.TokenWire.__init__\n"
    "    def _kept_wire(self, *args, **kwargs):\n"
    "        _wire_init(self, *args, **kwargs)\n"
    "        _wires.append(self)\n"
    "    _token_wire.TokenWire.__init__ = _kept_wire\n"
    "    def _name_threads(*_):\n"
    "        names = {t.native_id: t.name for t in _threading.enumerate()}\n"
    "        sent, opened = sum(w.sent for w in _wires), sum(w.opened for w in _wires)\n"
    "        wire = {'sent': sent, 'opened': opened}\n"
    "        with open(_os.environ['MESA_BENCH_THREADS'], 'a') as out:\n"
    "            out.write(_json.dumps({'threads': names, 'wire': wire}) + '\\n')\n"
    "    _signal.signal(_signal.SIGUSR2, _name_threads)\n"
)

# perf trace -s: "<comm> (<tid>), <n> events, …" then one "<syscall> <calls> <errors> …" row
# per kind; strace -f -o: "<tid> <syscall>(…" per call ("<… resumed>" lines are no new call).
PERF_THREAD = re.compile(r"^\s*(\S.*?) \((\d+)\), \d+ events")
PERF_ROW = re.compile(r"^\s+([a-z_0-9]+)\s+(\d+)\s+(\d+)\s+[\d.]+")
STRACE_CALL = re.compile(r"^(\d+)\s+([a-z_0-9]+)\(")


Figures = tuple[float, float, int, int]  # user s, system s, context switches, minor faults


def times(pid: int, tid: int | None = None) -> Figures:
    """User and system CPU seconds, context switches (voluntary or not) and minor page faults
    of a process (its threads summed) or of one thread."""
    base = f"/proc/{pid}" if tid is None else f"/proc/{pid}/task/{tid}"
    fields = Path(f"{base}/stat").read_text().rsplit(")", 1)[1].split()
    switches = 0
    for line in Path(f"{base}/status").read_text().splitlines():
        if "ctxt_switches:" in line:
            switches += int(line.split()[1])
    return int(fields[11]) / TICKS, int(fields[12]) / TICKS, switches, int(fields[7])


def title(pid: int) -> str:
    """A worker process's title (``mesa-render``, ``mesa-search``) or its command's name."""
    with contextlib.suppress(OSError):
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if words and words[0] and not words[0].startswith(b"/"):
            return words[0].decode(errors="replace").split()[0]
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/comm").read_text().strip()
    return "gone"


def snapshot(bot: int) -> dict[tuple[int, int], Figures]:
    """(pid, tid) -> user, system seconds: every thread of the bot, every worker process."""
    spent: dict[tuple[int, int], Figures] = {}
    for task in Path(f"/proc/{bot}/task").iterdir():
        with contextlib.suppress(OSError, ValueError):
            spent[(bot, int(task.name))] = times(bot, int(task.name))
    for child in descendants(bot):
        with contextlib.suppress(OSError):
            spent[(child, child)] = times(child)
    return spent


class CountedWorld(load.World):
    """``bench/load.py``'s world, kept where the probe reads its moves (``version_steps``)."""

    last: CountedWorld | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        CountedWorld.last = self


def moves_now() -> int:
    world = CountedWorld.last
    return world.stats.version_steps if world is not None else 0


@dataclass
class Tracer:
    """``bench/load.py``'s window probe. The window's first half is measured untraced (each
    thread's CPU by the kernel's clock: a tracer adds system time of its own), the second half
    traced (system calls by kind; or ``perf record``'s kernel samples, ``kernel``); each half
    per its own moves."""

    folder: Path
    tool: str  # "perf" (perf trace -s), "strace" (strace -f) or "record" (perf record)
    names_file: Path
    bot: int = 0
    before: dict[tuple[int, int], Figures] = field(default_factory=dict)
    middle: dict[tuple[int, int], Figures] = field(default_factory=dict)
    workers: dict[int, str] = field(default_factory=dict)
    moves: list[int] = field(default_factory=list)  # at the start, the middle, the end
    stamps: list[float] = field(default_factory=list)
    process: asyncio.subprocess.Process | None = None
    _task: asyncio.Future[None] | None = None

    @property
    def out(self) -> Path:
        return self.folder / {"strace": "strace.txt", "perf": "perf-trace.txt"}.get(
            self.tool, "perf.data"
        )

    def start(self, pids: list[int], seconds: float) -> None:
        self.bot = pids[0]
        with contextlib.suppress(OSError):
            os.kill(self.bot, signal.SIGUSR2)
        self.workers = {child: title(child) for child in descendants(self.bot)}
        self.before = snapshot(self.bot)
        self.moves, self.stamps = [moves_now()], [time.monotonic()]
        self._task = asyncio.ensure_future(self._second_half(seconds / 2))

    async def _second_half(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self.middle = snapshot(self.bot)
        self.moves.append(moves_now())
        self.stamps.append(time.monotonic())
        with contextlib.suppress(OSError):
            os.kill(self.bot, signal.SIGUSR2)
        traced = ",".join(str(p) for p in [self.bot, *self.workers])
        if self.tool == "strace":
            command = ["strace", "-f", "-qq", "-y", "-s", "48", "-o", str(self.out), "-p", traced]
        elif self.tool == "perf":  # the summary alone: every call counted, none printed
            command = ["perf", "trace", "-s", "-o", str(self.out), "-p", traced]
        else:
            command = ["perf", "record", "-q", "-g", "-e", "cpu-clock", "-o", str(self.out)]
            command += ["-p", traced]
        self.process = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
        )

    async def stop(self) -> None:
        if self._task is not None:
            await self._task
        self.moves.append(moves_now())
        self.stamps.append(time.monotonic())
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), 60)
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()

    def _snapshots(self) -> list[dict[str, Any]]:
        """What the bot wrote at each SIGUSR2: the window's start, middle and end."""
        with contextlib.suppress(OSError, ValueError):
            return [json.loads(line) for line in self.names_file.read_text().splitlines()]
        return []

    def names(self) -> dict[int, str]:
        """The bot's threads by native id, its worker processes by pid."""
        found: dict[int, str] = {}
        for snapshot in self._snapshots():
            found.update({int(k): v for k, v in snapshot["threads"].items()})
        found.update(self.workers)
        return found

    def wire(self) -> dict[str, float]:
        """REST requests and connections opened per move, in the untraced half."""
        snapshots = self._snapshots()
        if len(snapshots) < 2:
            return {}
        first, second = snapshots[0]["wire"], snapshots[1]["wire"]
        moves = max(self.moves[1] - self.moves[0], 1)
        return {key: (second[key] - first[key]) / moves for key in first}

    def calls(self) -> dict[int, Counter[str]]:
        """System calls by thread id, by kind, in the traced half."""
        by_thread: dict[int, Counter[str]] = defaultdict(Counter)
        if self.tool not in ("perf", "strace") or not self.out.exists():
            return by_thread
        tid = None
        for line in self.out.read_text(errors="replace").splitlines():
            if self.tool == "strace":
                found = STRACE_CALL.match(line)
                if found:
                    by_thread[int(found[1])][found[2]] += 1
                continue
            thread = PERF_THREAD.match(line)
            if thread:
                tid = int(thread[2])
                continue
            row = PERF_ROW.match(line)
            if row and tid is not None:
                by_thread[tid][row[1]] += int(row[2])
        return by_thread


@dataclass
class Row:
    """One thread's figures (or a group's: aiosqlite's readers, a pool's processes), per move:
    CPU in the untraced half, system calls in the traced one."""

    user_ms: float = 0.0
    system_ms: float = 0.0
    switches: float = 0.0
    faults: float = 0.0
    threads: int = 0
    calls: dict[str, float] = field(default_factory=dict)

    def add(self, other: Row) -> None:
        self.user_ms += other.user_ms
        self.system_ms += other.system_ms
        self.switches += other.switches
        self.faults += other.faults
        self.threads += other.threads
        for kind, n in other.calls.items():
            self.calls[kind] = self.calls.get(kind, 0.0) + n


def rows(tracer: Tracer) -> dict[str, Row]:
    names = tracer.names()
    by_thread = tracer.calls()
    untraced = max(tracer.moves[1] - tracer.moves[0], 1)
    traced = max(tracer.moves[2] - tracer.moves[1], 1)
    found: dict[str, Row] = defaultdict(Row)
    for key in tracer.before.keys() | tracer.middle.keys():
        pid, tid = key
        first = tracer.before.get(key, (0.0, 0.0, 0, 0))
        user, system, switches, faults = (
            (b - a) / untraced for a, b in zip(first, tracer.middle.get(key, first), strict=True)
        )
        name = names.get(tid, f"thread {tid}")
        if name.startswith("Thread-") or "_connection_worker_thread" in name:
            name = "db readers (aiosqlite)"
        elif pid != tracer.bot:
            name = f"workers: {name}"
        calls = {kind: n / traced for kind, n in by_thread.get(tid, Counter()).items()}
        found[name].add(Row(1000 * user, 1000 * system, switches, faults, 1, calls))
    return {
        name: row
        for name, row in found.items()
        if row.user_ms + row.system_ms >= 0.0005 or sum(row.calls.values()) >= 0.005
    }


# The columns: the calls a move's exchanges make (sockets, pipes, the loop's poll, thread
# hand-offs, SQLite's file I/O and locks); the rest are summed in "other".
WATCHED = (
    "write",
    "read",
    "epoll_pwait",
    "futex",
    "getpid",
    "clock_gettime",
    "pwrite64",
    "pread64",
    "fcntl",
)


def report(tracer: Tracer, root: Path) -> str:
    found = rows(tracer)
    bot = Row()
    everything = Row()
    for name, row in found.items():
        everything.add(row)
        if not name.startswith("workers:"):
            bot.add(row)
    halves = [tracer.stamps[1] - tracer.stamps[0], tracer.stamps[2] - tracer.stamps[1]]
    share = 100 * bot.system_ms / max(bot.user_ms + bot.system_ms, 1e-9)
    wire = tracer.wire()
    lines = [
        f"bot {root}: untraced half {tracer.moves[1] - tracer.moves[0]} moves in"
        f" {halves[0]:.1f} s (CPU), traced half ({tracer.tool}) {tracer.moves[2] - tracer.moves[1]}"
        f" moves in {halves[1]:.1f} s (calls); load average"
        f" {' '.join(f'{x:.2f}' for x in load_average())}",
        f"bot process: user {bot.user_ms:.3f} + system {bot.system_ms:.3f} ms per move (system"
        f" {share:.1f} %); with its workers: user {everything.user_ms:.3f} + system"
        f" {everything.system_ms:.3f}",
        f"REST requests per move (TokenWire) {wire.get('sent', 0.0):.2f}, connections opened"
        f" per move {wire.get('opened', 0.0):.4f}",
        "",
    ]
    counted = bool(everything.calls)  # none with --kernel: its half is perf record's
    columns = [*(("syscalls/move", *WATCHED, "other") if counted else ())]
    lines.append("| thread | user ms/move | system ms/move | switches/move | faults/move |")
    lines[-1] += "".join(f" {column} |" for column in columns)
    lines.append("|---|" + "---:|" * (len(columns) + 4))
    for name, row in sorted(found.items(), key=lambda kv: -(kv[1].user_ms + kv[1].system_ms)):
        lines.append(_line(name, row, counted))
    lines.append(_line("all", everything, counted))
    if counted:
        lines += ["", "every kind, per move (bot and workers): " + _kinds(everything.calls)]
        lines += [f"  {name}: {_kinds(row.calls)}" for name, row in sorted(found.items())]
    return "\n".join(lines)


def _line(name: str, row: Row, counted: bool) -> str:
    threads = f" (x{row.threads})" if row.threads > 1 else ""
    line = (
        f"| {name}{threads} | {row.user_ms:.3f} | {row.system_ms:.3f} | {row.switches:.2f} |"
        f" {row.faults:.2f} |"
    )
    if not counted:
        return line
    total = sum(row.calls.values())
    other = total - sum(row.calls.get(k, 0.0) for k in WATCHED)
    watched = "".join(f" {row.calls.get(k, 0.0):.2f} |" for k in WATCHED)
    return f"{line} {total:.2f} |{watched} {other:.2f} |"


def _kinds(calls: dict[str, float]) -> str:
    ordered = sorted(calls.items(), key=lambda kv: -kv[1])
    return ", ".join(f"{kind} {n:.2f}" for kind, n in ordered if n >= 0.005)


# ``--kernel``: where a thread's kernel time goes, by the kernel function a sample's stack
# passes through (``perf report --children``): the system calls' entries (``write`` and
# ``read`` as ``ksys_*``), a switch away on the way back to user space, page faults, timer
# interrupts, network softirqs (loopback TCP: the receiver's side runs in the sender's call).
KERNEL_ENTRIES = {
    "entry_SYSCALL_64_after_hwframe": "all system calls",
    "ksys_write": "write",
    "ksys_read": "read",
    "__x64_sys_epoll_pwait": "epoll_pwait",
    "__x64_sys_futex": "futex",
    "__x64_sys_getpid": "getpid",
    "__x64_sys_clock_gettime": "clock_gettime",
    "__x64_sys_pwrite64": "pwrite64",
    "__x64_sys_pread64": "pread64",
    "__x64_sys_fcntl": "fcntl",
    "__x64_sys_fdatasync": "fdatasync",
    "tcp_sendmsg": "  (of which TCP send)",
    "handle_softirqs": "  (softirqs: loopback receive, timers)",
    "exit_to_user_mode_loop": "switched away on return",
    "asm_exc_page_fault": "page faults",
    "asm_sysvec_apic_timer_interrupt": "timer interrupts",
}
PERF_LINE = re.compile(r"^\s+([\d.]+)%\s+(?:([\d.]+)%\s+)?(\d+):\S+\s+(.*?)\s*$")


async def _perf_report(data: Path, *options: str) -> str:
    process = await asyncio.create_subprocess_exec(
        *("perf", "report", "-i", str(data), "--stdio", "-g", "none", *options),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    output, _ = await process.communicate()
    return output.decode(errors="replace")


async def kernel_report(tracer: Tracer) -> str:
    """``perf record``'s samples (cpu-clock) of the traced half, as ms per move: each thread's
    kernel time, and where it goes (``KERNEL_ENTRIES``). In a VM, cpu-clock samples taken
    while interrupts are off land where they are turned on again (``finish_task_switch``,
    ``_raw_spin_unlock_irqrestore``): a context switch's share reads high."""
    moves = max(tracer.moves[2] - tracer.moves[1], 1)
    by_dso = await _perf_report(tracer.out, "--no-children", "--sort", "pid,dso")
    counted = re.search(r"Event count \(approx\.\): (\d+)", by_dso)
    if counted is None:
        return "no perf samples"
    ms_per_pct = int(counted[1]) / 1e6 / 100 / moves  # cpu-clock counts nanoseconds
    totals: Counter[int] = Counter()
    kernel: Counter[int] = Counter()
    for line in by_dso.splitlines():
        found = PERF_LINE.match(line)
        if found:
            tid = int(found[3])
            totals[tid] += float(found[1])
            if "[kernel" in found[4]:
                kernel[tid] += float(found[1])
    entries: dict[int, dict[str, float]] = defaultdict(dict)
    by_symbol = await _perf_report(tracer.out, "--children", "--sort", "pid,sym")
    for line in by_symbol.splitlines():
        found = PERF_LINE.match(line)
        if found and found[4].startswith("[k] "):
            symbol = found[4][4:]
            if symbol in KERNEL_ENTRIES:
                entries[int(found[3])][symbol] = float(found[1])
    names = tracer.names()
    lines = [
        "",
        f"kernel time by perf record (cpu-clock, traced half, {moves} moves), ms per move:",
        "| thread | CPU sampled | kernel | " + " | ".join(KERNEL_ENTRIES.values()) + " |",
        "|---|" + "---:|" * (len(KERNEL_ENTRIES) + 2),
    ]
    for tid, pct in totals.most_common():
        if pct * ms_per_pct < 0.005:
            continue
        figures = [f"{entries[tid].get(s, 0.0) * ms_per_pct:.3f}" for s in KERNEL_ENTRIES]
        lines.append(
            f"| {names.get(tid, f'thread {tid}')} | {pct * ms_per_pct:.3f} |"
            f" {kernel[tid] * ms_per_pct:.3f} | " + " | ".join(figures) + " |"
        )
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, list[str]]:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="45"
    )
    parser.set_defaults(tables=100, window=60.0, warmup=20.0)
    tools = parser.add_mutually_exclusive_group()
    tools.add_argument("--strace", action="store_true", help="strace -f instead of perf trace")
    tools.add_argument(
        "--kernel", action="store_true", help="perf record the traced half: kernel functions"
    )
    parser.add_argument("--keep-dir", type=Path, help="keep the trace and the bot's folder here")
    return parser.parse_args(own), passed


async def main(argv: list[str] | None = None) -> int:
    args, passed = parse_args(argv)
    tool = "strace" if args.strace else "record" if args.kernel else "perf"
    if shutil.which("strace" if args.strace else "perf") is None:
        print(f"{tool} not found", file=sys.stderr)
        return 2
    load_args = load.probe_args(args, passed)
    load.BOT_LAUNCHER = THREADS_PRELUDE + load.BOT_LAUNCHER
    load.World = CountedWorld  # type: ignore[misc]
    with contextlib.ExitStack() as stack:
        if args.keep_dir is not None:
            folder = args.keep_dir
            folder.mkdir(parents=True, exist_ok=True)
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mesa-sys-")))
        names_file = folder / "bot-snapshots.jsonl"
        names_file.unlink(missing_ok=True)
        os.environ["MESA_BENCH_THREADS"] = str(names_file)
        tracer = Tracer(folder, tool, names_file)
        load_args.window_probe = tracer
        bot_folder = folder / "bot"
        bot_folder.mkdir(exist_ok=True)
        result = await load.run_one(args.tables, load_args, bot_folder)
        print(report(tracer, args.bot_root))
        if args.kernel:
            print(await kernel_report(tracer))
        print(
            f"{result.get('moves_per_s')} moves/s; REST per move by route:"
            f" {json.dumps(result.get('rest_per_move_by_route'))}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
