"""Every path the bot sends on rides Discord's per-route buckets as the fake keeps them (the
``X-RateLimit-*`` headers on every answer, a 429 of scope "user" and a violation over a bucket):
discord.py's own requests through the gate, a table's bot-token edit (``payload.bot_send``) and
an interaction token's edits (``payload.send``) read the headers and wait a spent bucket's reset,
so a burst faster than the bucket allows all lands and none is refused. The buckets are made
short (2 per 0.2 s) so the real waits are short; the fake fixture fails a test that got a
per-route 429 (``route_rate_limit``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from discord.http import MultipartParameters, handle_message_parameters

from bot.ui import payload as sending
from tests.bot.test_bot_send import _logged_in
from tests.fakediscord.model import MESSAGE_COMPONENT
from tests.fakediscord.ratelimit import RouteLimit
from tests.fakediscord.server import FakeDiscord

HANG_GUARD = 30.0  # seconds: only against a hang of the test itself
BURST = 7  # requests on one bucket at once: more than three of its windows
SHORT = RouteLimit(2, 0.2, "short")
CREATE = ("POST", "/channels/{channel_id}/messages")
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
EDIT_ORIGINAL = ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")

# The bot waits its buckets' windows out: the fake keeps Discord's, as a test of rate limits.
pytestmark = pytest.mark.real_discord_windows


def _refused(fake: FakeDiscord) -> int:
    return fake.ratelimits.traffic.route_429


async def test_discord_py_s_own_posts_through_the_gate_wait_their_channel_s_bucket(
    fake: FakeDiscord,
):
    fake.ratelimits.routes.table[CREATE] = SHORT
    async with _logged_in(fake) as (client, pacer):

        async def post(i: int) -> None:
            with handle_message_parameters(content=f"post {i}") as params:
                await client.http.send_message(fake.channel.id, params=params)

        await asyncio.wait_for(asyncio.gather(*(post(i) for i in range(BURST))), HANG_GUARD)
        assert pacer.sent == BURST  # each counted at the gate once: none sent again
    assert _refused(fake) == 0
    assert len(fake.channel_messages()) == BURST


async def test_a_table_s_bot_token_edits_wait_their_channel_s_bucket(fake: FakeDiscord):
    fake.ratelimits.routes.table[EDIT] = SHORT
    messages = [fake.new_message(fake.channel, fake.bot_user, content="-") for _ in range(BURST)]
    async with _logged_in(fake) as (client, pacer):
        channel = client.get_partial_messageable(fake.channel.id)

        async def edit(i: int) -> None:
            partial = channel.get_partial_message(messages[i].id)
            await sending.edit_message(partial, {"content": f"edit {i}", "embeds": []})

        await asyncio.wait_for(asyncio.gather(*(edit(i) for i in range(BURST))), HANG_GUARD)
        # the route's bucket learnt the limit from the headers (discord.py's, shared)
        learnt = [b.limit for b in client.http._buckets.values()]
        assert SHORT.limit in learnt
        assert pacer.sent == BURST
    assert _refused(fake) == 0
    assert [fake.message(m.id).content for m in messages] == [f"edit {i}" for i in range(BURST)]


async def test_an_interaction_token_s_edits_wait_its_bucket(fake: FakeDiscord):
    """A table token's edits of its message (``payload.send``, the lean path): one bucket per
    interaction token, a burst waits its resets (discord.py's webhook lock, held for them)."""
    fake.ratelimits.routes.table[EDIT_ORIGINAL] = SHORT
    alice = fake.user("alice")
    message = fake.new_message(fake.channel, fake.bot_user, content="table")
    inter = fake.interactions.create(
        user=alice.model,
        type=MESSAGE_COMPONENT,
        channel=fake.channel,
        data={"custom_id": "x", "component_type": 2},
        message=message,
    )
    async with _logged_in(fake) as (client, _):
        session = client.http._HTTPClient__session
        deferred: Any = MultipartParameters(payload={"type": 6}, multipart=None, files=None)
        callback = sending.token_url(f"/interactions/{inter.id}/{inter.token}/callback")
        await sending.send(
            "POST", callback, (inter.id, inter.token), deferred, session=session, callback=True
        )

        async def edit(i: int) -> None:
            params: Any = MultipartParameters(
                payload={"content": f"move {i}"}, multipart=None, files=None
            )
            url = sending.token_url(
                f"/webhooks/{fake.application_id}/{inter.token}/messages/@original"
            )
            await sending.send(
                "PATCH", url, (fake.application_id, inter.token), params, session=session
            )

        for i in range(BURST):  # one after another, as a table's worker sends them
            await asyncio.wait_for(edit(i), HANG_GUARD)
        burst = [asyncio.ensure_future(edit(BURST + i)) for i in range(BURST)]
        await asyncio.wait_for(asyncio.gather(*burst), HANG_GUARD)
    assert _refused(fake) == 0
    assert fake.message(message.id).content.startswith("move ")
