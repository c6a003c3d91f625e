"""Discord's budget as the fake enforces it: 50 bot-token requests per second (a global 429 and a
violation beyond), interaction routes exempt, 10,000 invalid requests in 10 minutes a violation,
and an interaction token that edits only its own messages, for 15 minutes."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from tests.fake_discord_tests.clocks import StoppedClock
from tests.fakediscord import ratelimit
from tests.fakediscord.model import APPLICATION_COMMAND, MESSAGE_COMPONENT
from tests.fakediscord.ratelimit import BOT, INTERACTION, RateLimits
from tests.fakediscord.server import FakeDiscord

MESSAGES = "/channels/{channel_id}/messages"

# The limits under test: Discord's own windows, not the tests' shorter ones.
pytestmark = pytest.mark.real_discord_windows


async def get_me(fake, http) -> tuple[int, dict, dict]:
    async with http.get(fake.api_base + "/users/@me") as resp:
        return resp.status, dict(resp.headers), await resp.json()


async def call(http, method: str, url: str, **kwargs) -> tuple[int, dict | None]:
    async with http.request(method, url, **kwargs) as resp:
        data = await resp.json() if resp.content_type == "application/json" else None
        return resp.status, data


# --- the limits, on a clock of the test's own ---------------------------------------------------


def test_fifty_bot_token_requests_per_sliding_second():
    clock = StoppedClock()
    limits = RateLimits(clock.now)
    assert [limits.admit(BOT) for _ in range(50)] == [0.0] * 50
    assert limits.admit(BOT) == pytest.approx(1.0)  # the 51st: wait until the first is 1 s old
    clock.advance(0.6)
    assert limits.admit(BOT) == pytest.approx(0.4)
    clock.advance(0.4)  # the first 50 are now 1 s old: the window is free again
    assert [limits.admit(BOT) for _ in range(50)] == [0.0] * 50
    assert limits.admit(BOT) > 0
    assert limits.traffic.bot == 103 and limits.traffic.global_429 == 3


def test_a_sliding_window_is_no_fixed_second():
    """25 at t=0.0 and 25 at t=0.9 fill the window until t=1.0; at t=1.0 the first 25 leave."""
    clock = StoppedClock()
    limits = RateLimits(clock.now)
    for _ in range(25):
        assert limits.admit(BOT) == 0
    clock.advance(0.9)
    for _ in range(25):
        assert limits.admit(BOT) == 0
    clock.advance(0.2)  # a new "second" of a fixed-window counter, but 25 are still < 1 s old
    assert sum(1 for _ in range(50) if limits.admit(BOT) == 0) == 25


def test_interaction_routes_are_never_refused_and_counted_apart():
    clock = StoppedClock()
    limits = RateLimits(clock.now)
    for _ in range(50):
        limits.admit(BOT)
    assert limits.admit(BOT) > 0
    assert all(limits.admit(INTERACTION) == 0 for _ in range(500))
    assert limits.traffic.interaction == 500 and limits.traffic.bot == 51
    assert limits.bot_requests_in_window() == 50


def test_the_limit_can_be_turned_off_and_changed():
    clock = StoppedClock()
    unpaced = RateLimits(clock.now, global_rate=None)
    assert all(unpaced.admit(BOT) == 0 for _ in range(1000))
    assert unpaced.traffic.global_429 == 0
    limits = RateLimits(clock.now)
    limits.global_rate = 5
    assert [limits.admit(BOT) == 0 for _ in range(6)] == [True] * 5 + [False]
    limits.global_rate = 0
    assert limits.admit(BOT) == 0 and limits.global_rate is None


def test_ten_thousand_invalid_requests_in_ten_minutes_is_the_limit():
    clock = StoppedClock()
    limits = RateLimits(clock.now)
    crossings = []
    for i in range(10_000):
        clock.advance(0.059)  # 10,000 within 590 s
        if limits.answered("GET", "/users/@me", None, (401, 403, 429)[i % 3]):
            crossings.append(i)
    assert crossings == [9_999]  # the 10,000th, once
    assert limits.traffic.invalid == 10_000


def test_invalid_requests_spread_over_more_than_ten_minutes_are_allowed():
    clock = StoppedClock()
    limits = RateLimits(clock.now)
    for _ in range(12_000):
        clock.advance(0.061)  # 9,836 at most in any 10 minutes
        assert not limits.answered("GET", "/users/@me", None, 401)
    assert not limits.answered("GET", "/users/@me", None, 404)  # a 404 is not counted
    assert not limits.answered("GET", "/users/@me", None, 200)
    assert limits.traffic.invalid == 12_000


def test_edits_are_counted_by_the_route_that_made_them():
    limits = RateLimits(StoppedClock().now)
    limits.answered("PATCH", "/channels/{channel_id}/messages/{message_id}", {}, 200)
    limits.answered("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", {}, 200)
    callback = "/interactions/{interaction_id}/{interaction_token}/callback"
    limits.answered("POST", callback, {"type": 7, "data": {}}, 204)
    limits.answered("POST", callback, {"type": 6}, 204)  # a deferred update edits nothing yet
    limits.answered("PATCH", "/channels/{channel_id}/messages/{message_id}", {}, 404)
    assert (limits.traffic.bot_edits, limits.traffic.interaction_edits) == (1, 2)


def test_route_kinds():
    assert ratelimit.route_kind("/interactions/1/tok/callback", None) == INTERACTION
    assert ratelimit.route_kind("/webhooks/1/tok/messages/@original", "Bot x") == INTERACTION
    assert ratelimit.route_kind("/webhooks/1/tok", None) == INTERACTION
    assert ratelimit.route_kind("/webhooks/1", "Bot x") == BOT  # a webhook read with the bot token
    assert ratelimit.route_kind("/channels/1/messages", "Bot x") == BOT
    assert ratelimit.route_kind("/channels/1/messages", None) == ratelimit.ANONYMOUS


async def test_the_limits_are_on_by_default():
    fake = FakeDiscord()
    assert fake.ratelimits.global_rate == 50
    assert fake.ratelimits.invalid_limit == 10_000
    assert FakeDiscord(global_rate=None).ratelimits.global_rate is None


# --- through HTTP -----------------------------------------------------------------------------------


async def test_a_flood_of_bot_token_calls_gets_the_global_429_and_is_a_violation(
    fake_discord, http, stopped
):
    answers = await asyncio.gather(*(get_me(fake_discord, http) for _ in range(60)))
    statuses = sorted(status for status, _, _ in answers)
    assert statuses == [200] * 50 + [429] * 10
    refused = [(headers, body) for status, headers, body in answers if status == 429]
    for headers, body in refused:
        assert body["global"] is True and body["retry_after"] == pytest.approx(1.0)
        assert body["message"] == "You are being rate limited."
        assert headers["X-RateLimit-Global"] == "true"
        assert headers["X-RateLimit-Scope"] == "global"
        assert headers["Retry-After"] == "1"
        assert "Via" in headers  # Discord's own limit (discord.py retries), not a Cloudflare ban
        assert headers["Content-Type"] == "application/json"
    violations = fake_discord.take_violations("global_rate_limit")
    assert len(violations) == 10
    assert all(v.path == "/users/@me" and "more than 50" in v.detail for v in violations)
    traffic = fake_discord.ratelimits.traffic
    assert (traffic.bot, traffic.global_429, traffic.invalid) == (60, 10, 10)
    stopped.advance(1.0)
    assert (await get_me(fake_discord, http))[0] == 200  # a second later the window is free


async def test_every_process_of_the_bot_shares_one_budget(fake_discord, stopped):
    """Two shard processes (two HTTP clients, one token): 50 per second for both together."""
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with (
        aiohttp.ClientSession(headers=headers) as shard0,
        aiohttp.ClientSession(headers=headers) as shard1,
    ):
        answers = await asyncio.gather(
            *(get_me(fake_discord, shard) for _ in range(30) for shard in (shard0, shard1))
        )
    assert sorted(status for status, _, _ in answers) == [200] * 50 + [429] * 10
    assert len(fake_discord.take_violations("global_rate_limit")) == 10


async def test_the_violation_fails_the_test_at_teardown():
    fake = FakeDiscord()
    clock = StoppedClock()
    fake.ratelimits.clock = clock.now
    await fake.start()
    try:
        async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http:
            await asyncio.gather(*(get_me(fake, http) for _ in range(51)))
    finally:
        await fake.stop()
    with pytest.raises(AssertionError, match="global_rate_limit"):
        fake.assert_no_violations()


async def test_interaction_routes_stay_exempt_under_the_same_flood(fake_discord, bot, stopped):
    async with aiohttp.ClientSession(
        headers={"Authorization": f"Bot {fake_discord.token}"}
    ) as http:
        answers = await asyncio.gather(*(get_me(fake_discord, http) for _ in range(70)))
    assert sum(1 for status, _, _ in answers if status == 429) >= 20  # the window is full
    fake_discord.take_violations("global_rate_limit")
    before = fake_discord.ratelimits.traffic.snapshot()
    alice = fake_discord.user("alice")
    handles = [await alice.slash("slow") for _ in range(5)]  # a defer and two follow-ups each
    for handle in handles:
        assert (await handle).content == "done thinking"
    traffic = fake_discord.ratelimits.traffic
    await fake_discord.wait_until(
        lambda: traffic.interaction - before["interaction"] >= 15, what="the second follow-ups"
    )
    after = traffic.snapshot()
    assert after["global_429"] == before["global_429"]
    assert after["bot"] == before["bot"]
    assert after["interaction"] - before["interaction"] == 15
    token_routes = [r for r in fake_discord.requests if r.kind == INTERACTION]
    assert len(token_routes) == 15 and all(r.status in (200, 204) for r in token_routes)


async def test_discord_py_waits_out_a_global_429_and_retries(fake_discord, bot, http, stopped):
    for _ in range(50):
        assert (await get_me(fake_discord, http))[0] == 200
    alice = fake_discord.user("alice")
    handle = await alice.slash("announce", text="over the limit")
    await fake_discord.wait_until(
        lambda: fake_discord.ratelimits.traffic.global_429, what="the bot's refused post"
    )
    assert fake_discord.channel_messages() == []  # the post waits: no message yet
    stopped.advance(1.0)  # the second passes (the bot sleeps retry_after on its own clock)
    assert (await handle).content == "posted"
    posts = [r.status for r in fake_discord.requests if r.template == MESSAGES]
    assert posts[0] == 429 and posts[-1] == 200
    [posted] = fake_discord.channel_messages()
    assert posted.content == "over the limit (edited)"
    assert fake_discord.take_violations("global_rate_limit")


async def test_ten_thousand_invalid_requests_are_a_violation(fake_discord):
    fake_discord.ratelimits.invalid_limit = 30  # the same rule, a smaller number to reach
    async with aiohttp.ClientSession() as anonymous:
        for _ in range(40):
            async with anonymous.get(fake_discord.api_base + "/users/@me") as resp:
                assert resp.status == 401
    [violation] = fake_discord.take_violations("invalid_requests")
    assert "30 invalid requests" in violation.detail
    assert fake_discord.ratelimits.traffic.anonymous == 40


# --- an interaction token edits its own messages, for 15 minutes --------------------------------


def slash_interaction(fake: FakeDiscord, user_name: str = "alice"):
    user = fake.user(user_name)
    return fake.interactions.create(
        user=user.model,
        type=APPLICATION_COMMAND,
        channel=fake.channel,
        data={"id": "1", "name": "x", "type": 1},
        command_name="x",
    )


def webhook(fake: FakeDiscord, inter, tail: str = "") -> str:
    return f"{fake.api_base}/webhooks/{fake.application_id}/{inter.token}{tail}"


async def answer(fake: FakeDiscord, http, inter, body: dict) -> None:
    url = f"{fake.api_base}/interactions/{inter.id}/{inter.token}/callback"
    status, _ = await call(http, "POST", url, json=body)
    assert status == 204


async def test_a_token_edits_only_its_original_and_its_own_follow_ups(fake_discord, http):
    fake = fake_discord
    mine, theirs = slash_interaction(fake), slash_interaction(fake, "bob")
    for inter in (mine, theirs):
        await answer(fake, http, inter, {"type": 4, "data": {"content": "hi"}})
    status, followup = await call(
        http, "POST", webhook(fake, mine, "?wait=true"), json={"content": "f"}
    )
    assert status == 200
    status, other_followup = await call(
        http, "POST", webhook(fake, theirs, "?wait=true"), json={"content": "g"}
    )
    assert status == 200
    posted = fake.new_message(fake.channel, fake.bot_user, content="a bot-token message")
    own = [("@original", mine.original.id), (followup["id"], int(followup["id"]))]
    for ref, message_id in own:
        status, _ = await call(
            http, "PATCH", webhook(fake, mine, f"/messages/{ref}"), json={"content": "edited"}
        )
        assert status == 200 and fake.message(message_id).content == "edited"
    foreign = [theirs.original.id, int(other_followup["id"]), posted.id]
    for message_id in foreign:
        for method, kwargs in (("PATCH", {"json": {"content": "x"}}), ("GET", {}), ("DELETE", {})):
            status, data = await call(
                http, method, webhook(fake, mine, f"/messages/{message_id}"), **kwargs
            )
            assert (status, data["code"]) == (404, 10008), (method, message_id)
    assert theirs.original.content == "hi" and posted.content == "a bot-token message"


async def test_a_deferred_update_token_edits_the_message_its_component_sits_on(fake_discord, http):
    fake = fake_discord
    table = fake.new_message(fake.channel, fake.bot_user, content="table v1")
    other = fake.new_message(fake.channel, fake.bot_user, content="another table")
    user = fake.user("alice")
    inter = fake.interactions.create(
        user=user.model,
        type=MESSAGE_COMPONENT,
        channel=fake.channel,
        data={"custom_id": "t:1:1:x", "component_type": 2},
        message=table,
    )
    await answer(fake, http, inter, {"type": 6})
    status, _ = await call(
        http, "PATCH", webhook(fake, inter, "/messages/@original"), json={"content": "table v2"}
    )
    assert status == 200 and table.content == "table v2"
    status, data = await call(
        http, "PATCH", webhook(fake, inter, f"/messages/{other.id}"), json={"content": "x"}
    )
    assert (status, data["code"]) == (404, 10008) and other.content == "another table"
    assert fake.ratelimits.traffic.interaction_edits == 1


async def test_a_sixteen_minute_old_token_is_refused_on_every_route(fake_discord, http):
    fake = fake_discord
    inter = slash_interaction(fake)
    await answer(fake, http, inter, {"type": 4, "data": {"content": "hi"}})
    status, followup = await call(
        http, "POST", webhook(fake, inter, "?wait=true"), json={"content": "f"}
    )
    assert status == 200
    fake.advance(minutes=14, seconds=59)  # still valid just under 15 minutes
    status, _ = await call(
        http, "PATCH", webhook(fake, inter, "/messages/@original"), json={"content": "late"}
    )
    assert status == 200 and inter.original.content == "late"
    fake.advance(minutes=1, seconds=1)  # 16 minutes old
    attempts = [
        ("PATCH", "/messages/@original", {"json": {"content": "too late"}}),
        ("PATCH", f"/messages/{followup['id']}", {"json": {"content": "too late"}}),
        ("GET", "/messages/@original", {}),
        ("DELETE", f"/messages/{followup['id']}", {}),
        ("POST", "", {"json": {"content": "too late"}}),
    ]
    for method, tail, kwargs in attempts:
        status, data = await call(http, method, webhook(fake, inter, tail), **kwargs)
        assert (status, data["code"]) == (401, 50027), (method, tail)
    assert inter.original.content == "late"
    assert fake.message(int(followup["id"])).content == "f"
    assert len(inter.followups) == 1
    assert fake.ratelimits.traffic.invalid == 5  # 401s count toward the invalid-request limit
