"""Where the bot's CPU goes per REST request (issue 29): ONE request of each kind the bot sends
on its hot path, the way it sends it, measured two ways.

1. The bot's side alone: our code and discord.py's around the request (building the body, the
   bucket lock, the gate, the timings, the errors), the HTTP session replaced by a stub that
   answers at once (no aiohttp, no socket): the part of a request this code base decides.
2. Against a small aiohttp server in another process (its CPU is not counted) answering as
   Discord does (an edit with the message's JSON, a callback with 204): the whole request,
   the transport and the socket included (the gate's lean transport, ``bot/ui/token_wire.py``,
   in a tree that has it; aiohttp's session otherwise), beside aiohttp's own floor (a bare
   ``session.request``).

The kinds: a table message's edit through an interaction token (``bot.ui.payload.
edit_followup``, the views' way), JSON and with a PNG (multipart); a click's update (type 7)
and deferred update (type 6) through discord.py's ``InteractionResponse`` with
``callbacks_unread``; a table's public edit through the bot token (``bot.ui.payload.
edit_message``: discord.py's ``HTTPClient.request``, its route's bucket, the gate and its pacer),
JSON and with a PNG: what a DM-played table's public message costs once its token aged out; and
discord.py's own edit of a webhook message (``AsyncWebhookAdapter``, what
``edit_original_response`` sends, its answer parsed) for comparison.

    .venv/bin/python bench/profile_requests.py [--requests 1000] [--rounds 7] [--top 0]
    .venv/bin/python bench/profile_requests.py --bot-root ../main   # another tree, same bench

Figures: this process's CPU per request (``getrusage``: user + system), the best and the
median of ``--rounds`` interleaved rounds (the kinds take turns, so a loaded machine's noise
falls on all alike); for the server, also the involuntary context switches per request (the
server woken by the request preempting the bot: what a sampling profiler sees as time "in"
the socket write). ``--top N``: cProfile's top functions of the token edit against the server
(``--top-kind``: of the kind whose name starts so instead).
``--loop``: uvloop (``python -m bot``'s loop, the default) or asyncio. Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import json
import pstats
import resource
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

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
# A click as the gateway delivers it (the interaction's id is a snowflake of "now").
INTERACTION: dict[str, Any] = {
    "id": "5",
    "application_id": "1",
    "type": 3,
    "token": "aW50ZXJhY3Rpb246MTQ0qfa-IVL_mu3xCD" * 6,  # about a real token's length
    "version": 1,
    "attachment_size_limit": 10_485_760,
    "channel_id": "3",
    "data": {"custom_id": "x", "component_type": 2},
    "message": MESSAGE,
    "user": {"id": "7", "username": "p", "discriminator": "0"},
}
PNG = bytes(range(256)) * 36  # ~9 KiB, a table image's size


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
    app.router.add_patch("/api/v10/channels/{channel}/messages/{message}", edited)
    web.run_app(app, host="127.0.0.1", port=port, print=None)


class _StubResponse:
    """An answer that is there at once: a stub session's (the bot's side alone)."""

    def __init__(self, status: int, body: bytes) -> None:
        from multidict import CIMultiDict, CIMultiDictProxy

        self.status = status
        self._body = body
        self.headers = CIMultiDictProxy(CIMultiDict({"Content-Type": "application/json"}))
        self.content = self  # its body has arrived whole (``is_eof``)

    def is_eof(self) -> bool:
        return True

    async def read(self) -> bytes:
        return self._body

    async def text(self, encoding: str = "utf-8") -> str:
        return self._body.decode(encoding)

    async def json(self, **_: Any) -> Any:
        return json.loads(self._body)

    def release(self) -> None:
        return None


class _StubRequest:
    def __init__(self, response: _StubResponse) -> None:
        self._response = response

    async def __aenter__(self) -> _StubResponse:
        return self._response

    async def __aexit__(self, *exc: object) -> None:
        return None

    def __await__(self) -> Any:
        return self.__aenter__().__await__()


class StubSession:
    """``aiohttp.ClientSession.request`` answered at once: an edit with the message's JSON, a
    callback with 204 (none asked) or its JSON answer."""

    def __init__(self) -> None:
        body = json.dumps(MESSAGE).encode()
        answer = b'{"interaction":{"id":"5","type":3},"resource":{"type":7,"message":'
        self._edited = _StubResponse(200, body)
        self._answered = _StubResponse(200, answer + body + b"}}")
        self._no_content = _StubResponse(204, b"")

    def request(self, method: str, url: Any, **kwargs: Any) -> _StubRequest:
        if "/callback" not in str(url):
            return _StubRequest(self._edited)
        asked = kwargs.get("params") or {}
        wanted = asked.get("with_response") or "with_response=1" in str(url)
        return _StubRequest(self._answered if wanted else self._no_content)


Kind = Callable[[], Awaitable[None]]
# Made ready before a timed round of ``n`` requests, outside the timing (the clicks answered).
Prepare = Callable[[int], None]


async def kinds(session: Any, base: str) -> tuple[dict[str, Kind], Prepare]:
    """Each kind of request, sent through ``session`` (the bot's: its gate around it) the way
    the bot sends it; and what makes ``n`` requests of each ready (the clicks a callback
    answers, each answered once: built as the gateway would, before the timing)."""
    import discord
    from discord.http import handle_message_parameters
    from discord.webhook.async_ import async_context

    from bot.ui import payload as sending
    from bot.ui import v2
    from bot.ui.http_gate import GatedSession
    from bot.ui.pacer import Priority, RequestPacer
    from bot.ui.pacer import priority as pace_at

    discord.http.Route.BASE = base
    gated = GatedSession(session, pacer=lambda: None)  # type: ignore[arg-type,return-value]
    if not isinstance(session, StubSession):
        try:  # the token requests' own transport, in a tree that has one (as ``install`` sets)
            from bot.ui.token_wire import TokenWire

            gated.wire = TokenWire()
        except ImportError:
            pass
    client = discord.Client(intents=discord.Intents.none())
    state: Any = client._connection
    state.http._HTTPClient__session = gated  # as ``http_gate.install`` puts it
    sending.callbacks_unread()  # as ``bot/client.py`` does
    card = v2.card_view(v2.Card(title="Mesa", colour=v2.LOBBY, text="y" * 900, image="table.png"))
    token = INTERACTION["token"]
    edited = discord.Interaction(data=INTERACTION, state=state)
    adapter = async_context.get()

    def png() -> list[discord.File]:
        return [discord.File(io.BytesIO(PNG), filename="table.png")]

    async def token_edit() -> None:
        kwargs = {"content": None, "embeds": [], "view": card, "attachments": []}
        await sending.edit_followup(edited, 2, kwargs, ref="@original")

    async def token_edit_png() -> None:
        kwargs = {"content": None, "embeds": [], "view": card, "attachments": png()}
        await sending.edit_followup(edited, 2, kwargs, ref="@original")

    clicks: list[Any] = []

    def prepare(n: int) -> None:
        clicks[:] = [discord.Interaction(data=INTERACTION, state=state) for _ in range(n)]

    def click() -> Any:
        if not clicks:
            prepare(256)  # warming up
        return clicks.pop()

    async def update() -> None:
        await click().response.edit_message(view=card, attachments=[])

    async def update_png() -> None:
        await click().response.edit_message(view=card, attachments=png())

    async def deferred() -> None:
        await click().response.defer()

    async def message() -> None:
        await click().response.send_message(view=card, ephemeral=True)

    async def message_png() -> None:
        await click().response.send_message(view=card, ephemeral=True, files=png())

    async def discord_py_edit() -> None:
        with handle_message_parameters(view=card) as params:  # type: ignore[arg-type]
            await adapter.edit_webhook_message(
                1, token, "@original", session=gated, payload=params.payload
            )

    work = {
        "token edit, JSON (payload.edit_followup)": token_edit,
        "token edit with a PNG (multipart)": token_edit_png,
        "click update, JSON (type 7, callbacks_unread)": update,
        "click update with a PNG": update_png,
        "deferred update (type 6)": deferred,
        "click answer, a message (type 4, its answer read)": message,
        "click answer, a message with a PNG (type 4)": message_png,
        "discord.py's webhook edit (its answer's JSON read)": discord_py_edit,
    }

    async def discord_py_original() -> None:
        # what ``bot/ui/ephemeral.py`` and ``messages.answer_with`` send: the edited message
        # parsed into an ``InteractionMessage`` nobody reads
        kwargs: Any = {"content": None, "embeds": [], "view": card, "attachments": []}
        await edited.edit_original_response(**kwargs)

    work["discord.py's edit_original_response (a Message parsed)"] = discord_py_original

    http: Any = state.http
    http.token = "bench"  # a bot-token route: through the gate's pacer and out
    http._global_over = asyncio.Event()  # as ``static_login`` sets them
    http._global_over.set()
    # the pacer's bookkeeping of every bot-token request (its window, the turn, the landing),
    # with room for any rate: nothing waits
    pacer = RequestPacer(1_000_000)
    gated.pacer = lambda: pacer

    async def bot_token_edit() -> None:
        with handle_message_parameters(view=card) as params:  # type: ignore[arg-type]
            await http.edit_message(3, 2, params=params)

    work["bot-token edit (discord.py's HTTPClient through the gate)"] = bot_token_edit
    channel = client.get_partial_messageable(3)

    async def table_edit(files: list[discord.File]) -> None:
        # a table's public edit by the bot token (``bot/ui/public_view.py``): its turn taken
        # ahead (``ViewKit._drain_slot``), then ``payload.edit_message`` uses it at the gate
        await pacer.acquire(Priority.PUBLIC)
        kwargs = {"content": None, "embeds": [], "view": card, "attachments": files}
        with pace_at(Priority.PUBLIC):
            await sending.edit_message(channel.get_partial_message(2), kwargs)

    async def bot_table_edit() -> None:
        await table_edit([])

    async def bot_table_edit_png() -> None:
        await table_edit(png())

    work["bot-token table edit, JSON (payload.edit_message, paced)"] = bot_table_edit
    work["bot-token table edit with a PNG (multipart)"] = bot_table_edit_png
    return work, prepare


class SocketWrites:
    """aiohttp's socket writes (``StreamWriter._write``/``_writelines``: the transport's write,
    a system call on the loop's thread), timed by the wall clock and by the thread's CPU clock:
    a write that wakes the server on this machine's two cores is often preempted inside, which
    a sampling profiler counts as time in the write (py-spy: a runnable thread holding the GIL)
    although the CPU is the server's."""

    def __init__(self) -> None:
        from aiohttp.http_writer import StreamWriter

        self.calls = 0
        self.wall = 0.0
        self.cpu = 0.0
        for name in ("_write", "_writelines"):
            setattr(StreamWriter, name, self._timed(getattr(StreamWriter, name)))

    def _timed(self, write: Any) -> Any:
        def timed(writer: Any, data: Any) -> Any:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return write(writer, data)
            finally:
                self.cpu += time.thread_time() - cpu
                self.wall += time.perf_counter() - wall
                self.calls += 1

        return timed

    def reset(self) -> None:
        self.calls, self.wall, self.cpu = 0, 0.0, 0.0


def _cpu() -> tuple[float, int]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime, usage.ru_nivcsw


async def interleaved(
    work: dict[str, Kind], prepare: Prepare, requests: int, rounds: int
) -> dict[str, Any]:
    """µs of CPU per request of each kind, rounds taking turns: (best, median, preemptions per
    request)."""
    for send in work.values():  # warm: connections opened, caches filled
        for _ in range(50):
            await send()
    spent: dict[str, list[float]] = {name: [] for name in work}
    preempted: dict[str, list[float]] = {name: [] for name in work}
    for _ in range(rounds):
        for name, send in work.items():
            prepare(requests)
            cpu, switches = _cpu()
            for _ in range(requests):
                await send()
            cpu_after, switches_after = _cpu()
            spent[name].append((cpu_after - cpu) / requests * 1e6)
            preempted[name].append((switches_after - switches) / requests)
    return {
        name: (min(v), statistics.median(v), statistics.median(preempted[name]))
        for name, v in spent.items()
    }


async def measure(args: argparse.Namespace, port: int) -> None:
    import aiohttp
    from yarl import URL

    base = f"http://127.0.0.1:{port}/api/v10"
    print(f"bot code: {args.bot_root}; loop: {args.loop}; load average {_load()}")
    print("\n1. the bot's side alone (a stub session: no aiohttp, no socket)\n")
    print("| request | CPU µs per request, best | median |")
    print("|---|---:|---:|")
    work, prepare = await kinds(StubSession(), base)
    alone = await interleaved(work, prepare, args.requests * 3, args.rounds)
    for name, (best, median, _) in alone.items():
        print(f"| {name} | {best:.1f} | {median:.1f} |")

    connector = aiohttp.TCPConnector(limit=0)  # discord.py's session, as ``HTTPClient`` makes it
    async with aiohttp.ClientSession(
        connector=connector, cookie_jar=aiohttp.DummyCookieJar()
    ) as session:
        work, prepare = await kinds(session, base)
        url = URL(f"{base}/webhooks/1/token/messages/@original?with_components=1", encoded=True)
        body = json.dumps({"components": MESSAGE["components"], "flags": 32768}).encode()

        async def floor() -> None:
            headers = {"Content-Type": "application/json"}
            async with session.request("PATCH", url, data=body, headers=headers) as response:
                await response.read()

        work = {"aiohttp alone: session.request, JSON (the floor)": floor, **work}
        print("\n2. against a server in another process (aiohttp and the socket included)\n")
        print(
            "| request | CPU µs per request, best | median"
            " | involuntary context switches per request |"
        )
        print("|---|---:|---:|---:|")
        writes = SocketWrites()
        full = await interleaved(work, prepare, args.requests, args.rounds)
        for name, (best, median, switches) in full.items():
            print(f"| {name} | {best:.1f} | {median:.1f} | {switches:.2f} |")
        if writes.calls:
            print(
                f"\nsocket writes (aiohttp's, every kind): {writes.calls}, each"
                f" {writes.wall / writes.calls * 1e6:.1f} µs by the wall clock,"
                f" {writes.cpu / writes.calls * 1e6:.1f} µs of this thread's CPU"
            )
        if args.top:
            edit = next(send for name, send in work.items() if name.startswith(args.top_kind))
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(args.requests):
                await edit()
            profile.disable()
            print(f"\n{args.top_kind} against the server, top {args.top} functions by own time:")
            pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)
    print(f"load average {_load()}")


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


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
    parser.add_argument("--requests", type=int, default=1000, help="per round and kind")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--top", type=int, default=0)
    parser.add_argument("--top-kind", default="token edit, JSON", help="the kind --top profiles")
    parser.add_argument("--loop", default="uvloop", choices=("uvloop", "asyncio"))
    parser.add_argument("--bot-root", default=str(ROOT), help="the tree whose bot/ is measured")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    sys.path.insert(0, str(Path(args.bot_root).resolve()))
    with served() as port, asyncio.Runner(loop_factory=_factory(args.loop)) as runner:
        runner.run(measure(args, port))
    return 0


@contextlib.contextmanager
def served() -> Iterator[int]:
    """This script's server (``--serve``) in a process of its own, listening on the port
    yielded, until the block ends (the other request benches measure against it too)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve", str(port)])
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    raise SystemExit(main())
