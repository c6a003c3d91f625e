"""The crash soak: the real bot (`python -m bot`, its own process) against the fake Discord
(this process) and simulated players (``bench/load_driver.World``), killed with SIGKILL at
random moments — right after a click was acknowledged, right as a game ends (Triple Triad
payouts included), or at a random time — and restarted each time. The fake keeps running
across the kills, so the restarted bot finds its interactions (tokens live 15 minutes).

Counted at the end (after a graceful SIGTERM, whose duration is measured too):
- acknowledged clicks lost: a game-action click acknowledged ahead of its move (a deferred
  answer) whose intent is not done (neither applied nor refused and told);
- interactions unanswered past restart: "thinking" answers of game actions and modal moves
  never completed, and acknowledged clicks whose intent never got its final answer (other
  interactions left "thinking" — slash commands, lobby buttons — are counted apart:
  ``commands_left_thinking``);
- tables behind: open tables whose public message shows an older version than the database;
- replay mismatches: tables whose stored state is not the replay of their action log, and
  standings / collections that differ from what the replayed outcomes and the ledger give;
- orphans: processes of the killed bot (its search and render workers, multiprocessing's
  resource tracker) still alive 3 s after each kill (``workers`` / ``renders`` > 0 gives the
  bot worker pools, as production has; the default 0 runs their work in threads).

Used by ``tests/e2e/test_crash_soak.py`` (a short run) and ``bench/crash.py`` (a long one).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

from bench.load_driver import World, version_of  # noqa: E402
from bench.processes import Proc, descendants, rss_bytes, wait_gone  # noqa: E402
from tests.fakediscord.interactions import describe  # noqa: E402
from tests.fakediscord.server import WAIT_AT_MOST, FakeDiscord, RequestRecord  # noqa: E402

ACTION_PREFIXES = ("t:", "ts:", "d:", "ds:")
# Clicks the soak can kill the bot at, right as it acknowledges them: a lobby's Start (Triple
# Triad: the picker's OK), "Revancha", a Triple Triad winner's payout pick (``k.…``). And
# ``rematch_lobby``: as the bot posts a rematch's lobby (committed, its message id not stored).
CLICK_POINTS = {
    "start": re.compile(r"^(?:l:\d+:start|tt:\d+:ok)$"),
    "rematch": re.compile(r"^l:\d+:rematch$"),
    "payout_pick": re.compile(r"^t:\d+:\d+:k\."),
}


@dataclass
class SoakResult:
    kills: int = 0
    kill_points: Counter[str] = field(default_factory=Counter)
    acked_clicks: int = 0
    acked_lost: int = 0
    # Acknowledged clicks the table had moved past (another move, or the turn timer, took the
    # version they were made at) and that were answered so: refused as the rules say, not lost.
    acked_moved_on: int = 0
    unanswered: int = 0
    # Other interactions (slash commands, lobby buttons) left "thinking" for good: counted
    # apart from game actions (slash commands are recorded too: bot/ui/pending_commands.py).
    commands_left_thinking: int = 0
    tables_behind: int = 0
    replay_mismatches: int = 0
    games_finished: int = 0
    moves: int = 0
    recovered: Counter[str] = field(default_factory=Counter)
    shutdown_seconds: float = 0.0
    shutdown_code: int | None = None
    # Tables whose public message was behind the database when the bot died: seconds from the
    # restarted bot's gateway connection (and from its process start) until the message shows
    # the stored version again.
    catch_up_after_connect: list[float] = field(default_factory=list)
    catch_up_after_spawn: list[float] = field(default_factory=list)
    never_caught_up: int = 0
    # Open tables (lobbies and games) that have no message at the end: nobody could see them,
    # so nobody could act on them without a command (a Start or a rematch cut by a kill).
    tables_unshown: int = 0
    # Processes of the bot when it was killed, those still alive 3 s later, their memory,
    # and the seconds until the last of them was gone.
    children_at_kill: int = 0
    orphans: int = 0
    orphan_bytes: int = 0
    children_gone_s: list[float] = field(default_factory=list)
    details: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, Any]:
        return {
            "kills": self.kills,
            "kill_points": dict(self.kill_points),
            "acked_clicks": self.acked_clicks,
            "acknowledged_clicks_lost": self.acked_lost,
            "acknowledged_clicks_moved_on": self.acked_moved_on,
            "interactions_unanswered": self.unanswered,
            "commands_left_thinking": self.commands_left_thinking,
            "tables_behind": self.tables_behind,
            "replay_mismatches": self.replay_mismatches,
            "games_finished": self.games_finished,
            "moves": self.moves,
            "shutdown_seconds": round(self.shutdown_seconds, 2),
            "shutdown_exit_code": self.shutdown_code,
            "behind_at_kill": len(self.catch_up_after_connect) + self.never_caught_up,
            "never_caught_up": self.never_caught_up,
            "catch_up_after_connect_s": _spread(self.catch_up_after_connect),
            "catch_up_after_spawn_s": _spread(self.catch_up_after_spawn),
            "tables_unshown": self.tables_unshown,
            "children_at_kill": self.children_at_kill,
            "orphans_after_3s": self.orphans,
            "orphan_megabytes": round(self.orphan_bytes / 1e6, 1),
            "children_gone_s": _spread(self.children_gone_s),
        }


def _spread(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "p50": round(ordered[len(ordered) // 2], 2),
        "max": round(ordered[-1], 2),
    }


def _behind(fake: FakeDiscord, db_path: Path) -> dict[int, tuple[int, int]]:
    """Playing tables whose public message shows an older version than the database:
    table id -> (message id, stored version)."""
    conn = sqlite3.connect(db_path)
    try:
        rows = conn.execute(
            "SELECT id, version, message_id FROM tables WHERE status = 'playing'"
            " AND message_id IS NOT NULL"
        ).fetchall()
    finally:
        conn.close()
    behind = {}
    for table_id, version, message_id in rows:
        msg = fake.messages.get(int(message_id))
        shown = version_of(msg) if msg is not None else None
        if shown is not None and shown < version:
            behind[table_id] = (int(message_id), version)
    return behind


async def _time_catch_up(
    fake: FakeDiscord,
    behind: dict[int, tuple[int, int]],
    spawned: float,
    result: SoakResult,
    timeout: float = 30.0,
) -> None:
    """Until every table behind at the kill shows its stored version. ``timeout`` bounds a
    hang, not a speed (``FakeDiscord.wait_until``): it gives up once the fake has seen nothing
    change for ``timeout`` seconds (``WAIT_AT_MOST`` times it in all), so a bot slowed down by
    a loaded machine is waited for while it works, and its catch-up times are measured."""
    connected: float | None = None
    left = dict(behind)

    def caught_up() -> bool:
        nonlocal connected
        now = time.monotonic()
        if connected is None and fake.gateway.connected:
            connected = now
        for table_id, (message_id, version) in list(left.items()):
            msg = fake.messages.get(message_id)
            shown = version_of(msg) if msg is not None else None
            if shown is not None and shown >= version:
                del left[table_id]
                result.catch_up_after_spawn.append(now - spawned)
                result.catch_up_after_connect.append(now - (connected or now))
        return not left

    with contextlib.suppress(TimeoutError):
        await fake.wait_until(caught_up, timeout=timeout, what="the tables behind caught up")
    result.never_caught_up += len(left)


class BotProcess:
    def __init__(
        self,
        fake: FakeDiscord,
        folder: Path,
        turn_seconds: int,
        *,
        workers: int = 0,
        renders: int = 0,
        database_url: str | None = None,
    ) -> None:
        self.fake = fake
        self.folder = folder
        self.env_file = folder / ".env"
        self.env_file.write_text(
            f"DISCORD_TOKEN={fake.token}\n"
            + (
                f"DATABASE_URL={database_url}\n"
                if database_url
                else f"DATABASE_PATH={folder / 'bot.db'}\n"
            )
            + f"DISCORD_API_BASE={fake.api_base}\n"
            f"DISCORD_GATEWAY_URL={fake.gateway_url}\n"
            "CPU_DELAY_SECONDS=0.2\n"
            # Computers decide quickly (default 2 s of search): games end, and pay out, sooner.
            "CPU_THINK_SECONDS=0.2\n"
            # Every click acknowledged first, so every click goes through the intent log (an
            # in-place answer commits before it answers: nothing of it to lose).
            "ANSWER_IN_PLACE_MS=0\n"
            f"TURN_TIMEOUT_SECONDS={turn_seconds}\n"
            f"WORKER_PROCESSES={workers}\nRENDER_PROCESSES={renders}\nLOG_LEVEL=INFO\n"
        )
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        # The processes below the bot when it was last killed (read just before the signal).
        self.children_at_kill: set[Proc] = set()

    @property
    def log_path(self) -> Path:
        return self.folder / "bot.log"

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE"))}
        env["PYTHONPATH"] = str(ROOT)
        with self.log_path.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "--env-file",
                str(self.env_file),
                cwd=self.folder,
                env=env,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        self.starts += 1

    def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.children_at_kill = descendants(self.process.pid)
            os.kill(self.process.pid, signal.SIGKILL)

    async def count_orphans(self, result: SoakResult) -> None:
        """Whether the processes of the bot just killed died with it (3 s at most)."""
        children, self.children_at_kill = self.children_at_kill, set()
        result.children_at_kill += len(children)
        left, waited = await wait_gone(children, timeout=3.0)
        result.orphans += len(left)
        result.orphan_bytes += rss_bytes(left)
        if children:
            result.children_gone_s.append(waited)
        for pid, _ in left:
            result.details.append(f"orphan process {pid} alive 3 s after its bot was killed")
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)  # counted: the run does not leak them

    async def wait_dead(self) -> None:
        if self.process is not None:
            await self.process.wait()

    def recoveries(self) -> list[str]:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return []
        return [line for line in text.splitlines() if "recovery: intents" in line]

    async def wait_recovered(self, timeout: float = 60.0) -> None:
        """Until the restarted bot logs its recovery. ``timeout`` bounds a hang, not a speed:
        it runs from the bot's last log line (a bot starting on a loaded machine took over 60 s
        from its spawn while it logged its way up), and ``WAIT_AT_MOST`` times it in all."""
        started = last = time.monotonic()
        seen = self._log_size()
        while len(self.recoveries()) < self.starts:
            if self.process is not None and self.process.returncode is not None:
                raise RuntimeError(f"the bot exited; see {self.log_path}")
            now = time.monotonic()
            if (progress := self._log_size()) != seen:
                seen, last = progress, now
            if now - last > timeout or now - started > WAIT_AT_MOST * timeout:
                raise TimeoutError(f"the bot did not recover; see {self.log_path}")
            await asyncio.sleep(0.05)

    def _log_size(self) -> int:
        try:
            return self.log_path.stat().st_size
        except FileNotFoundError:
            return 0

    async def terminate(self) -> tuple[float, int | None]:
        """SIGTERM; (seconds to exit, exit code). Killed if still running after 60 s (a hang
        bound: a graceful exit takes a few seconds, more on a loaded machine; the time is
        measured, not judged here)."""
        assert self.process is not None
        start = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), 60)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        return time.monotonic() - start, self.process.returncode


class KillPoints:
    """Arms kill triggers (one or several at a time: the first that comes fires), fired from
    the fake's observers (synchronously, so the bot dies right at that moment). ``payout``: a
    Triple Triad game's end (its cards change hands); ``game_end``: any other game's end."""

    def __init__(self, fake: FakeDiscord, bot: BotProcess, world: World) -> None:
        self.fake = fake
        self.bot = bot
        self._rematch_pressed: set[int] = set()  # channels whose "Revancha" was acknowledged
        self.world = world
        self.armed: frozenset[str] = frozenset()
        self.fired = asyncio.Event()
        self.fired_as: str | None = None
        fake.request_observers.append(self._request)
        fake.message_observers.append(self._message)

    def arm(self, *points: str) -> None:
        self.fired.clear()
        self.armed = frozenset(points)

    def fire(self, point: str) -> None:
        if not self.armed:
            return
        self.armed = frozenset()
        self.fired_as = point
        self.bot.kill()
        self.fired.set()

    def _request(self, record: RequestRecord) -> None:
        if not record.template:
            return
        if record.template.endswith("/callback"):
            found = re.search(r"/interactions/(\d+)/", record.path)
            inter = self.fake.interactions.all.get(int(found.group(1))) if found else None
            custom_id = str((inter.data or {}).get("custom_id", "")) if inter else ""
            if inter is not None and CLICK_POINTS["rematch"].match(custom_id):
                self._rematch_pressed.add(inter.channel.id)  # its lobby is posted next
            if self.armed:
                self._callback(record, custom_id)
        elif "rematch_lobby" in self.armed and self._rematch_lobby_posted(record):
            self.fire("rematch_lobby")

    def _callback(self, record: RequestRecord, custom_id: str) -> None:
        body = record.body or {}
        if "after_ack" in self.armed and isinstance(body, dict) and body.get("type") in (5, 6):
            self.fire("after_ack")
            return
        if (record.status or 0) >= 300:
            return
        for point in self.armed & CLICK_POINTS.keys():
            if CLICK_POINTS[point].match(custom_id):
                self.fire(point)
                return

    def _rematch_lobby_posted(self, record: RequestRecord) -> bool:
        """The bot posting a lobby in a channel where "Revancha" was pressed: the rematch's
        lobby (committed, its message id not stored yet), the press's public follow-up or, when
        that was refused, a bot-token post."""
        if record.method != "POST":
            return False
        if record.template == "/channels/{channel_id}/messages":
            found = re.search(r"/channels/(\d+)/messages", record.path)
            channel = int(found.group(1)) if found else 0
        elif record.template == "/webhooks/{webhook_id}/{webhook_token}":
            inter = self.fake.interactions.by_token.get(record.path.rsplit("/", 1)[-1])
            channel = inter.channel.id if inter is not None else 0
        else:
            return False
        body = record.body if isinstance(record.body, dict) else {}
        if channel not in self._rematch_pressed or ":start" not in json.dumps(body):
            return False
        self._rematch_pressed.discard(channel)
        return True

    def _message(self, msg: Any, event: str) -> None:
        if event != "MESSAGE_UPDATE" or not self.armed & {"game_end", "payout"}:
            return
        table = self.world.by_channel.get(msg.channel.id)
        if table is None or not table.finished():
            return
        point = "payout" if table.game == "triad" else "game_end"
        if point in self.armed:
            self.fire(point)


# The order kills come in: "end" arms the game ends not killed at yet (a payout and another
# game's end; both once each has been), so the soak waits only as long as games take to end.
KILL_CYCLE = ("after_ack", "end", "random", "end")


async def soak(
    folder: Path,
    *,
    tables: int = 24,
    kills: int = 10,
    seed: int = 7,
    think: tuple[float, float] = (0.2, 0.8),
    gap: tuple[float, float] = (0.5, 2.0),
    turn_seconds: int = 10,
    end_wait: float = 20.0,
    cycle: tuple[str, ...] = KILL_CYCLE,
    progress: Any = None,
    workers: int = 0,
    renders: int = 0,
    rematch: bool = False,
) -> SoakResult:
    rng = random.Random(seed)
    result = SoakResult()
    fake = FakeDiscord(validate=False, keep_history=False)
    await fake.start()
    bot = BotProcess(fake, folder, turn_seconds, workers=workers, renders=renders)
    world = World(
        fake, tables, seed=seed, think=think, closed_dms=0.1, setup_concurrency=8, rematch=rematch
    )
    acked: dict[int, str] = {}  # interaction id -> custom_id of acknowledged action clicks

    def watch(record: RequestRecord) -> None:
        if record.template and record.template.endswith("/callback"):
            body = record.body or {}
            if (record.status or 0) < 300 and isinstance(body, dict) and body.get("type") in (5, 6):
                found = re.search(r"/interactions/(\d+)/", record.path)
                inter_id = int(found.group(1)) if found else 0
                inter = fake.interactions.all.get(inter_id)
                custom_id = str((inter.data or {}).get("custom_id", "")) if inter else ""
                if custom_id.startswith(ACTION_PREFIXES) or (inter and inter.type == 5):
                    acked[inter_id] = custom_id

    fake.request_observers.append(watch)
    killer = KillPoints(fake, bot, world)
    tasks: list[asyncio.Task[None]] = []
    try:
        tasks = await start_tables(bot, fake, world, tables, 120, progress)
        for n in range(kills):
            point = cycle[n % len(cycle)]
            # A game end of a kind not killed at yet is taken whenever it comes.
            missing = [p for p in ("payout", "game_end") if not result.kill_points[p]]
            if point == "end":
                killer.arm(*(missing or ("payout", "game_end")))
                wait = end_wait
            elif point in CLICK_POINTS or point == "rematch_lobby":  # as soon as it comes
                killer.arm(point)
                wait = end_wait
            else:
                killer.arm(point, *missing)
                wait = rng.uniform(*gap) + (2.0 if point == "after_ack" else 0.0)
            try:
                await asyncio.wait_for(killer.fired.wait(), wait)
            except TimeoutError:
                killer.fire("random")  # the trigger did not come in time: kill now
            result.kills += 1
            result.kill_points[killer.fired_as or "random"] += 1
            await bot.wait_dead()
            await bot.count_orphans(result)
            if progress:
                progress(f"kill {n + 1}/{kills} at {killer.fired_as}; restarting")
            await asyncio.sleep(rng.uniform(0.0, 0.2))
            behind = _behind(fake, folder / "bot.db")
            spawned = time.monotonic()
            await bot.start()
            await asyncio.gather(
                bot.wait_recovered(), _time_catch_up(fake, behind, spawned, result)
            )
            _look_again(world)
        await asyncio.sleep(1.0)
        world.running = False
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # Long enough for the 3 s deadline of a click the bot never acknowledged; whatever
        # the (live) bot still has to answer, it answers well within it.
        await fake.settle(timeout=5)
        # The live bot shows every table's stored version before it is stopped: on a loaded
        # machine the last moves' views can take longer than the shutdown's own bounded drain
        # (``Listener.close``: 5 s). Waited for as a hang bound (the fake's ``wait_until``: no
        # change for 30 s), so a slow bot is waited for while it works; what stays behind is
        # counted below.
        with contextlib.suppress(TimeoutError):
            await fake.wait_until(
                lambda: not _behind(fake, folder / "bot.db"),
                timeout=30,
                what="every table showing its stored version",
            )
        if progress:
            progress("players stopped, interactions settled, tables shown; SIGTERM")
        result.shutdown_seconds, result.shutdown_code = await bot.terminate()
        _count(result, fake, folder / "bot.db", acked)
        if progress:
            progress("counted")
        for line in bot.recoveries():
            result.details.append(line.split("recovery:", 1)[1].strip())
    finally:
        world.running = False
        for task in tasks:
            task.cancel()
        bot.kill()
        await bot.wait_dead()
        await fake.stop()
    return result


def _look_again(world: World) -> None:
    """After a restart every player looks at their view again, as a person would when their
    click seems to have done nothing: a click the dead bot took is answered (applied, or "the
    table moved on"), but a player waiting for a newer version would otherwise wait for the
    turn timer."""
    for human in world.by_user.values():
        human.acted_version = -1
    for table in world.tables:
        table.bump()


def _count(result: SoakResult, fake: FakeDiscord, db_path: Path, acked: dict[int, str]) -> None:
    conn = sqlite3.connect(db_path)
    conn.row_factory = sqlite3.Row
    # (by the id's text: SQLite keeps a snowflake as its integer, migration 0015)
    intents = {str(r["interaction_id"]): r for r in conn.execute("SELECT * FROM intents")}
    # (table, version) of every stored move: the move made from version v is stored as v + 1
    moves = {(r["table_id"], r["version"]) for r in conn.execute("SELECT * FROM actions")}
    result.acked_clicks = len(acked)
    for inter in fake.interactions.all.values():
        if inter.id not in acked and inter.callback_type == 5 and not inter.completed:
            result.commands_left_thinking += 1
            result.details.append(f"command left thinking: {describe(inter)}")
    for inter_id, custom_id in acked.items():
        inter = fake.interactions.all.get(inter_id)
        intent = intents.get(str(inter_id))
        thinking_open = inter is not None and inter.callback_type == 5 and not inter.completed
        if thinking_open:
            result.unanswered += 1
            result.details.append(f"thinking never completed: {custom_id}")
        if not custom_id.startswith(ACTION_PREFIXES):
            continue
        if custom_id.startswith(("d:", "ds:")) and intent is None:
            continue  # a draft step that was not (yet) a move
        if intent is not None and not intent["done"] and intent["answered"]:
            if (intent["table_id"], intent["version"] + 1) in moves:
                # Another move took the version this click was made at (a turn timer or
                # another player first: on a loaded machine, slow players meet their timers
                # more often): the click was answered as refused ("the table moved on").
                result.acked_moved_on += 1
                continue
        if intent is None or not intent["done"]:
            result.acked_lost += 1
            result.details.append(f"acknowledged click lost: {custom_id}")
    # Open tables nobody can see (no message): a lobby or a game cut by a kill and never shown.
    for row in conn.execute(
        "SELECT id, status FROM tables WHERE status IN ('lobby', 'playing') AND message_id IS NULL"
    ):
        result.tables_unshown += 1
        result.details.append(f"table {row['id']} ({row['status']}) has no message")
    # Tables behind: the public message shows the stored version.
    for row in conn.execute(
        "SELECT id, version, message_id, status FROM tables WHERE status = 'playing'"
        " AND message_id IS NOT NULL"
    ):
        msg = fake.messages.get(int(row["message_id"]))
        shown = version_of(msg) if msg is not None else None
        if shown is not None and shown < row["version"]:
            result.tables_behind += 1
            result.details.append(f"table {row['id']} shows v{shown} of v{row['version']}")
    result.moves = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    result.games_finished = conn.execute(
        "SELECT COUNT(*) FROM tables WHERE status = 'finished'"
    ).fetchone()[0]
    result.replay_mismatches = _replay_mismatches(conn, result)
    conn.close()


def _replay_mismatches(conn: sqlite3.Connection, result: SoakResult) -> int:
    """Replays every table's action log; compares states, standings and collections."""
    from bot.registry import load_games
    from bot.service.models import Table
    from bot.service.replay import rebuild
    from bot.service.results import standing_deltas
    from storage.tables import ActionRow, _record

    games = load_games()
    mismatches = 0
    played: Counter[tuple[str, str, str]] = Counter()
    won: Counter[tuple[str, str, str]] = Counter()
    for row in conn.execute(
        "SELECT * FROM tables WHERE status IN ('playing', 'finished') AND state IS NOT NULL"
    ).fetchall():
        record = _record(row)
        game = games[record.game]
        actions = [
            ActionRow(version=a[0], seat=a[1], action=a[2], by_timer=bool(a[3]))
            for a in conn.execute(
                "SELECT version, seat, action, by_timer FROM actions WHERE table_id = ?"
                " ORDER BY version",
                (record.id,),
            )
        ]
        # The state is stored every few moves, at the version the row names (the game's end
        # always: bot/service/snapshots.py): the replay up to it must be it, and the whole log
        # must reach the table's version.
        stored_at = record.stored_version
        at_stored = rebuild(game, record, [a for a in actions if a.version <= stored_at])
        state = rebuild(game, record, actions)
        if json.loads(game.dump_state(at_stored)) != json.loads(record.state or "null"):
            mismatches += 1
            result.details.append(f"table {record.id}: replay differs from the stored state")
        if state.version != record.version:
            mismatches += 1
            result.details.append(f"table {record.id}: the log does not reach its version")
        outcome = game.outcome(state)
        if record.status == "finished" and outcome is not None:
            for delta in standing_deltas(Table(record=record, game=game, state=state), outcome):
                key = (record.guild_id, delta.user_id, record.game)
                played[key] += 1
                won[key] += int(delta.won)
    for row in conn.execute("SELECT guild_id, user_id, game, played, won FROM standings"):
        key = (row[0], row[1], row[2])
        if (row[3], row[4]) != (played.pop(key, 0), won.pop(key, 0)):
            mismatches += 1
            result.details.append(f"standings of {key} differ from the replays")
    mismatches += sum(1 for v in played.values() if v)
    for row in conn.execute(
        "SELECT c.user_id, c.card_id, c.count, COALESCE(SUM(l.delta), 0) FROM card_collections c"
        " LEFT JOIN card_ledger l ON l.user_id = c.user_id AND l.card_id = c.card_id"
        " AND l.game = c.game GROUP BY c.user_id, c.game, c.card_id"
    ):
        if row[2] != row[3]:
            mismatches += 1
            result.details.append(f"collection of {row[0]} card {row[1]} differs from the ledger")
    return mismatches


async def start_tables(
    bot: BotProcess,
    fake: FakeDiscord,
    world: World,
    tables: int,
    timeout: float,
    progress: Callable[[str], None] | None,
) -> list[asyncio.Task[None]]:
    """Start the bot, wait for its commands and gateway, open ``tables`` tables and wait (up to
    ``timeout`` s) until they play; the players' tasks are returned for the caller to stop."""
    await bot.start()
    await fake.wait_until(lambda: fake.commands.get(None), timeout=timeout, what="command sync")
    await fake.wait_until_connected(timeout=60)
    tasks = await world.open_all()
    deadline = time.monotonic() + timeout
    while world.started() < tables and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    if progress:
        progress(f"{world.started()}/{tables} tables playing")
    return tasks
