"""Where the bot's CPU goes per REST request (issue 29 item 3): a table message's edit through
an interaction token, the way the bot sends it (discord.py's ``AsyncWebhookAdapter``, the
session wrapped by ``bot/ui/http_gate.py`` or not), against a small aiohttp server in another
process (its CPU is not counted) answering with a message's JSON, as Discord does. Also a
click's update (an interaction callback of type 7, through discord.py's ``edit_message``) with
Discord's answer asked for and parsed (discord.py's way) and not (``bot.ui.payload.
callbacks_unread``), and the views' own edit (``bot.ui.payload.edit_followup``, its answer
unread), each with a JSON body and with a PNG.

    .venv/bin/python bench/profile_requests.py [--requests 600] [--top 15]
    .venv/bin/python bench/profile_requests.py --loop asyncio,uvloop --top 0   # both loops

Per kind (a JSON body; a body with a PNG, multipart): this process's CPU per request
(``time.process_time``, the best of three rounds) and the socket writes per request (each a
system call on the event loop's thread), then the top functions of the image edit through the
gate (cProfile, own time). Also says whether discord.py serialises with orjson. ``--loop``:
the event loop(s) measured, asyncio's (the default) and uvloop's (``python -m bot``'s since
session 15, ``bot.__main__.loop_factory``; its socket writes are not counted). Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import pstats
import socket
import subprocess
import sys
import time
from asyncio import selector_events
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MESSAGE = {  # what Discord answers an edit with (about the size of a table message's)
    "id": "2",
    "channel_id": "3",
    "type": 0,
    "content": "",
    "flags": 32768,
    "author": {"id": "1", "username": "Mesa", "discriminator": "0", "bot": True},
    "components": [{"type": 17, "components": [{"type": 10, "content": "x" * 1500}]}],
    "attachments": [
        {
            "id": "9",
            "filename": "table.png",
            "size": 9000,
            "url": "https://c/x",
            "proxy_url": "https://m/x",
        }
    ],
    "embeds": [],
    "timestamp": "2026-12-05T00:00:00+00:00",
}


def serve(port: int) -> None:
    from aiohttp import web

    body = json.dumps(MESSAGE).encode()

    async def edited(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(body=body, content_type="application/json")

    async def answered(request: web.Request) -> web.Response:
        await request.read()
        if request.query.get("with_response") != "1":
            return web.Response(status=204)  # Discord's answer when none is asked for
        answer = b'{"interaction":{"id":"5","type":3,"response_message_id":"2"},'
        answer += b'"resource":{"type":7,"message":' + body + b"}}"
        return web.Response(body=answer, content_type="application/json")

    app = web.Application()
    app.router.add_patch("/api/v10/webhooks/{app}/{token}/messages/{message}", edited)
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", answered)
    web.run_app(app, host="127.0.0.1", port=port, print=None)


class Writes:
    """Counts the socket writes of this process's event loop."""

    def __init__(self) -> None:
        self.count = 0
        transport: Any = getattr(selector_events, "_SelectorSocketTransport")  # noqa: B009
        for name in ("write", "writelines"):
            real = getattr(transport, name)
            setattr(transport, name, self._counting(real))

    def _counting(self, real: Any) -> Any:
        def counted(transport: Any, data: Any) -> Any:
            self.count += 1
            return real(transport, data)

        return counted


async def measure(args: argparse.Namespace, base: str, loop: str = "asyncio") -> None:
    import aiohttp
    import discord
    from discord.http import handle_message_parameters
    from discord.utils import HAS_ORJSON
    from discord.webhook.async_ import async_context

    from bot.ui import v2
    from bot.ui.http_gate import GatedSession

    discord.http.Route.BASE = base
    writes = Writes()
    png = bytes(range(256)) * 36  # ~9 KiB, a table image's size
    card = v2.card_view(v2.Card(title="Mesa", colour=v2.LOBBY, text="y" * 900, image="table.png"))
    adapter = async_context.get()

    async def edit(session: Any, image: bool) -> None:
        files = [discord.File(io.BytesIO(png), filename="table.png")] if image else []
        with handle_message_parameters(view=card, files=files) as params:  # type: ignore[arg-type]
            await adapter.edit_webhook_message(
                1,
                "token",
                2,
                session=session,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
            )

    if loop == args.loop.split(",")[0]:
        print(f"discord.py serialises with orjson: {HAS_ORJSON}")
        print(
            "| request | event loop | through the gate | CPU ms per request"
            " | socket writes per request |"
        )
        print("|---|---|---|---:|---:|")
    async with aiohttp.ClientSession() as raw:
        gated = GatedSession(raw, pacer=lambda: None)  # type: ignore[arg-type,return-value]
        await _callbacks(args, loop, gated, card, png)
        for image in (False, True):
            for session, name in ((raw, "no"), (gated, "yes")):
                for _ in range(30):
                    await edit(session, image)
                rounds = []
                for _ in range(3):
                    writes.count = 0
                    start = time.process_time()
                    for _ in range(args.requests):
                        await edit(session, image)
                    rounds.append((time.process_time() - start) / args.requests * 1000)
                kind = "edit with a PNG (multipart)" if image else "edit, JSON body"
                per = f"{writes.count / args.requests:.1f}" if loop == "asyncio" else "—"
                print(f"| {kind} | {loop} | {name} | {min(rounds):.3f} | {per} |")
        if args.top:
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(args.requests):
                await edit(gated, True)
            profile.disable()
            print(
                f"\n{loop}: the image edit through the gate, top {args.top} functions by own time:"
            )
            pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)


