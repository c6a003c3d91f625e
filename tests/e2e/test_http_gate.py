"""Issue 25: every bot-token request goes through one gate (``bot/ui/http_gate.py``) that counts
it in the pacer when it is actually sent, whoever makes it; a 429 that still happens is retried
through that gate, not around it. Floods through the bot's real HTTP path (discord.py's own
calls, none paced by hand) against the fake Discord, which answers over 50 bot-token requests a
second with the global 429."""

from __future__ import annotations

import asyncio

import discord
import pytest
from yarl import URL

from bot.ui.http_gate import GatedSession, api_path, bound_to_global_limit, is_exempt
from bot.ui.payload import quoted, token_url
from bot.ui.token_wire import Target
from tests.fakediscord.server import FakeDiscord


def test_what_the_gate_counts():
    assert api_path("http://127.0.0.1:5/api/v10/channels/1/messages") == "/channels/1/messages"
    assert api_path("https://discord.com/api/v10/webhooks/2/tok/messages/@original") == (
        "/webhooks/2/tok/messages/@original"
    )
    assert is_exempt("/interactions/1/tok/callback")
    assert is_exempt("/webhooks/2/tok/messages/3")
    assert not is_exempt("/webhooks/2")  # a webhook read with the bot token
    assert not is_exempt("/channels/1/messages")
    bot = {"Authorization": "Bot x"}
    assert bound_to_global_limit("http://h/api/v10/channels/1/messages", bot)
    assert not bound_to_global_limit("http://h/api/v10/webhooks/2/tok/messages/3", bot)
    assert not bound_to_global_limit("http://h/api/v10/channels/1/messages", {})


@pytest.mark.parametrize(
    "token",
    ["aW50ZXJhY3Rpb246MTQ0qfa-IVL_mu3xCD", "a:b.c", "tok/with+odd=chars%20and@at", "ñandú?#"],
)
def test_a_prebuilt_url_is_the_one_aiohttp_would_build(monkeypatch, token):
    """``payload.token_url`` parses its URL once, as it is (``encoded``; a URL-safe token's
    split without yarl, ``token_wire.Target``): the same request line aiohttp sends for the
    text (which it parses and re-quotes), the same origin, the same path the gate reads of
    it."""
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:5/api/v10")
    path = f"/webhooks/2/{quoted(token)}/messages/@original"
    made = token_url(f"{path}?with_components=1")
    text = f"http://127.0.0.1:5/api/v10{path}?with_components=1"
    if isinstance(made, Target):
        assert "%" not in path  # only a token with nothing quoted takes the short way
        assert made.path_qs == URL(text).raw_path_qs
        assert made.key == (URL(text).scheme, URL(text).raw_authority)
        url = made.url()
    else:
        url = made
        assert url.raw_path_qs == URL(text).raw_path_qs
    assert url == URL(text)
    assert (url.host, url.port) == ("127.0.0.1", 5)
    assert api_path(url) == api_path(URL(text))
    assert api_path(url).startswith("/webhooks/2/") and api_path(url).endswith("/@original")
    if token.isascii() and token.replace("-", "").replace("_", "").isalnum():
        assert api_path(url) == api_path(text) == path  # a URL-safe token, as Discord's are
        assert isinstance(made, Target) and str(made) == text
    assert is_exempt(api_path(url))


async def _flood(
    fake: FakeDiscord, bot: discord.Client, channel_id: int, calls: int
) -> list[discord.Message]:
    """``calls`` channel posts at once, through discord.py's HTTP client (no pacing by hand):
    a flood of the global limit on purpose, so the channel's own bucket (5 posts per 5 s, which
    would stretch 120 posts over two minutes) is turned off."""
    fake.ratelimits.routes.enabled = False
    channel = bot.get_partial_messageable(channel_id)
    return await asyncio.gather(*(channel.send(content=f"flood {n}") for n in range(calls)))


async def test_a_flood_of_bot_token_calls_through_the_bot_gets_no_global_429(fake_discord, mesa):
    bot = mesa.bot
    gate = bot.http._HTTPClient__session
    assert isinstance(gate, GatedSession)
    pacer = bot.listener.pacer
    assert pacer.per_second == 45
    before_bot, before_sent = fake_discord.ratelimits.traffic.bot, pacer.sent
    posted = await _flood(fake_discord, bot, fake_discord.channel.id, 120)
    assert len(posted) == 120
    traffic = fake_discord.ratelimits.traffic
    assert traffic.global_429 == 0
    assert fake_discord.take_violations("global_rate_limit") == []
    # every bot-token request of the flood (and nothing else meanwhile) passed the gate
    assert traffic.bot - before_bot == pacer.sent - before_sent >= 120


async def test_a_global_429_is_retried_through_the_gate(fake_discord, mesa):
    """Discord's limit lower than the bot's pacer (as if another process used the token): the
    429s that come back pause the gate, and discord.py's retries pass it again."""
    bot = mesa.bot
    gate = bot.http._HTTPClient__session
    pacer = bot.listener.pacer
    fake_discord.ratelimits.global_rate = 20
    before_bot, before_sent = fake_discord.ratelimits.traffic.bot, pacer.sent
    posted = await _flood(fake_discord, bot, fake_discord.channel.id, 40)
    assert len(posted) == 40  # every post went out in the end
    traffic = fake_discord.ratelimits.traffic
    assert traffic.global_429 > 0 and gate.global_429s == traffic.global_429
    # each send, first tries and retries alike, was counted by the gate when it went out
    assert traffic.bot - before_bot == pacer.sent - before_sent == 40 + traffic.global_429
    assert len(fake_discord.take_violations("global_rate_limit")) == traffic.global_429
