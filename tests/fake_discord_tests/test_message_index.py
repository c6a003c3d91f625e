"""The fake's message index (tests/fakediscord/message_index.py) answers every query as a scan of
all stored messages does: after messages are created, made ephemeral, edited and deleted, by a
real discord.py bot and directly."""

from __future__ import annotations

from tests.fakediscord.model import Message
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import FakeUser


def scanned_channel(fake: FakeDiscord, channel) -> list[Message]:
    if channel.deleted:
        return []
    return [
        m
        for m in fake.messages.values()
        if m.channel is channel and not m.deleted and m.visible_to is None
    ]


def scanned_ephemerals(fake: FakeDiscord, user: FakeUser) -> list[Message]:
    return [m for m in fake.messages.values() if m.visible_to is user.model and not m.deleted]


def scanned_replies(fake: FakeDiscord, user: FakeUser) -> list[Message]:
    return [
        m
        for m in fake.messages.values()
        if m.interaction is not None and m.interaction.user is user.model and not m.deleted
    ]


def scanned_dms(fake: FakeDiscord, user: FakeUser) -> list[Message]:
    channel = fake.dm_channels.get(user.id)
    return [
        m
        for m in fake.messages.values()
        if channel is not None and m.channel is channel and not m.deleted and m.visible_to is None
    ]


def assert_index_agrees(fake: FakeDiscord, users: list[FakeUser]) -> None:
    for channel in fake.channels.values():
        assert fake.channel_messages(channel) == scanned_channel(fake, channel), channel.name
    for user in users:
        assert user.ephemerals() == scanned_ephemerals(fake, user), user.name
        assert user.replies() == scanned_replies(fake, user), user.name
        assert user.dms() == scanned_dms(fake, user), user.name


async def test_the_index_agrees_with_a_scan_through_a_bot_s_answers(fake_discord, bot):
    fake = fake_discord
    other = fake.add_channel("other")
    alice, bob = fake.user("alice"), fake.user("bob")
    lobby = await (await alice.slash("play", game="amapatolli"))
    await (await bob.slash("play", game="macarena", private=True, channel=other))
    await (await bob.click(lobby, "Join"))  # an ephemeral answer in the channel
    handle = await alice.slash("slow", private=True)  # a placeholder replaced, a follow-up
    await handle.followup(0)
    await (await alice.slash("temp"))  # answered, followed up, edited; the original deleted
    await fake.wait_until(lambda: any(m.deleted for m in fake.messages.values()))
    await (await bob.slash("hand"))  # a DM
    await (await alice.slash("announce", text="hi", channel=other))  # posted and edited
    await fake.settle()
    fake.delete_message(lobby)  # a moderator deletes the lobby
    assert len(alice.ephemerals()) == 3 and len(bob.ephemerals()) == 3
    assert len(bob.dms()) == 1 and lobby not in fake.channel_messages()
    assert_index_agrees(fake, [alice, bob])


async def test_the_index_agrees_with_a_scan_of_messages_made_directly(fake_discord):
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    thread_parent = fake.add_channel("tables")
    made = []
    for n in range(12):
        channel = (fake.channel, thread_parent, fake.dm_channel(bob.model))[n % 3]
        msg = fake.new_message(channel, fake.bot_user)
        fake.apply_message_body(msg, {"content": f"m{n}"}, [], edit=False)
        made.append(msg)
    older = fake.new_message(fake.channel, fake.bot_user, visible_to=alice.model)
    fake.message_index.shown_only_to(made[3], alice.model)  # shown late: order kept
    fake.apply_message_body(made[0], {"content": "edited"}, [], edit=True)
    fake.delete_message(made[1])
    fake.delete_message(made[5])
    assert alice.ephemerals() == [made[3], older]
    assert_index_agrees(fake, [alice, bob])
