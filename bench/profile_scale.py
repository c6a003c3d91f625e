"""Where the bot process's CPU per move goes at two table counts, side by side (issues 25, 29).

Runs `bench/load.py`'s load (the real bot against the fake Discord) once per N and, during its
measured window only:
- samples the bot process with py-spy (a tool: ``pip install py-spy``; not a dependency) and
  charges each sample to the function running (self time), its module, and the nearest Mesa
  function (bot/, storage/, games/) on the stack — what our code caused, libraries included;
- counts inside the bot (`bench/scale_probe.py`) the garbage collector's collections and their
  CPU time per generation (``gc.callbacks``), the objects it tracks, the event loop's ready queue
  and timer heap (sampled every 50 ms), the tasks alive, and CPU per thread.
Figures are CPU milliseconds per move (py-spy samples active threads only: time waiting is not
counted). Every other option is `bench/load.py`'s, e.g.

    nice -n 10 .venv/bin/python bench/profile_scale.py --tables 150,600 --warmup 40 \
        --window 20 --drain 5 --global-rate 0 --no-validate
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402

PROBE = ROOT / "bench" / "scale_probe.py"
MESA_ROOTS = ("bot/", "storage/", "games/")
TOP = 22  # rows per table
# leaf functions that wait rather than compute (py-spy may count them as active)
WAITS = ("Selector.select (", "Condition.wait (", "Event.wait (", "Queue.get (", "_worker (")


def launcher() -> str:
    """load.py's launcher with the probe installed first (from this checkout's file, so a
    ``--bot-root`` checkout without it is measured the same way)."""
    return (
        "import importlib.util, os\n"
        f"spec = importlib.util.spec_from_file_location('scale_probe', {str(PROBE)!r})\n"
        "probe = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(probe)\n"
        "probe.install(os.environ['MESA_SCALE_PROBE'])\n" + load.BOT_LAUNCHER
    )


@dataclass
class Window:
    """The measured window of one run, as the bench saw it."""

    folder: Path
    rate: int
    pid: int | None = None
    spy: asyncio.subprocess.Process | None = None
    samples: Counter[str] = field(default_factory=Counter)

    @property
    def probe_out(self) -> Path:
        return self.folder / "probe.json"

    @property
    def spy_out(self) -> Path:
        return self.folder / "pyspy.txt"


class Hooks:
    """Opens and closes the window with load.py's own window markers: its pool meter starts
    when the window opens and its loop meter is uninstalled when it closes."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.opened = False
        self.closed = False

    async def open(self) -> None:
        w = self.window
        assert w.pid is not None
        os.kill(w.pid, signal.SIGUSR1)
        spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which(
            "py-spy"
        )
        if spy is None:
            print("py-spy not found: pip install py-spy (functions left out)", file=sys.stderr)
            return
        w.spy = await asyncio.create_subprocess_exec(
            spy, "record", "--pid", str(w.pid), "--rate", str(w.rate), "--format", "raw",
            "--nonblocking", "--threads", "--output", str(w.spy_out),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip

    def close(self) -> None:
        w = self.window
        if w.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(w.pid, signal.SIGUSR2)
        if w.spy is not None and w.spy.returncode is None:
            w.spy.send_signal(signal.SIGINT)


def install_hooks(window: Window) -> list[tuple[object, str, Any]]:
    """Patch load.py's process start and window markers; returns what to restore."""
    hooks = Hooks(window)
    saved: list[tuple[object, str, Any]] = [
        (load, "BOT_LAUNCHER", load.BOT_LAUNCHER),
        (load, "start_bot", load.start_bot),
        (load, "PoolCpu", load.PoolCpu),
        (load, "LoopCpu", load.LoopCpu),
    ]
    real_start_bot = load.start_bot

    async def start_bot(fake: Any, folder: Path, args: Any, database_url: Any, shard: int) -> Any:
        os.environ["MESA_SCALE_PROBE"] = str(window.probe_out)
        try:
            process = await real_start_bot(fake, folder, args, database_url, shard)
        finally:
            os.environ.pop("MESA_SCALE_PROBE", None)
        if shard == 0:
            window.pid = process.pid
        return process

    class PoolCpu(load.PoolCpu):
        def start(self) -> None:
            super().start()
            if not hooks.opened:
                hooks.opened = True
                asyncio.get_running_loop().create_task(hooks.open())

    class LoopCpu(load.LoopCpu):
        def uninstall(self) -> None:
            super().uninstall()
            if hooks.opened and not hooks.closed:
                hooks.closed = True
                hooks.close()

    for name, value in (
        ("BOT_LAUNCHER", launcher()),
        ("start_bot", start_bot),
        ("PoolCpu", PoolCpu),
        ("LoopCpu", LoopCpu),
    ):
        setattr(load, name, value)
    return saved


def restore(saved: list[tuple[object, str, Any]]) -> None:
    for owner, name, value in saved:
        setattr(owner, name, value)


def read_spy(path: Path) -> Counter[str]:
    """py-spy's raw output: one line per distinct stack, "frame;frame;... count"."""
    stacks: Counter[str] = Counter()
    if not path.exists():
        return stacks
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks[stack] += int(count)
    return stacks


def frame_file(frame: str) -> str:
    """ "name (path/to/file.py:12)" -> "path/to/file.py"."""
    inside = frame.rpartition(" (")[2].rstrip(")")
    return inside.rpartition(":")[0] or inside


def frame_function(frame: str) -> str:
    """ "name (path/to/file.py:12)" -> "path/to/file.py:name"."""
    name, _, rest = frame.rpartition(" (")
    return f"{frame_file(frame)}:{name}" if name else frame


def module_of(path: str) -> str:
    """A Mesa file by its path, a library by its package, the standard library as stdlib:x
    (py-spy names files from their import root)."""
    if path.startswith(MESA_ROOTS):
        return path
    if "site-packages/" in path:
        path = path.split("site-packages/", 1)[1]
    first = path.split("/", 1)[0].removesuffix(".py")
    return f"stdlib:{first}" if first in sys.stdlib_module_names else first


def nearest_mesa(frames: list[str]) -> str:
    """The innermost Mesa function on the stack; the event loop's own work (only
    ``python -m bot``'s ``main`` above it) is named by the library function running."""
    for frame in reversed(frames):
        path = frame_file(frame)
        if path.startswith(MESA_ROOTS):
            if path == "bot/__main__.py":
                break
            return frame_function(frame)
    return "(loop/library) " + module_of(frame_file(frames[-1])) if frames else "?"


def waiting(frames: list[str]) -> bool:
    """A sample py-spy saw as active that is a wait: the loop's select, a thread's lock."""
    leaf = frames[-1] if frames else ""
    return any(name in leaf for name in WAITS)


@dataclass
class Profile:
    """One run's figures, per move."""

    tables: int
    moves: int
    bot_cpu_ms: float
    rate: int
    clicks: int = 0
    rss: float = 0.0
    by_thread: Counter[str] = field(default_factory=Counter)
    self_fn: Counter[str] = field(default_factory=Counter)
    self_mod: Counter[str] = field(default_factory=Counter)
    mesa_fn: Counter[str] = field(default_factory=Counter)
    waits: Counter[str] = field(default_factory=Counter)
    probe: dict[str, Any] = field(default_factory=dict)

    def ms(self, samples: float) -> float:
        """CPU ms per move of this many samples."""
        return 1000 * samples / self.rate / max(self.moves, 1)


def profile_of(tables: int, result: dict[str, Any], window: Window) -> Profile:
    stacks = read_spy(window.spy_out)
    profile = Profile(
        tables, result["moves"], result["bot_cpu_ms_per_move"], window.rate, result["clicks"]
    )
    for stack, n in stacks.items():
        frames = stack.split(";")
        thread, frames = frames[0], frames[1:]
        if not frames:
            continue
        if waiting(frames):
            profile.waits[frame_function(frames[-1])] += n
            continue
        profile.by_thread[thread.split(": ", 1)[-1]] += n
        profile.self_fn[frame_function(frames[-1])] += n
        profile.self_mod[module_of(frame_file(frames[-1]))] += n
        profile.mesa_fn[nearest_mesa(frames)] += n
    profile.rss = result["bot_rss_mb"]
    if window.probe_out.exists():
        profile.probe = json.loads(window.probe_out.read_text())
    return profile


def side_by_side(title: str, profiles: list[Profile], pick: str) -> list[str]:
    """The top rows of one counter, ms per move in each run, ordered by the largest N's."""
    last = profiles[-1]
    keys = [k for k, _ in getattr(last, pick).most_common(TOP)]
    for p in profiles[:-1]:
        keys += [k for k, _ in getattr(p, pick).most_common(TOP) if k not in keys][:5]
    head = f"| {title} | " + " | ".join(f"{p.tables} tables" for p in profiles) + " | growth |"
    lines = [head, "|---|" + "---|" * (len(profiles) + 1)]
    for key in keys:
        values = [p.ms(getattr(p, pick)[key]) for p in profiles]
        growth = values[-1] - values[0]
        lines.append(f"| {key} | " + " | ".join(f"{v:.3f}" for v in values) + f" | {growth:+.3f} |")
    return lines


def types_side_by_side(title: str, profiles: list[Profile], key: str) -> list[str]:
    counts = [p.probe.get(key, {}) for p in profiles]
    names = list(counts[-1])[:15]
    names += [n for n in (counts[0] if counts else {}) if n not in names][:5]
    head = f"| {title} | " + " | ".join(f"{p.tables} tables" for p in profiles) + " |"
    lines = [head, "|---|" + "---|" * len(profiles)]
    for name in names:
        lines.append(f"| {name} | " + " | ".join(str(c.get(name, "—")) for c in counts) + " |")
    return lines


def calls_side_by_side(profiles: list[Profile]) -> list[str]:
    """cProfile of the loop's thread: the functions whose own CPU per move grows most from
    the first N to the last, with their calls per move."""
    first, last = profiles[0], profiles[-1]
    a, b = first.probe.get("calls", {}), last.probe.get("calls", {})

    def per_move(p: Profile, entry: list[float] | None, i: int) -> float:
        return 0.0 if entry is None else entry[i] * (1000 if i else 1) / max(p.moves, 1)

    growth = sorted(
        set(a) | set(b),
        key=lambda k: -(per_move(last, b.get(k), 1) - per_move(first, a.get(k), 1)),
    )
    head = (
        f"| function (cProfile, loop thread) | calls/move {first.tables} → {last.tables}"
        f" | own CPU ms/move {first.tables} → {last.tables} | with callees ms/move |"
    )
    lines = [head, "|---|---|---|---|"]
    for k in growth[:TOP]:
        ea, eb = a.get(k), b.get(k)
        lines.append(
            f"| {k.split('site-packages/')[-1].replace(str(ROOT) + '/', '')}"
            f" | {per_move(first, ea, 0):.2f} → {per_move(last, eb, 0):.2f}"
            f" | {per_move(first, ea, 1):.3f} → {per_move(last, eb, 1):.3f}"
            f" | {per_move(first, ea, 2):.3f} → {per_move(last, eb, 2):.3f} |"
        )
    return lines


def probe_rows(profiles: list[Profile]) -> list[str]:
    def row(label: str, fn: Any) -> str:
        cells = []
        for p in profiles:
            try:
                cells.append(fn(p))
            except (KeyError, TypeError, ValueError, ZeroDivisionError, statistics.StatisticsError):
                cells.append("—")
        return f"| {label} | " + " | ".join(cells) + " |"

    def per_move(p: Profile, seconds: float) -> str:
        return f"{1000 * seconds / max(p.moves, 1):.3f}"

    def pct(values: list[int], q: float) -> int:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    head = "| figure | " + " | ".join(f"{p.tables} tables" for p in profiles) + " |"
    lines = [head, "|---|" + "---|" * len(profiles)]
    lines += [
        row("moves in the window", lambda p: str(p.moves)),
        row("clicks in the window", lambda p: str(p.clicks)),
        row(
            "probe: CPU ms per click (work asked, done or not)",
            lambda p: f"{1000 * p.probe['cpu_s'] / max(p.clicks, 1):.2f}",
        ),
        row(
            "probe: CPU % of a core; of it in gc",
            lambda p: (
                f"{100 * p.probe['cpu_s'] / p.probe['wall_s']:.0f} %;"
                f" {100 * sum(p.probe['gc_cpu_s']) / p.probe['wall_s']:.1f} %"
                f" ({100 * sum(p.probe['gc_cpu_s']) / p.probe['cpu_s']:.0f} % of the bot's)"
            ),
        ),
        row("bot CPU ms per move (load.py, /proc)", lambda p: f"{p.bot_cpu_ms}"),
        row("probe: CPU ms per move (process_time)", lambda p: per_move(p, p.probe["cpu_s"])),
        row(
            "probe: CPU ms per move by thread",
            lambda p: ", ".join(
                f"{name} {per_move(p, s)}"
                for name, s in sorted(p.probe["cpu_by_thread_s"].items(), key=lambda x: -x[1])
                if s > 0
            ),
        ),
        row(
            "py-spy: active ms per move by thread",
            lambda p: ", ".join(f"{k} {p.ms(n):.2f}" for k, n in p.by_thread.most_common(4)),
        ),
        row(
            "py-spy: waits left out (select, locks), ms per move",
            lambda p: f"{p.ms(sum(p.waits.values())):.2f}",
        ),
        row(
            "gc collections gen0/1/2 (per 100 moves)",
            lambda p: "/".join(
                f"{n} ({100 * n / max(p.moves, 1):.1f})" for n in p.probe["gc_runs"]
            ),
        ),
        row(
            "gc CPU ms per move gen0/1/2",
            lambda p: "/".join(per_move(p, s) for s in p.probe["gc_cpu_s"]),
        ),
        row(
            "gc CPU ms per gen-2 collection",
            lambda p: f"{1000 * p.probe['gc_cpu_s'][2] / p.probe['gc_runs'][2]:.1f}",
        ),
        row(
            "gc: objects tracked (frozen)",
            lambda p: f"{p.probe['gc_tracked']} ({p.probe['gc_frozen']})",
        ),
        row("gc thresholds", lambda p: str(p.probe["gc_thresholds"])),
        row(
            "loop ready queue mean / p99 / max",
            lambda p: (
                f"{statistics.mean(p.probe['ready']):.1f} / {pct(p.probe['ready'], 0.99)}"
                f" / {max(p.probe['ready'])}"
            ),
        ),
        row(
            "loop timer heap mean / max",
            lambda p: f"{statistics.mean(p.probe['scheduled']):.0f} / {max(p.probe['scheduled'])}",
        ),
        row("asyncio tasks alive at the end", lambda p: str(p.probe["tasks"])),
        row("bot RSS MB (load.py)", lambda p: str(p.rss)),
        row(
            "bot RSS MB in the window: start → end (probe)",
            lambda p: f"{p.probe['rss_mb'][0]:.0f} → {p.probe['rss_mb'][-1]:.0f}",
        ),
    ]
    return lines


async def main(argv: list[str] | None = None) -> int:
    own = argparse.ArgumentParser(add_help=False)
    own.add_argument("--rate", type=int, default=200, help="py-spy samples per second (200)")
    own.add_argument("--out", type=Path, help="also write the runs' figures here (JSON)")
    own.add_argument(
        "--calls",
        action="store_true",
        help="also cProfile the bot's loop thread in the window: calls per move by function"
        " (what is called more often per move at the larger N); slows the bot",
    )
    own.add_argument(
        "--gc-threshold",
        help="the bot's gc.set_threshold for the runs, over its own, e.g. 700,10,10 (Python's)",
    )
    own.add_argument(
        "--same-demand",
        action="store_true",
        help="think time scaled with N (times N / the first N): every run asks the first run's"
        " moves per second, so what grows with N is not mistaken for a saturated bot's backlog",
    )
    own.add_argument(
        "--no-freeze", action="store_true", help="the bot's gc.freeze after start-up left out"
    )
    mine, rest = own.parse_known_args(argv)
    args = load.parse_args(rest)
    if mine.calls:
        os.environ["MESA_SCALE_CALLS"] = "1"
    if mine.gc_threshold:
        os.environ["MESA_SCALE_GC_THRESHOLD"] = mine.gc_threshold
    if mine.no_freeze:
        os.environ["MESA_SCALE_NO_FREEZE"] = "1"
    profiles: list[Profile] = []
    raw: list[dict[str, Any]] = []
    counts = [int(x) for x in args.tables.split(",") if x.strip()]
    low, high = (float(x) for x in args.think.split(","))
    for tables in counts:
        rate = args.global_rate[0]
        scale = tables / counts[0] if mine.same_demand else 1.0
        think = f"{low * scale:g},{high * scale:g}"
        run_args = argparse.Namespace(**{**vars(args), "global_rate": rate, "think": think})
        with tempfile.TemporaryDirectory(prefix="mesa-scale-") as tmp:
            window = Window(Path(tmp), mine.rate)
            saved = install_hooks(window)
            try:
                result = await load._one_run(tables, run_args, None)
            finally:
                restore(saved)
            if window.spy is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(window.spy.wait(), 30)
            profile = profile_of(tables, result, window)
        profiles.append(profile)
        print(
            f"{tables} tables: {result['moves']} moves, {result['moves_per_s']} moves/s, bot CPU"
            f" {result['bot_cpu_ms_per_move']} ms/move, think {think} s, load {result['loadavg']}",
            file=sys.stderr,
            flush=True,
        )
        raw.append({"tables": tables, "load": result, "probe": profile.probe})
    lines = ["CPU ms per move in the bot process (py-spy self time unless said)", ""]
    lines += probe_rows(profiles) + [""]
    lines += side_by_side("nearest Mesa function (with what it called)", profiles, "mesa_fn")
    lines += [""] + side_by_side("module (self)", profiles, "self_mod")
    lines += [""] + side_by_side("function (self)", profiles, "self_fn")
    lines += [""] + types_side_by_side(
        "objects the gc tracks at the end", profiles, "tracked_types"
    )
    lines += [""] + types_side_by_side(
        "cyclic garbage at the end (freed only by a collection)", profiles, "garbage_types"
    )
    if mine.calls:
        lines += [""] + calls_side_by_side(profiles)
    print("\n".join(lines), flush=True)
    if mine.out is not None:
        for entry, p in zip(raw, profiles, strict=True):
            entry["self_fn"] = dict(p.self_fn.most_common(200))
            entry["mesa_fn"] = dict(p.mesa_fn.most_common(200))
            entry["self_mod"] = dict(p.self_mod.most_common(100))
        mine.out.write_text(json.dumps(raw))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
