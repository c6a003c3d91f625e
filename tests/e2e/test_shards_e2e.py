"""Mesa over shards, end to end on the fake Discord: one process running both shards on SQLite,
and two bot processes sharing a real PostgreSQL (see the second part)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from pathlib import Path

import aiohttp

from bot.client import ShardedMesaBot, create_bot
from bot.settings import Settings
from tests.e2e.chupate2_driver import Chupate2Table
from tests.e2e.driver_kit import first_views_shown, open_and_start
from tests.e2e.endgame_kit import table_views
from tests.fakediscord.pytest_plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.message_text import blocks_of, read_card


def _settings(fake: FakeDiscord, db: Path, **extra) -> Settings:
    return Settings(
        _env_file=None,
        discord_token=fake.token,
        database_path=db,
        discord_api_base=fake.api_base,
        discord_gateway_url=fake.gateway_url,
        cpu_delay_seconds=0,
        render_processes=0,
        worker_processes=0,
        # every DM hand at Start and every public version shown, as these tests follow them
        **{"dm_views_when_needed": False, "public_edit_every_seconds": 0, **extra},
    )


async def test_one_process_runs_every_shard_on_sqlite(tmp_path, discord_pace):
    async with FakeDiscord(shard_count=2, route_pace=discord_pace) as fake:
        bot = create_bot(
            _settings(fake, tmp_path / "m.db", shard_count=2), guild_ready_timeout=0.05
        )
        assert isinstance(bot, ShardedMesaBot)
        zero = fake.add_guild("Shard Zero", shard=0)
        assert fake.shard_of(fake.guild) == 1 and fake.shard_of(zero) == 0
        async with running_bot(fake, bot):
            await fake.wait_until_shards_connected([0, 1])
            assert sorted(bot.shards) == [0, 1] and bot.owns_guild(zero.id)
            assert {g.id for g in bot.guilds} == {fake.guild.id, zero.id}
            alice = fake.user("alice")
            alice.join(zero)
            answers = [
                await (await alice.slash("rules", game="amapatolli")),
                await (await alice.slash("rules", game="amapatolli", channel=zero.channels[0])),
                await (await alice.slash("rules", game="amapatolli", dm=True)),
            ]
            assert all("Amapatolli" in a.text for a in answers)
            assert bot.shard_status() == {0: True, 1: True}
            assert [shard for shard, _ in bot.gateway_latencies()] == [0, 1]
        fake.assert_no_violations()


# ----- two processes, one PostgreSQL ---------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]


def _settings_free_environment() -> dict[str, str]:
    names = {name.upper() for name in Settings.model_fields} | {"DATABASE_URL"}
    return {k: v for k, v in os.environ.items() if k.upper() not in names}


class BotProcess:
    """``python -m bot`` for some shards, in its own process: JSON log lines kept (and copied
    to ``log``), its health/metrics port read from them (METRICS_PORT=0 picks a free one)."""

    def __init__(self, name: str, env: dict[str, str], log: Path) -> None:
        self.name = name
        self.env = env
        self.log = log
        self.lines: list[dict] = []
        self.process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self.port: int | None = None

    async def start(self) -> None:
        self.lines = []
        self.port = None
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.log.parent,
            env={**_settings_free_environment(), "PYTHONPATH": str(ROOT), **self.env},
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        self._reader = asyncio.create_task(self._read(self.process))

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        with self.log.open("a", encoding="utf-8") as copy:
            copy.write(f"----- {self.name} started (pid {process.pid})\n")
            async for raw in process.stderr:
                text = raw.decode(errors="replace")
                copy.write(text)
                copy.flush()
                try:
                    line = json.loads(text)
                except ValueError:
                    continue
                self.lines.append(line)
                found = PORT_LINE.search(line.get("msg", ""))
                if found:
                    self.port = int(found["port"])

    async def get(self, path: str) -> tuple[int, str]:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{self.port}{path}") as response:
                return response.status, await response.text()

    async def wait_healthy(self, fake: FakeDiscord) -> None:
        """/health says ready with every shard of this process connected."""
        healthy = {"ok": False}

        async def probe() -> None:
            while not healthy["ok"]:
                if self.port is not None:
                    try:
                        healthy["ok"] = (await self.get("/health"))[0] == 200
                    except aiohttp.ClientError:
                        pass
                if self.process is not None and self.process.returncode is not None:
                    raise AssertionError(f"{self.name} exited: see {self.log}")
                await asyncio.sleep(0.1)

        poller = asyncio.create_task(probe())
        try:
            await fake.wait_until(lambda: poller.done(), timeout=90, what=f"{self.name} healthy")
            poller.result()
        finally:
            poller.cancel()

    async def kill(self) -> None:
        """``kill -9``: nothing of the bot's shutdown runs."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        if self._reader is not None:
            await self._reader

    async def stop(self) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), 20)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        if self._reader is not None:
            await self._reader


PORT_LINE = re.compile(r"health and metrics on http://[\d.]+:(?P<port>\d+)")


async def _seed_of(url: str, table_id: int) -> str:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT seed FROM tables WHERE id = $1", table_id)
    finally:
        await conn.close()


