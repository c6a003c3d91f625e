"""Where the bot process's own CPU goes under the load of ``bench/load.py``: the real bot
(``python -m bot``) against the fake Discord with N busy tables of all five games, sampled by
py-spy for the measured window only, printed as CPU milliseconds per move by area and by
hottest function.

    .venv/bin/python bench/profile_live.py                          # 300 tables, unpaced
    .venv/bin/python bench/profile_live.py --tables 500 --window 30
    .venv/bin/python bench/profile_live.py --bot-root ../main-checkout    # the same load, another tree
    .venv/bin/python bench/profile_live.py --report DIR             # the tables again from --keep-dir

The load is ``bench/load.py``'s (its options are passed through after ``--``, e.g.
``-- --channel-play 0.5``); py-spy (``pip install -e ".[bench]"``, root or ``ptrace_scope`` 0)
records the bot process's threads for the window (``--nonblocking``: the bot is never paused).
A sample is put in one area by its stack (``AREAS``: the innermost frame that belongs to a known
part decides, with two exceptions: discord.py building objects is "gateway" when a gateway frame
is on the stack and "HTTP answers" when a REST call is; the loop's own frames count as asyncio
only when nothing else is on the stack). Each thread's samples are scaled to the CPU seconds the
kernel counted for that very thread in the window (``/proc/<pid>/task/<tid>/stat``), divided by
the moves the public messages showed (humans' and computers', as ``bench/load.py`` does): py-spy
counts a thread waiting for the GIL as busy, so scaling every sample to the process's CPU gave
the database threads, woken for each write, ~4x their CPU (session 17: 1.00 ms per move by
samples, 0.26-0.40 by the kernel's clock). Garbage collection is timed inside the bot
(``gc.callbacks``, the collecting thread's CPU time) for the same window: py-spy sees no GC
frame, its samples land in whatever allocated last, so that row is a part of the others.

The same holds inside one thread: the event loop's thread waiting for the GIL (or in uvloop's
poll, the GIL released) is sampled busy in ``asyncio/runners.py:run`` alone, the uvloop frames
being native, and that share of the thread's CPU lands in "asyncio overhead". ``--gil`` keeps
only samples of a thread holding the GIL (py-spy ``--gil``; a thread's few GIL-free system
calls are left out too). Measured (session 18, 300 tables, back to back, loaded machine):
asyncio overhead 1.04 ms per move (21 %) by every sample, 0.10 ms (2 %) by GIL-holding ones;
``perf record -e cpu-clock`` on the loop's thread agrees with the latter: 79 % of its CPU in
libpython, 7.6 % in the kernel, 2.4 % in uvloop. A task costs uvloop ~1.5 µs.

A call that wakes another thread or process (the writer's queue put, a socket write to the
fake Discord on this machine) can be sampled while its thread, preempted, still holds the GIL:
such samples are wall time, not CPU. Session 25 (300 tables, ``--gil``, a loaded machine):
``storage/writer.py:submit`` 0.33-0.44 and ``token_wire`` ``send`` 0.35 ms per move by samples,
while the loop thread's system time was 5 % of its CPU (0.2 ms per move) and ``perf record -e
cpu-clock`` on it found 80 % libpython, 7.8 % kernel. The report prints the loop thread's
system time beside its samples.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import ast
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
import bench.profile_move as move  # noqa: E402
from bench.load_probe import TICKS, cpu_seconds, load_average  # noqa: E402

# Timed inside the bot: every collection's CPU time (the collecting thread's), written to the
# file MESA_BENCH_GC names at each SIGUSR1 (its cumulative seconds and collections, then the
# slowest collection of each generation since the previous SIGUSR1: the window's, at its end).
# MESA_BENCH_GC_THRESHOLDS ("a,b,c", ``--gc-thresholds``) tries other thresholds than
# ``bot/ops/collector.py``'s without editing it: the bot's own ``gc.set_threshold`` is ignored.
GC_PRELUDE = (
    "import os as _os\n"
    "if _os.environ.get('MESA_BENCH_GC'):\n"
    "    import gc as _gc, signal as _signal, time as _time\n"
    "    _spent = [0.0, 0, 0.0, 0.0, 0, 0.0]\n"
    "    _slow = [0.0, 0.0, 0.0]\n"
    "    def _timed(phase, info):\n"
    "        if phase == 'start':\n"
    "            _spent[2] = _time.thread_time()\n"
    "        else:\n"
    "            spent = _time.thread_time() - _spent[2]\n"
    "            _spent[0] += spent\n"
    "            _spent[1] += 1\n"
    "            if info['generation'] == 2:\n"
    "                _spent[3] += spent\n"
    "                _spent[4] += 1\n"
    "            _slow[info['generation']] = max(_slow[info['generation']], spent)\n"
    "    _gc.callbacks.append(_timed)\n"
    "    def _dump(*_):\n"
    "        with open(_os.environ['MESA_BENCH_GC'], 'a') as _out:\n"
    "            _out.write(f'{_spent[0]} {_spent[1]} {_spent[3]} {_spent[4]} {_slow}\\n')\n"
    "        _slow[:] = [0.0, 0.0, 0.0]\n"
    "    _signal.signal(_signal.SIGUSR1, _dump)\n"
    "    if _os.environ.get('MESA_BENCH_GC_THRESHOLDS'):\n"
    "        _gc.set_threshold(*map(int, _os.environ['MESA_BENCH_GC_THRESHOLDS'].split(',')))\n"
    "        _gc.set_threshold = lambda *_: None\n"
)

# ``--count-tasks``: every task the bot's loop creates, counted by its coroutine's name (a task
# factory, set as ``asyncio.Runner`` starts the bot's loop), written to the file
# MESA_BENCH_TASKS names at each SIGUSR1 (one JSON line: the window's start, then its end). The
# factory costs CPU of its own: the CPU figures of such a run are not compared with others'.
TASKS_PRELUDE = (
    "if _os.environ.get('MESA_BENCH_TASKS'):\n"
    "    import asyncio as _asyncio, collections as _collections, json as _json\n"
    "    import signal as _signal\n"
    "    _made = _collections.Counter()\n"
    "    _run = _asyncio.Runner.run\n"
    "    def _factory(loop, coro, **kw):\n"
    "        _made[getattr(coro, '__qualname__', type(coro).__name__)] += 1\n"
    "        return _asyncio.Task(coro, loop=loop, **kw)\n"
    "    def _counting_run(self, coro, **kw):\n"
    "        self.get_loop().set_task_factory(_factory)\n"
    "        return _run(self, coro, **kw)\n"
    "    _asyncio.Runner.run = _counting_run\n"
    "    _before = _signal.getsignal(_signal.SIGUSR1)\n"
    "    def _dump_tasks(*args):\n"
    "        with open(_os.environ['MESA_BENCH_TASKS'], 'a') as _out:\n"
    "            _out.write(_json.dumps(_made) + '\\n')\n"
    "        if callable(_before):\n"
    "            _before(*args)\n"
    "    _signal.signal(_signal.SIGUSR1, _dump_tasks)\n"
)

RULES = dict(move.BOT_RULES)  # bench/profile_move.py's markers, where an area is one of its buckets
# Innermost frame first: the first area one of whose markers a frame holds names the sample.
AREAS: list[tuple[str, tuple[str, ...]]] = [
    (
        "render hand-off (pipe sends, pickle)",
        (
            "/multiprocessing/",
            "/pickle",
            "/bot/pipe_workers.py",
            "/bot/workers.py",
            "/bot/ui/rendering.py",
        ),
    ),
    (
        "DB writer hand-off (submit, queue)",
        ("/storage/writer.py:submit", "/storage/intents.py", "/queue.py"),
    ),
    ("JSON (orjson, json)", RULES["JSON (json, orjson)"]),
    ("pydantic (validate, dump)", RULES["pydantic (validate, dump)"]),
    (
        "discord.py: objects (Interaction, Message, components)",
        RULES["discord.py: parse messages/events"]
        + (
            "/discord/permissions.py",
            "/discord/app_commands/",
            "/discord/ext/",
            "/discord/client.py",
        ),
    ),
    ("gateway receive (websocket, zlib)", RULES["discord.py: gateway (websocket)"]),
    (
        "HTTP send/receive (discord.py, aiohttp, gate)",
        RULES["HTTP: discord.py + aiohttp client"] + ("/ssl.py",),
    ),
    (
        "payload building (cards, components, texts)",
        (
            "/discord/ui/",
            "/bot/ui/v2.py",
            "/bot/ui/payload.py",
            "/bot/ui/layout.py",
            "/bot/ui/answer_layout.py",
            "/bot/ui/presenter.py",
            "/presenter",
            "/bot/ui/text.py",
            "/bot/i18n/",
            "/babel/",
        ),
    ),
    ("DB (loop side: storage, aiosqlite)", RULES["storage (loop side)"]),
    ("games (engine, views, legal moves)", ("/games/",)),
    ("our handlers (bot/: cogs, service, ui)", ("/bot/",)),
    ("logging", ("/logging/",)),
]
ASYNCIO = (
    "asyncio overhead (loop, tasks, selectors)",
    ("/asyncio/", "selectors.py", "/uvloop/", "/contextvars", "/concurrent/"),
)
OBJECTS = AREAS[4][0]
GATEWAY_CONTEXT = ("/discord/gateway.py",)
HTTP_CONTEXT = (
    "/discord/http.py",
    "/discord/webhook/",
    "/bot/ui/http_gate.py",
    "/bot/ui/token_wire.py",
)


@dataclass
class Profile:
    areas: Counter[str] = field(default_factory=Counter)  # the event loop's (MainThread)
    leaves: Counter[str] = field(default_factory=Counter)  # innermost function (own time)
    cumulative: Counter[str] = field(default_factory=Counter)  # with callees
    # the other threads' busy samples, by thread name and area
    threads: dict[str, Counter[str]] = field(default_factory=dict)
    idle: int = 0

    def busy(self) -> int:
        return sum(self.areas.values())


def area_of(keys: list[str]) -> str:
    for key in reversed(keys):
        for name, markers in AREAS:
            if any(m in key for m in markers):
                if name == OBJECTS:
                    if any(m in k for k in keys for m in GATEWAY_CONTEXT):
                        return "gateway parse: " + name
                    if any(m in k for k in keys for m in HTTP_CONTEXT):
                        return "HTTP answers parsed: " + name
                if name.startswith("HTTP") and any(m in k for k in keys for m in GATEWAY_CONTEXT):
                    return "gateway receive (websocket, zlib)"
                return name
    for key in reversed(keys):
        if any(m in key for m in ASYNCIO[1]):
            return ASYNCIO[0]
    return "other (stdlib)"


def classify(
    count: int, processes: list[str], keys: list[str], thread: str, profile: Profile
) -> None:
    if len(processes) > 1:
        return  # a worker process (renders are bench/profile_move.py's)
    if not keys or move.idle(keys[-1]):
        profile.idle += count
        return
    if thread != "MainThread":
        profile.threads.setdefault(thread, Counter())[move.thread_bucket(keys, thread)] += count
        return
    profile.areas[area_of(keys)] += count
    profile.leaves[_function(keys[-1])] += count
    for function in {_function(k) for k in keys}:
        profile.cumulative[function] += count


def _function(key: str) -> str:
    return key.split("site-packages/")[-1].split("/lib/python3")[-1].rsplit(":", 1)[0]


def parse(path: Path) -> Profile:
    profile = Profile()
    for sample in move.samples(path):
        classify(*sample, profile)
    return profile


class Spy:
    """``bench/load.py``'s window probe: py-spy on the bot process, its CPU from /proc and its
    GC time, from the window's start to its end."""

    def __init__(
        self, py_spy: str, rate: int, out: Path, gc_file: Path, gil_only: bool = False
    ) -> None:
        self.py_spy, self.rate, self.out, self.gc_file = py_spy, rate, out, gc_file
        self.gil_only = gil_only  # only samples of threads holding the GIL (``--gil``)
        self.process: asyncio.subprocess.Process | None = None
        self.task: asyncio.Task[Any] | None = None
        self.pid = 0
        self.cpu_s = 0.0
        self.started = 0.0
        self.window = 0.0
        self.thread_cpu_s: dict[int, float] = {}  # by native thread id
        self.loop_kernel_s = 0.0  # the loop thread's system time alone (``kernel_seconds``)

    def start(self, pids: list[int], seconds: float) -> None:
        self.pid = pids[0]
        self.cpu_s = cpu_seconds(self.pid)
        self.thread_cpu_s = thread_cpu_seconds(self.pid)
        self.loop_kernel_s = kernel_seconds(self.pid)
        self.started = time.monotonic()
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGUSR1)
        self.task = asyncio.ensure_future(
            asyncio.create_subprocess_exec(
                *move.spy_command(
                    self.py_spy, self.pid, self.rate, seconds, self.out, subprocesses=False
                ),
                *(["--gil"] if self.gil_only else []),
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
            )
        )

    async def stop(self) -> None:
        self.cpu_s = cpu_seconds(self.pid) - self.cpu_s
        before, after = self.thread_cpu_s, thread_cpu_seconds(self.pid)
        self.thread_cpu_s = {tid: cpu - before.get(tid, 0.0) for tid, cpu in after.items()}
        self.loop_kernel_s = kernel_seconds(self.pid) - self.loop_kernel_s
        self.window = time.monotonic() - self.started
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGUSR1)
        assert self.task is not None
        process = await self.task
        await process.wait()

    def gc(self) -> tuple[float, int, float, int, list[float]]:
        """GC CPU seconds and collections in the window, then those of the full collections
        alone, then the slowest collection of each generation in the window, in seconds (zeros
        if the bot wrote nothing)."""
        with contextlib.suppress(OSError, ValueError, IndexError, SyntaxError):
            first, last = self.gc_file.read_text().splitlines()[:2]
            before, after = first.split(maxsplit=4), last.split(maxsplit=4)
            return (
                float(after[0]) - float(before[0]),
                int(after[1]) - int(before[1]),
                float(after[2]) - float(before[2]),
                int(after[3]) - int(before[3]),
                [float(x) for x in ast.literal_eval(after[4])],
            )
        return 0.0, 0, 0.0, 0, [0.0, 0.0, 0.0]


