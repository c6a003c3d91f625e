"""Faults a real deployment meets (issue 27), the long runs: the real bot (``python -m bot``,
its own process) under simulated players at many tables while its database goes away.

- ``postgres``: PostgreSQL stopped (``pg_ctl stop -m fast``: every connection dropped, as a
  restart or a failover does) for ``--outage`` seconds and started again, under ``--tables``
  busy tables;
- ``disk-full``: the SQLite file on a small tmpfs that is then filled (a real ENOSPC), freed
  after ``--outage`` seconds (mounting a tmpfs needs root; without it this is left out, said
  so). A read-only file is in the suite only (``PRAGMA query_only``): a file system with the
  database open for writing cannot be remounted read-only (EBUSY), and SQLite in WAL mode keeps
  writing into its existing WAL until a checkpoint must grow the file, so on a full disk some
  writes still succeed (saved, and shown) while others fail (answered "couldn't save").
- ``gateway``: Discord away, the database fine: the gateway closes every connection and refuses
  new ones for ``--outage`` seconds (300: five minutes), with a spell of 503s on message edits
  as long. Printed: seconds to reconnect after it ended, until every table is current again
  (goal <= 10 s), and turn-timer moves during the outage and in the 5 s after (no storm).

Printed per fault: clicks during the outage and how they were answered ("couldn't save, try
again", or applied), interactions never answered, acknowledged clicks lost (a click the bot
acknowledged whose move is neither applied nor answered as not saved or refused), tables shown
ahead of their stored version (shown but not saved), and the seconds from the database's
return until a move commits again (the bot reconnects by itself: it is not restarted).

    nice -n 10 .venv/bin/python bench/faults.py                        # both, 100 tables
    nice -n 10 .venv/bin/python bench/faults.py --fault postgres --tables 100 --outage 10
    nice -n 10 .venv/bin/python bench/faults.py --fault gateway --tables 100 --outage 300
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.crash_soak import ACTION_PREFIXES, BotProcess, _look_again, start_tables  # noqa: E402
from bench.load_driver import World, version_of  # noqa: E402
from tests.fakediscord.server import FakeDiscord, RequestRecord  # noqa: E402

NOT_SAVED = ("No se pudo guardar", "Couldn't save")
GOALS = (
    "goals: 0 acknowledged clicks lost, 0 unanswered during the fault, 0 shown unsaved,"
    " serving <= 5 s after the database is back"
)


@dataclass
class FaultResult:
    fault: str
    tables: int = 0
    outage_s: float = 0.0
    clicks_total: int = 0
    clicks_in_outage: int = 0
    not_saved_answers: int = 0
    acked_clicks: int = 0
    acked_lost: int = 0
    unanswered: int = 0
    # Of those, the interactions made from the fault until 5 s after the database returned
    # (the others are the machine's load: a busy host expires clicks with no fault at all).
    unanswered_in_fault: int = 0
    shown_ahead: int = 0
    moves_before: int = 0
    moves_after: int = 0
    serving_after_s: float | None = None
    # Gateway outage: seconds from its end until the bot is connected again, then until every
    # playing table shows its stored version; turn-timer moves in the 5 s after reconnecting.
    reconnected_after_s: float | None = None
    all_current_after_reconnect_s: float | None = None
    timer_moves_first_5s: int | None = None
    timer_moves_in_outage: int | None = None
    tracebacks: int = 0
    writes_refused: int = 0  # the bot's "database unavailable, write not saved" warnings
    details: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k != "details"}
        for key in ("serving_after_s", "reconnected_after_s", "all_current_after_reconnect_s"):
            if data[key] is not None:
                data[key] = round(data[key], 2)
        data["outage_s"] = round(self.outage_s, 1)
        return data


class Storage:
    """What the bench reads of the bot's database (its own connection) and how it breaks it."""

    async def count_moves(self) -> int:
        raise NotImplementedError

    async def rows(self, sql: str) -> list[Any]:
        raise NotImplementedError

    async def break_(self) -> None:
        raise NotImplementedError

    async def mend(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        """Nothing to release by default."""

    def attach(self, fake: FakeDiscord) -> None:
        """The run's fake Discord (a fault of Discord's own acts on it)."""


class GatewayOutage(Storage):
    """Discord goes away, the database stays: the gateway closed and refusing connections for
    the outage, and a spell of 503s on message edits as long (SQLite in the run's folder)."""

    def __init__(self, path: Path, outage: float) -> None:
        self.path = path
        self.outage = outage
        self.fake: FakeDiscord | None = None

    def attach(self, fake: FakeDiscord) -> None:
        self.fake = fake

    async def rows(self, sql: str) -> list[Any]:
        conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()

    async def count_moves(self) -> int:
        return int((await self.rows("SELECT COUNT(*) FROM actions"))[0][0])

    async def break_(self) -> None:
        assert self.fake is not None
        self.fake.fail_for(
            self.outage, "/channels/{channel_id}/messages/{message_id}", method="PATCH"
        )
        await self.fake.gateway_outage(self.outage)

    async def mend(self) -> None:
        """The outage ends by itself (the fake stops refusing connections)."""


class PostgresStorage(Storage):
    def __init__(self) -> None:
        from tests.pg_server import EmbeddedPostgres

        self.server = EmbeddedPostgres()
        self.server.start()
        self.url = self.server.create_database()

    async def rows(self, sql: str) -> list[Any]:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            return list(await conn.fetch(sql))
        finally:
            await conn.close()

    async def count_moves(self) -> int:
        return int((await self.rows("SELECT COUNT(*) FROM actions"))[0][0])

    async def break_(self) -> None:
        await asyncio.to_thread(self.server.stop_server, "fast")

    async def mend(self) -> None:
        await asyncio.to_thread(self.server.start_server)

    async def close(self) -> None:
        self.server.stop()


class TmpfsStorage(Storage):
    """The SQLite file on a tmpfs of its own, which ``break_`` fills (ENOSPC)."""

    SIZE = "64m"

    def __init__(self, folder: Path) -> None:
        self.mount = folder / "fs"
        self.mount.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={self.SIZE}", "tmpfs", str(self.mount)],
            check=True,
            capture_output=True,
        )
        self.path = self.mount / "bot.db"
        self.filler = self.mount / "filler"

    async def rows(self, sql: str) -> list[Any]:
        conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()

    async def count_moves(self) -> int:
        return int((await self.rows("SELECT COUNT(*) FROM actions"))[0][0])

    async def break_(self) -> None:
        # In a thread: the fake Discord runs on this loop and must not stall meanwhile.
        await asyncio.to_thread(self._break)

    def _break(self) -> None:
        # Write until the file system refuses: a real ENOSPC for SQLite.
        with contextlib.suppress(OSError), self.filler.open("wb") as out:
            block = b"\0" * (1 << 20)
            while True:
                out.write(block)
                out.flush()
        with contextlib.suppress(OSError), self.filler.open("ab") as out:
            while True:  # the last partial megabyte, a page at a time
                out.write(b"\0" * 4096)
                out.flush()

    async def mend(self) -> None:
        await asyncio.to_thread(self.filler.unlink)

    async def close(self) -> None:
        subprocess.run(["umount", "-l", str(self.mount)], capture_output=True)


