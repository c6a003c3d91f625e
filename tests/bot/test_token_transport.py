"""The lean transport of the bot's token requests (``bot/ui/token_wire.py``, issue 29) against
servers on 127.0.0.1 that answer byte by byte as the test says: TLS (the default context's
checks, SNI), keep-alive, a connection the peer closed, ``Content-Length``, chunked and
read-to-close answers, ``Connection: close``, 429's headers, errors as aiohttp raises them, and
the request's bytes as aiohttp writes them. The transport's own tests run again on uvloop's
loop (``python -m bot``'s) at the end."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import ssl
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import discord
import pytest
import trustme
import uvloop
from discord.http import MultipartParameters
from yarl import URL

from bot.ui import payload as sending
from bot.ui import token_wire
from bot.ui.http_gate import GatedSession, exempt_request
from bot.ui.token_wire import TokenWire

HANG_GUARD = 30.0  # seconds: only against a hang of the test itself
JSON_HEADERS = {"Content-Type": "application/json"}
OK = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
NO_CONTENT = b"HTTP/1.1 204 No Content\r\n\r\n"

# what the server does with one request it has read: writes these bytes (or None: closes
# without a word), and whether it closes the connection after them
Answering = Callable[[bytes], Awaitable[tuple[bytes | None, bool]]]


class RawServer:
    """An HTTP/1.1 server that reads each request whole (head and ``Content-Length`` body) and
    answers with ``answer``'s bytes; it notes every request and every connection."""

    def __init__(self, answer: Answering) -> None:
        self.answer = answer
        self.requests: list[bytes] = []
        self.connections = 0
        self.sni: list[str | None] = []
        self.server: asyncio.Server | None = None
        self.port = 0
        self.closed_idle = asyncio.Event()
        self.writers: set[asyncio.StreamWriter] = set()

    async def start(self, context: ssl.SSLContext | None = None) -> None:
        if context is not None:

            def sni(_socket: Any, name: str | None, _context: Any) -> None:
                self.sni.append(name)

            context.sni_callback = sni
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=context)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.add(writer)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                answer, close = await self.answer(request)
                if answer is not None:
                    writer.write(answer)
                    await writer.drain()
                if answer is None or close:
                    return
        finally:
            self.writers.discard(writer)
            writer.close()
            self.closed_idle.set()

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            # Since Python 3.12 ``wait_closed`` waits for every connection to end: the
            # client's idle keep-alive connections are closed here, from the server's side.
            for writer in list(self.writers):
                writer.close()
            await self.server.wait_closed()


def json_answer(document: object) -> bytes:
    """A whole HTTP/1.1 200 answer carrying ``document`` as JSON."""
    body = json.dumps(document).encode()
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
    return head % len(body) + body


def answering(*answers: bytes | None, close: bool = False) -> Answering:
    """Each request answered with the next of ``answers`` (the last one again after them)."""
    queue = list(answers)

    async def answer(_request: bytes) -> tuple[bytes | None, bool]:
        return (queue.pop(0) if len(queue) > 1 else queue[0]), close

    return answer


@pytest.fixture
async def wire() -> AsyncIterator[TokenWire]:
    made = TokenWire()
    yield made
    await made.close()


async def _serving(answer: Answering) -> RawServer:
    server = RawServer(answer)
    await server.start()
    return server


async def _send(wire: TokenWire, url: URL, method: str = "PATCH", body: bytes = b"{}") -> Any:
    async def exchange() -> Any:
        async with wire.request(method, url, body, JSON_HEADERS) as answer:
            return answer

    return await asyncio.wait_for(exchange(), HANG_GUARD)


def _url(server: RawServer, path: str = "/api/v10/webhooks/1/tok/messages/@original") -> URL:
    return URL(f"http://127.0.0.1:{server.port}{path}")


async def test_keep_alive_one_connection_serves_every_request(wire: TokenWire):
    server = await _serving(answering(OK))
    try:
        for _ in range(5):
            answer = await _send(wire, _url(server))
            assert answer.status == 200 and answer.body == b"{}"
        assert len(server.requests) == 5 and server.connections == 1
    finally:
        await server.stop()


