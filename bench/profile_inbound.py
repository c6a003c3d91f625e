"""From a gateway INTERACTION_CREATE to the click's handler (issue 29): the bot's own parse and
dispatch of each kind of interaction, in this process, counted and timed.

The bot (``MesaBot``, its cogs loaded: every dynamic item and slash command registered, the
click routing of ``setup_hook``) is handed each event's JSON as its gateway hands it to the
connection state's parser: a click on a table's public message (a button, a select: every
game's real Components V2 message, ``bench/profile_gateway.py``), on an ephemeral "Ver mi
mano" hand, on a DM hand, in a table's thread, and a slash command. The item's ``callback``
is replaced by one that reads what a handler reads first (the message's id and flags), so
only the way in is measured; a command's task is made (and cancelled).

Per kind: Python function calls per event (``sys.setprofile``: a count, the same on a loaded
machine) and CPU µs per event (``time.process_time``, the best of ``--rounds``: a shared
machine's noise only adds). ``--bot-root`` measures another tree with the same events.

    .venv/bin/python bench/profile_inbound.py [--events 300] [--rounds 5] [--bot-root DIR]

Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import inspect
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GUILD_ID = "5"


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=300, help="events per round and kind")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bot-root", type=Path, default=ROOT, help="the tree measured")
    return parser.parse_args()


def _first(components: list[dict[str, Any]], kind: int) -> dict[str, Any] | None:
    for component in components:
        if component.get("type") == kind and component.get("custom_id"):
            return component
        accessory = component.get("accessory")
        for inner in (component.get("components") or [], [accessory] if accessory else []):
            found = _first(inner, kind)
            if found is not None:
                return found
    return None


def kinds() -> dict[str, list[dict[str, Any]]]:
    """kind -> the events (``d`` of each INTERACTION_CREATE), one per game where it has one."""
    from profile_gateway import click, table_messages

    found: dict[str, list[dict[str, Any]]] = {}
    for n, (name, message) in enumerate(table_messages() + _movers_hands()):
        public = name.endswith("public")
        button = _first(message["components"], 2)
        select = _first(message["components"], 3)
        for kind, component in (("button", button), ("select", select)):
            if component is None:
                continue
            event = click(message, n)["d"]
            event["data"] = {"custom_id": component["custom_id"], "component_type": kind_of(kind)}
            if kind == "select":
                event["data"]["values"] = [component["options"][0]["value"]]
            if public:
                found.setdefault(f"table {kind}", []).append(event)
                found.setdefault(f"thread {kind}", []).append(_in_thread(event))
            else:
                found.setdefault(f"hand {kind} (ephemeral)", []).append(_ephemeral(event))
                found.setdefault(f"DM hand {kind}", []).append(_in_dm(event))
    found["slash command"] = [_command(n) for n in range(5)]
    return found


def _movers_hands() -> list[tuple[str, dict[str, Any]]]:
    """(game, the hand of the seat to act, as a message payload) after a few random moves:
    the buttons and menus of a turn (``profile_gateway.table_messages`` shows the first
    seat's, often waiting)."""
    import random

    from profile_gateway import _message

    from bot.i18n import translator
    from bot.registry import load_games
    from bot.ui.messages import private_payload
    from bot.ui.presenter import presenter_for
    from tests.bot.presenter_kit import table_for

    tr = translator("es")
    found = []
    for key, game in sorted(load_games().items()):
        seats = [f"s{i}" for i in range(2 if key == "triad" else max(game.min_players, 3))]
        state = game.new(seats, "gateway", None)
        rng = random.Random(2)
        for _ in range(6):
            movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
            if not movers or game.outcome(state) is not None:
                break
            seat = rng.choice(movers)
            state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
        if not movers:
            continue
        presenter = type(presenter_for(game))(game)
        payload = private_payload(table_for(game, state, 1), presenter, movers[0], tr)
        if payload.view is not None:
            found.append((f"{key} mover's hand", _message(payload.view.to_components())))
    return found


def kind_of(kind: str) -> int:
    return 2 if kind == "button" else 3


def _ephemeral(event: dict[str, Any]) -> dict[str, Any]:
    event = copy.deepcopy(event)
    event["message"]["flags"] = 32768 | 64
    event["message"]["interaction_metadata"] = {
        "id": "1300000000000000077",
        "type": 3,
        "user": event["member"]["user"],
        "authorizing_integration_owners": {"0": GUILD_ID},
    }
    return event


def _in_thread(event: dict[str, Any]) -> dict[str, Any]:
    event = copy.deepcopy(event)
    parent = event["channel"]["id"]
    event["channel_id"] = event["message"]["channel_id"] = "1300000000000000055"
    event["channel"] = {
        "id": "1300000000000000055",
        "type": 11,
        "guild_id": GUILD_ID,
        "parent_id": parent,
        "name": "mesa #1",
        "owner_id": "1300000000000000001",
        "flags": 0,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 3,
        "member_count": 1,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": "2026-12-05T00:00:00.000000+00:00",
            "locked": False,
        },
    }
    return event


