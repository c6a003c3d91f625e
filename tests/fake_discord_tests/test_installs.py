"""The fake models apps installed to a user (issue 30.2, ``tests/fakediscord/installs.py``):
commands registered with ``integration_types`` and ``contexts``; interactions from a group DM
and from a server without the bot carrying ``context`` and ``authorizing_integration_owners``;
bot-token calls there answered 403 / 50001; answers forced ephemeral where the server turned
external apps off. A small real discord.py bot (``allowed_installs`` / ``allowed_contexts``)."""

from __future__ import annotations

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord.installs import (
    APP_PERMISSIONS_ELSEWHERE,
    GUILD,
    PRIVATE_CHANNEL,
    USE_EXTERNAL_APPS,
)
from tests.fakediscord.model import Role
from tests.fakediscord.pytest_plugin import running_bot


class Again(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Again", custom_id="inst:again")
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"again by {interaction.user.name}")


class UserAppBot(discord.Client):
    """``/hello`` everywhere (guild and user installs, every context); ``/poke`` tries the bot
    token in the channel it is used in; ``/guildonly`` is installed with servers only."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.bot_token_errors: list[tuple[int, int]] = []
        everywhere = (
            app_commands.allowed_installs(guilds=True, users=True),
            app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True),
        )

        async def hello(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("hello", view=Again())

        async def poke(interaction: discord.Interaction) -> None:
            try:
                await self.get_partial_messageable(interaction.channel_id).send("by bot token")
            except discord.HTTPException as exc:
                self.bot_token_errors.append((exc.status, exc.code))
            await interaction.response.send_message("poked", ephemeral=True)

        async def guildonly(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("guild")

        for name, callback in (("hello", hello), ("poke", poke)):
            command = app_commands.Command(name=name, description=name, callback=callback)
            for decorate in everywhere:
                command = decorate(command)
            self.tree.add_command(command)
        self.tree.add_command(
            app_commands.Command(name="guildonly", description="guild", callback=guildonly)
        )

    async def setup_hook(self) -> None:
        self.add_view(Again())
        await self.tree.sync()


@pytest.fixture
async def app(fake_discord):
    bot = UserAppBot()
    async with running_bot(fake_discord, bot):
        yield bot


def _payload(fake, handle) -> dict:
    return fake.interactions.payload(handle.interaction)


async def test_commands_are_registered_with_their_installs_and_contexts(fake_discord, app):
    synced = {c["name"]: c for c in fake_discord.commands[None]}
    assert synced["hello"]["integration_types"] == [0, 1]
    assert synced["hello"]["contexts"] == [0, 1, 2]
    assert synced["guildonly"]["integration_types"] == [0]  # the app's default: servers


async def test_the_spec_refuses_unknown_install_types_and_contexts(fake_discord, app):
    fake = fake_discord
    url = f"{fake.api_base}/applications/{fake.application_id}/commands"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        for bad in (
            {"contexts": [3]},
            {"integration_types": [2]},
            {"contexts": []},
            {"contexts": [0, 0]},
        ):
            body = {"name": "bad", "description": "bad", **bad}
            async with http.post(url, json=body) as response:
                assert response.status == 400, bad
                assert (await response.json())["code"] == 50035
    assert len(fake.take_violations("invalid_body")) == 4


async def test_a_group_dm_is_answered_through_interactions_only(fake_discord, app):
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    group = fake.installs.group_dm(alice, bob, name="amigos")
    with pytest.raises(LookupError, match="has not installed"):
        await alice.slash("hello", channel=group)
    fake.installs.install_for(alice)
    handle = await alice.slash("hello", channel=group)
    message = await handle
    assert message.content == "hello" and not message.ephemeral
    payload = _payload(fake, handle)
    assert payload["context"] == PRIVATE_CHANNEL
    assert payload["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert payload["channel"]["type"] == 3 and "guild_id" not in payload
    assert payload["user"]["id"] == str(alice.id) and "member" not in payload
    assert int(payload["app_permissions"]) == APP_PERMISSIONS_ELSEWHERE
    # bob has not installed the app, yet he may press its button: the owners are alice's
    click = await bob.click(message, "Again")
    edited = await click
    assert edited.content == "again by bob"
    assert _payload(fake, click)["authorizing_integration_owners"] == {"1": str(alice.id)}
    # carol is not in the group DM; a guild-only command is not offered there
    with pytest.raises(PermissionError):
        await carol.slash("hello", channel=group)
    with pytest.raises(LookupError, match="integration_types"):
        await alice.slash("guildonly", channel=group)
    # the bot token cannot reach the channel; the bot never heard of its messages
    poked = await (await alice.slash("poke", channel=group))
    assert poked.ephemeral and app.bot_token_errors == [(403, 50001)]
    refused = fake.installs.bot_requests_to(group)
    assert [r.status for r in refused] == [403]
    assert app.get_channel(group.id) is None


async def test_a_server_without_the_bot(fake_discord, app):
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    other = fake.installs.add_guild_without_bot("Sin bot", members=(alice, bob))
    channel = other.channels[0]
    assert app.get_guild(other.id) is None  # no GUILD_CREATE ever reached the bot
    fake.installs.install_for(alice)
    handle = await alice.slash("hello", channel=channel)
    message = await handle
    assert not message.ephemeral  # @everyone may use external apps
    payload = _payload(fake, handle)
    assert payload["context"] == GUILD and payload["guild_id"] == str(other.id)
    assert payload["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert payload["member"]["user"]["id"] == str(alice.id)
    poked = await (await alice.slash("poke", channel=channel))
    assert poked.ephemeral and app.bot_token_errors == [(403, 50001)]
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http:
        for path in (f"/channels/{channel.id}", f"/guilds/{other.id}"):
            async with http.get(fake.api_base + path) as response:
                assert response.status == 403 and (await response.json())["code"] == 50001
    with pytest.raises(LookupError, match="integration_types"):
        await alice.slash("guildonly", channel=channel)
    # where the bot is, nothing changed: the command works without any user install
    here = await (await bob.slash("guildonly"))
    assert here.content == "guild"
    bob_hello = await bob.slash("hello")
    await bob_hello
    assert _payload(fake, bob_hello)["authorizing_integration_owners"] == {"0": str(fake.guild.id)}
    # alice installed the app too: her command there is authorized by both installs
    both = await alice.slash("hello")
    await both
    assert _payload(fake, both)["authorizing_integration_owners"] == {
        "0": str(fake.guild.id),
        "1": str(alice.id),
    }
    assert _payload(fake, both)["context"] == GUILD


async def test_answers_are_forced_ephemeral_where_external_apps_are_off(fake_discord, app):
    fake = fake_discord
    alice = fake.user("alice")
    strict = fake.installs.add_guild_without_bot("Estricto", members=(alice,), external_apps=False)
    assert not strict.everyone.permissions & USE_EXTERNAL_APPS
    fake.installs.install_for(alice)
    message = await (await alice.slash("hello", channel=strict.channels[0]))
    assert message.ephemeral and message.visible_to is alice.model
    assert fake.channel_messages(strict.channels[0]) == []  # nobody else sees it
    # a moderator grants the permission to a role alice has: public again
    role = Role(id=fake.ids.next(), name="apps", permissions=USE_EXTERNAL_APPS, position=1)
    strict.roles.append(role)  # (not fake.add_role: the bot hears nothing of this server)
    strict.members[alice.model.id].roles.append(role.id)
    public = await (await alice.slash("hello", channel=strict.channels[0]))
    assert not public.ephemeral
