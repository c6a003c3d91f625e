"""Which HTTP/1.1 client should send the bot's token requests (issue 29)? ONE request as the
bot's token edits send it (a PATCH with a ~1.6 KiB JSON body, answered 200 with the message's
JSON), through each candidate, against ``bench/profile_requests.py``'s aiohttp server in
another process: this process's CPU per request (best and median of interleaved rounds, so a
loaded machine's noise falls on all alike). Callgrind instructions of the same rows:
``bench/count_request_instructions.py "lean" "curl_cffi" "aiohttp"``.

Candidates:
- aiohttp as discord.py's session sends (its timer, the answer read): what the bot had;
- aiohttp through ``http_gate.exempt_request`` under the gate (no timer; the bot's today);
- a lean keep-alive transport: prebuilt request bytes written by an ``asyncio.Protocol`` on
  the loop's own transport, the answer parsed by httptools (llhttp) — a bare prototype here,
  the floor of the idea (and, if ``bot/ui/token_wire.py`` exists, the product's version);
- curl_cffi's ``AsyncSession`` (libcurl's multi interface on the loop).

    .venv/bin/python bench/profile_transports.py [--requests 1000] [--rounds 7]

Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.profile_requests import MESSAGE, _factory, _load, served  # noqa: E402
from bench.profile_session_options import cpu_per_request, print_spent  # noqa: E402

Send = Callable[[], Awaitable[None]]
PATH = "/api/v10/webhooks/1/token/messages/@original?with_components=1"


class _Answer(asyncio.Protocol):
    """The prototype's connection: one request at a time, its answer parsed by httptools."""

    def __init__(self) -> None:
        import httptools

        self.parser = httptools.HttpResponseParser(self)
        self.transport: asyncio.Transport | None = None
        self.waiter: asyncio.Future[int] | None = None
        self.body: list[bytes] = []
        self.headers: list[tuple[bytes, bytes]] = []

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.parser.feed_data(data)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name, value))

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(self.parser.get_status_code())

    def connection_lost(self, exc: Exception | None) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(ConnectionResetError("closed"))


class LeanPrototype:
    """Prebuilt request bytes, one write, a pool of idle connections."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.idle: list[_Answer] = []

    async def request(self, head: bytes, body: bytes) -> tuple[int, bytes]:
        loop = asyncio.get_running_loop()
        if self.idle:
            conn = self.idle.pop()
        else:
            _, conn = await loop.create_connection(_Answer, "127.0.0.1", self.port)
        conn.body, conn.headers = [], []
        conn.waiter = waiter = loop.create_future()
        assert conn.transport is not None
        conn.transport.write(head + body)
        status = await waiter
        self.idle.append(conn)
        return status, b"".join(conn.body)


async def variants(base: str) -> tuple[dict[str, Send], list[Any]]:
    """Each candidate's ``send`` of the same request, and what to close after."""
    import aiohttp
    from yarl import URL

    url = URL(f"{base}/webhooks/1/token/messages/@original?with_components=1", encoded=True)
    body = json.dumps({"components": MESSAGE["components"], "flags": 32768}).encode()
    json_headers = {"Content-Type": "application/json"}
    session = aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0), cookie_jar=aiohttp.DummyCookieJar()
    )
    closers: list[Any] = [session]

    async def aiohttp_plain() -> None:
        async with session.request("PATCH", url, data=body, headers=json_headers) as response:
            await response.read()

    work: dict[str, Send] = {"aiohttp as discord.py sends (timer, answer read)": aiohttp_plain}
    try:
        from bot.ui.http_gate import GatedSession, exempt_request
        from bot.ui.token_wire import JSON_HEADERS

        gated = GatedSession(session, pacer=lambda: None)  # type: ignore[arg-type,return-value]

        async def aiohttp_exempt() -> None:
            async with exempt_request(
                gated, "PATCH", url, data=body, headers=JSON_HEADERS
            ) as answer:
                if not answer.content.is_eof():
                    await answer.read()

        work["aiohttp under the gate (the bot's token requests today)"] = aiohttp_exempt
    except ImportError:
        pass

    port = int(base.split(":")[2].split("/")[0])
    lean = LeanPrototype(port)
    head = (
        f"PATCH {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Content-Type: application/json\r\nAccept: */*\r\nAccept-Encoding: gzip, deflate\r\n"
        f"User-Agent: Mesa\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()

    async def lean_send() -> None:
        status, _ = await lean.request(head, body)
        assert status == 200, status

    work["lean prototype: httptools + asyncio.Protocol"] = lean_send

    try:
        from bot.ui import token_wire

        product = token_wire.TokenWire()
        closers.append(product)

        async def product_send() -> None:
            async with product.request("PATCH", url, body, json_headers) as answer:
                assert answer.status == 200, answer.status

        work["bot.ui.token_wire (the product's lean transport)"] = product_send
    except ImportError:
        pass

    try:
        from curl_cffi.requests import AsyncSession
    except ImportError:
        print("curl_cffi is not installed: its row is left out")
    else:
        curl = AsyncSession()
        closers.append(curl)
        plain_url = str(url)

        async def curl_send() -> None:
            answer = await curl.request("PATCH", plain_url, data=body, headers=json_headers)
            assert answer.status_code == 200

        work["curl_cffi AsyncSession"] = curl_send
    return work, closers


async def measure(args: argparse.Namespace, port: int) -> None:
    base = f"http://127.0.0.1:{port}/api/v10"
    print(f"loop: {args.loop}; load average {_load()}\n")
    work, closers = await variants(base)
    print_spent("transport", await cpu_per_request(work, args.rounds, args.requests))
    for closer in closers:
        result = closer.close()
        if asyncio.iscoroutine(result):
            await result
    print(f"\nload average {_load()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000, help="per round and transport")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--loop", default="uvloop", choices=("uvloop", "asyncio"))
    args = parser.parse_args()
    with served() as port, asyncio.Runner(loop_factory=_factory(args.loop)) as runner:
        runner.run(measure(args, port))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