def thread_cpu_seconds(pid: int) -> dict[int, float]:
    """User + system CPU time of each thread of ``pid``, by native thread id."""
    spent = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError):
            spent[int(task.name)] = cpu_seconds(f"{pid}/task/{task.name}")
    return spent


def kernel_seconds(pid: int) -> float:
    """The system (kernel) CPU time of ``pid``'s main thread: the event loop's."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[12]) / TICKS


THREAD_ID = re.compile(r"thread \((?:0x)?(\w+)\): ([^;]+?);")


def thread_names(raw: Path) -> dict[int, str]:
    """Native thread id -> the Python thread's name, as py-spy's raw stacks print them."""
    names: dict[int, str] = {}
    with contextlib.suppress(OSError):
        for tid, name in THREAD_ID.findall(raw.read_text(errors="replace")):
            with contextlib.suppress(ValueError):
                names[int(tid)] = name
    return names


def cpu_by_thread_name(spent: dict[int, float], names: dict[int, str]) -> dict[str, float]:
    """The window's CPU seconds by thread name (threads py-spy never saw busy: by id)."""
    by_name: Counter[str] = Counter()
    for tid, seconds in spent.items():
        by_name[names.get(tid, f"thread {tid}")] += seconds
    return dict(by_name)


def _thread_area(thread: str) -> str:
    """The area of a thread py-spy never saw busy, by its name."""
    if thread == "db-writer" or "_connection_worker_thread" in thread:  # storage's threads
        return "storage (database threads)"
    return f"bot: other threads ({thread})"


