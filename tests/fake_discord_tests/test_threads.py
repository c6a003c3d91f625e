"""Threads in the fake Discord (tests/fakediscord/threads.py), driven through a real discord.py
client: start, post, archive, lock, delete, permissions, wrong channels, gateway events, the
interaction's channel, and the one-hour edit limit (30046)."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord.model import (
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES_IN_THREADS,
    THREAD_PERMISSIONS,
)


@pytest.fixture(autouse=True)
def threads_allowed(fake_discord):
    fake_discord.guild.everyone.permissions |= THREAD_PERMISSIONS


def text_channel(bot, fake) -> discord.TextChannel:
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_thread_from_a_message_has_its_id_and_leaves_one_parent_message(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    line = await channel.send("a table opens")
    thread = await line.create_thread(name="Chúpate 2 · #1", auto_archive_duration=60)
    assert thread.id == line.id and thread.parent_id == channel.id
    assert thread.type is discord.ChannelType.public_thread
    posted = await thread.send("the lobby")
    assert [m.content for m in fake_discord.channel_messages(thread.id)] == ["the lobby"]
    assert [m.content for m in fake_discord.channel_messages()] == ["a table opens"]
    assert posted.channel.id == thread.id
    # THREAD_CREATE reached the client's cache.
    await fake_discord.wait_until(lambda: bot.get_channel(thread.id) is not None, what="cache")
    assert [t.name for t in fake_discord.threads_of()] == ["Chúpate 2 · #1"]
    # A message starts at most one thread.
    with pytest.raises(discord.HTTPException) as exc:
        await line.create_thread(name="again")
    assert (exc.value.status, exc.value.code) == (400, 160004)
    assert len(fake_discord.take_violations("bad_request")) == 1


async def test_thread_without_a_message_is_public_and_leaves_a_system_line(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    thread = await channel.create_thread(name="loose", type=discord.ChannelType.public_thread)
    assert thread.type is discord.ChannelType.public_thread
    [line] = fake_discord.channel_messages()
    assert line.type == 18 and line.content == "loose"


async def test_private_threads_are_not_implemented(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    with pytest.raises(discord.HTTPException):
        await channel.create_thread(name="secret", type=discord.ChannelType.private_thread)
    assert [v.kind for v in fake_discord.take_violations("unimplemented")] == ["unimplemented"]


async def test_no_thread_inside_a_thread_nor_in_a_dm(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    thread = await (await channel.send("x")).create_thread(name="t")
    inner = await thread.send("inner")
    with pytest.raises(discord.HTTPException) as exc:
        await inner.create_thread(name="nested")
    assert (exc.value.status, exc.value.code) == (400, 50024)
    alice = fake_discord.user("alice")
    dm = await bot.create_dm(bot.get_user(alice.model.id) or await bot.fetch_user(alice.model.id))
    note = await dm.send("hello")
    with pytest.raises(discord.HTTPException) as exc:  # discord.py refuses it itself: ask raw
        await bot.http.start_thread_with_message(
            dm.id, note.id, name="dm thread", auto_archive_duration=1440
        )
    assert exc.value.code == 50024
    assert len(fake_discord.take_violations("bad_request")) == 2


async def test_the_fakes_default_guild_grants_no_thread_permissions(fake_discord, bot):
    fake_discord.guild.everyone.permissions &= ~THREAD_PERMISSIONS
    line = await text_channel(bot, fake_discord).send("x")
    with pytest.raises(discord.Forbidden):
        await line.create_thread(name="t")


async def test_missing_thread_permissions_are_refused_with_50013(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    line = await channel.send("x")
    fake_discord.channel.bot_denied = CREATE_PUBLIC_THREADS
    with pytest.raises(discord.Forbidden) as exc:
        await line.create_thread(name="t")
    assert exc.value.code == 50013
    fake_discord.channel.bot_denied = 0
    thread = await line.create_thread(name="t")
    fake_discord.channel.bot_denied = SEND_MESSAGES_IN_THREADS  # inherited by the thread
    with pytest.raises(discord.Forbidden):
        await thread.send("no")
    await channel.send("the parent still takes messages")


async def test_archive_unarchive_lock_and_edits(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    thread = await (await channel.send("x")).create_thread(name="t")
    msg = await thread.send("table")
    await thread.edit(archived=True, auto_archive_duration=1440)
    stored = fake_discord.channels[thread.id]
    assert stored.archived and stored.auto_archive_duration == 1440
    with pytest.raises(discord.HTTPException) as exc:
        await msg.edit(content="edited while archived")
    assert (exc.value.status, exc.value.code) == (400, 50083)
    await thread.send("posting unarchives")
    assert not stored.archived
    fake_discord.archive_thread(stored, locked=True)  # a moderator
    with pytest.raises(discord.HTTPException) as exc:
        await thread.send("locked")
    assert exc.value.code == 50083
    assert len(fake_discord.take_violations("bad_request")) == 2
    assert thread.id not in [t.id for t in fake_discord.guild.threads]


async def test_deleted_thread_is_unknown_and_announced(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    thread = await (await channel.send("x")).create_thread(name="t")
    msg = await thread.send("table")
    await fake_discord.wait_until(lambda: bot.get_channel(thread.id) is not None, what="cache")
    fake_discord.delete_thread(fake_discord.channels[thread.id])
    await fake_discord.wait_until(lambda: bot.get_channel(thread.id) is None, what="THREAD_DELETE")
    for attempt in (thread.send("gone"), msg.edit(content="gone")):
        with pytest.raises(discord.NotFound) as exc:
            await attempt
        assert exc.value.code == 10003
    assert fake_discord.channel_messages(thread.id) == [] and fake_discord.threads_of() == []


async def test_the_bot_deletes_a_thread_only_with_manage_threads(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    thread = await (await channel.send("x")).create_thread(name="t")
    with pytest.raises(discord.Forbidden):
        await thread.delete()
    fake_discord.guild.everyone.permissions |= 1 << 34
    await thread.delete()
    assert fake_discord.threads_of() == []


async def test_guild_create_lists_active_threads(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    thread = await (await channel.send("x")).create_thread(name="t")
    listed = fake_discord.guild.payload()["threads"]
    assert [t["id"] for t in listed] == [str(thread.id)]
    assert listed[0]["thread_metadata"]["archived"] is False


async def test_an_interaction_from_a_thread_carries_the_thread(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    thread = await (await channel.send("x")).create_thread(name="t")
    alice = fake_discord.user("alice")
    handle = alice.slash("announce", channel=fake_discord.channels[thread.id], text="hi")
    answer = await (await handle)
    payload = fake_discord.interactions.payload(answer.interaction)
    assert payload["channel"]["type"] == 11 and payload["channel_id"] == str(thread.id)
    assert payload["channel"]["parent_id"] == str(channel.id)
    assert answer.content == "posted"  # interaction.channel is the thread: it posted there
    assert [m.content for m in fake_discord.channel_messages(thread.id)] == ["hi (edited)"]


async def test_edits_of_hour_old_messages_answer_30046_when_turned_on(fake_discord, bot):
    channel = text_channel(bot, fake_discord)
    msg = await channel.send("old")
    await msg.edit(content="young edits are fine")
    fake_discord.refuse_old_edits(count=1)
    await msg.edit(content="still younger than an hour")
    fake_discord.advance(hours=1)
    with pytest.raises(discord.HTTPException) as exc:
        await msg.edit(content="too old")
    assert (exc.value.status, exc.value.code) == (429, 30046)
    await msg.edit(content="the count is spent")
    assert fake_discord.channel_messages()[0].content == "the count is spent"
