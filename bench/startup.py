"""Start-up with many open tables: how long until the table service serves, and the RSS it
takes, loading every table at start-up (as main did) against the lazy index (this branch).

    .venv/bin/python bench/startup.py                 # 10,000 open tables
    .venv/bin/python bench/startup.py --tables 2000

A database of N playing Chúpate 2 / Ce Amapatolli tables is built first (same states, stored
deadlines spread over the next two minutes); then each mode runs in a fresh process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def build(path: Path, tables: int) -> None:
    from bot.registry import load_games
    from storage import SeatInfo, open_database

    games = load_games()
    db = await open_database(path)
    seats = [SeatInfo(id="111", name="a"), SeatInfo(id="222", name="b")]
    rows = []
    for i in range(tables):
        key = ("chupate2", "amapatolli")[i % 2]
        game = games[key]
        state = game.new([s.id for s in seats], f"seed-{i}", {})
        rows.append((key, i, game.dump_state(state), state.version))
    now = time.time()

    def unit(conn):
        conn.executemany(
            "INSERT INTO tables (guild_id, channel_id, game, status, host_id, locale, options,"
            " seats, seed, state, version, message_id, wake_at)"
            " VALUES ('1', ?, ?, 'playing', '111', 'es', '{}', ?, 's', ?, ?, ?, ?)",
            [
                (
                    str(10_000 + i),
                    key,
                    json.dumps([s.model_dump() for s in seats]),
                    state,
                    v,
                    str(900_000 + i),
                    now + 5 + (i % 120),
                )
                for key, i, state, v in rows
            ],
        )
        conn.execute(
            "INSERT INTO presented (table_id, slot, message_id, version)"
            " SELECT id, '', message_id, version FROM tables"
        )

    await db.write(unit)
    await db.close()


async def measure(path: Path, lazy: bool) -> dict[str, float]:
    from bot.registry import load_games
    from bot.service import TableService
    from storage import open_database

    class Quiet:
        async def lobby_changed(self, *a): ...
        async def game_changed(self, *a): ...
        async def table_closed(self, *a): ...
        async def seat_replaced(self, *a): ...
        async def seat_changed(self, *a): ...
        async def rematch_opened(self, *a): ...

    games = load_games()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    db = await open_database(path)
    service = TableService(db, games, Quiet())
    await service.load(lazy=lazy)
    serving = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    await service.close(drain_seconds=0.1)
    await db.close()
    return {
        "serving_s": round(serving, 3),
        "rss_mb": round(rss, 1),
        "rss_added_mb": round(rss - rss_before, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--mode", choices=["eager", "lazy"])
    parser.add_argument("--db", type=Path)
    args = parser.parse_args()
    if args.mode:
        print(json.dumps(asyncio.run(measure(args.db, args.mode == "lazy"))))
        return
    folder = Path(tempfile.mkdtemp(prefix="mesa-startup-"))
    db = folder / "bot.db"
    asyncio.run(build(db, args.tables))
    results = {}
    for mode in ("eager", "lazy"):
        out = subprocess.run(
            [sys.executable, __file__, "--mode", mode, "--db", str(db)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        results[mode] = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"{args.tables} open tables   {'load all (main)':>16} {'lazy (branch)':>14}")
    for key in ("serving_s", "rss_mb"):
        print(f"{key:20} {results['eager'][key]:>16} {results['lazy'][key]:>14}")


if __name__ == "__main__":
    main()