@dataclass
class Live:
    tables: int
    moves: int
    human_moves: int
    window: float
    bot_cpu_s: float
    gc_s: float
    gc_collections: int
    loadavg: list[float]
    bot_root: str
    gc_full_s: float = 0.0
    gc_full_collections: int = 0
    gc_slowest_ms: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # per generation
    gc_thresholds: str = ""  # tried instead of the bot's (``--gc-thresholds``); "": the bot's
    rss_mb: float = 0.0  # the bot's, at the window's end
    renders_ms: float = 0.0  # render workers' CPU ms per move (bench/load.py's figure)
    tasks: dict[str, int] = field(default_factory=dict)  # made in the window (--count-tasks)
    requests: dict[str, float] = field(default_factory=dict)  # per move, by route (the fake's)
    thread_cpu_s: dict[str, float] = field(default_factory=dict)  # the kernel's, by thread name
    loop_kernel_s: float = 0.0  # of the loop thread's CPU, the kernel's part (system time)
    profile: Profile = field(default_factory=Profile)

    def loop_cpu_s(self) -> float:
        """The event loop thread's CPU (the process's when the threads were not measured)."""
        return self.thread_cpu_s.get("MainThread", self.bot_cpu_s)

    def per_move(self, samples: float) -> float:
        """A loop sample count in CPU ms per move."""
        return samples / max(self.profile.busy(), 1) * self.loop_cpu_s() * 1000 / max(self.moves, 1)

    def area_rows(self) -> dict[str, float]:
        """CPU ms per move by area: the loop's samples scaled to the loop thread's CPU, every
        other thread's CPU (the kernel's) split over its areas by its samples."""
        rows: dict[str, float] = defaultdict(float)
        per_move = 1000 / max(self.moves, 1)
        if not self.thread_cpu_s:  # an older --keep-dir: every sample scaled to the process
            samples = [self.profile.areas, *self.profile.threads.values()]
            busy = max(sum(sum(areas.values()) for areas in samples), 1)
            for areas in samples:
                for name, n in areas.items():
                    rows[name] += n / busy * self.bot_cpu_s * per_move
            return rows
        for name, n in self.profile.areas.items():
            rows[name] += self.per_move(n)
        for thread, seconds in self.thread_cpu_s.items():
            if thread == "MainThread" or seconds <= 0:
                continue
            areas = self.profile.threads.get(thread) or Counter({_thread_area(thread): 1})
            total = sum(areas.values())
            for name, n in areas.items():
                rows[name] += seconds * per_move * n / total
        return rows

    def figures(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "profile"}