async def test_the_kept_connections_take_the_requests_in_turn(wire: TokenWire):
    """Three requests at once open three connections; the requests after them go to the one
    idle longest each time (as aiohttp's connector), so all three stay in use and none is left
    idle to expire (the newest first kept reusing one, the other two expired and were opened
    again at the next burst)."""
    release = asyncio.Event()

    async def held_answer(_request: bytes) -> tuple[bytes | None, bool]:
        await release.wait()
        return OK, False

    server = await _serving(held_answer)
    try:
        url = _url(server)
        burst = [asyncio.ensure_future(_send(wire, url)) for _ in range(3)]

        async def all_read() -> None:
            while len(server.requests) < 3:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(all_read(), HANG_GUARD)
        release.set()
        await asyncio.gather(*burst)
        origin = wire.origin(url)
        returned = {id(conn): conn.idle_since for conn in origin.idle}
        assert len(returned) == 3
        for _ in range(3):
            await _send(wire, url)
        assert server.connections == 3
        assert all(conn.idle_since > returned[id(conn)] for conn in origin.idle)
    finally:
        await server.stop()


async def test_a_connection_the_peer_closed_while_idle_is_not_written_to(wire: TokenWire):
    """The server closes after its answer, without saying so: the connection left idle is
    found closed, so the next request goes on a new one, sent once."""
    server = await _serving(answering(OK, close=True))
    try:
        await _send(wire, _url(server))
        await asyncio.wait_for(server.closed_idle.wait(), HANG_GUARD)
        origin = wire.origin(_url(server))

        async def read_the_close() -> None:
            while origin.idle and not origin.idle[0].closed:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(read_the_close(), HANG_GUARD)  # our side reads the close
        answer = await _send(wire, _url(server))
        assert answer.status == 200
        assert len(server.requests) == 2 and server.connections == 2
    finally:
        await server.stop()


@pytest.mark.parametrize("method", ["POST", "PATCH"])
async def test_a_request_written_then_lost_is_raised_not_sent_again(wire: TokenWire, method):
    """The server reads the request and closes without answering: as aiohttp, the error is
    raised and nothing is sent again (a callback Discord took must not be answered twice; an
    edit goes up to the views, whose next edit shows the latest version)."""
    server = await _serving(answering(None))
    try:
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await _send(wire, _url(server), method)
        assert len(server.requests) == 1
    finally:
        await server.stop()


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT", "PATCH", "POST"])
async def test_an_idempotent_request_lost_on_a_reused_connection_is_sent_once_more(
    wire: TokenWire, method
):
    """The first request is answered on a kept-alive connection; the second is read on it and
    the connection closed unanswered (the peer closed it as the request went out). As aiohttp:
    a GET, DELETE or PUT goes once more on a new connection; a PATCH or POST raises."""
    server = await _serving(answering(OK, None, OK))
    try:
        assert (await _send(wire, _url(server), method)).status == 200
        if method in ("PATCH", "POST"):
            with pytest.raises(aiohttp.ServerDisconnectedError):
                await _send(wire, _url(server), method)
            assert len(server.requests) == 2 and server.connections == 1
        else:
            assert (await _send(wire, _url(server), method)).status == 200
            assert len(server.requests) == 3 and server.connections == 2
    finally:
        await server.stop()


async def test_a_request_lost_on_a_new_connection_is_not_sent_again(wire: TokenWire):
    """On a connection opened for it, a lost request is the server's failure, not a kept-alive
    race: raised, even for a GET (aiohttp retries only a reused connection)."""
    server = await _serving(answering(None))
    try:
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await _send(wire, _url(server), "GET")
        assert len(server.requests) == 1 and server.connections == 1
    finally:
        await server.stop()


async def test_chunked_and_read_to_close_answers_arrive_whole(wire: TokenWire):
    body = b'{"message": "Unknown Message", "code": 10008}'
    chunked = (
        b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
        + b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:10], body[10:]))
        + b"0\r\n\r\n"
    )
    unframed = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + body
    server = await _serving(answering(chunked, OK, unframed))
    try:
        first = await _send(wire, _url(server))
        assert (first.status, first.reason, first.body) == (404, "Not Found", body)
        assert (await _send(wire, _url(server))).status == 200  # same connection: kept
        assert server.connections == 1
        # no length and no chunks: the body ends with the connection
        server.answer = answering(unframed, close=True)
        last = await _send(wire, _url(server))
        assert (last.status, last.body) == (200, body)
        assert (await _send(wire, _url(server))).status == 200  # a new connection
        assert server.connections == 2
    finally:
        await server.stop()


