"""Throughput of the table service: computer-only Ce Amapatolli games played through the full
path (lock -> version check -> apply -> one SQLite transaction -> listener), compared with the
bare engine on the same games, and many tables at once with a listener that behaves like the
Discord side (a render on the event loop plus a REST wait). Prints JSON.

    .venv/bin/python bench/table_service.py [games] [tables] [render_ms] [rest_ms]

It runs on older checkouts too (e.g. ``PYTHONPATH=<arch checkout> python bench/table_service.py``)
to compare: the write-lock hold time comes from the writer's own statistics when it has them,
else from timing ``Database.transaction``.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.service import ServiceConfig, TableService
from games.amapatolli import GAME
from games.core import rng_for
from storage import Database, open_database
from tests.waiting import computer_idle


class Quiet:
    async def lobby_changed(self, table): ...
    async def game_changed(self, table, events, actor, by_timer): ...
    async def table_closed(self, table, reason): ...
    async def seat_replaced(self, table, seat_id): ...


class DiscordLike(Quiet):
    """A render of ``render_ms`` on the event loop (as images were) and a REST call of
    ``rest_ms`` (awaited) per change."""

    def __init__(self, render_ms: float, rest_ms: float) -> None:
        self.render_s = render_ms / 1000
        self.rest_s = rest_ms / 1000

    async def game_changed(self, table, events, actor, by_timer):
        end = time.perf_counter() + self.render_s
        while time.perf_counter() < end:  # CPU on the loop
            pass
        await asyncio.sleep(self.rest_s)


class LockTimer:
    """Hold/wait times of the write lock, from whichever the storage offers."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.hold: list[float] = []
        self.wait: list[float] = []
        if hasattr(db, "transaction"):  # the aiosqlite transaction of older checkouts
            legacy: Any = db
            original = legacy.transaction
            lock = legacy._write_lock

            @asynccontextmanager
            async def timed() -> AsyncIterator[Any]:
                asked = time.perf_counter()
                async with lock:
                    got = time.perf_counter()
                    self.wait.append((got - asked) * 1000)
                    lock.release()  # the original takes it again at once
                    try:
                        async with original() as conn:
                            start = time.perf_counter()
                            yield conn
                    finally:
                        self.hold.append((time.perf_counter() - start) * 1000)
                        await lock.acquire()

            legacy.transaction = timed

    def figures(self) -> dict[str, Any]:
        stats = getattr(self.db, "write_stats", None)
        if stats is not None:  # the writer thread: one transaction per batch of units
            figures = {
                "kind": "writer thread (group commit)",
                "transactions": stats.transactions,
                "units": stats.units,
                "hold_ms_mean": round(stats.hold_ms_mean, 3),
                "hold_ms_max": round(stats.hold_ms_max, 3),
            }
            try:  # a move's whole persist step as the move path saw it (queue + commit)
                from bot import metrics

                persist = metrics.snapshot().get("persist")
                if persist:
                    figures["move_persist_ms_p50"] = round(persist["p50"], 3)
                    figures["move_persist_ms_p99"] = round(persist["p99"], 3)
                    figures["move_persist_ms_mean"] = round(persist["mean"], 3)
                metrics.reset()
            except ImportError:
                pass
            return figures
        return {
            "kind": "aiosqlite transaction under an asyncio lock",
            "transactions": len(self.hold),
            "hold_ms_mean": round(statistics.fmean(self.hold), 3) if self.hold else 0,
            "hold_ms_max": round(max(self.hold), 3) if self.hold else 0,
            "wait_ms_mean": round(statistics.fmean(self.wait), 3) if self.wait else 0,
            "move_persist_ms_mean": round(
                statistics.fmean(self.wait) + statistics.fmean(self.hold), 3
            )
            if self.hold
            else 0,
        }


async def play_tables(games: int, concurrent: int, folder: Path, listener: Quiet) -> dict[str, Any]:
    db = await open_database(folder / f"bench-{concurrent}.db")
    timer = LockTimer(db)
    try:
        from bot import metrics

        metrics.reset()
    except ImportError:
        pass
    service = TableService(
        db,
        {"amapatolli": GAME},
        listener,
        ServiceConfig(cpu_delay_seconds=0, timeouts_before_replacement=1),
    )

    async def one(n: int) -> int:
        table = await service.lobby.open(
            guild_id="g",
            channel_id=f"c{n}",
            game_key="amapatolli",
            host_id="h",
            host_name="H",
            locale="es",
            seed=f"bench-{n}",
        )
        for _ in range(3):
            await service.lobby.add_cpu(table.id, "h", "normal")
        await service.lobby.start(table.id, "h")
        await service.timers.expire_turn(table.id)  # the host's seat becomes a computer too
        await computer_idle(service, table.id)
        return table.version

    start = time.perf_counter()
    actions = 0
    for first in range(0, games, concurrent):
        batch = range(first, min(games, first + concurrent))
        actions += sum(await asyncio.gather(*(one(n) for n in batch)))
    elapsed = time.perf_counter() - start
    await service.close()
    await db.close()
    return {
        "tables_at_once": concurrent,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "actions_per_s": round(actions / elapsed, 1),
        "ms_per_action": round(1000 * elapsed / actions, 3),
        "write_lock": timer.figures(),
    }


def bare_engine(games: int) -> tuple[int, float]:
    actions = 0
    start = time.perf_counter()
    for n in range(games):
        state = GAME.new(["h", "cpu1", "cpu2", "cpu3"], f"bench-{n}")
        while GAME.outcome(state) is None:
            seat = sorted(GAME.to_act(state))[0]
            legal = GAME.legal_actions(state, seat)
            action = GAME.choose_action(
                GAME.view(state, seat),
                legal,
                "normal",
                rng_for(state.seed, "cpu", seat, state.version),
            )
            state, _ = GAME.apply(state, seat, action or legal[0])
            actions += 1
    return actions, time.perf_counter() - start


def main() -> None:
    args = sys.argv[1:]
    games = int(args[0]) if len(args) > 0 else 20
    tables = int(args[1]) if len(args) > 1 else 50
    render_ms = float(args[2]) if len(args) > 2 else 5.0
    rest_ms = float(args[3]) if len(args) > 3 else 30.0
    with tempfile.TemporaryDirectory() as folder:
        sequential = asyncio.run(play_tables(games, 1, Path(folder), Quiet()))
        crowded = asyncio.run(
            play_tables(max(games, tables), tables, Path(folder), DiscordLike(render_ms, rest_ms))
        )
    engine_actions, engine_s = bare_engine(games)
    print(
        json.dumps(
            {
                "games": games,
                "service": sequential,
                "bare_engine_with_ai": {
                    "actions": engine_actions,
                    "seconds": round(engine_s, 3),
                    "actions_per_s": round(engine_actions / engine_s),
                },
                "service_overhead_ms_per_action": round(
                    sequential["ms_per_action"] - 1000 * engine_s / engine_actions, 3
                ),
                "many_tables_discord_like": {
                    "render_ms_on_loop": render_ms,
                    "rest_ms": rest_ms,
                    **crowded,
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
