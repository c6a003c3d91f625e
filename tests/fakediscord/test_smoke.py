from __future__ import annotations


async def test_login_ready_and_sync(fake_discord, bot):
    assert bot.user.id == fake_discord.bot_user.id
    assert [g.id for g in bot.guilds] == [fake_discord.guild.id]
    assert {c["name"] for c in fake_discord.commands[None]} == {"play", "hand", "name", "slow", "announce", "bad", "late"}
    assert [c["name"] for c in fake_discord.commands[fake_discord.guild.id]] == ["table"]


async def test_slash_and_click(fake_discord, bot):
    alice = fake_discord.user("alice")
    msg = await (await alice.slash("play", game="amapatolli", players=4))
    assert msg.content == "Lobby amapatolli for 4"
    assert fake_discord.channel_messages() == [msg]
    reply = await (await alice.click(msg, "Join"))
    assert reply.content == "alice joined" and reply.ephemeral
