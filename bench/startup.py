"""Start-up with many open tables, two ways:

- ``--level bot`` (default): the whole bot. The real ``python -m bot`` process against the fake
  Discord (this process): one real table is opened and played a little, the bot stops
  (SIGTERM), N more open tables are written into its database, and the bot starts again. Timed
  from the exec: each phase (from the bot's log: imports and wiring until discord.py logs in,
  storage + cogs + command sync, the open-table index, the gateway connection) and the first
  click answered (a player presses "Ver mi mano" on the real table as soon as the gateway is
  connected: that click loads the table lazily). RSS of the bot process once serving, with 0
  and with N extra open tables side by side (RSS follows the tables in use, not the open ones).
- ``--level service``: the table service alone (no Discord), loading every table at start-up
  (as main did before issue 16) against the lazy index.

    .venv/bin/python bench/startup.py                         # whole bot, 10,000 open tables
    .venv/bin/python bench/startup.py --tables 2000 --runs 3
    .venv/bin/python bench/startup.py --level service

The extra tables are playing Chúpate 2 / Ce Amapatolli / Triple Triad tables, with stored
deadlines an hour away (nothing fires during the measurement) and their public messages marked
shown at their version (nothing to show again).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# What issue 16 measured on main: restart with 9,243 open tables.
MAIN_SERVING_S = "2.2-2.3"
MAIN_RSS_MB = 300
GOAL_S = 1.0
EXTRA_GAMES = ("chupate2", "amapatolli", "triad")


async def add_tables(path: Path, tables: int, *, wake_in: float = 3600.0) -> None:
    """Writes ``tables`` playing tables (states of new games) into the database at ``path``."""
    from bot.registry import load_games
    from storage import SeatInfo, open_database

    games = load_games()
    db = await open_database(path)
    seats = [SeatInfo(id="111", name="a"), SeatInfo(id="222", name="b")]
    seat_json = json.dumps([s.model_dump() for s in seats])
    rows = []
    for i in range(tables):
        key = EXTRA_GAMES[i % len(EXTRA_GAMES)]
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
                    seat_json,
                    state,
                    v,
                    str(900_000 + i),
                    now + wake_in + (i % 120),
                )
                for key, i, state, v in rows
            ],
        )
        conn.execute(
            "INSERT OR REPLACE INTO presented (table_id, slot, message_id, version)"
            " SELECT id, '', message_id, version FROM tables WHERE seed = 's'"
        )

    await db.write(unit)
    await db.close()


# ----- the whole bot --------------------------------------------------------------------------
def _log_times(log_path: Path, since: float) -> dict[str, float]:
    """Seconds after ``since`` (unix time) at which the bot logged each start-up step (the
    last start's lines: those after ``since``)."""
    marks = {
        "logged_in": "logging in using static token",
        "synced": "synced ",
        "indexed": "indexed ",
        "recovered": "recovery: intents",
    }
    found: dict[str, float] = {}
    for line in log_path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            stamp = datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
        except ValueError:
            continue
        if stamp < since - 0.01:
            continue
        for key, text in marks.items():
            if key not in found and text in line:
                found[key] = stamp - since
    return found


async def whole_bot(tables: int, runs: int, folder: Path) -> list[dict[str, float]]:
    from bench.crash_soak import BotProcess
    from bench.load_driver import World
    from tests.fakediscord.server import FakeDiscord

    fake = FakeDiscord(validate=False, keep_history=False)
    await fake.start()
    bot = BotProcess(fake, folder, turn_seconds=3600)
    # Production's pools (started on first use), not the soak's inline workers.
    text = bot.env_file.read_text().replace("WORKER_PROCESSES=0\nRENDER_PROCESSES=0\n", "")
    bot.env_file.write_text(text.replace("ANSWER_IN_PLACE_MS=0\n", ""))
    world = World(fake, 1, seed=5, think=(0.05, 0.1), closed_dms=0.0)
    results = []
    try:
        await bot.start()
        await fake.wait_until(lambda: fake.commands.get(None), timeout=120, what="command sync")
        await fake.wait_until_connected(timeout=60)
        tasks = await world.open_all()
        [table] = world.tables
        await fake.wait_until(lambda: table.version is not None, timeout=60, what="a game")
        world.running = False
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await fake.settle(timeout=10)
        await bot.terminate()
        extra = 0
        for n in range(runs):
            for target in (0, tables):
                if target > extra:
                    await add_tables(folder / "bot.db", target - extra)
                    extra = target
                if target < extra:
                    continue  # only ever adds: measure 0 first, then N
                results.append(await _one_start(fake, bot, table, target))
                print(f"[startup] run {n + 1}: {results[-1]}", file=sys.stderr, flush=True)
            if n + 1 < runs:  # the next run starts from 0 extra tables again
                _drop_extra(folder / "bot.db")
                extra = 0
    finally:
        bot.kill()
        await bot.wait_dead()
        await fake.stop()
    return results


def _drop_extra(path: Path) -> None:
    import sqlite3

    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM presented WHERE table_id IN (SELECT id FROM tables WHERE seed='s')")
    conn.execute("DELETE FROM tables WHERE seed = 's'")
    conn.commit()
    conn.close()


async def _one_start(fake, bot, table, extra: int) -> dict[str, float]:
    from bench.load_probe import rss_mb

    identifies = fake.gateway.identifies
    since = time.time()
    start = time.monotonic()
    await bot.start()
    await fake.wait_until(
        lambda: fake.gateway.identifies > identifies and fake.gateway.connected,
        timeout=60,
        what="the gateway connection",
    )
    connected = time.monotonic() - start
    user = table.users[0]
    handle = await user.click(table.public, "Ver mi mano")  # as soon as the bot can hear it
    await handle.acknowledged()
    answered = time.monotonic() - start
    await handle.response(10)
    rss = rss_mb(bot.process.pid)
    await bot.wait_recovered()
    times = _log_times(bot.log_path, since)
    await fake.settle(timeout=10)
    await bot.terminate()
    return {
        "extra_tables": extra,
        "logged_in_s": round(times.get("logged_in", -1), 3),
        "synced_s": round(times.get("synced", -1), 3),
        "indexed_s": round(times.get("indexed", -1), 3),
        "connected_s": round(connected, 3),
        "first_click_s": round(answered, 3),
        "rss_mb": round(rss, 1),
    }


def print_bot(results: list[dict[str, float]], tables: int) -> None:
    def best(extra: int, key: str) -> float:
        return min(r[key] for r in results if r["extra_tables"] == extra)

    print(f"whole bot (python -m bot vs the fake Discord), best of {len(results) // 2} starts")
    print(f"{'seconds from exec':34} {'0 open tables':>14} {f'{tables} open':>12}  main")
    rows = [
        ("imports + wiring -> logging in", "logged_in_s"),
        ("storage, cogs, command sync", "synced_s"),
        ("open-table index read", "indexed_s"),
        ("gateway connected", "connected_s"),
        ("first click answered (serving)", "first_click_s"),
    ]
    for label, key in rows:
        main = f"{MAIN_SERVING_S} s (9,243 tables)" if key == "first_click_s" else ""
        print(f"{label:34} {best(0, key):>14} {best(tables, key):>12}  {main}")
    rss0, rss = best(0, "rss_mb"), best(tables, "rss_mb")
    print(f"{'RSS MB once serving':34} {rss0:>14} {rss:>12}  {MAIN_RSS_MB} MB")
    serving = best(tables, "first_click_s")
    verdict = "met" if serving < GOAL_S else "missed"
    print(f"goal: {tables} open tables serving in < {GOAL_S} s: {verdict} ({serving} s)")


# ----- the table service alone ----------------------------------------------------------------
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


def service_level(tables: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="mesa-startup-"))
    db = folder / "bot.db"
    asyncio.run(add_tables(db, tables, wake_in=5.0))
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
    print(f"{tables} open tables   {'load all (main)':>16} {'lazy (now)':>14}")
    for key in ("serving_s", "rss_mb"):
        print(f"{key:20} {results['eager'][key]:>16} {results['lazy'][key]:>14}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--level", choices=["bot", "service"], default="bot")
    parser.add_argument("--runs", type=int, default=2, help="starts of each size (bot level)")
    parser.add_argument("--keep-dir", type=Path)
    parser.add_argument("--mode", choices=["eager", "lazy"], help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mode:
        print(json.dumps(asyncio.run(measure(args.db, args.mode == "lazy"))))
        return
    if args.level == "service":
        service_level(args.tables)
        return
    folder = args.keep_dir or Path(tempfile.mkdtemp(prefix="mesa-startup-"))
    folder.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print_bot(asyncio.run(whole_bot(args.tables, args.runs, folder)), args.tables)


if __name__ == "__main__":
    main()
