"""The computer players' searches: the bot process's own CPU per search through the executor
pool (``bot.workers.Workers``, the search pool until session 18) vs the pipe pool
(``bot.pipe_workers.create_workers``: no queue feeder or manager thread in the bot).

    python bench/search_pool.py [--searches 600] [--tables 40] [--every-ms 5] [--workers 2]

Plays random games of every game to collect real searches (the arguments the table service's
``ComputerTurns`` hands the pool: the game's reference, the seat's view, its legal actions'
texts, the level, the seed), then asks them from ``--tables`` tables at once, each table one
search at a time (as a table's computer turns do), a new search every ``--every-ms`` on
average, and prints for each pool: searches/s, the bot process's CPU per search (all of its
threads, by the kernel's clock) split by thread, and the event-loop lag a 5 ms ticker sees.
The driver's own CPU (the same in both) is printed apart, measured with the searches answered
on the loop. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.pipe_workers import create_workers
from bot.registry import load_games
from bot.service.choose import choose_action_text, game_ref
from bot.workers import SEARCH_POOL, Workers, warm_up_games
from tests.playouts import random_states

Search = tuple[Any, ...]  # choose_action_text's arguments
THINK_SECONDS = 2.0  # the bot's default ``cpu_think_seconds``, on its clock (time.monotonic)


def sample_searches(count: int) -> list[Search]:
    """``count`` searches from random games of every game, from every moment of them."""
    rng = random.Random(18)
    games = load_games()
    out: list[Search] = []
    while len(out) < count:
        for _, game in sorted(games.items()):
            seats = [str(100 + i) for i in range(max(game.min_players, 2))]
            start = game.new(seats, f"bench-{len(out)}", None)
            for state in random_states(game, start, rng, rng.randint(0, 30)):
                for seat in sorted(s for s in game.to_act(state) if game.legal_actions(state, s)):
                    legal = [a.encode() for a in game.legal_actions(state, seat)]
                    view = game.view(state, seat)
                    labels = ("cpu", seat, state.version)
                    budget = {"budget": game.think_budget(THINK_SECONDS, time.monotonic)}
                    out.append((game_ref(game), view, legal, "normal", state.seed, labels, budget))
    rng.shuffle(out)
    return out[:count]


def thread_cpu() -> dict[str, float]:
    """This process's CPU seconds by thread name (the kernel's clock per thread)."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    ticks = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        with contextlib.suppress(OSError, ValueError):
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            name = names.get(int(task.name), f"thread {task.name}")
            out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / ticks
    return out


async def _ticker(lags: list[float], stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        before = loop.time()
        await asyncio.sleep(0.005)
        lags.append((loop.time() - before - 0.005) * 1000)


async def drive(
    ask: Callable[[Search], Any], searches: list[Search], tables: int, every: float
) -> tuple[float, dict[str, float], list[float]]:
    """Every search asked through ``ask`` from ``tables`` tables, each one at a time, a new
    one every ``every`` seconds on average: (seconds, CPU by thread, loop lags)."""
    queue = list(reversed(searches))
    rng = random.Random(7)
    lags: list[float] = []
    stop = asyncio.Event()

    async def table() -> None:
        while queue:
            await asyncio.sleep(rng.uniform(0, 2 * every * tables))
            if queue:
                await ask(queue.pop())

    ticker = asyncio.create_task(_ticker(lags, stop))
    before, started = thread_cpu(), time.perf_counter()
    await asyncio.gather(*(table() for _ in range(tables)))
    seconds, after = time.perf_counter() - started, thread_cpu()
    stop.set()
    await ticker
    spent = {name: cpu - before.get(name, 0.0) for name, cpu in after.items()}
    return seconds, {name: cpu for name, cpu in spent.items() if cpu > 0}, lags


async def run_pool(
    label: str, pool: Workers | None, searches: list[Search], args: argparse.Namespace
) -> dict[str, float]:
    waits: list[float] = []  # ms from asking a search to its answer
    if pool is None:  # the driver alone: each search answered on the loop at once

        async def ask(search: Search) -> Any:
            await asyncio.sleep(0)

    else:
        pool.start()
        await asyncio.gather(*(pool.run(choose_action_text, *s) for s in searches[:20]))

        async def ask(search: Search) -> Any:
            start = time.perf_counter()
            try:
                return await pool.run(choose_action_text, *search)
            finally:
                waits.append((time.perf_counter() - start) * 1000)

    try:
        seconds, spent, lags = await drive(ask, searches, args.tables, args.every_ms / 1000)
    finally:
        if pool is not None:
            pool.shutdown()
    n = len(searches)
    total = sum(spent.values())
    threads = ", ".join(
        f"{name} {cpu * 1000 / n:.3f}" for name, cpu in sorted(spent.items(), key=lambda x: -x[1])
    )
    print(
        f"{label:>9}: {n / seconds:6.1f} searches/s; bot process CPU {total * 1000 / n:.3f} ms"
        f" per search ({threads}); loop lag p50/p99"
        f" {statistics.median(lags):.1f}/{statistics.quantiles(lags, n=100)[98]:.1f} ms"
        + (
            f"; a search's wait p50/p99 {statistics.median(waits):.1f}"
            f"/{statistics.quantiles(waits, n=100)[98]:.1f} ms"
            if waits
            else ""
        )
    )
    return {"cpu_ms": total * 1000 / n}


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=600)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--every-ms", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    searches = sample_searches(args.searches)
    print(
        f"{len(searches)} searches, {args.tables} tables, one every {args.every_ms} ms,"
        f" {args.workers} workers; load average {os.getloadavg()[0]:.2f}"
    )
    for _ in range(args.repeat):
        await run_pool("driver", None, searches, args)
        await run_pool(
            "executor", Workers(args.workers, warm_up_games, SEARCH_POOL), searches, args
        )
        await run_pool(
            "pipes", create_workers(args.workers, warm_up_games, SEARCH_POOL), searches, args
        )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