async def test_connection_close_ends_the_connection_after_its_answer(wire: TokenWire):
    closing = b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"
    server = await _serving(answering(closing, NO_CONTENT))
    try:
        assert (await _send(wire, _url(server))).status == 204
        assert (await _send(wire, _url(server))).status == 204
        assert (await _send(wire, _url(server))).status == 204
        assert server.connections == 2  # closed after the first; kept after the second
    finally:
        await server.stop()


async def test_a_closed_connection_is_freed_by_reference_counting(wire: TokenWire):
    """No reference cycle outlives a connection (its parser holds its callbacks): the bot
    freezes long-lived objects (``bot/ops/collector.py``), and a cycle among them would wait
    for the thaw. With the collector off, every closed connection is gone once dropped."""
    closing = b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"
    server = await _serving(answering(closing, NO_CONTENT))
    origin = wire.origin(_url(server))
    opened: list[weakref.ref[Any]] = []
    open_one = origin.open

    async def watched() -> Any:
        conn = await open_one()
        opened.append(weakref.ref(conn))
        return conn

    origin.open = watched  # type: ignore[method-assign]
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        assert (await _send(wire, _url(server))).status == 204  # closed after its answer
        assert (await _send(wire, _url(server))).status == 204  # kept, then closed below
        await wire.close()

        async def all_lost() -> None:
            while any(ref() is not None and not ref().closed for ref in opened):
                await asyncio.sleep(0.01)

        await asyncio.wait_for(all_lost(), HANG_GUARD)
        await asyncio.sleep(0)  # the loop lets go of the transports' last callbacks
        assert len(opened) == 2
        assert [ref() for ref in opened] == [None, None]
    finally:
        if was_enabled:
            gc.enable()
        await server.stop()


async def test_a_cancelled_request_does_not_leave_its_connection_to_the_next(wire: TokenWire):
    arrived = asyncio.Event()
    never = asyncio.Event()

    async def hang(_request: bytes) -> tuple[bytes | None, bool]:
        arrived.set()
        await never.wait()
        return OK, False

    server = await _serving(hang)
    try:
        task = asyncio.ensure_future(_send(wire, _url(server)))
        await asyncio.wait_for(arrived.wait(), HANG_GUARD)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        server.answer = answering(OK)
        assert (await _send(wire, _url(server))).status == 200
        assert server.connections == 2  # the cancelled one's answer would come on the first
    finally:
        never.set()
        await server.stop()


async def test_a_refused_connection_is_aiohttp_s_connector_error(wire: TokenWire):
    server = await _serving(answering(OK))
    url = _url(server)
    await server.stop()
    with pytest.raises(aiohttp.ClientConnectorError):
        await _send(wire, url)


async def test_the_request_s_bytes_are_aiohttp_s(wire: TokenWire):
    """The same request through aiohttp's session and through the wire: the same request line,
    Host, Content-Type, Content-Length, User-Agent and body (the wire asks no compression)."""
    server = await _serving(answering(OK))
    url = URL(
        f"http://127.0.0.1:{server.port}/api/v10/webhooks/1/t.k-n/messages/5?with_components=1"
    )
    body = json.dumps({"components": [], "flags": 32768}).encode()
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            async with session.request("PATCH", url, data=body, headers=JSON_HEADERS) as answer:
                await answer.read()
        await _send(wire, url, body=body)
    finally:
        await server.stop()
    theirs, ours = (_parsed(request) for request in server.requests)
    assert ours["line"] == theirs["line"] == f"PATCH {url.raw_path_qs} HTTP/1.1"
    assert ours["body"] == theirs["body"] == body
    assert "accept-encoding" not in ours["headers"]
    theirs["headers"].pop("accept-encoding")
    assert ours["headers"] == theirs["headers"]


def _parsed(request: bytes) -> dict[str, Any]:
    head, body = request.split(b"\r\n\r\n", 1)
    line, *fields = head.decode("latin-1").split("\r\n")
    headers = {}
    for field in fields:
        name, value = field.split(":", 1)
        headers[name.strip().lower()] = value.strip()
    return {"line": line, "headers": headers, "body": body}


