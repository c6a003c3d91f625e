"""A table's bot-token edit on the gate's wire (``bot.ui.payload.bot_send``, issue 29): the
request discord.py's ``HTTPClient.edit_message`` sends, byte for byte; its route's bucket learnt
from the ``X-RateLimit-*`` headers as discord.py learns it; and against the fake Discord, which
refuses what Discord refuses: paced and counted at the gate, a deleted message's 404 and another
author's 403 raised as discord.py raises them, a 5xx and a 429 waited out and sent again, a
global 429 pausing the pacer and discord.py's other requests, a Cloudflare 429 raised."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from bot.ui import http_gate
from bot.ui import payload as sending
from bot.ui.pacer import RequestPacer
from bot.ui.token_wire import TokenWire
from tests.bot.test_token_transport import _parsed, _serving, answering, json_answer
from tests.bot.test_token_wire import MESSAGE, PNG, _card
from tests.fakediscord.pytest_plugin import discord_py_pointed_at
from tests.fakediscord.server import FakeDiscord

HANG_GUARD = 30.0  # seconds: only against a hang of the test itself
EDIT = "/channels/{channel_id}/messages/{message_id}"


def _route(channel_id: int, message_id: int) -> Route:
    return Route("PATCH", EDIT, channel_id=channel_id, message_id=message_id)


def _params(image: bool) -> Any:
    files = [discord.File(io.BytesIO(PNG), "t.png")] if image else []
    kwargs = {"content": None, "embeds": [], "view": _card(), "attachments": files}
    return sending.edit_parameters(kwargs, None)


def _http(session: Any, wire: TokenWire | None, pacer: RequestPacer | None = None) -> Any:
    """discord.py's ``HTTPClient`` as ``static_login`` leaves it, its session under the gate."""
    http: Any = discord.http.HTTPClient(asyncio.get_running_loop())
    http.token = "secret"
    http._global_over = asyncio.Event()
    http._global_over.set()
    http._HTTPClient__session = http_gate.GatedSession(session, lambda: pacer, wire)  # type: ignore[arg-type,return-value]
    return http


@pytest.mark.parametrize("image", [False, True])
async def test_the_edit_is_discord_py_s_request_byte_for_byte(
    monkeypatch: pytest.MonkeyPatch, image: bool
):
    server = await _serving(answering(json_answer(MESSAGE)))
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{server.port}/api/v10")
    wire = TokenWire()
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            http = _http(session, wire)
            with _params(image) as params:
                await asyncio.wait_for(http.edit_message(3, 5, params=params), HANG_GUARD)
            with _params(image) as params:
                await asyncio.wait_for(sending.bot_send(http, _route(3, 5), params), HANG_GUARD)
    finally:
        await wire.close()
        await server.stop()
    assert wire.sent == 2
    theirs, ours = (_parsed(request) for request in server.requests)
    if image:
        for request in (theirs, ours):
            kind = request["headers"]["content-type"]
            boundary = kind.partition("boundary=")[2]
            assert boundary
            request["body"] = request["body"].replace(boundary.encode(), b"B")
            request["headers"]["content-type"] = kind.replace(boundary, "B")
            request["headers"]["content-length"] = "the same, once the boundary is named alike"
    else:
        assert ours["headers"]["content-type"] == "application/json"
    assert ours["line"] == theirs["line"] == "PATCH /api/v10/channels/3/messages/5 HTTP/1.1"
    assert ours["headers"]["authorization"] == "Bot secret"
    assert ours["headers"] == theirs["headers"]
    assert ours["body"] == theirs["body"]


async def test_the_route_s_bucket_is_learnt_as_discord_py_learns_it(
    monkeypatch: pytest.MonkeyPatch,
):
    """Two edits answered with Discord's per-route headers (its bucket's hash, a limit of 5,
    then the last one spent): the same buckets, hashes and counts as discord.py's own."""
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-RateLimit-Bucket: abcd\r\n"
        b"X-RateLimit-Limit: 5\r\nX-RateLimit-Remaining: %d\r\nX-RateLimit-Reset: 1900000000.5\r\n"
        b"X-RateLimit-Reset-After: 0.05\r\nX-RateLimit-Scope: user\r\nContent-Length: 2\r\n\r\n{}"
    )
    server = await _serving(answering(head % 4, head % 0))
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{server.port}/api/v10")
    states = []
    wire = TokenWire()
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            for ours in (False, True):
                server.answer = answering(head % 4, head % 0)
                http = _http(session, wire)
                for _ in range(2):
                    with _params(False) as params:
                        sent = (
                            sending.bot_send(http, _route(3, 5), params)
                            if ours
                            else http.edit_message(3, 5, params=params)
                        )
                        await asyncio.wait_for(sent, HANG_GUARD)
                states.append(
                    (
                        dict(http._bucket_hashes),
                        {
                            key: (bucket.limit, bucket.remaining, bucket.outgoing)
                            for key, bucket in http._buckets.items()
                        },
                    )
                )
    finally:
        await wire.close()
        await server.stop()
    assert states[0] == states[1]
    hashes, buckets = states[1]
    assert hashes == {f"PATCH {EDIT}": "abcd"}
    assert buckets["abcd:3"][0] == 5


