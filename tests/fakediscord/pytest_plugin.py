"""Pytest fixtures for the fake Discord, and helpers to run an unmodified discord.py client on it.

Use from a conftest.py:  `from tests.fakediscord.pytest_plugin import discord_pace, fake_discord  # noqa: F401`

The `fake_discord` fixture fails the test at teardown if the fake recorded violations (invalid
requests, unanswered or late interactions, ...). A test that provokes violations on purpose takes
them with `fake_discord.take_violations(kind)` and asserts on them.

Its per-route windows run `TEST_PACE` times shorter than Discord's, as many requests in each
(`discord_pace`); a test of the rate limits, or one asserting that the bot waits a window out,
says so with `@pytest.mark.real_discord_windows` and gets Discord's own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.waiting import HANG_GUARD_SECONDS

from .server import FakeDiscord


@contextlib.contextmanager
def discord_py_pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's REST base and gateway URL at the fake; restore them afterwards."""
    import discord.gateway
    import discord.http
    import yarl

    saved_base = discord.http.Route.BASE
    saved_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = saved_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved_gateway


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord, client, *, ready_timeout: float = 60.0
) -> AsyncIterator[None]:
    """Log `client` in to the fake, connect it, wait for on_ready; on exit let pending interactions
    settle, close the client. Give the client `guild_ready_timeout` well under a second."""
    with discord_py_pointed_at(fake):
        await client.login(fake.token)
        task = asyncio.create_task(client.connect(reconnect=True), name="fake-discord-bot")
        try:
            ready = asyncio.create_task(client.wait_until_ready())
            done, _ = await asyncio.wait(
                {ready, task}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if task in done:
                ready.cancel()
                task.result()  # raises what stopped the client
                raise RuntimeError("the bot stopped before it was ready")
            if ready not in done:
                ready.cancel()
                raise TimeoutError("the bot did not become ready on the fake Discord")
            yield
            await fake.settle()
        finally:
            await client.close()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, HANG_GUARD_SECONDS)


# Tests play faster than people: their players click the moment a view shows and computer seats
# play at once, so a table changes many times a second where people make a move every few
# seconds. Under Discord's own per-route windows (5 edits per 5 s per channel, 5 per 2 s per
# token) the bot rightly waits, and a test waits with it for what it does not test (a Macarena
# flow 8.8 -> 49.6 s). Ten times shorter windows, as many requests in each, still refuse a bot
# that ignores the X-RateLimit-* headers (a burst over a bucket is refused however short its
# window); the real windows are kept by the tests marked `real_discord_windows` and by every
# bench/load.py run.
TEST_PACE = 10.0
REAL_WINDOWS = "real_discord_windows"  # the marker of a test that needs Discord's own windows


@pytest.fixture
def discord_pace(request: pytest.FixtureRequest) -> float:
    """How many times shorter than Discord's the fake's per-route windows are in this test
    (`FakeDiscord(route_pace=discord_pace)` for a fake a test starts itself): `TEST_PACE`, or
    1 for a test marked `real_discord_windows`."""
    return 1.0 if request.node.get_closest_marker(REAL_WINDOWS) else TEST_PACE


@pytest.fixture
async def fake_discord(discord_pace: float) -> AsyncIterator[FakeDiscord]:
    """A started fake Discord (its windows at `discord_pace`); fails the test at teardown on any
    unexpected violation."""
    fake = FakeDiscord(route_pace=discord_pace)
    await fake.start()
    try:
        yield fake
        await fake.settle()
    finally:
        await fake.stop()
    fake.assert_no_violations()
