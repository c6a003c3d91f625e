"""The fake's heartbeat ACK comes after a round trip, as Discord's does, not the instant the
heartbeat arrives: discord.py's keep-alive thread stores a heartbeat's send time only after the
loop sent it, and an ACK read before that is measured from the previous heartbeat (a bogus
"Can't keep up ... 41.3 s behind" in the bot's log, which bench/load.py counts)."""

from __future__ import annotations

import json
import math

import aiohttp

from tests.fakediscord.gateway import OP_HEARTBEAT, OP_HEARTBEAT_ACK, OP_HELLO, OP_IDENTIFY
from tests.fakediscord.server import FakeDiscord


async def test_discord_py_measures_its_first_heartbeat_from_its_own_send(fake_discord, bot):
    """The first heartbeat is sent at HELLO; its latency is at least the fake's round trip."""
    delay = fake_discord.gateway.heartbeat_ack_delay
    assert 0 < delay < 1  # tens of ms, as Discord's
    latency = await fake_discord.wait_until(
        lambda: math.isfinite(bot.latency) and bot.latency, what="the first ACK read"
    )
    assert latency >= delay


async def test_only_the_ack_waits_other_frames_go_on():
    async with FakeDiscord() as fake:
        fake.gateway.heartbeat_ack_delay = 3600.0  # far beyond the test: never comes
        async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
            assert json.loads((await ws.receive()).data)["op"] == OP_HELLO
            await ws.send_str(json.dumps({"op": OP_HEARTBEAT, "d": None}))
            identify = {"token": fake.token, "intents": 1, "properties": {}}
            await ws.send_str(json.dumps({"op": OP_IDENTIFY, "d": identify}))
            seen = []
            while not seen or seen[-1].get("t") != "READY":
                seen.append(json.loads((await ws.receive(timeout=60)).data))
        assert OP_HEARTBEAT_ACK not in [frame["op"] for frame in seen]
        assert fake.gateway.backlog_at_heartbeat == [0]
