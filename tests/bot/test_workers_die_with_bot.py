"""Workers die with the bot (issue 27): a bot process killed with SIGKILL leaves no worker of
its pools alive; each guard (the kernel's parent-death signal, the parent-pid watch) alone is
enough."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.processes import alive, descendants, wait_gone

ROOT = Path(__file__).resolve().parents[2]
GONE_WITHIN = 60.0  # seconds

# A stand-in for the bot: a search pool of two warm workers and a render pool of one.
POOLS = """
import asyncio, os, sys
from bot.pipe_workers import PipeWorkers, create_workers
from bot.workers import warm_up_games

async def main():
    search = create_workers(2, warm_up_games)  # the bot's search pool
    render = PipeWorkers(1)  # the bot's render pool (issue 29)
    search.start()
    await asyncio.gather(*(search.run(os.getpid) for _ in range(4)), render.run(os.getpid))
    print("ready", flush=True)
    await asyncio.sleep(600)

if __name__ == "__main__":
    asyncio.run(main())
"""

# Only the parent-pid watch (the fallback where prctl is missing), in a spawned child.
WATCH_ONLY = """
import multiprocessing, os, sys, threading, time
from bot.workers import _watch_parent

def child(parent):
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    time.sleep(600)

if __name__ == "__main__":
    ctx = multiprocessing.get_context("spawn")
    ctx.Process(target=child, args=(os.getpid(),)).start()
    print("ready", flush=True)
    time.sleep(600)
"""


# Only the kernel's parent-death signal (Linux), in a spawned child that then never looks.
SIGNAL_ONLY = """
import multiprocessing, os, sys, time
from bot.workers import _set_parent_death_signal

def child(armed):
    assert _set_parent_death_signal()
    armed.set()
    time.sleep(600)

if __name__ == "__main__":
    ctx = multiprocessing.get_context("spawn")
    armed = ctx.Event()
    ctx.Process(target=child, args=(armed,)).start()
    armed.wait()  # the child has set its signal
    print("ready", flush=True)
    time.sleep(600)
"""


async def _run_and_kill(script: str, tmp_path: Path, least: int) -> None:
    """Runs ``script``, kills it with SIGKILL once it printed "ready", and asserts that none of
    its descendants is alive once its guards had time to act. Its output goes to a file, not a pipe: an orphan would
    hold a pipe open (and asyncio waits for a child's pipes to close)."""
    path = tmp_path / "parent.py"
    path.write_text(script, encoding="utf-8")
    out = tmp_path / "out.txt"
    with out.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, str(path)],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    children: set = set()
    try:
        deadline = time.monotonic() + 120
        while b"ready" not in out.read_bytes():
            assert process.poll() is None, out.read_text()
            assert time.monotonic() < deadline, out.read_text()
            await asyncio.sleep(0.05)
        children = descendants(process.pid)
        assert len(children) >= least, children
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        # (a bound against a hang, not a timing: each is gone within a poll of its guard)
        left, waited = await wait_gone(children, timeout=GONE_WITHIN)
        assert not left, f"alive {waited:.0f} s after their parent was killed: {sorted(left)}"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid, _ in alive(children):  # a failed run leaves nothing behind
            os.kill(pid, signal.SIGKILL)


async def test_a_killed_parent_leaves_no_worker_of_its_pools(tmp_path):
    await _run_and_kill(POOLS, tmp_path, least=3)


async def test_the_parent_pid_watch_alone_ends_an_orphan(tmp_path):
    await _run_and_kill(WATCH_ONLY, tmp_path, least=1)


async def test_the_parent_death_signal_alone_ends_an_orphan(tmp_path):
    await _run_and_kill(SIGNAL_ONLY, tmp_path, least=1)
