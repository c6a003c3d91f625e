"""The database's work per move of each game, load-proof (issue 29): people's moves played one at
a time through the real table service (``TableService.act``, as a click does: its intent queued
first, then the move marking it done) over a real SQLite file, plus the rows the presentation
stores per move (``PresentedRepo.save``: the public message and the mover's view). Counted, per
move: the writer's statements by kind (SQLite's trace of what it ran), the rows they changed
(``total_changes``), the bytes the writer thread wrote to the files (the kernel's ``wchar`` of the
thread: the write-ahead log and its checkpoints) and read (``rchar``: pages not in its cache),
the transactions (group commits), the writer's wake-ups, the units submitted, and the writer thread's CPU (its own clock, the best of
``--rounds`` rounds: a loaded machine changes it little). With ``--postgres`` the same moves on
an embedded PostgreSQL server, whose statements are counted too.

    .venv/bin/python bench/storage_per_move.py                      # every game, this tree
    .venv/bin/python bench/storage_per_move.py --bot-root ../wt-before   # another tree
    .venv/bin/python bench/storage_per_move.py --games triad --tables 4 --postgres
    .venv/bin/python bench/storage_per_move.py --pragma "secure_delete = FAST"   # a setting tried

Each game's tables (at load.py's players, every seat a person) are played from their start to
their end (or ``--moves`` moves), so a game's end (standings, ratings, cards) is in its figures
as often as it comes; the players' ids are as long as Discord's (a seat's id is written many
times in a state) and the clicks' interaction ids increase as Discord's snowflakes do.

Then the same moves once more with no checkpoint, so the write-ahead log keeps every frame: the
pages written per move by b-tree (each round's frames named by SQLite's ``dbstat`` after it; a
table's overflow pages apart, a page then free as "(free list)", page 1, the file's header, as
``sqlite_schema``), the state's bytes per move (the JSON the move made, and as stored), and each
b-tree's pages, payload and unused bytes at the end. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run in a fresh interpreter with the measured tree first on the path (``--bot-root``).
SCRIPT = r"""
import asyncio, collections, faulthandler, itertools, json, os, random, sys, tempfile, threading, time
faulthandler.dump_traceback_later(float(os.environ.get("MESA_BENCH_HANG_S", "900")), exit=True)
from collections import Counter
from pathlib import Path

from bot.registry import load_games
from bot.service import ServiceConfig, TableService
from bot.service.triad import ensure_collection
from storage import CollectionsRepo, Intent, open_database
from storage.presented import Shown

GAME_KEYS, TABLES, MOVES, ROUNDS, POSTGRES = (
    sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
)
PRAGMAS = [p for p in sys.argv[6].split(";") if p]

if PRAGMAS:  # SQLite settings tried (``--pragma``): each connection's, before the tree's own
    import storage.sqlite
    _configure = storage.sqlite._configure

    def _tried(conn):
        for pragma in PRAGMAS:
            conn.execute(f"PRAGMA {pragma}")
        _configure(conn)

    storage.sqlite._configure = _tried


# load.py's tables: each game at its players (here all people)
LOAD_PLAYERS = {"amapatolli": 3, "chupate2": 4, "maquiavelo": 3, "macarena": 3, "triad": 2}
# the clicks' interaction ids: increasing, as Discord's snowflakes are (the intents' key)
SNOWFLAKES = itertools.count(1_450_000_000_000_000_000)
USER_IDS = 310_000_000_000_000_000


class Quiet:
    async def lobby_changed(self, table): ...
    async def game_changed(self, table, events, actor, by_timer): ...
    async def table_closed(self, table, reason): ...
    async def seat_replaced(self, table, seat_id): ...


def io_bytes(tid, field):
    with open(f"/proc/self/task/{tid}/io") as io:
        for line in io:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def head(sql):
    words = sql.split()
    if not words:
        return "?"
    first = words[0].upper()
    if first in ("INSERT", "DELETE"):
        return " ".join(words[:3])
    if first == "UPDATE":
        return " ".join(words[:2]) + (" SET " + words[3] if len(words) > 3 else "")
    if first == "SELECT":
        at = [w.upper() for w in words].index("FROM") if "FROM" in (w.upper() for w in words) else 0
        return "SELECT FROM " + (words[at + 1] if at else "?")
    return " ".join(words[:2])


class Counting:
    # statements of the writer thread, by kind (SQLite: its trace; PostgreSQL: the session)
    def __init__(self):
        self.statements = Counter()
        self.on = False

    def trace(self, sql):
        if self.on:
            self.statements[head(sql)] += 1