async def _callbacks(
    args: argparse.Namespace, loop: str, gated: Any, card: Any, png: bytes
) -> None:
    """An update of the clicked message (type 7) through discord.py's ``edit_message``, with
    Discord's answer asked for and parsed (discord.py's way) and not (``callbacks_unread``)."""
    import discord
    from discord.webhook.async_ import AsyncWebhookAdapter, async_context

    from bot.ui.payload import callbacks_unread

    client = discord.Client(intents=discord.Intents.none())
    state: Any = client._connection
    state.http._HTTPClient__session = gated  # as ``http_gate.install`` puts it
    data: Any = {
        "id": "5",
        "application_id": "1",
        "type": 3,
        "token": "token",
        "version": 1,
        "attachment_size_limit": 10_485_760,
        "channel_id": "3",
        "data": {"custom_id": "x", "component_type": 2},
        "message": MESSAGE,
        "user": {"id": "7", "username": "p", "discriminator": "0"},
    }
    for unread in (False, True):
        adapter = AsyncWebhookAdapter()
        if unread:
            callbacks_unread(adapter)
        async_context.set(adapter)

        async def update(image: bool) -> None:
            interaction: Any = discord.Interaction(data=data, state=state)
            files = [discord.File(io.BytesIO(png), filename="table.png")] if image else []
            await interaction.response.edit_message(view=card, attachments=files)

        for image in (False, True):
            for _ in range(30):
                await update(image)
            rounds = []
            for _ in range(3):
                start = time.process_time()
                for _ in range(args.requests):
                    await update(image)
                rounds.append((time.process_time() - start) / args.requests * 1000)
            kind = "callback update" + (" with a PNG" if image else ", JSON body")
            answer = "not asked (callbacks_unread)" if unread else "asked and parsed"
            print(f"| {kind}, answer {answer} | {loop} | yes | {min(rounds):.3f} | — |")
    await _lean_edits(args, loop, state, data, card, png)


async def _lean_edits(
    args: argparse.Namespace, loop: str, state: Any, data: Any, card: Any, png: bytes
) -> None:
    """The views' edit through a token (``bot.ui.payload.edit_followup``: its own request,
    the answer not parsed), to set beside the adapter's edit above."""
    import discord

    from bot.ui import payload as sending

    interaction: Any = discord.Interaction(data=data, state=state)

    async def edit(image: bool) -> None:
        files = [discord.File(io.BytesIO(png), filename="table.png")] if image else []
        await sending.edit_followup(interaction, 2, {"view": card, "attachments": files})

    for image in (False, True):
        for _ in range(30):
            await edit(image)
        rounds = []
        for _ in range(3):
            start = time.process_time()
            for _ in range(args.requests):
                await edit(image)
            rounds.append((time.process_time() - start) / args.requests * 1000)
        kind = "edit with a PNG" if image else "edit, JSON body"
        print(f"| {kind}: payload.edit_followup | {loop} | yes | {min(rounds):.3f} | — |")


def _factory(loop: str) -> Any:
    if loop == "asyncio":
        return None
    from bot.__main__ import loop_factory

    factory = loop_factory()
    if factory is None:
        raise SystemExit(f"{loop} is not installed")
    return factory


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=600)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument(
        "--loop", default="asyncio", help="event loops measured, comma-separated (asyncio,uvloop)"
    )
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)])
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        for loop in args.loop.split(","):
            with asyncio.Runner(loop_factory=_factory(loop)) as runner:
                runner.run(measure(args, f"http://127.0.0.1:{port}/api/v10", loop))
    finally:
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
