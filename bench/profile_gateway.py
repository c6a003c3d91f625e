"""One component click's gateway event in the bot (issue 29): an INTERACTION_CREATE as the
fake Discord sends it, for a real table message of every game (its Components V2 tree as the
bot builds it), from the frame's bytes to discord.py's ``Interaction``. This process's CPU
(``time.process_time``, the best of ``--rounds`` rounds: a shared machine's noise only adds).

Per event: the JSON's bytes; what Discord's ``zlib-stream`` transport compression (discord.py
asks for it; the fake sends plain text) makes of them on one connection (each event flushed,
the stream's window shared by the events before it, every message's clicks interleaved; the
same ten messages clicked again and again: a lower bound of the bytes, a live table's message
changes between clicks) and the CPU discord.py spends inflating them
(``utils._ZlibDecompressionContext``, the mean of all); ``orjson.loads``; and ``discord.Interaction``
built from it (what ``ConnectionState.parse_interaction_create`` does before dispatching).

    .venv/bin/python bench/profile_gateway.py [--events 2000] [--rounds 5]

Figures only.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ZLIB_SUFFIX = b"\x00\x00\xff\xff"


def table_messages() -> list[tuple[str, dict[str, Any]]]:
    """(game, a message payload as Discord holds it): every game's public table and a seat's
    hand, after a few random moves, as the bot builds them (``bench/profile_payloads.py``)."""

    from bot.i18n import translator
    from bot.registry import load_games
    from bot.ui.messages import private_payload, public_payload
    from bot.ui.presenter import presenter_for
    from tests.bot.presenter_kit import StubService, table_for

    tr = translator("es")
    service = StubService()
    found: list[tuple[str, dict[str, Any]]] = []
    for key, game in sorted(load_games().items()):
        presenter_cls = type(presenter_for(game))
        seats = [f"s{i}" for i in range(2 if key == "triad" else max(game.min_players, 3))]
        state = game.new(seats, "gateway", None)
        rng = random.Random(1)
        for _ in range(8):
            movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
            if not movers or game.outcome(state) is not None:
                break
            seat = rng.choice(movers)
            state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        table = table_for(game, state, 1)
        presenter = presenter_cls(game)
        for kind, payload in (
            ("public", public_payload(table, presenter, service, tr)),
            ("hand", private_payload(table, presenter, seats[0], tr)),
        ):
            if payload.view is None:
                continue
            found.append((f"{key} {kind}", _message(payload.view.to_components())))
    return found


def _message(components: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "1300000000000000002",
        "channel_id": "1300000000000000003",
        "type": 0,
        "content": "",
        "flags": 32768,
        "author": {
            "id": "1300000000000000001",
            "username": "Mesa",
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "bot": True,
        },
        "components": components,
        "attachments": [
            {
                "id": "1300000000000000009",
                "filename": "table.png",
                "size": 8000,
                "url": "https://cdn.discordapp.com/attachments/3/9/table.png",
                "proxy_url": "https://media.discordapp.net/attachments/3/9/table.png",
                "width": 550,
                "height": 300,
                "content_type": "image/png",
            }
        ],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": "2026-12-05T00:00:00.000000+00:00",
        "edited_timestamp": "2026-12-05T00:01:00.000000+00:00",
    }


def _first_button(components: list[dict[str, Any]]) -> str:
    for component in components:
        if component.get("type") == 2 and component.get("custom_id"):
            return str(component["custom_id"])
        inner = component.get("components") or []
        if inner:
            found = _first_button(inner)
            if found:
                return found
    return "mesa:x"


def click(message: dict[str, Any], n: int) -> dict[str, Any]:
    """The INTERACTION_CREATE of the ``n``-th click on ``message``, as the fake Discord sends it
    (``tests/fakediscord/interactions.py``: a guild channel's member)."""
    user = {
        "id": str(1300000000000001000 + n % 7),
        "username": f"player{n % 7}",
        "discriminator": "0",
        "global_name": f"player{n % 7}",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
    }
    return {
        "op": 0,
        "s": n,
        "t": "INTERACTION_CREATE",
        "d": {
            "id": str(1300000000000100000 + n * 4194304),
            "application_id": "1300000000000000001",
            "type": 3,
            "data": {"custom_id": _first_button(message["components"]), "component_type": 2},
            "token": f"fake-interaction-{n:032x}",
            "version": 1,
            "channel_id": message["channel_id"],
            "channel": {
                "id": message["channel_id"],
                "type": 0,
                "guild_id": "5",
                "name": "mesa",
                "position": 0,
                "permission_overwrites": [],
                "topic": None,
                "nsfw": False,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "parent_id": None,
                "flags": 0,
            },
            "locale": "es-ES",
            "entitlements": [],
            "authorizing_integration_owners": {"0": "5"},
            "context": 0,
            "attachment_size_limit": 10485760,
            "guild_id": "5",
            "guild": {"id": "5", "locale": "es-ES", "features": []},
            "guild_locale": "es-ES",
            "member": {
                "user": user,
                "roles": [],
                "nick": None,
                "avatar": None,
                "joined_at": "2026-01-01T00:00:00+00:00",
                "premium_since": None,
                "deaf": False,
                "mute": False,
                "flags": 0,
                "pending": False,
                "communication_disabled_until": None,
                "permissions": "2248473465835073",
            },
            "app_permissions": "2248473465835073",
            "message": message,
        },
    }


def best_us(work: Callable[[], None], count: int, rounds: int) -> float:
    work()
    spent = []
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(count):
            work()
        spent.append((time.process_time() - start) / count * 1e6)
    return min(spent)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    import discord
    import orjson
    from discord.utils import _ZlibDecompressionContext  # type: ignore[attr-defined]

    client = discord.Client(intents=discord.Intents.none())
    state: Any = client._connection
    state.user = discord.ClientUser(state=state, data=_message([])["author"])  # logged in
    guild = {"id": "5", "name": "Mesa", "features": [], "roles": [], "emojis": []}
    state._add_guild(discord.Guild(data=guild, state=state))  # the bot's guilds are cached
    print(
        "| message clicked | JSON bytes | zlib-stream bytes | inflate µs | orjson.loads µs "
        "| Interaction µs |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    sums = [0.0] * 5
    messages = table_messages()
    # Discord's side: one compressor per connection, each event flushed whole; the events of
    # every message interleaved, as a gateway carries many tables' clicks
    frames = {
        name: [orjson.dumps(click(message, n * len(messages) + i)) for n in range(args.events)]
        for i, (name, message) in enumerate(messages)
    }
    deflate = zlib.compressobj()
    packed: dict[str, list[bytes]] = {name: [] for name in frames}
    for n in range(args.events):
        for name, made in frames.items():
            packed[name].append(deflate.compress(made[n]) + deflate.flush(zlib.Z_SYNC_FLUSH))
    in_order = [chunk for n in range(args.events) for chunk in (p[n] for p in packed.values())]

    def inflate() -> None:
        context = _ZlibDecompressionContext()
        for chunk in in_order:
            context.decompress(chunk)

    inflate_us = best_us(inflate, 1, args.rounds) / len(in_order)
    for name, _message_payload in messages:
        frame = frames[name][-1]
        loads_us = best_us(lambda frame=frame: orjson.loads(frame), args.events, args.rounds)
        data = orjson.loads(frame)["d"]

        def build(data: dict[str, Any] = data) -> None:
            discord.Interaction(data=data, state=state)

        build_us = best_us(build, 500, args.rounds)
        warm = packed[name][len(packed[name]) // 2 :]  # the window holds earlier events by then
        figures = (
            len(frame),
            sum(map(len, warm)) / len(warm),
            inflate_us,
            loads_us,
            build_us,
        )
        for i, figure in enumerate(figures):
            sums[i] += figure
        print(
            f"| {name} | {figures[0]:,} | {figures[1]:,.0f} | {figures[2]:.1f} | {figures[3]:.1f}"
            f" | {figures[4]:.1f} |"
        )
    mean = [total / len(messages) for total in sums]
    print(
        f"| **mean** | {mean[0]:,.0f} | {mean[1]:,.0f} | {mean[2]:.1f} | {mean[3]:.1f}"
        f" | {mean[4]:.1f} |"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