def _in_dm(event: dict[str, Any]) -> dict[str, Any]:
    event = copy.deepcopy(event)
    user = event["member"]["user"]
    for key in ("guild_id", "guild", "guild_locale", "member"):
        event.pop(key)
    event["user"] = user
    event["context"] = 1
    event["authorizing_integration_owners"] = {"0": "1300000000000000099"}
    dm_id = str(int(user["id"]) + 66_000)  # each player's own DM with the bot
    event["channel_id"] = event["message"]["channel_id"] = dm_id
    event["channel"] = {
        "id": dm_id,
        "type": 1,
        "last_message_id": None,
        "flags": 0,
        "recipients": [user],
    }
    return event


def _command(n: int) -> dict[str, Any]:
    from profile_gateway import click

    event = click({"channel_id": "1300000000000000003", "components": []}, n)["d"]
    del event["message"]
    event["type"] = 2
    event["data"] = {"id": "1300000000000000088", "name": "tables", "type": 1}
    return event


def _bot(tmp: Path) -> Any:
    from bot.client import MesaBot
    from bot.settings import Settings

    return MesaBot(Settings(_env_file=None, discord_token="x", database_path=tmp / "b.db"))


async def _wired(tmp: Path) -> tuple[Any, Callable[[dict[str, Any]], None]]:
    """The bot with its cogs and click routing, and its INTERACTION_CREATE parser."""
    import discord

    from bot.cogs import EXTENSIONS
    from bot.ui import items

    bot = _bot(tmp)
    await bot._async_setup_hook()  # its loop (discord.py's, before ``setup_hook``)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    state = bot._connection
    author = {"id": "1300000000000000001", "username": "Mesa", "discriminator": "0"}
    state.user = discord.ClientUser(state=state, data={**author, "avatar": None, "bot": True})
    # the guild as its GUILD_CREATE caches it: its channels and active threads
    sample = kinds()
    guild = {
        "id": GUILD_ID,
        "name": "Mesa",
        "features": [],
        "roles": [],
        "emojis": [],
        "channels": [sample["table button"][0]["channel"]],
        "threads": [sample["thread button"][0]["channel"]],
    }
    state._add_guild(discord.Guild(data=guild, state=state))
    wants = inspect.signature(items.route_by_component).parameters
    if len(wants) > 1:
        items.route_by_component(bot, bot._unrouted_click)
    else:
        items.route_by_component(bot)

    read: list[tuple[int, bool]] = []

    async def reached(self: Any, interaction: Any) -> None:
        message = interaction.message
        if message is not None:
            read.append((message.id, message.flags.ephemeral))  # what a handler reads first
            read.clear()

    items.TableItem.callback = reached  # type: ignore[method-assign]
    return bot, state.parsers["INTERACTION_CREATE"]


def _calls(work: Callable[[], None]) -> int:
    counted = [0]

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            counted[0] += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return counted[0]


async def run(args: argparse.Namespace) -> None:
    import orjson

    events = kinds()
    with tempfile.TemporaryDirectory() as tmp:
        bot, parse = await _wired(Path(tmp))
        print(f"tree {args.bot_root}")
        print("| kind | events | Python calls per event | CPU µs per event |")
        print("|---|---:|---:|---:|")
        for kind, made in events.items():
            frames = [orjson.dumps(event) for event in made]

            def one_each(frames: list[bytes] = frames) -> None:
                for frame in frames:
                    parse(orjson.loads(frame))  # the gateway hands the parser its own dict

            one_each()
            await _settle()
            calls = _calls(one_each) / len(frames)
            await _settle()
            best = float("inf")
            for _ in range(args.rounds):
                start = time.process_time()
                for _ in range(max(1, args.events // len(frames))):
                    one_each()
                spent = time.process_time() - start
                best = min(best, spent / (max(1, args.events // len(frames)) * len(frames)))
                await _settle()
            print(f"| {kind} | {len(frames)} | {calls:.0f} | {best * 1e6:.1f} |")
        await bot.close()


async def _settle() -> None:
    """The commands' tasks cancelled (their handlers are not measured), the clicks' tasks (a
    handler started at once leaves one: ``items.start_now``) run to their end."""
    for task in asyncio.all_tasks():
        if task.get_name() == "CommandTree-invoker":
            task.cancel()
    for _ in range(3):
        await asyncio.sleep(0)


def main() -> None:
    args = _parse()
    sys.path.insert(0, str(args.bot_root.resolve()))
    import bot  # noqa: F401  (the measured tree's, before profile_gateway puts this one first)

    sys.path.insert(1, str(ROOT / "bench"))
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
