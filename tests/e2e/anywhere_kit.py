"""What the tests of interaction-only tables share (issue 30.1, ``bot/ui/anywhere.py``): ``/play``
registered for user installs, a group DM or a server without the bot with its players, and
the checks every such game ends with (no bot-token call to that channel, no DM, the views
current)."""

from __future__ import annotations

import re
from typing import Any

from discord import app_commands

from tests.e2e.driver_kit import open_and_start, view_version
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import FakeUser
from tests.message_text import read_card

VERSION = re.compile(r"(\d+)")


async def play_everywhere(bot: Any) -> None:
    """``/play`` offered to user installs, in every context (the tests' stand-in for the
    registration the ``anyscope`` work does on every command), synced again."""
    group = bot.tree.get_command("play")
    group.guild_only = False
    group.allowed_installs = app_commands.AppInstallationType(guild=True, user=True)
    group.allowed_contexts = app_commands.AppCommandContext(
        guild=True, dm_channel=True, private_channel=True
    )
    await bot.tree.sync()


def group_dm_of(fake: FakeDiscord, players: list[FakeUser], *others: FakeUser):
    """A group DM of ``players`` (and ``others``); the app installed by the first player
    only. Everyone's DMs with the bot are closed: the bot shares no server with them."""
    for person in (*players, *others):
        person.dms_open = False
    fake.installs.install_for(players[0])
    return fake.installs.group_dm(*players, *others, name="amigos")


def server_without_bot_of(fake: FakeDiscord, players: list[FakeUser]):
    """A channel of a server that never added the bot, the app installed by the first
    player."""
    for person in players:
        person.dms_open = False
    guild = fake.installs.add_guild_without_bot("Sin bot", members=tuple(players))
    fake.installs.install_for(players[0])
    return guild.channels[0]


GROUP_DM = "group DM"
SERVER_WITHOUT_BOT = "server without the bot"


async def place_without_the_bot(
    fake: FakeDiscord, bot: Any, players: list[FakeUser], *others: FakeUser, kind: str = GROUP_DM
):
    """``players``' channel where the bot may not post (``kind``: a group DM, with ``others``
    in it too, or a server without the bot), ``/play`` offered there."""
    await play_everywhere(bot)
    if kind == GROUP_DM:
        return group_dm_of(fake, players, *others)
    assert kind == SERVER_WITHOUT_BOT and not others, kind
    return server_without_bot_of(fake, players)


async def open_there(
    fake: FakeDiscord, game: str, players: list[FakeUser], channel: Any, **options: Any
) -> tuple[int, Any]:
    """``/play <game>`` by the first player where the bot may not post, the others seated,
    started: the table's id and its message (the command's public response)."""
    return await open_and_start(fake, game, players, channel=channel, by_response=True, **options)


async def started_there(table: Any, lobby: Any, version: int = 0) -> None:
    """The table shows ``version`` on the lobby's message: one message, lobby then table."""
    await table.wait_version(version)
    assert table.public().id == lobby.id


def assert_interaction_only(fake: FakeDiscord, channel: Any, players: list[FakeUser]) -> None:
    """Nothing of the table went through the bot token: no call about its channel, no DM
    opened or sent to any of its players, and Discord saw no violation."""
    assert fake.installs.bot_requests_to(channel) == []
    dm_calls = [
        r
        for r in fake.requests
        if r.kind == "bot" and (r.path == "/users/@me/channels" or "/channels/" in r.path)
    ]
    assert dm_calls == [], [(r.method, r.path) for r in dm_calls]
    assert all(not p.dms() for p in players)
    assert fake.violations == []


def assert_hands_current(table: Any, players: list[FakeUser], version: int) -> None:
    """Each player's last ephemeral hand shows the table's last version."""
    for player in players:
        views = table.hand_views(player)
        assert views, f"{player.name} never saw a hand"
        assert view_version(views[-1]) == version, (player.name, read_card(views[-1]))
