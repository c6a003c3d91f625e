"""Where the CPU of one move goes, end to end: the real bot process and its worker processes
(renders, computer searches), sampled by py-spy while simulated players play one game at a time
against the fake Discord (the machinery of ``bench/load.py``), printed as milliseconds per move.

    .venv/bin/python bench/profile_move.py                      # all five games, 25 tables each
    .venv/bin/python bench/profile_move.py --games triad --tables 40 --window 30
    .venv/bin/python bench/profile_move.py --bot-root /path/to/other/checkout   # before/after

Needs ``py-spy`` (``pip install -e ".[bench]"``) and the right to read another process's memory
(root, or ``ptrace_scope`` 0). py-spy samples only threads that are running, so a sample is CPU
time: ``rate`` samples per second of one busy thread. Each sample is put in one bucket by its
stack: the innermost frame that belongs to a known part decides (stdlib helpers such as ``copy``
or ``enum`` are charged to whoever called them; the event loop's own frames only when nothing
else is on the stack). The bot's main thread (the event loop) and its other threads (SQLite,
the database writer) are apart; a worker process's sample is a render (by game and image kind,
with the PNG encoding, the text and the rest of the drawing apart) or a computer's search
(apart: it spends the think budget it is given). The per-move figure divides by the moves the
public messages showed in the window (humans' and computers'), as ``bench/load.py`` does; the
CPU seconds /proc counted for the same processes are printed beside the sampled total.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench.load_driver as load_driver  # noqa: E402
from bench.load import start_bot, stop_bot  # noqa: E402
from bench.load_probe import cpu_seconds, descendants, read_log  # noqa: E402
from bot.ui.rendering import IMAGE_KIB, REUSED  # noqa: E402
from tests.fakediscord.server import FakeDiscord  # noqa: E402

COUNT = re.compile(r" \d+$")
FRAME = re.compile(r"^(?P<func>.*) \((?P<path>.*?)(?::(?P<line>\d+))?\)$")

# Innermost frame first: the first rule that matches a frame names the bucket (bot process).
BOT_RULES: list[tuple[str, tuple[str, ...]]] = [
    ("pydantic (validate, dump)", ("/pydantic/", "/pydantic_core/")),
    ("JSON (json, orjson)", ("/json/", "orjson")),
    (
        "discord.py: parse messages/events",
        (
            "/discord/message.py",
            "/discord/state.py",
            "/discord/member.py",
            "/discord/user.py",
            "/discord/guild.py",
            "/discord/channel.py",
            "/discord/threads.py",
            "/discord/interactions.py",
            "/discord/embeds.py",
            "/discord/components.py",
            "/discord/flags.py",
            "/discord/partial_emoji.py",
            "/discord/role.py",
            "/discord/mixins.py",
            "/discord/asset.py",
            "/discord/utils.py",
            "/discord/enums.py",
        ),
    ),
    (
        "discord.py: gateway (websocket)",
        ("/discord/gateway.py", "/aiohttp/_websocket", "/aiohttp/http_websocket", "zlib"),
    ),
    ("discord.py: UI items (View, Button)", ("/discord/ui/",)),
    (
        "HTTP: discord.py + aiohttp client",
        (
            "/discord/http.py",
            "/discord/webhook/",
            "/discord/file.py",
            "/discord/abc.py",
            "/aiohttp/",
            "/yarl/",
            "/multidict/",
            "/bot/ui/http_gate.py",
            "/bot/ui/token_wire.py",
            "/httptools/",
            "/bot/ui/pacer.py",
        ),
    ),
    ("storage (loop side)", ("/storage/", "/aiosqlite/", "/sqlite3/", "/asyncpg/")),
    ("images drawn on the loop (PIL)", ("/PIL/", "/bot/ui/images/")),
    ("texts (i18n catalogues)", ("/bot/i18n/",)),
    ("games: views, legal moves", ("/games/",)),
    ("view building (bot/ui)", ("/bot/ui/",)),
    ("service (bot/service)", ("/bot/service/",)),
    ("bot: other", ("/bot/",)),
    ("logging", ("/logging/",)),
]
LOOP_FALLBACK = ("event loop (asyncio, selectors)", ("/asyncio/", "selectors.py", "/uvloop/"))

# Leaves that wait (py-spy cannot tell a blocked thread from a running one in a container):
# ``path:function`` or ``path:function:line`` (the line calling a blocking C function).
IDLE = (
    "selectors.py:select",
    "threading.py:wait",
    "/storage/writer.py:_run:146",  # the writer waiting for its next job
    "aiosqlite/core.py:_connection_worker_thread:59",
    "concurrent/futures/thread.py:_worker:81",
    "concurrent/futures/process.py:wait_result_broken_or_wakeup",
    "/bot/workers.py:_watch_parent",
    "multiprocessing/connection.py:_recv",
    "multiprocessing/connection.py:_poll",
    "multiprocessing/connection.py:wait",
    "multiprocessing/synchronize.py:__enter__",
    "multiprocessing/queues.py:get:122",
)

# The loop's thread waking another (the database writer's queue, the pool's wake-up pipe):
# a sample here is mostly the GIL handed to that thread and waited back for, not work.
HANDOFFS = ("/storage/writer.py:submit:", "multiprocessing/connection.py:_send:")

RENDER_RULES: list[tuple[str, tuple[str, ...]]] = [
    ("PNG encode (palette + zlib)", ("fonts.py:png", "palette.py:to_palette", "PngImagePlugin")),
    ("text", ("/PIL/ImageFont.py", "fonts.py:draw_text", "fonts.py:text_width", "fonts.py:fitted")),
]
RENDER_FUNCS = re.compile(r"/bot/ui/(?P<game>\w+)/images\.py:(?P<func>render_\w+)")


@dataclass
class Profile:
    """Samples by bucket, per process kind."""

    rate: int
    buckets: Counter[str] = field(default_factory=Counter)
    renders: Counter[tuple[str, str, str]] = field(default_factory=Counter)  # game, kind, part
    leaves: Counter[str] = field(default_factory=Counter)  # the bot loop's hottest functions
    # The bot loop's own functions (bot/, storage/, games/) with everything they call: what a
    # memo or a shortcut there would save at most.
    inclusive: Counter[str] = field(default_factory=Counter)
    # Every function on the bot loop's stacks (libraries too: discord.py, aiohttp, asyncio)
    # with everything it calls: where a move's milliseconds go, cumulative.
    cumulative: Counter[str] = field(default_factory=Counter)
    idle: int = 0  # samples of threads waiting


def frames_of(stack: str) -> tuple[list[str], list[str], str]:
    """(process frames, Python frames outermost first, thread name) of one raw py-spy line."""
    processes, frames, thread = [], [], ""
    for part in stack.split(";"):
        if part.startswith("process "):
            processes.append(part)
        elif part.startswith("thread ("):
            thread = part.split(": ", 1)[1] if ": " in part else part
        else:
            frames.append(part)
    return processes, frames, thread


def key_of(frame: str) -> str:
    """``path:func:line`` of a frame, the form the rules match."""
    match = FRAME.match(frame)
    if match is None:
        return frame
    return f"{match['path']}:{match['func'].rsplit('.', 1)[-1]}:{match['line'] or ''}"


def idle(leaf: str) -> bool:
    return any(marker in leaf for marker in IDLE)


def first_rule(keys: list[str], rules: list[tuple[str, tuple[str, ...]]]) -> str | None:
    for key in reversed(keys):  # innermost first
        for name, markers in rules:
            if any(marker in key for marker in markers):
                return name
    return None


def samples(path: Path) -> Iterator[tuple[int, list[str], list[str], str]]:
    """(count, process frames, frame keys outermost first, thread name) of each record of the
    raw stacks of ``path`` (a process's command line may span lines: a record ends at the line
    that ends with its sample count once its thread frame was seen)."""
    record = ""
    for line in path.read_text(errors="replace").splitlines():
        record = f"{record}\n{line}" if record else line
        if "thread (" in record and COUNT.search(line):
            stack, _, count_text = record.replace("\n", " ").rpartition(" ")
            record = ""
            if stack:
                processes, frames, thread = frames_of(stack)
                keys = [key_of(f) for f in frames if "/bot/__main__.py" not in f]
                yield int(count_text), processes, keys, thread


def classify(
    count: int, processes: list[str], keys: list[str], thread: str, profile: Profile
) -> None:
    if not keys or idle(keys[-1]):
        profile.idle += count
        return
    if len(processes) > 1:  # a worker process
        if "multiprocessing/connection.py:_send:" in keys[-1]:
            profile.idle += count  # a result waiting in a full pipe for the bot to read it
            return
        render = next((m for k in keys if (m := RENDER_FUNCS.search(k))), None)
        if render is not None:
            part = first_rule(keys, RENDER_RULES) or "drawing"
            profile.renders[(render["game"], render["func"], part)] += count
            profile.buckets["workers: renders"] += count
        elif any(
            "/games/" in k and ("choose" in k or "/ai" in k or "search" in k) for k in keys
        ) or any("/bot/service/choose.py" in k for k in keys):
            profile.buckets["workers: computer searches (apart)"] += count
        elif any("/games/" in k for k in keys):
            profile.buckets["workers: computer searches (apart)"] += count
        else:
            profile.buckets["workers: plumbing (pickle, queues)"] += count
        return
    if thread != "MainThread":
        profile.buckets[thread_bucket(keys, thread)] += count
        return
    if any(marker in keys[-1] for marker in HANDOFFS):
        bucket = "hand-offs: waking the writer / the pool (GIL waits)"
    elif any("/games/core/engine.py:apply:" in k for k in keys):
        bucket = "engine: apply (the move itself)"
    else:
        bucket = (
            first_rule(keys, BOT_RULES) or first_rule(keys, [LOOP_FALLBACK]) or "other (stdlib)"
        )
    profile.buckets[bucket if bucket.startswith("hand-offs") else "loop: " + bucket] += count
    if keys:
        profile.leaves[_function(keys[-1])] += count
    for function in {_own(k) for k in keys} - {None}:
        profile.inclusive[function] += count  # type: ignore[index]
    for function in {_function(k) for k in keys}:
        profile.cumulative[function] += count


def thread_bucket(keys: list[str], thread: str) -> str:
    """Where a sample of a thread other than the event loop's goes."""
    if any(m in k for k in keys for m in ("sqlite", "/storage/", "asyncpg")):
        return "storage (database threads)"
    return f"bot: other threads ({thread.split(' ')[0]})"


