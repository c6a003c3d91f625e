"""The fake Discord's shards, proven with real discord.py ``AutoShardedBot`` clients: the shard
count of ``GET /gateway/bot``, IDENTIFY with ``shard: [id, count]``, a guild's events to shard
``(guild_id >> 22) % count``, DMs and DM interactions to shard 0 only."""

from __future__ import annotations

import contextlib
import json

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from tests.fakediscord.gateway import OP_HELLO, OP_IDENTIFY, shard_of
from tests.fakediscord.pytest_plugin import running_bot
from tests.fakediscord.server import FakeDiscord


class ShardProbe(commands.AutoShardedBot):
    """Answers ``/where`` with the shards this client runs: who got the interaction."""

    def __init__(self, name: str, shard_ids: list[int], shard_count: int) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            help_command=None,
            guild_ready_timeout=0.05,
            shard_ids=shard_ids,
            shard_count=shard_count,
        )
        self.probe_name = name

        @self.tree.command(name="where", description="Which shard answers")
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"{self.probe_name} {self.shard_ids}")

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def sharded_fake(count: int = 2) -> FakeDiscord:
    fake = FakeDiscord(shard_count=count)
    await fake.start()
    return fake


async def test_gateway_bot_reports_the_shard_count():
    async with FakeDiscord(shard_count=3) as fake:
        async with aiohttp.ClientSession() as http:
            url = f"{fake.api_base}/gateway/bot"
            headers = {"Authorization": f"Bot {fake.token}"}
            async with http.get(url, headers=headers) as response:
                body = await response.json(content_type=None)
        assert body["shards"] == 3
        assert body["url"] == fake.gateway_url
        fake.assert_no_violations()


async def test_add_guild_on_a_shard_routes_by_its_id():
    async with FakeDiscord(shard_count=4) as fake:
        guilds = [fake.add_guild(f"g{n}", shard=n) for n in (3, 1, 0, 2)]
        assert [fake.shard_of(g) for g in guilds] == [3, 1, 0, 2]
        assert all(shard_of(g.id, 4) == (g.id >> 22) % 4 for g in guilds)


async def test_two_processes_split_guilds_and_dms_go_to_shard_zero():
    fake = await sharded_fake(2)
    try:
        one = fake.add_guild("Shard One", shard=1)
        zero = fake.guild if fake.shard_of(fake.guild) == 0 else fake.add_guild("Zero", shard=0)
        first, second = ShardProbe("A", [0], 2), ShardProbe("B", [1], 2)
        async with running_bot(fake, first), running_bot(fake, second):
            assert {g.id for g in first.guilds} == {
                g.id for g in fake.guilds if fake.shard_of(g) == 0
            }
            assert {g.id for g in second.guilds} == {
                g.id for g in fake.guilds if fake.shard_of(g) == 1
            }
            assert zero.id in {g.id for g in first.guilds}
            assert one.id in {g.id for g in second.guilds}
            alice = fake.user("alice")
            for guild in {one, zero} - {fake.guild}:
                alice.join(guild)
            in_one = await (await alice.slash("where", channel=one.channels[0]))
            in_zero = await (await alice.slash("where", channel=zero.channels[0]))
            in_dm = await (await alice.slash("where", dm=True))
            assert (in_one.content, in_zero.content, in_dm.content) == ("B [1]", "A [0]", "A [0]")
            assert fake.gateway.sessions[0].shard_count == 2
            assert fake.gateway.sessions[1].shard_id == 1
    finally:
        await fake.stop()
    fake.assert_no_violations()


async def test_one_process_with_every_shard_gets_every_guild():
    fake = await sharded_fake(2)
    try:
        one = fake.add_guild("Shard One", shard=1)
        probe = ShardProbe("all", [0, 1], 2)
        async with running_bot(fake, probe):
            await fake.wait_until_shards_connected([0, 1])
            assert {g.id for g in probe.guilds} == {g.id for g in fake.guilds}
            assert probe.get_guild(one.id).shard_id == 1
            alice = fake.user("alice")
            alice.join(one)
            answer = await (await alice.slash("where", channel=one.channels[0]))
            assert answer.content == "all [0, 1]"
            assert fake.gateway.identifies == 2
    finally:
        await fake.stop()
    fake.assert_no_violations()


async def _identify(fake: FakeDiscord, shard: object) -> int | None:
    """A raw IDENTIFY with ``shard``; the close code the gateway answers (None: it did not)."""
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(fake.gateway_url) as ws:
            hello = json.loads((await ws.receive()).data)
            assert hello["op"] == OP_HELLO
            data = {"token": fake.token, "intents": 1, "properties": {}, "shard": shard}
            await ws.send_str(json.dumps({"op": OP_IDENTIFY, "d": data}))
            with contextlib.suppress(TimeoutError):
                while True:
                    msg = await ws.receive(timeout=60)
                    if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                        return ws.close_code
                    if json.loads(msg.data).get("t") == "READY":
                        return None
    return ws.close_code


async def test_identify_with_a_bad_shard_is_closed_4010_and_too_few_shards_4011():
    async with FakeDiscord(shard_count=2) as fake:
        assert await _identify(fake, [2, 2]) == 4010
        assert await _identify(fake, [0]) == 4010
        assert await _identify(fake, [0, 1]) == 4011  # two shards are required
        assert await _identify(fake, [1, 2]) is None
        assert fake.gateway.sessions[1].shard_count == 2
        fake.assert_no_violations()