# ----- against the fake Discord ------------------------------------------------------------------


@contextlib.asynccontextmanager
async def _logged_in(fake: FakeDiscord) -> AsyncIterator[tuple[Any, RequestPacer]]:
    """A discord.py client logged in to the fake (REST only), its session under the gate as
    ``http_gate.install`` puts it, with a pacer."""
    pacer = RequestPacer(45)
    client = discord.Client(intents=discord.Intents.none())
    with discord_py_pointed_at(fake):
        await client.login(fake.token)
        try:
            http_gate.install(client.http, lambda: pacer)
            yield client, pacer
        finally:
            await client.close()


async def _edit(client: Any, channel_id: int, message_id: int, content: str) -> None:
    partial = client.get_partial_messageable(channel_id).get_partial_message(message_id)
    await asyncio.wait_for(
        sending.edit_message(partial, {"content": content, "embeds": []}), HANG_GUARD
    )


async def test_an_edit_goes_on_the_wire_paced_and_counted(fake: FakeDiscord):
    message = fake.new_message(fake.channel, fake.bot_user, content="before")
    async with _logged_in(fake) as (client, pacer):
        gated = client.http._HTTPClient__session
        sent = gated.wire.sent
        await _edit(client, fake.channel.id, message.id, "after")
        assert gated.wire.sent == sent + 1
    assert fake.message(message.id).content == "after"
    assert pacer.sent == 1 and pacer.in_flight == 0  # counted at the gate, and landed
    assert fake.ratelimits.traffic.bot_edits == 1


async def test_a_deleted_message_and_another_author_s_are_discord_py_s_errors(
    fake: FakeDiscord,
):
    gone = fake.new_message(fake.channel, fake.bot_user, content="x")
    fake.delete_message(gone)
    theirs = fake.new_message(fake.channel, fake.owner, content="y")
    async with _logged_in(fake) as (client, _):
        with pytest.raises(discord.NotFound) as missing:
            await _edit(client, fake.channel.id, gone.id, "z")
        with pytest.raises(discord.Forbidden) as refused:
            await _edit(client, fake.channel.id, theirs.id, "z")
    assert missing.value.code == 10008 and missing.value.status == 404
    assert refused.value.code == 50005 and refused.value.status == 403


async def test_a_server_error_and_a_429_are_waited_out_and_sent_again(
    fake: FakeDiscord,
):
    message = fake.new_message(fake.channel, fake.bot_user, content="before")
    failed = fake.fail(EDIT, method="PATCH", status=502)
    limited = fake.rate_limit(EDIT, method="PATCH", retry_after=0.01)
    async with _logged_in(fake) as (client, pacer):
        await _edit(client, fake.channel.id, message.id, "after")
    assert failed.hits == 1 and limited.hits == 1
    assert fake.message(message.id).content == "after"
    assert pacer.sent == 3  # each try counted at the gate


async def test_a_global_429_pauses_the_pacer_and_discord_py_s_requests(
    fake: FakeDiscord,
):
    message = fake.new_message(fake.channel, fake.bot_user, content="before")
    limited = fake.rate_limit(EDIT, method="PATCH", retry_after=0.2, global_=True)
    async with _logged_in(fake) as (client, pacer):
        edit = asyncio.create_task(_edit(client, fake.channel.id, message.id, "after"))
        await fake.wait_until(lambda: limited.hits == 1, what="the global 429")
        await fake.wait_until(
            lambda: not client.http._global_over.is_set(), what="discord.py's requests held"
        )
        assert pacer.free_in(pacer._clock()) > 0  # the pacer paused too
        await edit
        assert client.http._global_over.is_set()
        assert client.http._HTTPClient__session.global_429s == 1
    assert fake.message(message.id).content == "after"


async def test_a_429_that_is_not_discord_s_is_raised(fake: FakeDiscord):
    message = fake.new_message(fake.channel, fake.bot_user, content="before")
    fake.rate_limit(EDIT, method="PATCH", retry_after=0.01, via=False)  # Cloudflare's ban
    async with _logged_in(fake) as (client, _):
        with pytest.raises(discord.HTTPException) as refused:
            await _edit(client, fake.channel.id, message.id, "after")
    assert refused.value.status == 429
    assert fake.message(message.id).content == "before"


def test_the_gate_reads_a_split_url_s_api_path_as_a_string_s():
    url = "https://discord.com/api/v10/channels/3/messages/5?x=1"
    split = sending.token_url("/channels/3/messages/5?x=1")
    assert http_gate.api_path(split) == http_gate.api_path(url) == "/channels/3/messages/5"