def _function(key: str) -> str:
    """``path:function`` of a frame, a library's path from its package."""
    return key.split("site-packages/")[-1].rsplit(":", 1)[0]


OWN = re.compile(r"/(?P<path>(?:bot|storage|games)/[\w/]+\.py):(?P<func>\w+):")


def _own(key: str) -> str | None:
    """``bot/x.py:function`` of a frame of the project's own code (None for libraries)."""
    match = OWN.search(key)
    return f"{match['path']}:{match['func']}" if match else None


def parse(path: Path, rate: int) -> Profile:
    """The raw stacks of ``path``."""
    profile = Profile(rate)
    for sample in samples(path):
        classify(*sample, profile)
    return profile


@dataclass
class Run:
    game: str
    tables: int
    window: float
    moves: int
    human_moves: int
    bot_cpu_s: float
    workers_cpu_s: float
    profile: Profile
    renders: int = 0  # images drawn in the window (the bot's log)
    reused: int = 0  # images answered from the renderer's cache
    image_kib: float = 0.0  # mean size of an image drawn

    def figures(self) -> dict[str, Any]:
        """What ``--report`` needs besides the raw stacks."""
        return {
            k: getattr(self, k)
            for k in (
                "game",
                "tables",
                "window",
                "moves",
                "human_moves",
                "bot_cpu_s",
                "workers_cpu_s",
            )
        }


