"""The bot's own token requests (a click's answer, the views' token edits) leave through its lean
HTTP transport (``bot/ui/token_wire.py``, issue 29) against the fake Discord, over kept-alive
connections, and what Discord refuses on them is handled as through aiohttp: a 429 (``Via``:
Discord's own, with its ``Retry-After`` and ``X-RateLimit-*`` headers) and 5xx answers are
waited out and sent again, and the table is shown current after them."""

from __future__ import annotations

from bot.ui.http_gate import GatedSession
from bot.ui.payload import token_url
from tests.e2e.amapatolli_driver import start_game

SEED = "e2e-big-0223"  # 7-card hands
EDIT = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


async def test_token_requests_ride_the_wire_and_refusals_on_them_are_waited_out(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED, hand_size=7)
    for _ in range(3):  # everyone clicked once: their views ride their own tokens
        await table.move()
    await mesa.bot.listener.drain()

    gate = mesa.bot.http._HTTPClient__session  # type: ignore[attr-defined]
    assert isinstance(gate, GatedSession) and gate.wire is not None
    origin = gate.wire.origin(token_url("/interactions/1/t/callback"))
    assert origin.idle  # the token requests' connections, kept alive for the next ones

    refused_edits = fake.fail(EDIT, method="PATCH", count=2, status=503)
    limited_answer = fake.rate_limit(CALLBACK, method="POST", count=1, retry_after=0.05)
    await table.move()  # the click answered after its 429, the table edited after two 503s
    await mesa.bot.listener.drain()
    assert limited_answer.hits == 1 and refused_edits.hits == 2
    await table.wait_version(table.oracle.version)
    await table.move()  # and the next move as usual
    await mesa.bot.listener.drain()
    assert gate.wire.opened < gate.wire.sent  # connections served more than one request each
