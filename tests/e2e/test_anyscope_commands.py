"""Issue 30.1: every command says which installs may run it and where (``bot/reach.py``); the
fake Discord accepts the registration (it validates the body against the OpenAPI description)
and offers the commands in a group DM, in a server without the bot and in the bot's DM exactly
as registered, to a person who installed the app and to nobody else."""

from __future__ import annotations

import pytest

from tests.fakediscord.installs import BOT_DM, GUILD, GUILD_INSTALL, PRIVATE_CHANNEL, USER_INSTALL

BOTH_INSTALLS = [GUILD_INSTALL, USER_INSTALL]
WITH_FRIENDS = ("play", "leaderboard", "profile", "history", "replay")
EVERYWHERE = ("rules", "cards")
SERVERS_ONLY = ("stop", "leave", "rejoin", "kick", "tables", "settings")


async def test_every_command_is_registered_with_its_installs_and_contexts(fake_discord, mesa):
    fake = fake_discord
    synced = {c["name"]: c for c in fake.commands[None]}
    assert set(synced) == {*WITH_FRIENDS, *EVERYWHERE, *SERVERS_ONLY}  # none left undecided
    for name in WITH_FRIENDS:
        assert synced[name]["integration_types"] == BOTH_INSTALLS, name
        assert synced[name]["contexts"] == [GUILD, PRIVATE_CHANNEL], name
    for name in EVERYWHERE:
        assert synced[name]["integration_types"] == BOTH_INSTALLS, name
        assert synced[name]["contexts"] == [GUILD, BOT_DM, PRIVATE_CHANNEL], name
    for name in SERVERS_ONLY:
        assert synced[name]["integration_types"] == [GUILD_INSTALL], name
        assert synced[name]["contexts"] == [GUILD], name
        assert synced[name]["dm_permission"] is False, name  # the old field agrees
    assert int(synced["settings"]["default_member_permissions"]) == 1 << 5  # MANAGE_GUILD
    assert fake.take_violations("invalid_body") == []  # the spec accepted every body


async def test_a_group_dm_offers_the_commands_to_whoever_installed_the_app(fake_discord, mesa):
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    group = fake.installs.group_dm(alice, bob, name="amigos")
    fake.installs.install_for(alice)
    for name in (*WITH_FRIENDS, *EVERYWHERE):  # bob never installed the app: none for him
        with pytest.raises(LookupError, match="has not installed"):
            await bob.slash(name, channel=group)
    for name in SERVERS_ONLY:  # installed or not, these are a server's
        with pytest.raises(LookupError, match="integration_types"):
            await alice.slash(name, channel=group)
    board = await (await alice.slash("leaderboard", channel=group))
    assert board.ephemeral and "Nadie ha jugado todavía" in board.text
    rules = await (await alice.slash("rules", channel=group, game="amapatolli"))
    assert "Ce Amapatolli" in rules.text
    assert fake.installs.bot_requests_to(group) == []  # answered by interaction alone


async def test_a_server_without_the_bot_and_the_bot_s_dm(fake_discord, mesa):
    fake = fake_discord
    alice = fake.user("alice")
    botless = fake.installs.add_guild_without_bot("Sin bot", members=(alice,))
    channel = botless.channels[0]
    with pytest.raises(LookupError, match="has not installed"):
        await alice.slash("leaderboard", channel=channel)
    fake.installs.install_for(alice)
    board = await (await alice.slash("leaderboard", channel=channel))
    assert board.ephemeral and "Nadie ha jugado todavía" in board.text
    with pytest.raises(LookupError, match="integration_types"):
        await alice.slash("stop", channel=channel)
    profile = await (await alice.slash("profile", channel=channel))
    assert profile.ephemeral and "Sin partidas puntuadas todavía" in profile.text
    history = await (await alice.slash("history", channel=channel, member=alice))
    assert "Todavía no hay partidas terminadas" in history.text
    refused = await (await alice.slash("replay", channel=channel, table=1))
    assert refused.ephemeral and "No hay ninguna mesa #1" in refused.text
    assert fake.installs.bot_requests_to(channel) == []  # all answered by interaction
    # the bot's own DM: what needs no place, not what a place keeps
    rules = await (await alice.slash("rules", dm=True, game="macarena"))
    assert "Macarena" in rules.text
    for name in ("leaderboard", "play", "history", "stop"):
        with pytest.raises(LookupError):
            await alice.slash(name, dm=True)
