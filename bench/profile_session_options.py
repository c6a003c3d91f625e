"""aiohttp's options on its public API, each alone, on ONE request as the bot's token edits send
it (issue 29): this process's CPU per request against a small aiohttp server in another process
(``bench/profile_requests.py``'s, answering as Discord does), rounds interleaved so a loaded
machine's noise falls on every variant alike.

    .venv/bin/python bench/profile_session_options.py [--requests 1000] [--rounds 7]

Figures only: the variant a row names differs from the first row ("as the bot sends it") by that
one option.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.profile_requests import MESSAGE, _cpu, _factory, _load, served  # noqa: E402

Send = Callable[[], Awaitable[None]]


async def variants(base: str) -> tuple[dict[str, Send], list[Any]]:
    import aiohttp
    from yarl import URL

    url = URL(f"{base}/webhooks/1/token/messages/@original?with_components=1", encoded=True)
    body = json.dumps({"components": MESSAGE["components"], "flags": 32768}).encode()
    json_headers = {"Content-Type": "application/json"}

    def session(**options: Any) -> aiohttp.ClientSession:
        # discord.py's session (``HTTPClient.static_login``), plus ``options``
        connector = aiohttp.TCPConnector(limit=0)
        return aiohttp.ClientSession(
            connector=connector, cookie_jar=aiohttp.DummyCookieJar(), **options
        )

    plain = session()
    no_timeout = session(timeout=aiohttp.ClientTimeout(total=None))
    auto_skipped = session(skip_auto_headers=("Accept", "Accept-Encoding", "User-Agent"))
    no_decompress = session(auto_decompress=False)
    sessions = [plain, no_timeout, auto_skipped, no_decompress]

    def sender(chosen: aiohttp.ClientSession, read: bool = True, **extra: Any) -> Send:
        async def send() -> None:
            async with chosen.request("PATCH", url, data=body, **extra) as response:
                if read:
                    await response.read()

        return send

    full_headers = {
        **json_headers,
        "Accept": "*/*",
        "Accept-Encoding": "gzip, deflate",
        "User-Agent": "Mesa",
    }
    exempt = _exempt_senders(plain, url, body)
    work = {
        "as the bot sends it (discord.py's session)": sender(plain, headers=json_headers),
        **exempt,
        "session timeout=ClientTimeout(total=None)": sender(no_timeout, headers=json_headers),
        "per request timeout=ClientTimeout(total=None)": sender(
            plain, headers=json_headers, timeout=aiohttp.ClientTimeout(total=None)
        ),
        "session skip_auto_headers (Accept, Accept-Encoding, User-Agent)": sender(
            auto_skipped, headers=json_headers
        ),
        "auto headers given by the caller": sender(plain, headers=full_headers),
        "session auto_decompress=False": sender(no_decompress, headers=json_headers),
        "answer not read (released at the block's end)": sender(
            plain, read=False, headers=json_headers
        ),
    }
    return work, sessions


def _exempt_senders(session: Any, url: Any, body: bytes) -> dict[str, Send]:
    """``http_gate.exempt_request`` as ``bot/ui/payload.py`` sends through it: under the gate
    (its ``Overdue``, no aiohttp timer: the bot's way) and on the bare session (aiohttp's own
    timer per request: before)."""
    try:
        from bot.ui.http_gate import GatedSession, exempt_request
        from bot.ui.token_wire import JSON_HEADERS as headers
    except ImportError:  # another tree's bot
        return {}
    gated = GatedSession(session, pacer=lambda: None)  # type: ignore[arg-type,return-value]

    def sender(chosen: Any) -> Send:
        async def send() -> None:
            async with exempt_request(chosen, "PATCH", url, data=body, headers=headers) as answer:
                await answer.read()

        return send

    return {
        "exempt_request under the gate (the bot's)": sender(gated),
        "exempt_request on the bare session (aiohttp's timer)": sender(session),
    }


async def cpu_per_request(
    work: dict[str, Send], rounds: int, requests: int
) -> dict[str, list[float]]:
    """Each sender's CPU µs per request, one figure per round (after 100 warm-up requests each;
    the senders take turns round by round, so a change of the machine's speed hits them alike)."""
    for send in work.values():
        for _ in range(100):
            await send()
    spent: dict[str, list[float]] = {name: [] for name in work}
    for _ in range(rounds):
        for name, send in work.items():
            cpu, _switches = _cpu()
            for _ in range(requests):
                await send()
            spent[name].append((_cpu()[0] - cpu) / requests * 1e6)
    return spent


def print_spent(first_column: str, spent: dict[str, list[float]]) -> None:
    print(f"| {first_column} | CPU µs per request, best | median |")
    print("|---|---:|---:|")
    for name, values in spent.items():
        print(f"| {name} | {min(values):.1f} | {statistics.median(values):.1f} |")


async def measure(args: argparse.Namespace, port: int) -> None:
    base = f"http://127.0.0.1:{port}/api/v10"
    print(f"loop: {args.loop}; load average {_load()}\n")
    work, sessions = await variants(base)
    print_spent("variant", await cpu_per_request(work, args.rounds, args.requests))
    for chosen in sessions:
        await chosen.close()
    print(f"\nload average {_load()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000, help="per round and variant")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--loop", default="uvloop", choices=("uvloop", "asyncio"))
    args = parser.parse_args()
    with served() as port, asyncio.Runner(loop_factory=_factory(args.loop)) as runner:
        runner.run(measure(args, port))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