async def _actions_of(url: str, table_id: int) -> list[tuple[int, str, str]]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT version, seat, action FROM actions WHERE table_id = $1 ORDER BY version",
            table_id,
        )
        return [(r["version"], r["seat"], r["action"]) for r in rows]
    finally:
        await conn.close()


async def _stored_as_shown(url: str, table: Chupate2Table) -> None:
    """Wait until the owner stored what its messages show now (``bot/ui/shown.py`` writes it
    in batches): the public slot at the table's version, each player's DM slot naming their
    latest DM view. Killed earlier, a restarted owner edits an older DM view, which is the
    crash tests' subject (tests/e2e/test_crash_*), not this one's."""
    import asyncpg

    version = table.oracle.version
    await table.fake.settle()
    conn = await asyncpg.connect(url)
    try:
        give_up = asyncio.get_running_loop().time() + 60  # wall time: a hang bound only
        while asyncio.get_running_loop().time() < give_up:
            latest = {seat: str(table_views(user, table.table_id, dms=True)[-1].id)
                      for seat, user in table.by_seat.items()}  # fmt: skip
            rows = await conn.fetch(
                "SELECT slot, message_id, version FROM presented WHERE table_id = $1",
                table.table_id,
            )
            stored = {r["slot"]: r for r in rows}
            public = stored.get("")
            if (
                public is not None
                and public["version"] >= version
                and all(
                    seat in stored and stored[seat]["message_id"] == message
                    for seat, message in latest.items()
                )
            ):
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"the presented state never reached version {version}: {rows}")
    finally:
        await conn.close()


def _repeated_dm_edits(players, spared_versions=frozenset()) -> list[tuple[str, int, str]]:
    """(player, message, footer) for every DM message edited to show exactly what it showed
    already (a click answered in place by shard 0's process, then the owner editing the same
    view). A view of ``spared_versions`` is left out: the move a process was killed right
    after (the word that it answered in place died with it; the owner edits once more)."""
    repeated = []
    for user in players:
        for message in user.dms():
            states = [*message.versions, message.snapshot()]
            shown = [(s["content"], s["embeds"], s["components"]) for s in states]
            for state, a, b in zip(states, shown, shown[1:], strict=False):
                footer = str(((read_card(state) or {}).get("footer") or {}).get("text", ""))
                version = re.search(r"(\d+)", footer)
                if a == b and not (version and int(version.group(1)) in spared_versions):
                    repeated.append((user.name, message.id, footer))
    return repeated


async def _start_chupate2(fake: FakeDiscord, players, url: str) -> Chupate2Table:
    """`/play chupate2` in the default guild (shard 1), the guest joins, the host starts; the
    bot drew the seed: read from the database, for the oracle."""
    table_id, _ = await open_and_start(fake, "chupate2", players)  # the lobby itself (issue 25)
    table = Chupate2Table(fake, table_id, players, await _seed_of(url, table_id), {})
    await table.wait_version(0)
    await first_views_shown(fake, players)
    return table


