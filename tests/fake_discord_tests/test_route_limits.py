"""Discord's per-route buckets as the fake keeps them (``ratelimit.RouteBuckets``): keyed by the
route's bucket and its major parameter, the ``X-RateLimit-*`` headers on every answer, a 429 of
scope "user" over a bucket (a violation, an invalid request), and an unmodified discord.py that
reads the headers and so is never refused."""

from __future__ import annotations

import asyncio

import pytest
from discord.http import handle_message_parameters

from tests.fake_discord_tests.clocks import StoppedClock
from tests.fakediscord import ratelimit
from tests.fakediscord.ratelimit import BOT, INTERACTION, RateLimits, RouteBuckets, RouteLimit
from tests.fakediscord.server import FakeDiscord

CREATE = ("POST", "/channels/{channel_id}/messages")
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
EDIT_ORIGINAL = ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
CALLBACK = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")

# The buckets under test: Discord's own windows, not the tests' shorter ones.
pytestmark = pytest.mark.real_discord_windows


def buckets(clock: StoppedClock) -> RouteBuckets:
    return RouteBuckets(clock.now, wall=lambda: 1_700_000_000.0)


# --- the buckets, on a clock of the test's own ---------------------------------------------------


def test_five_creates_per_five_seconds_per_channel_and_their_headers():
    clock = StoppedClock()
    routes = buckets(clock)
    slots = [routes.take(*CREATE, "/channels/10/messages") for _ in range(6)]
    assert [s.admitted for s in slots] == [True] * 5 + [False]
    assert [s.headers["X-RateLimit-Remaining"] for s in slots] == ["4", "3", "2", "1", "0", "0"]
    first = slots[0].headers
    assert first["X-RateLimit-Limit"] == "5"
    assert first["X-RateLimit-Reset-After"] == "5.000"
    assert first["X-RateLimit-Reset"] == "1700000005.000"
    assert len({s.headers["X-RateLimit-Bucket"] for s in slots}) == 1
    assert slots[5].retry_after == pytest.approx(5.0) and slots[5].major == "10"
    clock.advance(2.0)
    refused = routes.take(*CREATE, "/channels/10/messages")
    assert not refused.admitted and refused.retry_after == pytest.approx(3.0)
    assert refused.headers["X-RateLimit-Reset-After"] == "3.000"
    # another channel is another bucket (its major parameter), the same hash
    other = routes.take(*CREATE, "/channels/11/messages")
    assert other.admitted and other.headers["X-RateLimit-Remaining"] == "4"
    assert other.headers["X-RateLimit-Bucket"] == first["X-RateLimit-Bucket"]
    clock.advance(3.0)  # the window that opened at the first create is over
    assert routes.take(*CREATE, "/channels/10/messages").headers["X-RateLimit-Remaining"] == "4"


def test_creates_and_edits_of_a_channel_are_counted_apart_edits_of_its_messages_together():
    clock = StoppedClock()
    routes = buckets(clock)
    for _ in range(5):
        assert routes.take(*CREATE, "/channels/10/messages").admitted
    edits = [routes.take(*EDIT, f"/channels/10/messages/{m}") for m in (1, 2, 3, 4, 5, 6)]
    assert [s.admitted for s in edits] == [True] * 5 + [False]  # six messages, one bucket
    assert (
        edits[0].headers["X-RateLimit-Bucket"]
        != routes.take(*CREATE, "/channels/12/messages").headers["X-RateLimit-Bucket"]
    )


def test_a_webhook_token_route_is_keyed_by_its_id_and_token_five_per_two_seconds():
    clock = StoppedClock()
    routes = buckets(clock)
    path_a = "/webhooks/7/token-a/messages/@original"
    path_b = "/webhooks/7/token-b/messages/@original"
    assert [routes.take(*EDIT_ORIGINAL, path_a).admitted for _ in range(6)] == [True] * 5 + [False]
    assert routes.take(*EDIT_ORIGINAL, path_b).admitted  # the same application, another token
    slot = routes.take(*EDIT_ORIGINAL, path_a)
    assert slot.major == "7/token-a" and slot.retry_after == pytest.approx(2.0)
    clock.advance(2.0)
    assert routes.take(*EDIT_ORIGINAL, path_a).admitted


