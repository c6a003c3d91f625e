"""The bot's own token requests go without aiohttp's per-request timer (issue 29): under the
gate (``http_gate.exempt_request``) they are guarded together by its ``Overdue``, which still
ends a request Discord never answers with the ``TimeoutError`` aiohttp's total timeout raised,
and leaves every other request, and anyone else's cancellation, as they were. Each test runs
on both transports of the gate: aiohttp's session and the lean one (``bot/ui/token_wire.py``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import MultipartParameters
from yarl import URL

from bot.ui import payload as sending
from bot.ui.http_gate import GatedSession, Overdue, exempt_request
from bot.ui.token_wire import TokenWire

HANG_GUARD = 30.0  # seconds: only against a hang of the test itself, never reached when it passes


class Server:
    """A Discord on 127.0.0.1 whose ``/hang`` routes answer only once ``release`` is set."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.arrived = asyncio.Event()
        self.port = 0

    async def answer(self, request: web.Request) -> web.Response:
        await request.read()
        return web.Response(status=204)

    async def hang(self, request: web.Request) -> web.Response:
        await request.read()
        self.arrived.set()
        await self.release.wait()
        return web.Response(status=204)

    def url(self, path: str) -> URL:
        return URL(f"http://127.0.0.1:{self.port}{path}")


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    served = Server()
    app = web.Application()
    app.router.add_post("/ok", served.answer)
    app.router.add_post("/hang", served.hang)
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", served.hang)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    served.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield served
    finally:
        served.release.set()
        await runner.cleanup()


@pytest.fixture(params=["aiohttp", "wire"])
def transport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@contextlib.asynccontextmanager
async def _gated(transport: str) -> AsyncIterator[GatedSession]:
    """The gate around a session of its own, its token requests on ``transport``."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
        wire = TokenWire() if transport == "wire" else None
        gated = GatedSession(session, pacer=lambda: None, wire=wire)  # type: ignore[arg-type,return-value]
        try:
            yield gated
        finally:
            if wire is not None:
                await wire.close()


@pytest.fixture
async def gate(transport: str) -> AsyncIterator[GatedSession]:
    async with _gated(transport) as gated:
        gated.overdue = Overdue(limit=0.2, every=0.05)  # short, so the test needs no 300 s
        yield gated


async def _post(gate: GatedSession, url: URL) -> int:
    async with exempt_request(gate, "POST", url, data=b"{}") as response:
        await response.read()
        return int(response.status)


async def _raised(work: Awaitable[Any]) -> BaseException | None:
    """What ``work`` raised (None if nothing): a hang guard's own timeout is not mistaken for
    the one under test, it fails the test from outside."""
    try:
        await work
    except Exception as exc:
        return exc
    return None


async def test_a_request_never_answered_ends_as_a_timeout(server: Server, gate: GatedSession):
    raised = await asyncio.wait_for(_raised(_post(gate, server.url("/hang"))), HANG_GUARD)
    assert isinstance(raised, TimeoutError)
    assert gate.overdue.in_flight() == 0


async def test_the_timeout_leaves_its_task_uncancelled(server: Server, gate: GatedSession):
    async def after_a_timeout() -> str:
        try:
            await _post(gate, server.url("/hang"))
        except TimeoutError:
            pass
        await asyncio.sleep(0)  # a task left cancelling would be cancelled here
        current = asyncio.current_task()
        assert current is not None
        return f"cancelling {current.cancelling()}"

    outcome = await asyncio.wait_for(after_a_timeout(), HANG_GUARD)
    assert outcome == "cancelling 0"


async def test_answered_requests_are_left_alone(server: Server, transport: str):
    async with _gated(transport) as gated:
        # checked often while they are in flight, but none is old enough (a loaded machine
        # answers well within the limit)
        gated.overdue = Overdue(limit=2 * HANG_GUARD, every=0.01)
        statuses = await asyncio.wait_for(
            asyncio.gather(*(_post(gated, server.url("/ok")) for _ in range(20))), HANG_GUARD
        )
        assert statuses == [204] * 20
        assert gated.overdue.in_flight() == 0
        # checks that come after the answers cancel nothing
        await asyncio.sleep(gated.overdue.every * 3)
        current = asyncio.current_task()
        assert current is not None and current.cancelling() == 0


async def test_anyone_elses_cancellation_stays_a_cancellation(server: Server, transport: str):
    async with _gated(transport) as gated:
        task = asyncio.ensure_future(_post(gated, server.url("/hang")))
        await asyncio.wait_for(server.arrived.wait(), HANG_GUARD)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert gated.overdue.in_flight() == 0


async def test_a_click_answer_never_answered_raises_the_timeout_not_an_http_error(
    server: Server, gate: GatedSession, monkeypatch: pytest.MonkeyPatch
):
    """``payload.send``, the bot's token requests' one way out: what its callers see of a
    Discord that never answers is the timeout, as with aiohttp's own timer."""
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{server.port}/api/v10")
    params: Any = MultipartParameters(payload={"type": 6}, multipart=None, files=None)
    url = sending.token_url("/interactions/1/tok/callback")
    sent = sending.send("POST", url, (1, "tok"), params, session=gate, callback=True)
    raised = await asyncio.wait_for(_raised(sent), HANG_GUARD)
    assert isinstance(raised, TimeoutError) and not isinstance(raised, discord.HTTPException)
