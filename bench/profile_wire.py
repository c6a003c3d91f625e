"""The Python side of one token request on the gate's lean transport (issue 29), without a
socket: ``payload.token_url`` of a new token (each interaction's is new to every cache) and
``TokenWire.exchange`` of a token edit (a PATCH with a ~1.6 KiB JSON body) against a transport
that answers on the loop's next turn with what Discord answers an edit (200, a dozen headers,
the message's JSON; a callback: 204); then the bot's whole paths of
``bench/profile_requests.py`` (a token edit through ``payload.edit_followup``, a click's update
and deferred update through discord.py's ``InteractionResponse``) over the same transport. No
system call nor other process is in the figures, so two trees compare on a loaded machine:
run them alternately (``--bot-root``), a few times each.

    .venv/bin/python bench/profile_wire.py [--requests 3000] [--rounds 7] [--bot-root ../other]

Figures: this process's CPU per request (``time.process_time``), best and median of the
rounds. Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

MESSAGE = json.dumps({"id": "2", "components": [{"type": 10, "content": "x" * 1500}]}).encode()
ANSWER = (
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
    b"Date: Sun, 06 Dec 2026 07:00:00 GMT\r\nServer: Python/3.11 aiohttp/3.14.5\r\n"
    b"X-RateLimit-Limit: 5\r\nX-RateLimit-Remaining: 4\r\nX-RateLimit-Reset: 1765000000.5\r\n"
    b"X-RateLimit-Reset-After: 1.0\r\nX-RateLimit-Bucket: abcdef\r\nVia: 1.1 google\r\n\r\n"
    % len(MESSAGE)
) + MESSAGE


NO_CONTENT = b"HTTP/1.1 204 No Content\r\nDate: Sun, 06 Dec 2026 07:00:00 GMT\r\n\r\n"


class AnsweringTransport:
    """A connection's transport whose peer answers every request on the loop's next turn."""

    def __init__(self, protocol: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.protocol = protocol
        self.loop = loop

    def write(self, data: bytes) -> None:
        answer = NO_CONTENT if b"/callback" in data[:300] else ANSWER
        self.loop.call_soon(self.protocol.data_received, answer)

    def close(self) -> None:
        return None

    def get_extra_info(self, name: str) -> Any:
        return None


async def measure(requests: int, rounds: int) -> list[float]:
    import discord

    from bot.ui import token_wire
    from bot.ui.payload import token_url

    discord.http.Route.BASE = "http://127.0.0.1:9/api/v10"
    loop = asyncio.get_running_loop()
    headers: Any = getattr(token_wire, "JSON_HEADERS", None)
    if headers is None:  # a tree from before it moved there
        from bot.ui.payload import _JSON_HEADERS as headers  # type: ignore[attr-defined,no-redef]
    wire = token_wire.TokenWire()

    async def opened(origin: Any) -> Any:
        conn = token_wire._Connection()
        conn.connection_made(AnsweringTransport(conn, loop))
        return conn

    token_wire._Origin.open = opened  # type: ignore[method-assign]
    body = b"{" + b"x" * 1600 + b"}"
    tokens = iter(range(10**9))

    async def one() -> None:
        token = f"{next(tokens)}aW50ZXJhY3Rpb246MTQ0qfa-IVL_mu3xCD" * 5
        url = token_url(f"/webhooks/1/{token}/messages/@original?with_components=1")
        async with wire.request("PATCH", url, body, headers) as answer:
            assert answer.status == 200

    from bench.profile_requests import kinds

    class Unused:  # the gate's session: every request here goes on the wire
        def request(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError("not on the wire")

    work, prepare = await kinds(Unused(), "http://127.0.0.1:9/api/v10")
    paths = {
        "token_url + TokenWire.exchange of a token edit": one,
        "token edit (payload.edit_followup)": work["token edit, JSON (payload.edit_followup)"],
        "click update (type 7)": work["click update, JSON (type 7, callbacks_unread)"],
        "deferred update (type 6)": work["deferred update (type 6)"],
    }
    for send in paths.values():
        for _ in range(300):
            await send()
    spent: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(rounds):
        for name, send in paths.items():
            prepare(requests)
            start = time.process_time()
            for _ in range(requests):
                await send()
            spent[name].append((time.process_time() - start) / requests * 1e6)
    return spent


def main() -> int:
    sys.path.insert(0, str(ROOT))  # bench.profile_requests
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="per round and path")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--bot-root", default=str(ROOT), help="the tree whose bot/ is measured")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.bot_root).resolve()))
    import uvloop

    spent = uvloop.run(measure(args.requests, args.rounds))
    print(f"bot code: {args.bot_root}; no socket\n")
    print("| request | CPU µs per request, best | median |\n|---|---:|---:|")
    for name, figures in spent.items():
        print(f"| {name} | {min(figures):.2f} | {statistics.median(figures):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