def test_a_callback_has_no_bucket_and_nor_has_a_route_the_spec_lacks():
    routes = buckets(StoppedClock())
    assert routes.take(*CALLBACK, "/interactions/1/tok/callback") is None
    assert routes.take("GET", None, "/nowhere") is None


def test_other_routes_get_the_default_bucket_of_their_own():
    clock = StoppedClock()
    routes = buckets(clock)
    slots = [routes.take("GET", "/users/@me", "/users/@me") for _ in range(51)]
    assert [s.admitted for s in slots] == [True] * 50 + [False]
    assert slots[0].headers["X-RateLimit-Limit"] == "50"
    guild = routes.take("GET", "/guilds/{guild_id}/channels", "/guilds/5/channels")
    assert guild.major == "5" and guild.admitted


def test_the_limits_are_data_a_test_changes_and_the_buckets_can_be_turned_off():
    clock = StoppedClock()
    routes = buckets(clock)
    routes.table[CREATE] = RouteLimit(2, 1.0, "tight-create")
    path = "/channels/10/messages"
    assert [routes.take(*CREATE, path).admitted for _ in range(3)] == [True, True, False]
    routes.default = RouteLimit(1, 1.0, "")
    assert [routes.take("GET", "/users/@me", "/users/@me").admitted for _ in range(2)] == [
        True,
        False,
    ]
    routes.enabled = False
    assert routes.take(*CREATE, path) is None


def test_quickened_buckets_hold_as_many_requests_in_a_shorter_window():
    clock = StoppedClock()
    routes = buckets(clock)
    routes.quicken(10.0)
    limit, _ = routes.limit_of(*EDIT)
    assert (limit.limit, limit.period) == (5, 0.5)  # Discord's 5 per 5 s, ten times quicker
    assert routes.default.period == ratelimit.DEFAULT_ROUTE_LIMIT.period / 10
    path = "/channels/10/messages/20"
    assert [routes.take(*EDIT, path).admitted for _ in range(6)] == [True] * 5 + [False]
    clock.advance(0.5)
    assert routes.take(*EDIT, path).admitted


def test_buckets_whose_window_ended_are_forgotten():
    clock = StoppedClock()
    routes = buckets(clock)
    for channel in range(4095):
        routes.take(*CREATE, f"/channels/{channel}/messages")
    assert len(routes) == 4095  # all still open
    clock.advance(5.0)
    routes.take(*CREATE, "/channels/99999/messages")  # the 4096th take sweeps
    assert len(routes) == 1


def test_a_refusal_is_counted_as_a_route_429_never_for_anonymous_requests():
    clock = StoppedClock()
    limits = RateLimits(clock.now)
    for _ in range(5):
        assert limits.route_slot(BOT, *CREATE, "/channels/1/messages").admitted
    assert not limits.route_slot(BOT, *CREATE, "/channels/1/messages").admitted
    assert limits.route_slot(ratelimit.ANONYMOUS, *CREATE, "/channels/2/messages") is None
    assert limits.route_slot(INTERACTION, *CALLBACK, "/interactions/1/t/callback") is None
    assert limits.traffic.route_429 == 1
    assert limits.traffic.route_spent == 1  # the fifth spent the bucket
    assert RateLimits(clock.now, route_limits=False).routes.enabled is False


def test_the_429_answer_is_discords_scope_user():
    clock = StoppedClock()
    routes = buckets(clock)
    for _ in range(5):
        routes.take(*CREATE, "/channels/1/messages")
    clock.advance(1.2345)
    body, headers = ratelimit.route_429(routes.take(*CREATE, "/channels/1/messages"))
    assert headers["X-RateLimit-Scope"] == "user"
    assert headers["Via"] == "1.1 google"
    assert headers["Retry-After"] == "4"
    assert headers["X-RateLimit-Remaining"] == "0"
    assert headers["X-RateLimit-Reset-After"] == "3.766"  # rounded up to the millisecond
    assert "X-RateLimit-Global" not in headers
    assert (
        body == b'{"message": "You are being rate limited.", "retry_after": 3.766, "global": false}'
    )