async def test_a_compressed_answer_nobody_asked_for_is_inflated(wire: TokenWire):
    import gzip

    body = b'{"message": "Unknown Message", "code": 10008}'
    packed = gzip.compress(body)
    answer = (
        b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
        b"Content-Length: %d\r\n\r\n" % len(packed)
    ) + packed
    server = await _serving(answering(answer))
    try:
        assert (await _send(wire, _url(server))).body == body
    finally:
        await server.stop()


# ----- TLS ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def authority() -> trustme.CA:
    return trustme.CA()


def _tls_server_context(authority: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("localhost").configure_cert(context)
    return context


async def test_tls_verifies_the_certificate_and_names_the_host(authority: trustme.CA):
    """The client's context is ``ssl.create_default_context()`` (the system's CAs, here the
    test's own added), the server's name is checked and sent in the handshake (SNI)."""
    server = RawServer(answering(OK))
    await server.start(_tls_server_context(authority))
    client = ssl.create_default_context()
    authority.configure_trust(client)
    wire = TokenWire(ssl_context=client)
    try:
        url = URL(f"https://localhost:{server.port}/api/v10/interactions/1/tok/callback")
        for _ in range(3):
            assert (await _send(wire, url, "POST")).status == 200
        assert server.sni == ["localhost"] and server.connections == 1
        host = [line for line in server.requests[0].split(b"\r\n") if line.startswith(b"Host:")]
        assert host == [b"Host: localhost:%d" % server.port]
    finally:
        await wire.close()
        await server.stop()


async def test_tls_refuses_a_certificate_it_does_not_trust(authority: trustme.CA):
    server = RawServer(answering(OK))
    await server.start(_tls_server_context(authority))
    wire = TokenWire()  # the default context: the test's authority is not among its CAs
    try:
        url = URL(f"https://localhost:{server.port}/api/v10/interactions/1/tok/callback")
        with pytest.raises(aiohttp.ClientConnectorCertificateError):
            await _send(wire, url, "POST")
        assert server.requests == []
    finally:
        await wire.close()
        await server.stop()


def test_the_default_context_is_aiohttp_s():
    context = TokenWire().ssl_context()
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


# ----- through the gate and ``payload.send`` ------------------------------------------------
async def test_a_429_s_headers_and_a_spent_bucket_are_read_off_the_wire(
    wire: TokenWire, monkeypatch: pytest.MonkeyPatch
):
    """Discord's 429 (``Via``: its own) with ``Retry-After`` and ``X-RateLimit-*``: waited out
    and sent again; then a 200 that spends the bucket holds the token's next request."""
    limited = json.dumps({"message": "limited", "retry_after": 0.01, "global": False}).encode()
    refused = (
        b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nVia: 1.1 google\r\n"
        b"Retry-After: 1\r\nX-RateLimit-Limit: 5\r\nX-RateLimit-Remaining: 0\r\n"
        b"X-RateLimit-Reset-After: 0.01\r\nX-RateLimit-Scope: user\r\n"
        b"Content-Length: %d\r\n\r\n" % len(limited)
    ) + limited
    spent = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-RateLimit-Remaining: 0\r\n"
        b"X-RateLimit-Reset-After: 0.02\r\nContent-Length: 2\r\n\r\n{}"
    )
    server = await _serving(answering(refused, spent))
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{server.port}/api/v10")
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def noted(delay: float) -> None:
        waits.append(delay)
        await real_sleep(0)

    monkeypatch.setattr(sending.asyncio, "sleep", noted)
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            gated = GatedSession(session, pacer=lambda: None, wire=wire)  # type: ignore[arg-type,return-value]
            params: Any = MultipartParameters(payload={"content": "y"}, multipart=None, files=None)
            url = sending.token_url("/webhooks/1/tok/messages/@original")
            sent = sending.send("PATCH", url, (1, "tok"), params, session=gated)
            await asyncio.wait_for(sent, HANG_GUARD)
    finally:
        await server.stop()
    assert len(server.requests) == 2
    assert waits == [0.01, 0.02]  # the 429's retry_after, then the spent bucket's reset


