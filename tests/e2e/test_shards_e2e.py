"""Mesa over shards, end to end on the fake Discord: one process running both shards on SQLite,
and two bot processes sharing a real PostgreSQL (see the second part)."""

from __future__ import annotations

from pathlib import Path

from bot.client import ShardedMesaBot, create_bot
from bot.settings import Settings
from tests.fakediscord.pytest_plugin import running_bot
from tests.fakediscord.server import FakeDiscord


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
        **extra,
    )


async def test_one_process_runs_every_shard_on_sqlite(tmp_path):
    async with FakeDiscord(shard_count=2) as fake:
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
