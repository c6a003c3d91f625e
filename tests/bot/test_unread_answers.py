"""A token request's answer nobody reads (``bot/ui/payload.py``'s ``send``, issue 29) is left
unread once it has arrived whole, and read to its end while it is still arriving: either way
the connection goes back to aiohttp's pool and serves the next request (a connection closed
per request would cost a new one each time). Each test runs on both transports of the gate:
aiohttp's session and the lean one (``bot/ui/token_wire.py``), which must answer alike."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import MultipartParameters

from bot.ui import payload as sending
from bot.ui.http_gate import GatedSession
from bot.ui.token_wire import TokenWire

JSON = "application/json"
HANG_GUARD = 30.0  # seconds: only against a hang of the test itself
BODY = b'{"id": "2", "content": "' + b"x" * 4000 + b'"}'


class Server:
    """Discord's edit of a message answering with the message: at once, or in two halves with
    a pause between them (``halves``), noting the client port of every request."""

    def __init__(self) -> None:
        self.ports: list[int] = []
        self.halves = False
        self.half_sent = asyncio.Event()
        self.rest = asyncio.Event()

    async def edit(self, request: web.Request) -> web.StreamResponse:
        await request.read()
        peer = request.transport.get_extra_info("peername") if request.transport else None
        self.ports.append(peer[1] if peer else -1)
        if not self.halves:
            return web.Response(body=BODY, content_type="application/json")
        answer = web.StreamResponse(status=200, headers={"Content-Type": "application/json"})
        answer.content_length = len(BODY)
        await answer.prepare(request)
        await answer.write(BODY[:100])
        self.half_sent.set()
        await self.rest.wait()
        await answer.write(BODY[100:])
        await answer.write_eof()
        return answer


@pytest.fixture
async def server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Server]:
    served = Server()
    app = web.Application()
    app.router.add_patch("/api/v10/webhooks/{app}/{token}/messages/{message}", served.edit)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    try:
        yield served
    finally:
        served.rest.set()
        await runner.cleanup()


async def _edit(session: Any) -> None:
    params: Any = MultipartParameters(payload={"content": "y"}, multipart=None, files=None)
    url = sending.token_url("/webhooks/1/tok/messages/@original")
    await sending.send("PATCH", url, (1, "tok"), params, session=session)


@pytest.fixture(params=["aiohttp", "wire"])
def transport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _gated(session: aiohttp.ClientSession, transport: str) -> GatedSession:
    """The gate around ``session``, its token requests on ``transport``."""
    wire = TokenWire() if transport == "wire" else None
    return GatedSession(session, pacer=lambda: None, wire=wire)  # type: ignore[arg-type,return-value]


@pytest.fixture
async def gate(transport: str) -> AsyncIterator[GatedSession]:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
        gated = _gated(session, transport)
        yield gated
        if gated.wire is not None:
            await gated.wire.close()


async def test_whole_answers_leave_their_connection_to_the_next_request(
    server: Server, gate: GatedSession
):
    for _ in range(5):
        await asyncio.wait_for(_edit(gate), HANG_GUARD)
    assert len(server.ports) == 5
    assert len(set(server.ports)) == 1, server.ports  # one connection served them all


async def test_an_answer_still_arriving_is_read_to_its_end(server: Server, gate: GatedSession):
    server.halves = True
    edit = asyncio.ensure_future(_edit(gate))
    await asyncio.wait_for(server.half_sent.wait(), HANG_GUARD)
    assert not edit.done()
    server.rest.set()
    await asyncio.wait_for(edit, HANG_GUARD)
    server.halves = False
    await asyncio.wait_for(_edit(gate), HANG_GUARD)
    assert len(server.ports) == 2
    assert server.ports[0] == server.ports[1]  # read to its end: its connection was kept


class Refusing:
    """Discord answering a token edit with ``answers`` in turn (status, body, headers), then 200."""

    def __init__(self, answers: list[tuple[int, dict[str, Any], dict[str, str]]]) -> None:
        self.answers = answers
        self.seen = 0

    async def edit(self, request: web.Request) -> web.Response:
        await request.read()
        self.seen += 1
        if not self.answers:
            return web.Response(body=BODY, content_type="application/json")
        status, body, headers = self.answers.pop(0)
        # Discord's content type, exactly (discord.py parses only that as JSON)
        answer = json.dumps(body).encode()
        return web.Response(status=status, body=answer, headers=headers, content_type=JSON)


async def _refused(
    answers: list[tuple[int, dict[str, Any], dict[str, str]]],
    monkeypatch: pytest.MonkeyPatch,
    transport: str,
) -> tuple[BaseException | None, int]:
    """What a token edit raised (None if nothing) against ``answers``, and the requests sent."""
    refusing = Refusing(answers)
    app = web.Application()
    app.router.add_patch("/api/v10/webhooks/{app}/{token}/messages/{message}", refusing.edit)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    raised: BaseException | None = None
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            gated = _gated(session, transport)
            try:
                await asyncio.wait_for(_edit(gated), HANG_GUARD)
            except discord.HTTPException as exc:
                raised = exc
            finally:
                if gated.wire is not None:
                    await gated.wire.close()
    finally:
        await runner.cleanup()
    return raised, refusing.seen


LIMITED = (429, {"message": "limited", "retry_after": 0.01, "global": False}, {"Via": "1.1 google"})


async def test_discords_429_and_5xx_are_waited_out_and_sent_again(
    monkeypatch: pytest.MonkeyPatch, transport: str
):
    answers = [LIMITED, (502, {"message": "bad gateway"}, {})]
    raised, seen = await _refused(answers, monkeypatch, transport)
    assert raised is None
    assert seen == 3


@pytest.mark.parametrize(
    ("answer", "error"),
    [
        ((404, {"message": "Unknown Message", "code": 10008}, {}), discord.NotFound),
        ((403, {"message": "Missing Access", "code": 50001}, {}), discord.Forbidden),
        ((401, {"message": "Invalid Webhook Token", "code": 50027}, {}), discord.HTTPException),
        ((429, {"message": "banned", "retry_after": 1}, {}), discord.HTTPException),  # no Via
    ],
)
async def test_a_refusal_is_raised_as_discord_py_raises_it(
    answer: tuple[int, dict[str, Any], dict[str, str]],
    error: type[discord.HTTPException],
    monkeypatch: pytest.MonkeyPatch,
    transport: str,
):
    raised, seen = await _refused([answer], monkeypatch, transport)
    assert type(raised) is error and seen == 1
    assert isinstance(raised, discord.HTTPException)
    assert raised.status == answer[0]
    assert raised.code == answer[1].get("code", 0)