async def open_tables(service, game_key, game, rng, first):
    tables = []
    players = LOAD_PLAYERS.get(game_key, max(2, game.min_players))
    for n in range(TABLES):
        # Discord's user ids: 18-19 digits (a seat's id is written many times in a state)
        users = [str(USER_IDS + (first + n) * 10 + i) for i in range(players)]
        table = await service.lobby.open(
            guild_id="g", channel_id=f"{game_key}-{first + n}", game_key=game_key,
            host_id=users[0], host_name="Host", locale="es", seed=f"seed-{game_key}-{n}",
        )
        for user in users[1:]:
            await service.lobby.join(table.id, user, user.upper())
        setup = None
        if game_key == "triad":
            repo = CollectionsRepo(service.repo.db)
            hands = {}
            for user in users:
                owned = await ensure_collection(repo, user)
                hands[user] = sorted(Counter(owned).elements())[:5]
            setup = {"hands": hands}
        await service.lobby.start(table.id, users[0], setup=setup)
        tables.append(table)
    return tables


async def play(service, tables, game, rng, counter, sizes=None, after_round=None):
    # one move at a time over the tables, round robin, each a click (its intent, then the
    # move); the rows of what each message shows stored once a round
    moves = 0
    live = list(tables)
    shown = []
    for step in range(MOVES):
        if not live:
            break
        for table in list(live):
            state = table.state
            movers = sorted(s for s in game.to_act(state) if game.legal_actions(state, s))
            if table.record.status != "playing" or game.outcome(state) is not None or not movers:
                live.remove(table)
                continue
            seat = rng.choice(movers)
            action = rng.choice(game.legal_actions(state, seat))
            intent = Intent(
                interaction_id=str(next(SNOWFLAKES)), application_id="a",
                token="t" * 160, table_id=table.id, seat=seat, version=table.version,
                action=action.encode(), locale="es", created_at=time.time(),
            )
            service.intents.start(intent)
            await service.act(table.id, seat, table.version, action.encode(), intent=intent)
            if sizes is not None:  # the state's JSON the move stored, in bytes
                sizes.append(len(table.record.state.encode()))
            shown += [
                Shown(table.id, "", "m1", table.version, {"token": "t" * 160, "at": time.time()}),
                Shown(table.id, seat, "m2", table.version, {"digest": "d" * 16}),
            ]
            moves += 1
        # what each message shows, stored in batches (bot/ui/shown.py): once per round here
        await service.presented.save(shown)
        shown = []
        if after_round is not None:
            await after_round()
    return moves


async def measure(game_key, game, target, rounds):
    counter = Counting()
    best = None
    figures = {}
    for round_ in range(rounds):
        with tempfile.TemporaryDirectory(dir=os.environ.get("MESA_BENCH_DIR")) as folder:
            db = await open_database(target(folder, round_))
            service = TableService(db, {game_key: game}, Quiet(), ServiceConfig(cpu_delay_seconds=0))
            writer = db._writer
            tid = writer._thread.native_id
            clock = time.pthread_getcpuclockid(writer._thread.ident)
            if db.dialect == "sqlite" and round_ == 0:
                await writer.submit(lambda c: c.set_trace_callback(counter.trace), transactional=False)
            rng = random.Random(f"{game_key}-{round_}")
            tables = await open_tables(service, game_key, game, rng, 0)
            wakes = [0]
            jobs = writer._jobs

            class CountedQueue:  # the writer's wake-ups: each ``get`` it blocks in
                def get(self, *args, **kwargs):
                    wakes[0] += 1
                    return jobs.get(*args, **kwargs)

                def __getattr__(self, name):
                    return getattr(jobs, name)

            writer._jobs = CountedQueue()
            submits = [0]
            submit = writer.submit
            def counted_submit(*args, **kwargs):
                submits[0] += 1
                return submit(*args, **kwargs)
            writer.submit = counted_submit
            changes0 = await writer.submit(lambda c: getattr(c, "total_changes", 0), transactional=False)
            tx0, wake0, submit0 = db.write_stats.transactions, wakes[0], submits[0]
            cpu0, bytes0 = time.clock_gettime(clock), io_bytes(tid, "wchar")
            read0 = io_bytes(tid, "rchar")
            counter.on = round_ == 0
            moves = await play(service, tables, game, rng, counter)
            counter.on = False
            cpu = time.clock_gettime(clock) - cpu0
            written = io_bytes(tid, "wchar") - bytes0
            read = io_bytes(tid, "rchar") - read0
            tx, woke, submitted = (
                db.write_stats.transactions - tx0, wakes[0] - wake0, submits[0] - submit0
            )
            changes = await writer.submit(lambda c: getattr(c, "total_changes", 0), transactional=False)
            await service.close()
            await db.close()
        per = max(moves, 1)
        if round_ == 0:
            figures = {
                "moves": moves,
                "units submitted": submitted / per,
                "transactions": tx / per,
                "writer wake-ups": (woke - 2) / per,  # the two probes' own
                "rows changed": (changes - changes0) / per,
                "KB written by the writer thread": written / 1024 / per,
                "KB read by the writer thread": read / 1024 / per,
            }
        best = cpu if best is None else min(best, cpu)
        figures["writer thread CPU us"] = 1e6 * best / per
    statements = {k: v / figures["moves"] for k, v in counter.statements.items()}
    figures["statements"] = sum(statements.values())
    return figures, statements


