"""A message with an image leaves the bot as one multipart body (issue 29): the gate around
discord.py's session (``bot/ui/http_gate.py``) hands aiohttp the bytes of discord.py's
``FormData``, which a server reads back as the same fields, under the same content type."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord
from aiohttp import web
from discord.http import handle_message_parameters

from bot.ui import v2
from bot.ui.http_gate import GatedSession, in_one_piece

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40


def discord_form() -> aiohttp.FormData:
    """What discord.py sends for an edit with an image (``HTTPClient.request``, and
    ``AsyncWebhookAdapter.request`` for interaction tokens, build it alike)."""
    file = discord.File(io.BytesIO(PNG), filename="table.png", description="the table")
    params = handle_message_parameters(view=v2.note_view("hi"), files=[file])  # open until sent
    form = aiohttp.FormData(quote_fields=False)
    for part in params.multipart:
        form.add_field(**part)
    return form


class Recording:
    """The session under the gate, noting what each request's body was."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self.session = session
        self.bodies: list[Any] = []

    def request(self, method: str, url: Any, **kwargs: Any) -> Any:
        self.bodies.append(kwargs.get("data"))
        return self.session.request(method, url, **kwargs)


async def test_a_form_goes_as_one_body_that_reads_back_the_same():
    seen: list[dict[str, Any]] = []

    async def handler(request: web.Request) -> web.Response:
        if request.content_type != "multipart/form-data":
            seen.append({"raw": await request.read()})
            return web.json_response({"id": "1"})
        form = await request.post()
        upload = form["files[0]"]
        assert isinstance(upload, web.FileField)
        seen.append(
            {
                "type": request.content_type,
                "payload_json": form["payload_json"],
                "file": (upload.filename, upload.content_type, upload.file.read()),
            }
        )
        return web.json_response({"id": "1"})

    app = web.Application()
    app.router.add_patch("/api/v10/webhooks/1/tok/messages/2", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        async with aiohttp.ClientSession() as session:
            inner = Recording(session)
            gate = GatedSession(inner, pacer=lambda: None)  # type: ignore[arg-type,return-value]
            url = f"http://127.0.0.1:{port}/api/v10/webhooks/1/tok/messages/2"
            for body in (discord_form(), b'{"content": "x"}'):
                headers = {"User-Agent": "mesa"}
                async with gate.request("PATCH", url, data=body, headers=headers) as response:
                    assert response.status == 200
                    await response.read()
                if isinstance(body, bytes):
                    break
                # and without the gate: aiohttp streaming the form part by part
                async with session.request("PATCH", url, data=discord_form()) as response:
                    assert response.status == 200
    finally:
        await runner.cleanup()
    assert isinstance(inner.bodies[0], bytes)  # the form, in one piece
    assert inner.bodies[1] == b'{"content": "x"}'  # anything else as it was
    assert seen[0] == seen[1]  # read back as aiohttp's own streaming of the form
    assert seen[2] == {"raw": b'{"content": "x"}'}
    assert seen[0]["type"] == "multipart/form-data"
    assert seen[0]["file"] == ("table.png", "application/octet-stream", PNG)
    assert '"components"' in str(seen[0]["payload_json"])


async def test_only_a_form_is_rewritten():
    kwargs = {"data": "{}", "headers": {"Authorization": "Bot x"}}
    assert await in_one_piece(kwargs) is kwargs
    form = await in_one_piece({"data": discord_form(), "headers": {"Authorization": "Bot x"}})
    assert form["headers"]["Authorization"] == "Bot x"
    assert form["headers"]["Content-Type"].startswith("multipart/form-data; boundary=")
    assert PNG in form["data"]
