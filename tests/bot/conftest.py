"""Fixtures shared by the bot's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakediscord.server import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started fake Discord (the e2e tests' ``fake_discord``): the violations a test provokes
    on purpose it takes; any other (a per-route 429 among them) fails it."""
    started = FakeDiscord()
    await started.start()
    try:
        yield started
        await started.settle()
    finally:
        await started.stop()
    started.assert_no_violations()