def report(live: Live, top: int) -> str:
    ms = live.bot_cpu_s * 1000 / max(live.moves, 1)
    lines = [
        f"bot process {live.bot_root}: {live.tables} tables, {live.moves} moves"
        f" ({live.human_moves} human) in {live.window:.1f} s = {live.moves / max(live.window, 1e-9):.1f}"
        f" moves/s; bot CPU {live.bot_cpu_s:.2f} s = **{ms:.2f} ms per move**"
        f" ({100 * live.bot_cpu_s / max(live.window, 1e-9):.0f} % of a core);"
        f" render workers {live.renders_ms:.2f} ms per move; bot RSS {live.rss_mb:.0f} MB;"
        f" samples busy {live.profile.busy()}, idle {live.profile.idle};"
        f" load average {' '.join(f'{x:.2f}' for x in live.loadavg)}",
        "",
        "| area | CPU ms per move | share |",
        "|---|---:|---:|",
    ]
    for name, area_ms in sorted(live.area_rows().items(), key=lambda kv: -kv[1]):
        lines.append(f"| {name} | {area_ms:.3f} | {100 * area_ms / max(ms, 1e-9):.1f} % |")
    lines.append(f"| **bot process (/proc)** | **{ms:.3f}** | 100 % |")
    if live.thread_cpu_s:
        lines.append(
            "(threads by the kernel's clock, ms per move: "
            + ", ".join(
                f"{name} {seconds * 1000 / max(live.moves, 1):.3f}"
                for name, seconds in sorted(live.thread_cpu_s.items(), key=lambda kv: -kv[1])
                if seconds > 0
            )
            + ")"
        )
    if live.loop_kernel_s:
        lines.append(
            f"(the loop thread's system time: {live.loop_kernel_s * 1000 / max(live.moves, 1):.3f}"
            f" ms per move, {100 * live.loop_kernel_s / max(live.loop_cpu_s(), 1e-9):.1f} % of its"
            " CPU: every socket write, queue put and poll's kernel work together; a call that"
            " wakes another thread or process is sampled while its thread, preempted, holds the"
            " GIL, so its samples can exceed this)"
        )
    gc_ms = live.gc_s * 1000 / max(live.moves, 1)
    lines.append(
        f"| GC inside the above (gc.callbacks: {live.gc_collections} collections) | {gc_ms:.3f}"
        f" | {100 * live.gc_s / max(live.bot_cpu_s, 1e-9):.1f} % |"
    )
    lines.append(
        f"| of which full collections ({live.gc_full_collections})"
        f" | {live.gc_full_s * 1000 / max(live.moves, 1):.3f}"
        f" | {100 * live.gc_full_s / max(live.bot_cpu_s, 1e-9):.1f} % |"
    )
    slowest = " / ".join(f"{1000 * s:.1f}" for s in live.gc_slowest_ms)
    lines.append(
        f"slowest collection in the window, generations 0 / 1 / 2: {slowest} ms of CPU;"
        f" thresholds {live.gc_thresholds or 'of bot/ops/collector.py'}"
    )
    lines += counts(live, top)
    for title, counter in (
        ("hottest functions on the loop, innermost frame (own time)", live.profile.leaves),
        (
            "functions on the loop with their callees (cumulative; not a sum)",
            live.profile.cumulative,
        ),
    ):
        lines += ["", f"{title}, CPU ms per move:"]
        for key, n in counter.most_common(top):
            lines.append(f"  {live.per_move(n):6.3f}  {key}")
    return "\n".join(lines)