async def run_game(game: str, args: argparse.Namespace, folder: Path) -> Run:
    # The driver seats games round-robin from its GAMES; one game per run here.
    load_driver.GAMES = (game,)  # type: ignore[assignment]
    fake = FakeDiscord(validate=False, keep_history=False, global_rate=None)
    await fake.start()
    world = load_driver.World(
        fake, args.tables, seed=args.seed, think=(args.think_low, args.think_high)
    )
    bot_args = argparse.Namespace(
        processes=1,
        cpu_delay=args.cpu_delay,
        global_rate=0,
        bot_root=args.bot_root,
        profile_bot=None,
    )
    bot = await start_bot(fake, folder, bot_args)
    tasks: list[asyncio.Task[None]] = []
    out = folder / f"{game}.raw"
    try:
        await fake.wait_until(lambda: fake.commands.get(None), timeout=120, what="command sync")
        await fake.wait_until_shards_connected(range(1), timeout=60)
        world.go.clear()
        tasks = await world.open_all()
        deadline = time.monotonic() + max(120.0, args.tables)
        while world.started() < args.tables and time.monotonic() < deadline:
            await asyncio.sleep(1)
        world.go.set()
        await asyncio.sleep(args.warmup)
        workers = descendants(bot.pid)
        log_start = (folder / "bot.log").stat().st_size
        before = cpu_seconds(bot.pid), sum(_cpu(p) for p in workers)
        world.measuring = True
        start = time.monotonic()
        spy = await asyncio.create_subprocess_exec(
            *spy_command(args.py_spy, bot.pid, args.rate, args.window, out, subprocesses=True),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        await spy.wait()
        window = time.monotonic() - start
        world.measuring = False
        after = cpu_seconds(bot.pid), sum(_cpu(p) for p in workers)
        phases = read_log(folder / "bot.log", log_start, (folder / "bot.log").stat().st_size).phases
    finally:
        world.running = False
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await stop_bot(bot)
        await fake.stop()
    return Run(
        game=game,
        tables=args.tables,
        window=window,
        moves=world.stats.version_steps,
        human_moves=world.stats.human_moves,
        bot_cpu_s=after[0] - before[0],
        workers_cpu_s=after[1] - before[1],
        profile=parse(out, args.rate) if out.exists() else Profile(args.rate),
        renders=len(phases.get("render", [])),
        reused=len(phases.get(REUSED, [])),
        image_kib=round(statistics.mean(phases[IMAGE_KIB]), 2) if phases.get(IMAGE_KIB) else 0.0,
    )


def spy_command(
    py_spy: str, pid: int, rate: int, seconds: float, out: Path, *, subprocesses: bool
) -> list[str]:
    """py-spy recording ``pid``'s threads (and its workers') as raw stacks, never pausing it."""
    return [
        py_spy,
        "record",
        "--pid",
        str(pid),
        *(["--subprocesses"] if subprocesses else []),
        "--format",
        "raw",
        "--full-filenames",
        "--threads",
        "--nonblocking",
        "--rate",
        str(rate),
        "--duration",
        str(max(int(seconds), 1)),
        "-o",
        str(out),
    ]


def _cpu(pid: int) -> float:
    with contextlib.suppress(OSError):
        return cpu_seconds(pid)
    return 0.0


WORKER_PREFIX = "workers:"


def worker_bucket(name: str) -> bool:
    return name.startswith(WORKER_PREFIX)


def scaled(r: Run, samples: float, worker: bool) -> float:
    """``samples`` of one process group as CPU ms per move: its share of that group's samples
    times the CPU /proc counted for the group (sampling counts a thread that is runnable but
    waiting for a core, or for the GIL, as busy; a shared machine inflates it)."""
    group = sum(n for b, n in r.profile.buckets.items() if worker_bucket(b) == worker)
    cpu_s = r.workers_cpu_s if worker else r.bot_cpu_s
    return samples / max(group, 1) * cpu_s * 1000 / max(r.moves, 1)


def table(runs: list[Run]) -> str:
    """CPU ms per move by bucket, one column per game."""
    names = sorted({b for r in runs for b in r.profile.buckets}, key=_order)
    head = "| where (CPU ms per move) | " + " | ".join(r.game for r in runs) + " |"
    lines = [head, "|---|" + "---:|" * len(runs)]
    for name in names:
        cells = [f"{scaled(r, r.profile.buckets[name], worker_bucket(name)):.2f}" for r in runs]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")

    def group(r: Run, prefix: tuple[str, ...]) -> float:
        samples = sum(n for b, n in r.profile.buckets.items() if b.startswith(prefix))
        return scaled(r, samples, prefix[0].startswith(WORKER_PREFIX))

    def cpu_ms(seconds: float, r: Run) -> str:
        return f"{seconds * 1000 / max(r.moves, 1):.2f}"

    rows = [
        ("**bot process (/proc)**", lambda r: cpu_ms(r.bot_cpu_s, r)),
        (
            "**workers: renders + plumbing**",
            lambda r: f"{group(r, ('workers: renders', 'workers: plumbing')):.2f}",
        ),
        ("**workers: searches (apart)**", lambda r: f"{group(r, ('workers: computer',)):.2f}"),
        (
            "**bot + renders (the goal's figure)**",
            lambda r: (
                f"{r.bot_cpu_s * 1000 / max(r.moves, 1) + group(r, ('workers: renders', 'workers: plumbing')):.2f}"
            ),
        ),
        ("workers (/proc, renders + searches)", lambda r: cpu_ms(r.workers_cpu_s, r)),
        ("images drawn per move (cache hit rate)", _images),
        ("KiB per image drawn", lambda r: f"{r.image_kib:.1f}"),
        ("samples: bot / workers / idle", lambda r: _samples(r)),
        ("moves in window (human)", lambda r: f"{r.moves} ({r.human_moves})"),
        ("window s, tables", lambda r: f"{r.window:.0f}, {r.tables}"),
    ]
    for label, cell in rows:
        lines.append(f"| {label} | " + " | ".join(cell(r) for r in runs) + " |")
    return "\n".join(lines)


def _images(r: Run) -> str:
    asked = r.renders + r.reused
    return f"{r.renders / max(r.moves, 1):.2f} ({r.reused / max(asked, 1):.0%})"


def _samples(r: Run) -> str:
    workers = sum(n for b, n in r.profile.buckets.items() if worker_bucket(b))
    bot = sum(r.profile.buckets.values()) - workers
    return f"{bot} / {workers} / {r.profile.idle}"


def _order(name: str) -> tuple[int, str]:
    for index, prefix in enumerate(
        (
            "loop:",
            "hand",
            "storage",
            "bot:",
            "workers: renders",
            "workers: plumbing",
            "workers: computer",
        )
    ):
        if name.startswith(prefix):
            return index, name
    return 9, name


def render_table(runs: list[Run]) -> str:
    """The renders' CPU per move by game, image kind and part."""
    lines = ["| game | image | part | CPU ms per move |", "|---|---|---|---:|"]
    for r in runs:
        for (game, func, part), n in sorted(r.profile.renders.items()):
            lines.append(f"| {game} | {func} | {part} | {scaled(r, n, True):.2f} |")
    return "\n".join(lines)


HOTTEST = {
    "leaves": "hottest functions on the bot's loop, innermost frame (own time)",
    "inclusive": "the bot loop's own functions, callees included",
    "cumulative": "every function on the bot's loop, libraries too, callees included (cumulative)",
}


def hottest(runs: list[Run], top: int, which: str = "leaves") -> str:
    """The bot loop's hottest functions in CPU ms per move: innermost frames (own time), the
    bot's own functions with their callees (``inclusive``), or every function with its callees
    (``cumulative``). A function and its callers all count a sample: the last two lists are
    not sums; they say what a memo or a shortcut there would save at most."""
    merged: Counter[str] = Counter()
    for r in runs:
        for key, n in getattr(r.profile, which).items():
            merged[key] += scaled(r, n, False) * r.moves  # type: ignore[assignment]
    moves = sum(r.moves for r in runs)
    what = HOTTEST[which]
    lines = [f"{what} (CPU ms per move over {moves} moves):"]
    for key, ms_moves in merged.most_common(top):
        lines.append(f"  {ms_moves / max(moves, 1):6.3f}  {key}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(load_driver.GAMES))
    parser.add_argument("--tables", type=int, default=25, help="tables of the game (25)")
    parser.add_argument("--window", type=float, default=20.0, help="sampled seconds per game (20)")
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--think", default="1,3", help="human think time range, s (1,3)")
    parser.add_argument("--cpu-delay", type=float, default=0.3, help="bot's CPU_DELAY_SECONDS")
    parser.add_argument("--rate", type=int, default=250, help="samples per second (250)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=25, help="hottest loop functions listed (25)")
    parser.add_argument("--bot-root", type=Path, default=ROOT)
    parser.add_argument("--keep-dir", type=Path, help="keep the raw py-spy stacks here")
    parser.add_argument(
        "--report", type=Path, help="print the tables again from a --keep-dir of an earlier run"
    )
    parser.add_argument("--json", action="store_true", help="also print each run's buckets as JSON")
    args = parser.parse_args(argv)
    args.think_low, args.think_high = (float(x) for x in args.think.split(","))
    args.py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    return args


async def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not Path(args.py_spy).exists():
        print("py-spy not found: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    if args.report is not None:
        runs = [
            Run(
                **json.loads((args.report / g / "run.json").read_text()),
                profile=parse(args.report / g / f"{g}.raw", args.rate),
            )
            for g in (g.strip() for g in args.games.split(",") if g.strip())
            if (args.report / g / "run.json").exists()
        ]
        print(report(runs, args.top))
        return 0
    runs = []
    for game in (g.strip() for g in args.games.split(",") if g.strip()):
        with contextlib.ExitStack() as stack:
            if args.keep_dir is not None:
                folder = args.keep_dir / game
                folder.mkdir(parents=True, exist_ok=True)
            else:
                folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mesa-prof-")))
            print(
                f"[profile {time.strftime('%H:%M:%S')}] {game}: {args.tables} tables",
                file=sys.stderr,
                flush=True,
            )
            run = await run_game(game, args, folder)
        runs.append(run)
        if args.keep_dir is not None:
            (args.keep_dir / game / "run.json").write_text(json.dumps(run.figures()))
        if args.json:
            print(
                json.dumps({"game": game, "moves": run.moves, "buckets": dict(run.profile.buckets)})
            )
    print(report(runs, args.top))
    return 0


def report(runs: list[Run], top: int) -> str:
    return "\n\n".join(
        (
            table(runs),
            render_table(runs),
            hottest(runs, top),
            hottest(runs, top, "cumulative"),
            hottest(runs, top * 2, "inclusive"),
        )
    )


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
