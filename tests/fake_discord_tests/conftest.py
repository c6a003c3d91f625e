from __future__ import annotations

import aiohttp
import pytest

from tests.fake_discord_tests.clocks import StoppedClock
from tests.fake_discord_tests.demo_bot import DemoBot
from tests.fakediscord.pytest_plugin import discord_pace, fake_discord, running_bot  # noqa: F401


@pytest.fixture
async def bot(fake_discord):  # noqa: F811
    """The demo bot, logged in and ready on the fake."""
    demo = DemoBot(fake_discord.guild.id)
    async with running_bot(fake_discord, demo):
        yield demo


@pytest.fixture
def stopped(fake_discord) -> StoppedClock:  # noqa: F811
    """The fake's rate limits on a clock of the test's own."""
    clock = StoppedClock()
    fake_discord.ratelimits.clock = clock.now
    return clock


@pytest.fixture
async def http(fake_discord):  # noqa: F811
    """A plain HTTP session carrying the bot's token."""
    async with aiohttp.ClientSession(
        headers={"Authorization": f"Bot {fake_discord.token}"}
    ) as session:
        yield session
