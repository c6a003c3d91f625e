"""Fixtures shared by the bot's tests."""

from __future__ import annotations

import pytest

from tests.fakediscord.pytest_plugin import discord_pace, fake_discord  # noqa: F401
from tests.fakediscord.server import FakeDiscord


@pytest.fixture
def fake(fake_discord: FakeDiscord) -> FakeDiscord:  # noqa: F811
    """A started fake Discord (the plugin's ``fake_discord``): the violations a test provokes
    on purpose it takes; any other (a per-route 429 among them) fails it."""
    return fake_discord