async def test_exempt_requests_through_a_proxy_stay_on_aiohttp(wire: TokenWire):
    class Session:
        def __init__(self) -> None:
            self.asked: list[dict[str, Any]] = []

        def request(self, method: str, url: Any, **kwargs: Any) -> Any:
            self.asked.append(kwargs)
            return object()

    session = Session()
    gated = GatedSession(session, pacer=lambda: None, wire=wire)  # type: ignore[arg-type,return-value]
    exempt_request(gated, "POST", URL("http://x/y"), data=b"{}", proxy="http://proxy:3128")
    assert session.asked and session.asked[0]["proxy"] == "http://proxy:3128"
    exempt_request(gated, "POST", URL("http://x/y"), data=b"{}", proxy=None)
    assert len(session.asked) == 1  # no proxy: the wire's


def test_the_user_agent_is_aiohttp_s():
    assert token_wire.USER_AGENT == aiohttp.http.SERVER_SOFTWARE


def test_the_transport_s_tests_pass_on_uvloop(authority: trustme.CA):
    """``python -m bot`` runs on uvloop (``bot.__main__.loop_factory``): its transports, TLS
    and sockets are libuv's, not asyncio's; the tests above that need no pytest fixture but
    the wire run again there."""
    from bot.__main__ import loop_factory

    on_a_wire = [
        test_keep_alive_one_connection_serves_every_request,
        test_the_kept_connections_take_the_requests_in_turn,
        test_a_connection_the_peer_closed_while_idle_is_not_written_to,
        test_chunked_and_read_to_close_answers_arrive_whole,
        test_connection_close_ends_the_connection_after_its_answer,
        test_a_closed_connection_is_freed_by_reference_counting,
        test_a_cancelled_request_does_not_leave_its_connection_to_the_next,
        test_a_refused_connection_is_aiohttp_s_connector_error,
        test_the_request_s_bytes_are_aiohttp_s,
        test_a_compressed_answer_nobody_asked_for_is_inflated,
    ]

    async def every() -> list[str]:
        passed = []
        for test in on_a_wire:
            wire = TokenWire()
            try:
                await test(wire)
            finally:
                await wire.close()
            passed.append(test.__name__)
        for method in ("POST", "PATCH"):
            wire = TokenWire()
            try:
                await test_a_request_written_then_lost_is_raised_not_sent_again(wire, method)
            finally:
                await wire.close()
            passed.append(method)
        await test_tls_verifies_the_certificate_and_names_the_host(authority)
        await test_tls_refuses_a_certificate_it_does_not_trust(authority)
        return [*passed, "tls"]

    factory = loop_factory()
    assert factory is not None  # uvloop is a dependency
    with asyncio.Runner(loop_factory=factory) as runner:
        assert isinstance(runner.get_loop(), uvloop.Loop)
        assert len(runner.run(every())) == len(on_a_wire) + 3


@pytest.mark.parametrize("image", [False, True])
async def test_a_token_edit_on_the_wire_is_discord_py_s_request_byte_for_byte(
    wire: TokenWire, monkeypatch: pytest.MonkeyPatch, image: bool
):
    """discord.py's own ``followup.edit_message`` (its adapter, through the gate to aiohttp) and
    the views' ``payload.edit_followup`` (through the wire) of the same message, as a server
    reads them: the same request line, headers (less ``Accept-Encoding``) and body (a multipart
    body's boundary aside)."""
    from tests.bot.test_token_wire import CLICK, MESSAGE, PNG, _card

    server = await _serving(answering(json_answer(MESSAGE)))
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{server.port}/api/v10")
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            client = discord.Client(intents=discord.Intents.none())
            state: Any = client._connection
            gated = GatedSession(session, lambda: None, wire=None)  # type: ignore[arg-type]
            state.http._HTTPClient__session = gated  # discord.py's through aiohttp first
            interaction = discord.Interaction(data=CLICK, state=state)

            def kwargs() -> dict[str, Any]:
                files = [discord.File(io.BytesIO(PNG), "t.png")] if image else []
                return {"content": None, "embeds": [], "view": _card(), "attachments": files}

            await asyncio.wait_for(
                interaction.followup.edit_message(5, **kwargs()),  # type: ignore[arg-type]
                HANG_GUARD,
            )
            gated.wire = wire
            await asyncio.wait_for(sending.edit_followup(interaction, 5, kwargs()), HANG_GUARD)
    finally:
        await server.stop()
    theirs, ours = (_parsed(request) for request in server.requests)
    boundaries = [
        r["headers"]["content-type"].partition("boundary=")[2].encode() for r in (theirs, ours)
    ]
    if image:
        assert all(boundaries)
        theirs["body"] = theirs["body"].replace(boundaries[0], b"B")
        ours["body"] = ours["body"].replace(boundaries[1], b"B")
        for request, boundary in zip((theirs, ours), boundaries, strict=True):
            kind = request["headers"]["content-type"]
            request["headers"]["content-type"] = kind.replace(boundary.decode(), "B")
            request["headers"]["content-length"] = "same length once the boundary is named alike"
    else:
        assert ours["headers"]["content-type"] == "application/json"
    assert ours["line"] == theirs["line"]
    assert ours["line"].startswith(f"PATCH /api/v10/webhooks/1/{CLICK['token']}/messages/5?")
    assert ours["body"] == theirs["body"]
    theirs["headers"].pop("accept-encoding")
    assert ours["headers"] == theirs["headers"]


