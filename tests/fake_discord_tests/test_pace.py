"""The tests' pace (``pytest_plugin.discord_pace``): the ``fake_discord`` fixture runs Discord's
per-route windows ``TEST_PACE`` times shorter, as many requests in each, so a bot that ignores
the ``X-RateLimit-*`` headers is still refused; a test marked ``real_discord_windows`` gets
Discord's own windows; a fake started without the fixture keeps them too (the benchmarks')."""

from __future__ import annotations

import pytest

from tests.fakediscord.pytest_plugin import TEST_PACE
from tests.fakediscord.ratelimit import ROUTE_LIMITS
from tests.fakediscord.server import FakeDiscord

CREATE = ("POST", "/channels/{channel_id}/messages")


def _create_limit(fake: FakeDiscord) -> tuple[int, float]:
    limit, _ = fake.ratelimits.routes.limit_of(*CREATE)
    return limit.limit, limit.period


async def test_the_fixture_runs_every_window_at_the_tests_pace(fake_discord, discord_pace):
    assert discord_pace == TEST_PACE > 1
    assert _create_limit(fake_discord) == (5, 5.0 / TEST_PACE)  # as many requests, shorter
    routes = fake_discord.ratelimits.routes
    assert all(
        (routes.table[key].limit, routes.table[key].period) == (real.limit, real.period / TEST_PACE)
        for key, real in ROUTE_LIMITS.items()
    )


@pytest.mark.real_discord_windows
async def test_a_test_marked_real_discord_windows_gets_discords_own(fake_discord, discord_pace):
    assert discord_pace == 1.0
    assert _create_limit(fake_discord) == (5, 5.0)


def test_a_fake_started_without_the_fixture_keeps_discords_windows():
    assert _create_limit(FakeDiscord()) == (5, 5.0)
    assert _create_limit(FakeDiscord(route_pace=TEST_PACE)) == (5, 5.0 / TEST_PACE)


async def test_a_burst_over_a_quickened_bucket_is_still_refused(fake_discord, http, stopped):
    """Six posts in one channel at once: the sixth gets the 429 (retry after the shorter
    window) and is a violation, as under Discord's own window."""
    url = f"{fake_discord.api_base}/channels/{fake_discord.channel.id}/messages"
    statuses, retry_after = [], None
    for i in range(6):
        async with http.post(url, json={"content": f"m{i}"}) as resp:
            statuses.append(resp.status)
            if resp.status == 429:
                retry_after = (await resp.json())["retry_after"]
    assert statuses == [200] * 5 + [429]
    assert retry_after == pytest.approx(5.0 / TEST_PACE)
    [violation] = fake_discord.take_violations("route_rate_limit")
    assert "more than 5 requests" in violation.detail
    stopped.advance(5.0 / TEST_PACE)
    async with http.post(url, json={"content": "later"}) as resp:
        assert resp.status == 200