def wal_frames(path, at):
    # the pages of the frames of a write-ahead log from byte ``at`` on (those of this log: its
    # header's salts), and where the next frame will start
    data = Path(path).read_bytes()
    if len(data) < 32:
        return [], at
    page = int.from_bytes(data[8:12], "big")
    salts = data[16:24]
    pages, at = [], max(at, 32)
    while at + 24 + page <= len(data) and data[at + 8 : at + 16] == salts:
        pages.append(int.from_bytes(data[at : at + 4], "big"))
        at += 24 + page
    return pages, at


def owners(c):
    # each page's b-tree (its overflow pages apart); the rest is the free list
    return {
        r[0]: (r[1] + " (overflow)" if r[2] == "overflow" else r[1])
        for r in c.execute("SELECT pageno, name, pagetype FROM dbstat")
    }


async def page_census(game_key, game, folder):
    # Which b-trees the moves' pages belong to: the same moves with no checkpoint (the log
    # keeps every frame written), each round's frames named by SQLite's dbstat after the round
    # (a page then free: "(free list)"; page 1, the header: "sqlite_schema"); and the state's
    # size: as the move made it (memory) and as stored
    path = Path(folder) / f"{game_key}-census.db"
    db = await open_database(path)
    service = TableService(db, {game_key: game}, Quiet(), ServiceConfig(cpu_delay_seconds=0))
    writer = db._writer
    rng = random.Random(f"{game_key}-0")
    tables = await open_tables(service, game_key, game, rng, 0)
    if writer.housekeeping is not None:  # the checkpoint thread's passes would restart the log
        await asyncio.to_thread(writer.housekeeping.stop)
        writer.housekeeping = None
    await writer.submit(lambda c: c.execute("PRAGMA wal_autocheckpoint = 0"), transactional=False)
    await writer.submit(
        lambda c: c.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall(), transactional=False
    )
    sizes = []
    by_tree = Counter()
    at = [0]
    frames = [0]

    async def after_round():
        owner = await writer.submit(owners, transactional=False)
        pages, at[0] = wal_frames(str(path) + "-wal", at[0])
        frames[0] += len(pages)
        by_tree.update(owner.get(p, "(free list)") for p in pages)

    moves = await play(service, tables, game, rng, Counting(), sizes, after_round)

    def at_end(c):
        stored = c.execute(
            "SELECT avg(length(CAST(state AS BLOB))), max(length(CAST(state AS BLOB)))"
            " FROM tables WHERE state IS NOT NULL"
        ).fetchone()
        trees = c.execute(
            "SELECT name, count(*), sum(payload), sum(unused) FROM dbstat GROUP BY name"
        ).fetchall()
        return tuple(stored), [tuple(t) for t in trees]

    stored, trees = await writer.submit(at_end, transactional=False)
    await service.close()
    await db.close()
    per = max(moves, 1)
    return {
        "frames per move": frames[0] / per,
        "pages per move": {name: n / per for name, n in by_tree.most_common()},
        "state bytes in memory, mean": sum(sizes) / max(len(sizes), 1),
        "state bytes stored, mean": stored[0] or 0,
        "state bytes stored, max": stored[1] or 0,
        "b-trees at the end (pages, payload KB, unused KB)": {
            t[0]: [t[1], (t[2] or 0) / 1024, (t[3] or 0) / 1024] for t in trees
        },
    }


async def postgres_statements(game_key, game, server):
    import storage.postgres as pg
    counter = Counting()
    original = pg.PgSession.execute
    def execute(self, sql, parameters=(), /):
        counter.trace(sql)
        return original(self, sql, parameters)
    pg.PgSession.execute = execute
    try:
        url = server.create_database()
        db = await open_database(url)
        service = TableService(db, {game_key: game}, Quiet(), ServiceConfig(cpu_delay_seconds=0))
        rng = random.Random(f"{game_key}-0")
        tables = await open_tables(service, game_key, game, rng, 0)
        counter.on = True
        moves = await play(service, tables, game, rng, counter)
        counter.on = False
        await service.close()
        await db.close()
        server.drop_database(url)
    finally:
        pg.PgSession.execute = original
    return moves, {k: v / max(moves, 1) for k, v in counter.statements.items()}


