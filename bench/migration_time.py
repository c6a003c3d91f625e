"""What a migration costs a deployment's start-up (issue 29: 0016 drops a column of the largest
table, the moves): a database made by the migrations up to ``--before`` (default: all but the
last), ``--rows`` moves written into it as the bot writes them (finished tables of ``--moves``
moves, seats with Discord-long ids, actions' compact texts), then the newer migrations run as
start-up runs them (``storage/sqlite.migrate``; ``--postgres``: ``storage/postgres.migrate`` on an
embedded server). Printed: the migrations' CPU (SQLite: this process's clock; PostgreSQL: the
server's backend process, from ``/proc``) and wall time, the bytes the write-ahead log took, and
the SQLite file's size and free pages before and after.

    .venv/bin/python bench/migration_time.py --rows 1000000
    .venv/bin/python bench/migration_time.py --rows 5000000 --postgres

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from storage.migrations import migration_scripts  # noqa: E402
from storage.sqlite import _configure, migrate  # noqa: E402

ACTIONS = ("play 7H", "draw", "pass", "move 3 12", "bid 4", "place c042 5", "challenge", "p 2 9")
TABLE_SQL = (
    "INSERT INTO tables (id, guild_id, channel_id, game, status, host_id, locale, options,"
    " seats, seed, version) VALUES ({}, '1', '{}', 'chupate2', 'finished', 'h', 'es', '{{}}',"
    " '[]', 's', {})"
)


def moves(rows: int, per_table: int) -> Iterator[tuple[int, int, str, str, int]]:
    """(table id, version, seat, action, by timer) of ``rows`` moves, ``per_table`` a table."""
    rng = random.Random(29)
    people = [str(310_000_000_000_000_000 + rng.randrange(10**15)) for _ in range(5_000)]
    for n in range(rows):
        table, version = divmod(n, per_table)
        if version == 0:
            seats = rng.sample(people, 3)
        yield (
            table + 1,
            version + 1,
            seats[version % 3],
            rng.choice(ACTIONS),
            int(version % 11 == 0),
        )


def tables(rows: int, per_table: int) -> range:
    return range(1, -(-rows // per_table) + 1)


def sqlite_figures(args: argparse.Namespace, before: int) -> None:
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(folder) / "moves.db"
        conn = sqlite3.connect(path, isolation_level=None)
        _configure(conn)
        for number, script in migration_scripts("sqlite")[:before]:
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        conn.execute("BEGIN")
        for table in tables(args.rows, args.moves):
            conn.execute(TABLE_SQL.format(table, table, args.moves))
        conn.executemany(
            "INSERT INTO actions (table_id, version, seat, action, by_timer)"
            " VALUES (?, ?, ?, ?, ?)",
            moves(args.rows, args.moves),
        )
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = path.stat().st_size
        cpu, wall = time.process_time(), time.perf_counter()
        reached = migrate(conn)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        log = Path(f"{path}-wal").stat().st_size
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        conn.close()
        print(
            f"SQLite {sqlite3.sqlite_version}, {args.rows:,} moves, migrations {before + 1}-{reached}:"
            f" CPU {cpu:.2f} s ({cpu / args.rows * 1e6:.2f} us a move), wall {wall:.2f} s;"
            f" write-ahead log {log / 1e6:.0f} MB; file {size / 1e6:.0f} ->"
            f" {path.stat().st_size / 1e6:.0f} MB, free pages after {free:,} ({free * page / 1e6:.0f} MB)"
        )


def _process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def postgres_figures(args: argparse.Namespace, before: int, url: str) -> None:
    import asyncpg

    from storage.postgres import migrate as migrate_postgres

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY)")
        for number, script in migration_scripts("postgres")[:before]:
            async with conn.transaction():
                if any(line and not line.startswith("--") for line in script.splitlines()):
                    await conn.execute(script)  # (not a SQLite's alone: comments only here)
                await conn.execute("INSERT INTO schema_version VALUES ($1)", number)
        for table in tables(args.rows, args.moves):
            await conn.execute(TABLE_SQL.format(table, table, args.moves))
        written = moves(args.rows, args.moves)
        while chunk := list(itertools.islice(written, 100_000)):
            await conn.copy_records_to_table(
                "actions",
                records=chunk,
                columns=["table_id", "version", "seat", "action", "by_timer"],
            )
        await conn.execute("CHECKPOINT")
        backend = await conn.fetchval("SELECT pg_backend_pid()")
        lsn = await conn.fetchval("SELECT pg_current_wal_lsn()")
        cpu, wall = _process_cpu(backend), time.perf_counter()
        reached = await migrate_postgres(conn)
        cpu, wall = _process_cpu(backend) - cpu, time.perf_counter() - wall
        log = await conn.fetchval("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)", lsn)
        print(
            f"PostgreSQL, {args.rows:,} moves, migrations {before + 1}-{reached}: server CPU"
            f" {cpu:.2f} s, wall {wall:.2f} s; write-ahead log {float(log) / 1e6:.1f} MB"
        )
    finally:
        await conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="moves stored (1,000,000)")
    parser.add_argument("--moves", type=int, default=80, help="moves a table (80)")
    last = len(migration_scripts("sqlite"))
    parser.add_argument("--before", type=int, default=last - 1, help="the database's migration")
    parser.add_argument("--postgres", action="store_true", help="also on embedded PostgreSQL")
    parser.add_argument("--dir", help="where the SQLite file goes (default: the system's tmp)")
    args = parser.parse_args()
    sqlite_figures(args, args.before)
    if args.postgres:
        from tests.pg_server import postgres_server

        with postgres_server() as server:
            url = server.create_database()
            asyncio.run(postgres_figures(args, args.before, url))
            server.drop_database(url)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