async def run_fault(
    fault: str,
    folder: Path,
    storage: Storage,
    *,
    tables: int,
    outage: float,
    before: float,
    after: float,
    seed: int,
    database_url: str | None = None,
    db_path: Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> FaultResult:
    result = FaultResult(fault, tables=tables)
    fake = FakeDiscord(validate=False, keep_history=False)
    await fake.start()
    bot = BotProcess(fake, folder, turn_seconds=30, database_url=database_url)
    if db_path is not None:  # the SQLite file on the faulty file system
        text = bot.env_file.read_text().replace(
            f"DATABASE_PATH={folder / 'bot.db'}", f"DATABASE_PATH={db_path}"
        )
        bot.env_file.write_text(text)
    world = World(fake, tables, seed=seed, think=(0.5, 2.0), closed_dms=0.1, setup_concurrency=8)
    window: dict[str, float] = {}
    acked: dict[int, str] = {}
    clicked_at: dict[int, float] = {}

    def watch(record: RequestRecord) -> None:
        if not (record.template and record.template.endswith("/callback")):
            return
        found = re.search(r"/interactions/(\d+)/", record.path)
        inter = fake.interactions.all.get(int(found.group(1))) if found else None
        if inter is None:
            return
        custom_id = str((inter.data or {}).get("custom_id", ""))
        if not custom_id.startswith(ACTION_PREFIXES):
            return
        clicked_at.setdefault(inter.id, time.monotonic())
        body = record.body or {}
        if (record.status or 0) < 300 and isinstance(body, dict) and body.get("type") in (5, 6):
            acked[inter.id] = custom_id

    fake.request_observers.append(watch)
    storage.attach(fake)
    tasks: list[asyncio.Task[None]] = []
    try:
        tasks = await start_tables(bot, fake, world, tables, 180, progress)
        await asyncio.sleep(before)
        result.moves_before = await storage.count_moves()
        if progress:
            progress(f"{result.moves_before} moves stored; breaking the database ({fault})")
        window["break"] = time.monotonic()
        window["timer_moves_at_break"] = int((await storage.rows(TIMER_MOVES))[0][0])
        await storage.break_()
        await asyncio.sleep(outage)
        await storage.mend()
        window["mend"] = time.monotonic()
        result.outage_s = window["mend"] - window["break"]
        moves_at_mend = await storage.count_moves()
        if isinstance(storage, GatewayOutage):
            await _gateway_figures(result, fake, storage, window, progress)
        if progress:
            progress(f"database back after {result.outage_s:.1f} s; waiting for a move")
        _look_again(world)  # players whose click was not saved click again
        while await storage.count_moves() <= moves_at_mend:
            if time.monotonic() - window["mend"] > 60:
                result.details.append("no move committed within 60 s of the database's return")
                break
            await asyncio.sleep(0.05)
        else:
            result.serving_after_s = time.monotonic() - window["mend"]
        await asyncio.sleep(after)
        world.running = False
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await fake.settle(timeout=10)
        result.moves_after = await storage.count_moves()
        await _count(result, fake, storage, acked, clicked_at, window)
        await bot.terminate()
        log_text = bot.log_path.read_text(errors="replace")
        result.tracebacks = log_text.count("Traceback")
        result.writes_refused = log_text.count("database unavailable, write not saved")
    finally:
        world.running = False
        for task in tasks:
            task.cancel()
        bot.kill()
        await bot.wait_dead()
        await fake.stop()
    return result


TIMER_MOVES = "SELECT COUNT(*) FROM actions WHERE by_timer = 1"


async def _gateway_figures(
    result: FaultResult,
    fake: FakeDiscord,
    storage: Storage,
    window: dict[str, float],
    progress: Callable[[str], None] | None,
) -> None:
    """After a gateway outage: reconnection, tables current, timer moves (a storm or not)."""
    timer_moves_before = int((await storage.rows(TIMER_MOVES))[0][0])
    result.timer_moves_in_outage = timer_moves_before - window.get("timer_moves_at_break", 0)
    await fake.wait_until(lambda: fake.gateway.connected, timeout=600, what="reconnection")
    connected = time.monotonic()
    result.reconnected_after_s = connected - window["mend"]
    if progress:
        progress(f"reconnected {result.reconnected_after_s:.1f} s after the outage ended")
    while time.monotonic() - connected < 60:
        behind = 0
        for _table, version, message_id in await storage.rows(
            "SELECT id, version, message_id FROM tables WHERE status = 'playing'"
            " AND message_id IS NOT NULL"
        ):
            msg = fake.messages.get(int(message_id))
            shown = version_of(msg) if msg is not None else None
            behind += shown is not None and shown < version
        if not behind:
            result.all_current_after_reconnect_s = time.monotonic() - connected
            break
        await asyncio.sleep(0.1)
    else:
        result.details.append("tables still behind 60 s after reconnecting")
    await asyncio.sleep(max(0.0, 5 - (time.monotonic() - connected)))
    result.timer_moves_first_5s = int((await storage.rows(TIMER_MOVES))[0][0]) - (
        timer_moves_before
    )


async def _count(
    result: FaultResult,
    fake: FakeDiscord,
    storage: Storage,
    acked: dict[int, str],
    clicked_at: dict[int, float],
    window: dict[str, float],
) -> None:
    not_saved: set[int] = set()
    for msg in fake.messages.values():
        if msg.interaction is not None and any(t in (msg.text or "") for t in NOT_SAVED):
            not_saved.add(msg.interaction.id)
    result.not_saved_answers = len(not_saved)
    result.clicks_total = len(fake.interactions.all)
    result.clicks_in_outage = sum(
        1
        for inter in fake.interactions.all.values()
        if window["break"] <= inter.created_real <= window["mend"]
    )
    result.acked_clicks = len(acked)
    intents = {
        str(r[0]): bool(r[1])
        for r in await storage.rows("SELECT interaction_id, done FROM intents")
    }
    for inter in fake.interactions.all.values():
        if inter.callback_type is None or (inter.callback_type == 5 and not inter.completed):
            result.unanswered += 1
            if window["break"] <= inter.created_real <= window["mend"] + 5:
                result.unanswered_in_fault += 1
                result.details.append(f"unanswered: {(inter.data or {}).get('custom_id')}")
    for inter_id, custom_id in acked.items():
        if inter_id in not_saved or custom_id.startswith(("d:", "ds:")):
            continue
        if not intents.get(str(inter_id), False):
            # answered otherwise (a refusal, the table moved on) is not lost: only a click
            # that got no final answer at all is
            inter = fake.interactions.all.get(inter_id)
            answered = inter is not None and (inter.followups or inter.completed)
            if not answered:
                result.acked_lost += 1
                result.details.append(f"acknowledged click lost: {custom_id}")
    for row in await storage.rows(
        "SELECT id, version, message_id FROM tables WHERE message_id IS NOT NULL"
        " AND status IN ('playing', 'finished')"
    ):
        msg = fake.messages.get(int(row[2]))
        shown = version_of(msg) if msg is not None else None
        if shown is not None and shown > row[1]:
            result.shown_ahead += 1
            result.details.append(f"table {row[0]} shows v{shown}, stored v{row[1]}")


def _print(result: FaultResult) -> None:
    c = result.counts()
    print(json.dumps(c))
    print(
        f"{result.fault}: {result.tables} tables, database away {c['outage_s']} s;"
        f" {result.clicks_in_outage} clicks during the outage, {result.not_saved_answers}"
        f" answered 'couldn't save'; unanswered {result.unanswered_in_fault} made during"
        f" the fault ({result.unanswered} in the whole run); acknowledged clicks"
        f" {result.acked_clicks}, lost {result.acked_lost}; shown but not saved"
        f" {result.shown_ahead}; first move committed {c.get('serving_after_s')} s after the"
        f" database was back; moves {result.moves_before} before, {result.moves_after} at the"
        f" end; writes the database refused {result.writes_refused}; tracebacks in the bot's"
        f" log {result.tracebacks}"
    )
    if result.reconnected_after_s is not None:
        print(
            f"gateway: reconnected {c['reconnected_after_s']} s after the outage ended; every"
            f" table current {c['all_current_after_reconnect_s']} s after reconnecting (goal"
            f" <= 10 s); turn-timer moves during the outage {result.timer_moves_in_outage},"
            f" in the 5 s after reconnecting {result.timer_moves_first_5s}; the"
            f" {result.unanswered_in_fault} clicks made while the gateway was down never reached"
            " the bot (Discord tells those users the interaction failed); the 'first move'"
            " above counts from the outage's end"
        )
    for line in result.details[:20]:
        print("  ", line)


async def _one(fault: str, args: argparse.Namespace, progress: Callable[[str], None]) -> None:
    folder = Path(tempfile.mkdtemp(prefix=f"mesa-faults-{fault}-"))
    storage: Storage
    kwargs: dict[str, Any] = {}
    if fault == "postgres":
        storage = PostgresStorage()
        kwargs["database_url"] = storage.url
    elif fault == "gateway":
        storage = GatewayOutage(folder / "bot.db", args.outage)
    else:
        try:
            storage = TmpfsStorage(folder)
        except (subprocess.CalledProcessError, FileNotFoundError) as exc:
            print(f"{fault}: left out, a tmpfs could not be mounted (root needed): {exc}")
            return
        kwargs["db_path"] = storage.path
    try:
        result = await run_fault(
            fault,
            folder,
            storage,
            tables=args.tables,
            outage=args.outage,
            before=args.before,
            after=args.after,
            seed=args.seed,
            progress=progress,
            **kwargs,
        )
    finally:
        await storage.close()
    _print(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--fault", choices=["postgres", "disk-full", "gateway", "all"], default="all"
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--outage", type=float, default=10.0, help="seconds the fault lasts")
    parser.add_argument("--before", type=float, default=8.0, help="seconds of play before")
    parser.add_argument("--after", type=float, default=10.0, help="seconds of play after")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    start = time.monotonic()

    def progress(text: str) -> None:
        print(f"[faults {time.monotonic() - start:6.1f} s] {text}", file=sys.stderr, flush=True)

    faults = ["postgres", "disk-full", "gateway"] if args.fault == "all" else [args.fault]
    print(GOALS)
    for fault in faults:
        asyncio.run(_one(fault, args, progress))


if __name__ == "__main__":
    main()
