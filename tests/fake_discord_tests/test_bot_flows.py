"""A real discord.py bot (tests/fake_discord_tests/demo_bot.py) driven through the fake by users."""

from __future__ import annotations

import discord
import discord.gateway
import discord.http
import pytest

from tests.fake_discord_tests.demo_bot import PNG_BYTES, DemoBot
from tests.fakediscord.model import Message, Modal
from tests.fakediscord.pytest_plugin import running_bot


async def test_login_ready_sync_and_urls_restored(fake_discord, bot):
    assert bot.user.id == fake_discord.bot_user.id
    assert bot.application_id == fake_discord.application_id
    assert [g.id for g in bot.guilds] == [fake_discord.guild.id]
    assert bot.get_channel(fake_discord.channel.id).name == "general"
    assert {c["name"] for c in fake_discord.commands[None]} == {
        "play",
        "hand",
        "name",
        "slow",
        "announce",
        "bad",
        "late",
        "temp",
        "colour",
    }
    [table] = fake_discord.commands[fake_discord.guild.id]
    assert table["name"] == "table" and [o["name"] for o in table["options"]] == ["show", "pick"]
    assert discord.http.Route.BASE == fake_discord.api_base
    assert fake_discord.gateway.identifies == 1
    login = [(r.method, r.template) for r in fake_discord.requests[:2]]
    assert login == [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")]


async def test_urls_are_restored_after_the_bot_stops(fake_discord):
    base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with running_bot(fake_discord, DemoBot(fake_discord.guild.id)):
        assert discord.http.Route.BASE != base
    assert discord.http.Route.BASE == base
    assert discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY == gateway


async def test_wrong_token_is_a_login_failure(fake_discord):
    from tests.fakediscord.pytest_plugin import discord_py_pointed_at

    demo = DemoBot(fake_discord.guild.id)
    with discord_py_pointed_at(fake_discord), pytest.raises(discord.LoginFailure):
        await demo.login("not-the-token")
    await demo.close()


async def test_slash_with_options_replies_with_buttons(fake_discord, bot):
    alice = fake_discord.user("alice")
    handle = await alice.slash("play", game="amapatolli", players=4)
    msg = await handle
    assert handle.callback_type == 4 and not handle.ephemeral
    assert msg.content == "Lobby amapatolli for 4"
    assert [b.label for b in msg.buttons] == ["Join", "Count", "Rename", "Move 1"]
    assert msg.selects[0].values == ["c0", "c1", "c2"]
    assert fake_discord.channel_messages() == [msg]
    assert alice.last_reply() is msg
    assert handle.interaction.answered_after < 3


async def test_slash_options_are_checked_against_the_synced_tree(fake_discord, bot):
    alice = fake_discord.user("alice")
    with pytest.raises(LookupError):
        await alice.slash("nope")
    with pytest.raises(TypeError):
        await alice.slash("play")  # game is required
    with pytest.raises(TypeError):
        await alice.slash("play", game="amapatolli", colour="red")
    with pytest.raises(ValueError):
        await alice.slash("play", game="chess")
    with pytest.raises(ValueError):
        await alice.slash("play", game="amapatolli", players=7)  # Range[int, 2, 6]
    # A choice can be given by its display name.
    msg = await (await alice.slash("play", game="Macarena"))
    assert msg.content == "Lobby macarena for 3"


async def test_subcommand_with_a_member_option(fake_discord, bot):
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    msg = await (await alice.slash("table show", number=12, who=bob))
    assert msg.content == "table 12 for bob"
    with pytest.raises(LookupError):
        await alice.slash("table")  # needs a subcommand


async def test_autocomplete(fake_discord, bot):
    alice = fake_discord.user("alice")
    choices = await alice.autocomplete("table pick", "game", game="ma")
    assert [c["value"] for c in choices] == ["macarena", "maquiavelo"]


async def test_click_update_and_persistent_view(fake_discord, bot):
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lobby = await (await alice.slash("play", game="amapatolli"))
    updated = await (await bob.click(lobby, "Count"))
    assert updated is lobby and lobby.content == "Lobby amapatolli for 3 count=1"
    await (await alice.click(lobby, custom_id="demo:count"))
    assert lobby.content.endswith("count=2") and len(lobby.versions) == 2
    joined = await (await bob.click(lobby, "Join"))
    assert joined.ephemeral and joined in bob.ephemerals() and joined not in alice.ephemerals()
    assert fake_discord.channel_messages() == [lobby]


async def test_select_defer_update_then_edit_original(fake_discord, bot):
    alice = fake_discord.user("alice")
    lobby = await (await alice.slash("play", game="amapatolli"))
    handle = await alice.select(lobby, ["Card 2"])
    result = await handle
    assert handle.callback_type == 6
    assert result is lobby and lobby.content == "picked c2"
    with pytest.raises(ValueError):
        await alice.select(lobby, ["c9"])


async def test_dynamic_item_button(fake_discord, bot):
    alice = fake_discord.user("alice")
    lobby = await (await alice.slash("play", game="amapatolli"))
    reply = await (await alice.click(lobby, custom_id="mv:7:1"))
    assert reply.content == "move 1 on table 7" and reply.ephemeral


async def test_ephemeral_reply_only_its_user_sees_and_clicks(fake_discord, bot):
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    private = await (await alice.slash("play", game="amapatolli", private=True))
    assert private.ephemeral and private.visible_to is alice.model
    assert alice.ephemerals() == [private] and bob.ephemerals() == []
    assert fake_discord.channel_messages() == []
    with pytest.raises(PermissionError):
        await bob.click(private, "Join")
    updated = await (await alice.click(private, "Count"))
    assert updated is private and private.content.endswith("count=1")


async def test_dm_with_attachment(fake_discord, bot):
    alice = fake_discord.user("alice")
    reply = await (await alice.slash("hand"))
    assert reply.content == "Sent you a DM" and reply.ephemeral
    [dm] = alice.dms()
    assert dm.content == "Your hand"
    [attachment] = dm.attachments
    assert attachment.filename == "hand.png" and attachment.data == PNG_BYTES
    assert attachment.content_type == "image/png"
    assert fake_discord.user("bob").dms() == []


async def test_dms_closed_is_403_50007(fake_discord, bot):
    bob = fake_discord.user("bob", dms_open=False)
    reply = await (await bob.slash("hand"))
    assert reply.content == "DMs closed: error 403/50007"
    assert bob.dms() == [] and bot.http_errors == [(403, 50007)]
    bob.dms_open = True
    await (await bob.slash("hand"))
    assert len(bob.dms()) == 1


async def test_modal_from_command_and_from_button(fake_discord, bot):
    alice = fake_discord.user("alice")
    modal = await (await alice.slash("name"))
    assert isinstance(modal, Modal) and modal.title == "Your name"
    assert [i["custom_id"] for i in modal.inputs] == ["demo:name", "demo:motto"]
    assert alice.modals() == [modal]
    reply = await (await alice.submit_modal(Name="Alice"))  # by label
    assert reply.content == "Hello Alice (-)" and reply.ephemeral
    assert alice.modals() == []

    lobby = await (await alice.slash("play", game="amapatolli"))
    await (await alice.click(lobby, "Rename"))
    reply = await (await alice.submit_modal({"demo:name": "Al", "demo:motto": "Play fair"}))
    assert reply.content == "Hello Al (Play fair)"
    with pytest.raises(LookupError):
        await alice.submit_modal(Name="again")


async def test_deferred_reply_with_followups(fake_discord, bot):
    alice = fake_discord.user("alice")
    handle = await alice.slash("slow")
    msg = await handle
    assert handle.callback_type == 5
    assert msg.content == "done thinking" and not msg.loading and not msg.ephemeral
    extra = await handle.followup(0)
    assert extra.content == "and one more" and extra.ephemeral and extra in alice.ephemerals()
    assert fake_discord.channel_messages() == [msg]
    assert alice.last_reply() is extra


async def test_ephemeral_defer_keeps_the_placeholder_private(fake_discord, bot):
    alice = fake_discord.user("alice")
    handle = await alice.slash("slow", private=True)
    msg = await handle
    assert msg.ephemeral and msg.content == "done thinking"
    assert fake_discord.channel_messages() == []


async def test_channel_send_and_edit(fake_discord, bot):
    alice = fake_discord.user("alice")
    handle = await alice.slash("announce", text="hello table")
    note = await handle
    assert note.content == "posted" and note.ephemeral
    [posted] = fake_discord.channel_messages()
    assert posted.content == "hello table (edited)" and posted.edited_timestamp is not None
    assert posted.author is fake_discord.bot_user and posted.interaction is None


async def test_deleted_message_is_404_10008(fake_discord, bot):
    channel = bot.get_channel(fake_discord.channel.id)
    sent = await channel.send("table 1")
    fake_discord.delete_message(fake_discord.message(sent.id))
    with pytest.raises(discord.NotFound) as info:
        await sent.edit(content="table 1, move 2")
    assert info.value.code == 10008
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(sent.id)
    assert fake_discord.channel_messages() == []


async def test_persistent_components_survive_a_bot_restart(fake_discord):
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, DemoBot(fake_discord.guild.id)):
        lobby: Message = await (await alice.slash("play", game="amapatolli"))
    assert not fake_discord.gateway.connected
    async with running_bot(fake_discord, DemoBot(fake_discord.guild.id)):
        assert fake_discord.gateway.identifies == 2
        reply = await (await alice.click(lobby, "Move 1"))
        assert reply.content == "move 1 on table 7"
        updated = await (await alice.click(lobby, "Count"))
        assert updated.content.endswith("count=1")
        # The persistent LobbyView re-renders without the dynamic button, as the real Discord would show.
        assert [b.label for b in updated.buttons] == ["Join", "Count", "Rename"]


