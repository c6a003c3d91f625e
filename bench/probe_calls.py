"""What chosen functions of the live bot cost under ``bench/load.py``'s load, by the kernel's
clock: each call's CPU time (``time.thread_time``, the calling thread's own: a busy machine
adds nothing), its calls per move and its CPU milliseconds per move, for the measured window
only. Sampling profilers charge a call the wall time its thread spends in it while preempted
(``bench/profile_live.py``'s docstring); this counts CPU, and a micro-benchmark's hot loop
is no substitute either: in the live bot the same calls cost several times more (session 25:
an image's digest 85 us a call here against 5-16 us in ``bench/render_handoff.py``'s loop).

    .venv/bin/python bench/probe_calls.py                      # the default functions, 300 tables
    .venv/bin/python bench/probe_calls.py --functions bot.ui.messages:private_payload,\
bot.ui.rendering:ImageRequest.digest --tables 300 --window 40 -- --channel-play 0.5
    .venv/bin/python bench/probe_calls.py --functions handoff   # the render/search hand-off

A function is ``module:qualname`` (a module's function, or a class's method, classmethod,
staticmethod or ``cached_property``), synchronous: a coroutine's time would stop at its first wait. Times are
inclusive (a function probed inside another counts in both) and include the collector's
collections that ran inside a call (printed apart: ``gc.callbacks``' thread clock; a collection
on another thread while a call waits for the GIL would count too). Each function's median and
p90 a call (its first ``SAMPLES`` calls) tell a cold call's own cost from a few slow ones; the
render and search pools' CPU of the same window follow (session 31). The bot is wrapped when the window starts (SIGUSR2) and
the figures written when it ends (SIGUSR2 again); ``--bot-root`` measures another tree.
Figures only; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench.load as load  # noqa: E402

DEFAULT = (
    "bot.ui.messages:private_payload",
    "bot.ui.messages:public_payload",
    "bot.ui.rendering:ImageRequest.digest",
    "bot.ui.messages:_alt_text",
    "bot.pipe_workers:compact_dumps",
    "bot.ui.payload:edit_parameters",
)
# ``--functions handoff``: the bot's side of the render and search pools' jobs (issue 29,
# session 30). ``PipeWorkers._readable`` is left out: the loop holds the method it was given
# when the worker started, before the window wraps it.
HANDOFF = (
    "bot.ui.rendering:ImageRequest.digest",
    "bot.ui.rendering:ImageRequest.drawn_json",
    "bot.pipe_workers:PipeWorkers.run",
    "bot.pipe_workers:PipeWorkers._dispatch",
    "bot.pipe_workers:_plain_dumps",
    "bot.pipe_workers:_write_message",
    "bot.pipe_workers:PipeWorkers._answer",
)
PRESETS = {"handoff": HANDOFF}

# Calls whose own times are kept per function (the first ones of the window): the median and
# p90 a call, apart from the mean (a few calls that ran a collection or were slow once weigh on
# the mean only).
SAMPLES = 20000

# Run in the bot process before it starts: at the first SIGUSR2 the functions named by
# MESA_PROBE_CALLS are wrapped (the module's attribute, and every module of the bot that
# imported it by name), at the second their calls and CPU seconds go to MESA_PROBE_CALLS_OUT.
PRELUDE = (
    "import os as _os\n"
    "if _os.environ.get('MESA_PROBE_CALLS'):\n"
    "    import functools as _ft, importlib as _il, json as _js, signal as _sg, sys as _sys\n"
    "    import time as _tm\n"
    "    _probed = {}\n"
    f"    SAMPLES = {SAMPLES}\n"
    "    _gc_spent = [0.0, 0.0]  # the collector's thread CPU so far, and when its run began\n"
    "    def _gc_clock(phase, info):\n"
    "        if phase == 'start':\n"
    "            _gc_spent[1] = _tm.thread_time()\n"
    "        else:\n"
    "            _gc_spent[0] += _tm.thread_time() - _gc_spent[1]\n"
    "    def _probe(spec):\n"
    "        module, _, qualname = spec.partition(':')\n"
    "        *path, name = qualname.split('.')\n"
    "        owner = _il.import_module(module)\n"
    "        for part in path:\n"
    "            owner = getattr(owner, part)\n"
    "        raw = vars(owner)[name]\n"
    "        cached = isinstance(raw, _ft.cached_property)\n"
    "        bound = type(raw) if isinstance(raw, (classmethod, staticmethod)) else None\n"
    "        func = raw.func if cached else raw.__func__ if bound is not None else raw\n"
    "        spent = _probed[spec] = [0, 0.0, 0.0, []]\n"
    "        clock = _tm.thread_time\n"
    "        calls = spent[3]\n"
    "        @_ft.wraps(func)\n"
    "        def timed(*args, **kwargs):\n"
    "            collected = _gc_spent[0]\n"
    "            start = clock()\n"
    "            try:\n"
    "                return func(*args, **kwargs)\n"
    "            finally:\n"
    "                took = clock() - start\n"
    "                spent[0] += 1\n"
    "                spent[1] += took\n"
    "                spent[2] += _gc_spent[0] - collected\n"
    "                if len(calls) < SAMPLES:\n"
    "                    calls.append(took)\n"
    "        if bound is not None:\n"
    "            setattr(owner, name, bound(timed))\n"
    "            return\n"
    "        if cached:\n"
    "            wrapped = _ft.cached_property(timed)\n"
    "            wrapped.__set_name__(owner, name)\n"
    "            setattr(owner, name, wrapped)\n"
    "            return\n"
    "        setattr(owner, name, timed)\n"
    "        if isinstance(owner, type):\n"
    "            return\n"
    "        for other in list(_sys.modules.values()):\n"
    "            names = getattr(other, '__dict__', None)\n"
    "            if names is not None and names.get(name) is func:\n"
    "                names[name] = timed\n"
    "    def _window(*_):\n"
    "        if not _probed:\n"
    "            import gc as _gc\n"
    "            _gc.callbacks.append(_gc_clock)\n"
    "            for spec in _os.environ['MESA_PROBE_CALLS'].split(','):\n"
    "                _probe(spec)\n"
    "            return\n"
    "        with open(_os.environ['MESA_PROBE_CALLS_OUT'], 'w') as out:\n"
    "            out.write(_js.dumps(_probed))\n"
    "    _sg.signal(_sg.SIGUSR2, _window)\n"
)


class Window:
    """``bench/load.py``'s window probe: SIGUSR2 to the bot as the window starts and ends."""

    def __init__(self) -> None:
        self.pid = 0

    def start(self, pids: list[int], seconds: float) -> None:
        self.pid = pids[0]
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGUSR2)

    async def stop(self) -> None:
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGUSR2)
        await asyncio.sleep(1.0)  # the bot writes its figures between two loop turns


