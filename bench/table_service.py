"""Throughput of the table service: computer-only Ce Amapatolli games played through the full
path (lock -> version check -> apply -> one SQLite transaction -> listener), compared with the
bare engine on the same games. Prints JSON.

    .venv/bin/python bench/table_service.py [games]
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from bot.service import ServiceConfig, TableService
from games.amapatolli import GAME
from games.core import rng_for
from storage import open_database


class Quiet:
    async def lobby_changed(self, table): ...
    async def game_changed(self, table, events, actor, by_timer): ...
    async def table_closed(self, table, reason): ...
    async def seat_replaced(self, table, seat_id): ...


async def through_service(games: int, folder: Path) -> tuple[int, float]:
    db = await open_database(folder / "bench.db")
    service = TableService(
        db,
        {"amapatolli": GAME},
        Quiet(),
        ServiceConfig(cpu_delay_seconds=0, timeouts_before_replacement=1),
    )
    actions = 0
    start = time.perf_counter()
    for n in range(games):
        table = await service.open(
            guild_id="g",
            channel_id=f"c{n}",
            game_key="amapatolli",
            host_id="h",
            host_name="H",
            locale="es",
            seed=f"bench-{n}",
        )
        for _ in range(3):
            await service.add_cpu(table.id, "h", "normal")
        await service.start(table.id, "h")
        await service.expire_turn(table.id)  # the host's seat becomes a computer too
        await service.wait_idle(table.id)
        actions += table.version
    elapsed = time.perf_counter() - start
    await service.close()
    await db.close()
    return actions, elapsed


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
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    with tempfile.TemporaryDirectory() as folder:
        service_actions, service_s = asyncio.run(through_service(games, Path(folder)))
    engine_actions, engine_s = bare_engine(games)
    print(
        json.dumps(
            {
                "games": games,
                "service": {
                    "actions": service_actions,
                    "seconds": round(service_s, 3),
                    "actions_per_s": round(service_actions / service_s),
                    "ms_per_action": round(1000 * service_s / service_actions, 3),
                },
                "bare_engine_with_ai": {
                    "actions": engine_actions,
                    "seconds": round(engine_s, 3),
                    "actions_per_s": round(engine_actions / engine_s),
                },
                "service_overhead_ms_per_action": round(
                    1000 * (service_s / service_actions - engine_s / engine_actions), 3
                ),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