async def test_dm_interaction_uses_a_global_command(fake_discord, bot):
    alice = fake_discord.user("alice")
    msg = await (await alice.slash("play", dm=True, game="amapatolli"))
    assert msg.channel.is_dm and msg in alice.dms()
    with pytest.raises(LookupError):
        await alice.slash("table show", dm=True, number=1)  # a guild command


async def test_bot_reads_channel_history(fake_discord, bot):
    channel = bot.get_channel(fake_discord.channel.id)
    for i in range(3):
        await channel.send(f"m{i}")
    history = [m.content async for m in channel.history(limit=10)]
    assert history == ["m2", "m1", "m0"]


async def test_original_response_get_delete_and_followup_edit(fake_discord, bot):
    alice = fake_discord.user("alice")
    handle = await alice.slash("temp")
    follow = await handle.followup(0)
    await fake_discord.wait_until(lambda: handle.original.deleted and "(edited)" in follow.content)
    assert follow.content == "read back: temporary (edited)"
    assert fake_discord.channel_messages() == [follow]
    methods = [
        (r.method, r.template.rsplit("/", 1)[-1])
        for r in fake_discord.requests
        if r.template and "webhooks" in r.template
    ]
    assert methods == [
        ("GET", "@original"),
        ("POST", "{webhook_token}"),
        ("PATCH", "{message_id}"),
        ("DELETE", "@original"),
    ]


async def test_modal_made_of_labels(fake_discord, bot):
    alice = fake_discord.user("alice")
    modal = await (await alice.slash("colour"))
    assert [c["type"] for c in modal.components] == [18, 18]
    with pytest.raises(ValueError):
        await alice.submit_modal(Colour=["green"])
    reply = await (await alice.submit_modal(Colour=["b"], Note="hi"))
    assert reply.content == "colour ['b'] note 'hi'"