def counts(live: Live, top: int) -> list[str]:
    """What the loop does per move: REST requests by route (counted by the fake Discord) and,
    with ``--count-tasks``, the tasks the bot created, by coroutine."""
    lines = ["", f"REST requests per move, by route ({sum(live.requests.values()):.2f} in all):"]
    for route, n in sorted(live.requests.items(), key=lambda item: -item[1]):
        lines.append(f"  {n:6.3f}  {route}")
    if live.tasks:
        made = sum(live.tasks.values())
        lines += [
            "",
            f"tasks created per move ({made / max(live.moves, 1):.2f} in all), top {top}:",
        ]
        for name, n in Counter(live.tasks).most_common(top):
            lines.append(f"  {n / max(live.moves, 1):6.3f}  {name}")
    return lines


def tasks_made(path: Path) -> dict[str, int]:
    """The tasks made between the window's start and its end (``TASKS_PRELUDE``'s file)."""
    with contextlib.suppress(OSError, ValueError):
        first, last = [json.loads(line) for line in path.read_text().splitlines()[:2]]
        return {k: n - first.get(k, 0) for k, n in last.items() if n > first.get(k, 0)}
    return {}


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, list[str]]:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="0"
    )
    parser.add_argument("--rate", type=int, default=200, help="py-spy samples per second (200)")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--keep-dir", type=Path, help="keep the raw stacks and figures here")
    parser.add_argument("--report", type=Path, help="print the tables again from a --keep-dir")
    parser.add_argument(
        "--count-tasks",
        action="store_true",
        help="count the tasks the bot creates, by coroutine (its CPU figures then include that)",
    )
    parser.add_argument(
        "--gc-thresholds", default="", help="e.g. 10000,10,10: tried instead of the bot's"
    )
    parser.add_argument(
        "--gil",
        action="store_true",
        help="only samples of threads holding the GIL (py-spy --gil): a thread waiting for"
        " it is not counted where it waits",
    )
    args = parser.parse_args(own)
    args.py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    return args, passed