async def test_discord_py_s_requests_through_the_gate_go_on_the_wire_as_aiohttp_sends_them(
    wire: TokenWire,
):
    """discord.py's own requests (bot-token routes: an edit, a message with a file, a delete,
    a read with a query; a follow-up through a webhook token) through the gate: on the wire
    when there is one, as the server reads them the same request as through aiohttp (less
    ``Accept-Encoding``: the wire asks no compression), and discord.py reads the answers alike."""
    from discord.http import Route

    server = await _serving(answering(OK))
    base = f"http://127.0.0.1:{server.port}/api/v10"

    async def each(http: Any) -> list[Any]:
        png = discord.File(io.BytesIO(b"\x89PNG" + bytes(range(256))), "t.png")
        with discord.http.handle_message_parameters(content="ñ", file=png) as params:
            return [
                await http.request(
                    Route("PATCH", "/channels/{c}/messages/{m}", c=1, m=2), json={"content": "é"}
                ),
                await http.request(
                    Route("POST", "/channels/{c}/messages", c=1),
                    files=params.files,
                    form=params.multipart,
                ),
                await http.request(Route("DELETE", "/channels/{c}/messages/{m}", c=1, m=2)),
                await http.request(
                    Route("GET", "/channels/{c}/messages", c=1), params={"limit": 5, "x": "a b"}
                ),
                await http.request(
                    Route("POST", "/webhooks/{w}/{t}", w=1, t="tok"),
                    json={"content": "hi"},
                    params={"wait": "true"},
                ),
            ]

    answers = []
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
            for carrier in (None, wire):
                http: Any = discord.http.HTTPClient(asyncio.get_running_loop())
                http.token = "secret"
                http._global_over = asyncio.Event()  # as ``static_login`` sets it
                http._global_over.set()
                gated = GatedSession(session, pacer=lambda: None, wire=carrier)  # type: ignore[arg-type,return-value]
                http._HTTPClient__session = gated
                old_base = Route.BASE
                Route.BASE = base
                try:
                    answers.append(await asyncio.wait_for(each(http), HANG_GUARD))
                finally:
                    Route.BASE = old_base
    finally:
        await wire.close()
        await server.stop()
    assert wire.sent == 5
    assert answers[0] == answers[1] == [{}] * 5
    theirs, ours = server.requests[:5], server.requests[5:]
    for their_bytes, our_bytes in zip(theirs, ours, strict=True):
        their, our = _parsed(their_bytes), _parsed(our_bytes)
        kind = their["headers"].get("content-type", "")
        if "boundary=" in kind:  # random per body: named alike
            for request in (their, our):
                own = request["headers"]["content-type"]
                boundary = own.partition("boundary=")[2]
                request["body"] = request["body"].replace(boundary.encode(), b"B")
                request["headers"]["content-type"] = own.replace(boundary, "B")
                request["headers"]["content-length"] = "alike once the boundary is"
        their["headers"].pop("accept-encoding")
        assert our == their
    assert _parsed(ours[0])["headers"]["authorization"] == "Bot secret"
    assert _parsed(ours[0])["headers"]["user-agent"].startswith("DiscordBot")