async def test_the_buckets_are_on_by_default():
    assert FakeDiscord().ratelimits.routes.enabled
    assert not FakeDiscord(route_limits=False).ratelimits.routes.enabled


# --- through HTTP -----------------------------------------------------------------------------------


async def post(fake, http, channel_id: int, text: str) -> tuple[int, dict, dict]:
    url = f"{fake.api_base}/channels/{channel_id}/messages"
    async with http.post(url, json={"content": text}) as resp:
        return resp.status, dict(resp.headers), await resp.json()


async def test_every_answer_carries_its_bucket_and_the_sixth_post_is_refused(
    fake_discord, http, stopped
):
    channel = fake_discord.channel.id
    answers = [await post(fake_discord, http, channel, f"m{i}") for i in range(6)]
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    assert [h["X-RateLimit-Remaining"] for _, h, _ in answers[:5]] == ["4", "3", "2", "1", "0"]
    assert all(h["X-RateLimit-Limit"] == "5" for _, h, _ in answers)
    status, headers, body = answers[5]
    assert body["global"] is False and body["retry_after"] == pytest.approx(5.0)
    assert headers["X-RateLimit-Scope"] == "user" and "Via" in headers
    assert headers["Content-Type"] == "application/json"
    [violation] = fake_discord.take_violations("route_rate_limit")
    assert violation.path == f"/channels/{channel}/messages"
    assert "more than 5 requests in 5 s" in violation.detail
    traffic = fake_discord.ratelimits.traffic
    assert (traffic.route_429, traffic.invalid, traffic.global_429) == (1, 1, 0)
    assert len(fake_discord.channel_messages()) == 5  # the refused one made nothing
    other = fake_discord.add_channel("other")
    assert (await post(fake_discord, http, other.id, "elsewhere"))[0] == 200
    stopped.advance(5.0)
    assert (await post(fake_discord, http, channel, "later"))[0] == 200


async def test_an_error_answer_carries_the_headers_too(fake_discord, http, stopped):
    url = f"{fake_discord.api_base}/channels/{fake_discord.channel.id}/messages"
    async with http.post(url, json={"content": ""}) as resp:  # an empty message: 400 / 50006
        assert resp.status == 400
        assert resp.headers["X-RateLimit-Remaining"] == "4"
    fake_discord.take_violations("bad_request")


async def test_a_flood_on_purpose_with_the_buckets_off(fake_discord, http, stopped):
    fake_discord.ratelimits.routes.enabled = False
    answers = [await post(fake_discord, http, fake_discord.channel.id, "x") for _ in range(8)]
    assert [status for status, _, _ in answers] == [200] * 8
    assert all("X-RateLimit-Limit" not in headers for _, headers, _ in answers)


async def test_discord_py_reads_the_headers_and_is_never_refused(fake_discord, bot):
    """An unmodified discord.py posting in one channel faster than its bucket allows waits as
    the headers say (its bucket learns the limit from them): every post lands, none refused.
    (A short bucket, so the real waits are short.)"""
    fake_discord.ratelimits.routes.table[CREATE] = RouteLimit(2, 0.2, "short-create")
    channel_id = fake_discord.channel.id

    async def send(i: int) -> None:
        with handle_message_parameters(content=f"post {i}") as params:
            await bot.http.send_message(channel_id, params=params)

    await asyncio.gather(*(send(i) for i in range(7)))
    assert fake_discord.ratelimits.traffic.route_429 == 0
    assert fake_discord.take_violations("route_rate_limit") == []
    assert sorted(m.content for m in fake_discord.channel_messages()) == [
        f"post {i}" for i in range(7)
    ]