async def main(argv: list[str] | None = None) -> int:
    args, passed = parse_args(argv)
    if args.report is not None:
        live = Live(**json.loads((args.report / "live.json").read_text()))
        live.profile = parse(args.report / "bot.raw")
        print(report(live, args.top))
        return 0
    if not Path(args.py_spy).exists():
        print("py-spy not found: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    load_args = load.probe_args(args, passed)
    load.BOT_LAUNCHER = GC_PRELUDE + TASKS_PRELUDE + load.BOT_LAUNCHER
    with contextlib.ExitStack() as stack:
        if args.keep_dir is not None:
            folder = args.keep_dir
            folder.mkdir(parents=True, exist_ok=True)
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mesa-live-")))
        gc_file = folder / "gc.txt"
        gc_file.unlink(missing_ok=True)
        os.environ["MESA_BENCH_GC"] = str(gc_file)
        if args.gc_thresholds:
            os.environ["MESA_BENCH_GC_THRESHOLDS"] = args.gc_thresholds
        tasks_file = folder / "tasks.txt"
        tasks_file.unlink(missing_ok=True)
        if args.count_tasks:
            os.environ["MESA_BENCH_TASKS"] = str(tasks_file)
        spy = Spy(args.py_spy, args.rate, folder / "bot.raw", gc_file, args.gil)
        load_args.window_probe = spy
        bot_folder = folder / "bot"
        bot_folder.mkdir(exist_ok=True)
        result = await load.run_one(args.tables, load_args, bot_folder)
        gc_s, collections, gc_full_s, full_collections, slowest = spy.gc()
        live = Live(
            tables=args.tables,
            moves=result["moves"],
            human_moves=result["human_moves"],
            window=spy.window,
            bot_cpu_s=spy.cpu_s,
            gc_s=gc_s,
            gc_collections=collections,
            gc_full_s=gc_full_s,
            gc_full_collections=full_collections,
            gc_slowest_ms=slowest,
            gc_thresholds=args.gc_thresholds,
            loadavg=load_average(),
            bot_root=str(args.bot_root),
            rss_mb=result["bot_rss_mb"],
            renders_ms=result["render_workers_cpu_ms_per_move"],
            tasks=tasks_made(tasks_file),
            requests=dict(result.get("rest_per_move_by_route") or {}),
            thread_cpu_s=cpu_by_thread_name(spy.thread_cpu_s, thread_names(spy.out)),
            loop_kernel_s=spy.loop_kernel_s,
        )
        (folder / "live.json").write_text(json.dumps(live.figures()))
        (folder / "load.json").write_text(json.dumps(result))
        live.profile = parse(spy.out) if spy.out.exists() else Profile()
    print(report(live, args.top))
    print(latencies(result))
    return 0


def latencies(result: dict[str, Any]) -> str:
    """The load's latencies (``bench/load.py``'s figures), to tell a cheaper bot from a slower
    one: fewer moves in the window can lower the CPU per move's share of fixed costs."""
    parts = [f"{result['moves_per_s']} moves/s"]
    for label, key in (
        ("ack", "ack_ms"),
        ("next player's view", "next_view_ms"),
        ("public table", "public_edit_ms"),
        ("mover's view", "mover_view_ms"),
    ):
        figure = result.get(key) or {}
        parts.append(f"{label} p50/p99 {figure.get('p50')}/{figure.get('p99')} ms")
    return "load: " + "; ".join(parts)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