async def main():
    games = load_games(tuple(GAME_KEYS))
    out = {}
    server = None
    if POSTGRES == "1":
        from tests.pg_server import EmbeddedPostgres
        server = EmbeddedPostgres()
        server.start()
    try:
        for key, game in games.items():
            figures, statements = await measure(
                key, game, lambda folder, n: Path(folder) / f"{key}-{n}.db", ROUNDS
            )
            out[key] = {"figures": figures, "statements": statements}
            with tempfile.TemporaryDirectory(dir=os.environ.get("MESA_BENCH_DIR")) as folder:
                out[key]["census"] = await page_census(key, game, folder)
            if server is not None:
                moves, pg_statements = await postgres_statements(key, game, server)
                out[key]["postgres"] = {"moves": moves, "statements": pg_statements}
    finally:
        if server is not None:
            server.stop()
    print(json.dumps(out))

asyncio.run(main())
"""


def run(args: argparse.Namespace) -> dict:
    env = {
        **os.environ,
        "PYTHONPATH": f"{args.bot_root.resolve()}:{ROOT}",
        "MESA_BENCH_DIR": str(ROOT / "bench"),
    }
    argv = [args.games, str(args.tables), str(args.moves), str(args.rounds)]
    argv.append("1" if args.postgres else "0")
    argv.append(";".join(args.pragma))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *argv],
        env=env,
        cwd=args.bot_root,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


STATE_SIZES = ("state bytes in memory, mean", "state bytes stored, mean", "state bytes stored, max")
AT_END = "b-trees at the end (pages, payload KB, unused KB)"


def print_report(result: dict, root: Path) -> None:
    print(f"storage per move, {root} (people's moves one at a time, SQLite file; per move):")
    games = list(result)
    keys = list(result[games[0]]["figures"])
    print("| per move | " + " | ".join(games) + " |")
    print("|---|" + "---:|" * len(games))
    for key in keys:
        cells = " | ".join(f"{result[g]['figures'].get(key, 0):.3f}" for g in games)
        print(f"| {key} | {cells} |")
    kinds = sorted({k for g in games for k in result[g]["statements"]})
    for kind in kinds:
        cells = " | ".join(f"{result[g]['statements'].get(kind, 0):.3f}" for g in games)
        print(f"| . {kind} | {cells} |")
    census = [g for g in games if "census" in result[g]]
    if census:
        print("pages written per move by b-tree (the same moves, no checkpoint, the log's frames):")
        print("| per move | " + " | ".join(census) + " |")
        print("|---|" + "---:|" * len(census))
        for key in ("frames per move", *STATE_SIZES):
            cells = " | ".join(f"{result[g]['census'][key]:.1f}" for g in census)
            print(f"| {key} | {cells} |")
        trees = sorted(
            {t for g in census for t in result[g]["census"]["pages per move"]},
            key=lambda t: -max(result[g]["census"]["pages per move"].get(t, 0) for g in census),
        )
        for tree in trees:
            cells = " | ".join(
                f"{result[g]['census']['pages per move'].get(tree, 0):.2f}" for g in census
            )
            print(f"| . {tree} | {cells} |")
        print(
            "the database's b-trees of more than one page at the end: pages / payload KB / unused KB"
        )
        names = sorted(
            {t for g in census for t, n in result[g]["census"][AT_END].items() if n[0] > 1}
        )
        for name in names:
            cells = " | ".join(
                "{:.0f} / {:.1f} / {:.1f}".format(*result[g]["census"][AT_END].get(name, (0, 0, 0)))
                for g in census
            )
            print(f"| . {name} | {cells} |")
    if "postgres" in result[games[0]]:
        totals = " | ".join(
            f"{sum(result[g]['postgres']['statements'].values()):.3f}" for g in games
        )
        print(f"| PostgreSQL statements | {totals} |")
        kinds = sorted({k for g in games for k in result[g]["postgres"]["statements"]})
        for kind in kinds:
            cells = " | ".join(
                f"{result[g]['postgres']['statements'].get(kind, 0):.3f}" for g in games
            )
            print(f"| . pg {kind} | {cells} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-root", type=Path, default=ROOT, help="the tree measured")
    parser.add_argument(
        "--games", default="amapatolli,chupate2,maquiavelo,macarena,triad", help="game keys"
    )
    parser.add_argument("--tables", type=int, default=6, help="tables per game (6)")
    parser.add_argument("--moves", type=int, default=400, help="at most, per table (400)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; CPU is the best (3)")
    parser.add_argument("--postgres", action="store_true", help="also count PostgreSQL's")
    parser.add_argument(
        "--pragma",
        action="append",
        default=[],
        help="a SQLite setting tried on every connection before the tree's own, e.g."
        " 'page_size = 2048', 'secure_delete = FAST' (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print the raw figures")
    args = parser.parse_args()
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=1))
    print_report(result, args.bot_root)
    if args.pragma:
        print("SQLite settings tried: " + "; ".join(args.pragma))
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