def report(probed: dict[str, list[float]], result: dict[str, Any]) -> str:
    moves = max(result["moves"], 1)
    bot_ms = result["bot_cpu_ms_per_move"]
    lines = [
        f"{result['tables']} tables, {result['moves']} moves in the window"
        f" ({result['moves_per_s']} moves/s); bot CPU {bot_ms} ms per move;"
        f" load average {' '.join(f'{x:.2f}' for x in result['loadavg'])}",
        "",
        "| function | calls per move | CPU us per call | median, p90 us | of which collector"
        " us | CPU ms per move | share of the bot's |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for spec, (calls, seconds, collected, took) in sorted(probed.items(), key=lambda kv: -kv[1][1]):
        per_move = seconds * 1000 / moves
        took = sorted(took) or [0.0]
        median, p90 = took[len(took) // 2] * 1e6, took[len(took) * 9 // 10] * 1e6
        lines.append(
            f"| {spec} | {calls / moves:.2f} | {seconds * 1e6 / max(calls, 1):.1f}"
            f" | {median:.1f}, {p90:.1f} | {collected * 1e6 / max(calls, 1):.1f}"
            f" | {per_move:.3f} | {100 * per_move / max(bot_ms, 1e-9):.1f} % |"
        )
    # The pools' side of the same window (a render worker's read and unpickle stages are the
    # other end of the hand-off): their CPU per move, and a render worker's per image by stage
    lines += [
        "",
        f"render workers {result.get('render_workers_cpu_ms_per_move')} ms per move,"
        f" searches {result.get('search_workers_cpu_ms_per_move')} ms per move,"
        f" {result.get('images_drawn_per_move')} images drawn per move",
        *load.worker_stage_lines(result),
    ]
    return "\n".join(lines)


async def main(argv: list[str] | None = None) -> int:
    parser, own, passed = load.probe_parser(
        __doc__.split("\n\n")[0], sys.argv[1:] if argv is None else argv, global_rate="45"
    )
    parser.add_argument(
        "--functions",
        default=",".join(DEFAULT),
        help="module:qualname, ... (or a preset's name: " + ", ".join(PRESETS) + ")",
    )
    args = parser.parse_args(own)
    load_args = load.probe_args(args, passed)
    load.BOT_LAUNCHER = PRELUDE + load.BOT_LAUNCHER
    load_args.window_probe = Window()
    with tempfile.TemporaryDirectory(prefix="mesa-probe-") as folder:
        out = Path(folder) / "calls.json"
        os.environ["MESA_PROBE_CALLS"] = ",".join(PRESETS.get(args.functions, [args.functions]))
        os.environ["MESA_PROBE_CALLS_OUT"] = str(out)
        bot_folder = Path(folder) / "bot"
        bot_folder.mkdir()
        result = await load.run_one(args.tables, load_args, bot_folder)
        probed = json.loads(out.read_text()) if out.exists() else {}
    print(report(probed, result))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