async def test_two_processes_one_postgres_a_game_played_from_dms_survives_kill_9(
    pg_url, tmp_path, discord_pace
):
    """Shard 1 (process "one") runs the game's guild; every DM click reaches shard 0 (process
    "zero"), which plays it against the database; "one" hears of it (LISTEN/NOTIFY) and shows
    it. Each process is killed with SIGKILL once mid-game and started again: the game goes on
    from where it was, every move stored once, in order."""
    async with FakeDiscord(shard_count=2, route_pace=discord_pace) as fake:
        assert fake.shard_of(fake.guild) == 1  # the game's guild: shard 1
        zero_guild = fake.add_guild("Shard Zero", shard=0)
        common = {
            "DISCORD_TOKEN": fake.token,
            "DATABASE_URL": pg_url,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "SHARD_COUNT": "2",
            # every DM hand at Start and every public version shown, as the test follows them
            "DM_VIEWS_WHEN_NEEDED": "false",
            "PUBLIC_EDIT_EVERY_SECONDS": "0",
            "CPU_DELAY_SECONDS": "0",
            "RENDER_PROCESSES": "0",
            "WORKER_PROCESSES": "0",
            "METRICS_PORT": "0",
            "LOG_FORMAT": "json",
            "LOG_LEVEL": "INFO",
        }
        log = tmp_path / "bots.log"
        zero = BotProcess("zero", {**common, "SHARD_IDS": "0"}, log)
        one = BotProcess("one", {**common, "SHARD_IDS": "1"}, log)
        try:
            await zero.start()
            await zero.wait_healthy(fake)  # first: it migrates the database
            await one.start()
            await one.wait_healthy(fake)
            alice, bob = fake.user("alice"), fake.user("bob")
            for user in (alice, bob):
                user.join(zero_guild)
            table = await _start_chupate2(fake, [alice, bob], pg_url)
            for _ in range(4):
                await table.move()
            await _stored_as_shown(pg_url, table)
            killed_at = {table.oracle.version}
            await one.kill()  # the owner of the game's guild, mid-game
            await one.start()
            await one.wait_healthy(fake)
            for _ in range(4):
                await table.move()
            killed_at.add(table.oracle.version)
            await zero.kill()  # the process every DM click reaches
            await zero.start()
            await zero.wait_healthy(fake)
            await table.play_to_the_end()
            await fake.settle()
            # Nothing lost, nothing twice: the stored moves are the oracle's, in order.
            stored = await _actions_of(pg_url, table.table_id)
            assert [(s, a) for _, s, a in stored] == table.oracle.log
            assert [v for v, _, _ in stored] == list(range(1, len(stored) + 1))
            by_dm = [h for h in table.handles if h.interaction.guild is None]
            assert by_dm, "no move came from a DM"
            # A DM view answered in place by "zero" is not edited again by "one" to show the
            # same thing (one REST edit saved per DM move).
            # (This caught the in-place answer showing the table copy a click carried after a
            # catch-up had replaced it: the view it showed already, edited again by the owner.)
            assert _repeated_dm_edits([alice, bob], killed_at) == []
            # The global board reads the same standings from either process.
            boards = [
                await (await alice.slash("leaderboard", game="chupate2", scope="global")),
                await (
                    await alice.slash(
                        "leaderboard", game="chupate2", scope="global",
                        channel=zero_guild.channels[0],
                    )
                ),
            ]  # fmt: skip
            assert blocks_of(boards[0]) == blocks_of(boards[1])
            assert "alice" in blocks_of(boards[0])[0]
            # Metrics of a real process: the moves the DM process played, its shard.
            status, text = await zero.get("/metrics")
            assert status == 200
            assert re.search(r'^mesa_events_total\{event="moves"\} [1-9]', text, re.M), text
            assert 'mesa_gateway_latency_seconds{shard="0"}' in text
            assert all(line.get("shards") == [0] for line in zero.lines)
            # The owner showed the moves the DM process made: it caught up with them.
            status, text = await one.get("/metrics")
            assert re.search(r'^mesa_events_total\{event="caught_up"\} [1-9]', text, re.M), text
            assert all(line.get("shards") == [1] for line in one.lines)
        finally:
            await zero.stop()
            await one.stop()
        fake.assert_no_violations()


async def test_shard_0_flooded_with_dm_clicks_the_other_process_s_table_is_still_served(
    pg_url, tmp_path, discord_pace
):
    """Issue 25 "A fair bot-token budget": two shard processes share one bot-token budget in
    PostgreSQL (storage/token_budget.py) under the fake's enforced 50/s. Shard 0 ("zero")
    receives every DM click: a flood of them (clicks on hand buttons of versions the table
    left, each answered through its own interaction) runs while the game of shard 1's guild is
    played from the DMs; the owner ("one") keeps showing every move on the public table, and
    nobody ever hits Discord's global 429."""
    async with FakeDiscord(shard_count=2, route_pace=discord_pace) as fake:
        zero_guild = fake.add_guild("Shard Zero", shard=0)
        common = {
            "DISCORD_TOKEN": fake.token,
            "DATABASE_URL": pg_url,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "SHARD_COUNT": "2",
            # every DM hand at Start and every public version shown, as the test follows them
            "DM_VIEWS_WHEN_NEEDED": "false",
            "PUBLIC_EDIT_EVERY_SECONDS": "0",
            "CPU_DELAY_SECONDS": "0",
            "RENDER_PROCESSES": "0",
            "WORKER_PROCESSES": "0",
            "METRICS_PORT": "0",
            "LOG_FORMAT": "json",
            "LOG_LEVEL": "INFO",
        }
        log = tmp_path / "bots.log"
        zero = BotProcess("zero", {**common, "SHARD_IDS": "0"}, log)
        one = BotProcess("one", {**common, "SHARD_IDS": "1"}, log)
        try:
            await zero.start()
            await zero.wait_healthy(fake)
            await one.start()
            await one.wait_healthy(fake)
            alice, bob = fake.user("alice"), fake.user("bob")
            for user in (alice, bob):
                user.join(zero_guild)
            table = await _start_chupate2(fake, [alice, bob], pg_url)
            first_dm = {u.name: u.dms()[-1] for u in (alice, bob)}
            old_buttons = {
                name: [b.custom_id for b in dm.buttons if (b.custom_id or "").startswith("t:")]
                for name, dm in first_dm.items()
            }
            await table.move()  # every button of version 0 is stale from now on
            flood: list = []
            for _ in range(8):
                for user in (alice, bob):
                    for custom_id in old_buttons[user.name][:3] * 3:
                        flood.append(await user.forge_click(first_dm[user.name], custom_id))
                await table.move()  # shown on the public table by "one" meanwhile
            for handle in flood:  # every one answered in time (no late_response below)
                assert await handle.acknowledged() is not None
            assert len(flood) >= 24
            await fake.settle()
            assert table.public() is not None and table.version() == table.oracle.version
            assert [v for v in fake.violations if "global" in v.kind] == []
        finally:
            await zero.stop()
            await one.stop()
        fake.assert_no_violations()
