from __future__ import annotations

import pytest

from tests.fake_discord_tests.demo_bot import DemoBot
from tests.fakediscord.pytest_plugin import fake_discord, running_bot  # noqa: F401


@pytest.fixture
async def bot(fake_discord):  # noqa: F811
    """The demo bot, logged in and ready on the fake."""
    demo = DemoBot(fake_discord.guild.id)
    async with running_bot(fake_discord, demo):
        yield demo
