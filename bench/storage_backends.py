"""A move's write on SQLite beside PostgreSQL: ``TablesRepo.record_action`` (the move path's one
transaction: guarded snapshot UPDATE + action row) timed from the bot's event loop, one table
at a time and many tables at once; a read of a table; and the embedded server's start.

PostgreSQL runs twice: with its defaults (fsync and synchronous commit on: durable) and with the
test suite's settings (no fsync). SQLite runs as the bot runs it (WAL, synchronous=NORMAL).
Prints one JSON object.

    nice -n 10 .venv/bin/python bench/storage_backends.py [moves] [tables]
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import SeatInfo, TablesRepo, open_database
from tests.pg_server import EmbeddedPostgres

SEATS = [SeatInfo(id=str(i), name=f"P{i}") for i in range(4)]
STATE = json.dumps({"hands": [[f"card{i}" for i in range(12)] for _ in range(4)], "pile": 80})


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


async def _tables(repo: TablesRepo, n: int, prefix: str) -> list[Any]:
    out = []
    for i in range(n):
        record = await repo.create(
            guild_id="g",
            channel_id=f"{prefix}{i}",
            game="amapatolli",
            host_id="0",
            locale="es",
            options={},
            seats=SEATS,
            seed="s",
        )
        await repo.start(record.id, SEATS, STATE, 0)
        out.append(await repo.get(record.id))
    return out


async def _moves(repo: TablesRepo, table: Any, count: int, samples: list[float]) -> None:
    for version in range(1, count + 1):
        began = time.perf_counter()
        await repo.record_action(
            table, seat=str(version % 4), action=f"p.{version}", state_json=STATE, version=version
        )
        samples.append(time.perf_counter() - began)
        table.version = version


async def measure(target: str | Path, moves: int, tables: int) -> dict[str, Any]:
    db = await open_database(target)
    try:
        repo = TablesRepo(db)
        [one] = await _tables(repo, 1, "solo")
        alone: list[float] = []
        await _moves(repo, one, moves, alone)
        reads = []
        for _ in range(moves):
            began = time.perf_counter()
            await repo.get(one.id)
            reads.append(time.perf_counter() - began)
        many = await _tables(repo, tables, "many")
        together: list[float] = []
        per_table = max(1, moves // tables)
        began = time.perf_counter()
        await asyncio.gather(*(_moves(repo, t, per_table, together) for t in many))
        elapsed = time.perf_counter() - began
        return {
            "move_alone": _ms(alone),
            "read_table": _ms(reads),
            f"moves_{tables}_tables_at_once": {
                **_ms(together),
                "moves_per_s": round(len(together) / elapsed),
                "transactions": db.write_stats.transactions,
            },
        }
    finally:
        await db.close()


async def main(moves: int, tables: int) -> None:
    results: dict[str, Any] = {"moves": moves, "tables": tables}
    with tempfile.TemporaryDirectory() as folder:
        results["sqlite"] = await measure(Path(folder) / "bench.db", moves, tables)
    for name, durable in (("postgres_durable", True), ("postgres_no_fsync", False)):
        server = EmbeddedPostgres(durable=durable)
        try:
            await asyncio.to_thread(server.start)
            url = await asyncio.to_thread(server.create_database, "bench")
            results[name] = {"server_start_s": round(server.started_in or 0, 3)}
            results[name].update(await measure(url, moves, tables))
        finally:
            await asyncio.to_thread(server.stop)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    asyncio.run(main(*(args + [1000, 100][len(args) :])))
