"""Issue 29: the views edit their messages without parsing Discord's answer into a ``Message``
(``bot/ui/payload.py``: ``edit_message``, ``edit_followup``, of a follow-up or of ``@original``). The same
request as discord.py's ``edit`` goes out, through the bot's gated session: checked here against
the fake Discord, which refuses what Discord refuses."""

from __future__ import annotations

import io
import time

import discord
import pytest

from bot.ui import payload as sending
from bot.ui import v2
from tests.fakediscord.model import Interaction as FakeInteraction


async def test_a_quiet_edit_changes_the_message_as_discord_py_s_edit_does(fake_discord, mesa):
    bot = mesa.bot
    channel = bot.get_partial_messageable(fake_discord.channel.id)
    posted = await channel.send(content="before")
    pacer = bot.listener.pacer
    sent = pacer.sent
    view = v2.note_view("after")
    image = discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\n"), "table.png", description="a table")
    await sending.edit_message(
        channel.get_partial_message(posted.id),
        {"content": None, "embeds": [], "view": view, "attachments": [image]},
    )
    stored = fake_discord.message(posted.id)
    assert stored.content == ""
    assert [a.filename for a in stored.attachments] == ["table.png"]
    assert stored.attachments[0].description == "a table"
    assert "after" in str(stored.components)
    assert pacer.sent == sent + 1  # a bot-token call: through the gate, counted by the pacer
    fake_discord.assert_no_violations()


async def test_a_refused_quiet_edit_raises_discord_py_s_error(fake_discord, mesa):
    bot = mesa.bot
    channel = bot.get_partial_messageable(fake_discord.channel.id)
    posted = await channel.send(content="soon gone")
    await posted.delete()
    with pytest.raises(discord.NotFound):
        await sending.edit_message(channel.get_partial_message(posted.id), {"content": "x"})


def _slash_seen_by_the_bot(fake_discord, bot) -> discord.Interaction:
    """A slash command the fake knows (its token works there) handed to discord.py as the bot
    would receive it, but not dispatched: the test answers it itself."""
    fake = fake_discord
    inter = FakeInteraction(
        id=fake.ids.made_at(fake.clock.utcnow()),
        token=f"fake-interaction-quiet-{fake.ids.next()}",
        type=2,
        user=fake.user("quiet").model,
        channel=fake.channel,
        guild=fake.guild_of(fake.channel),
        data={"id": str(fake.ids.next()), "name": "quiet", "type": 1},
        created_real=time.monotonic(),
        created_fake=fake.clock.now(),
        command_name="quiet",
    )
    fake.interactions.all[inter.id] = inter
    fake.interactions.by_token[inter.token] = inter
    return discord.Interaction(data=fake.interactions.payload(inter), state=bot._connection)


async def test_the_original_and_a_follow_up_are_edited_by_one_webhook_edit(fake_discord, mesa):
    """``edit_followup`` of Discord's ``@original`` and of a follow-up: both change their
    message through the interaction's token (no bot-token call), as discord.py's edits do."""
    interaction = _slash_seen_by_the_bot(fake_discord, mesa.bot)
    await interaction.response.send_message(content="the answer")
    original = (await interaction.original_response()).id
    followup = await interaction.followup.send(content="a follow-up", wait=True)
    pacer = mesa.bot.listener.pacer
    sent, before = pacer.sent, len(fake_discord.requests)

    await sending.edit_followup(
        interaction,
        original,
        {"content": None, "embeds": [], "view": v2.note_view("edited")},
        ref="@original",
    )
    await sending.edit_followup(interaction, followup.id, {"content": "followed", "view": None})

    assert "edited" in str(fake_discord.message(original).components)
    assert fake_discord.message(original).content == ""
    assert fake_discord.message(followup.id).content == "followed"
    paths = [(r.method, r.path.rsplit("/", 1)[-1]) for r in fake_discord.requests[before:]]
    assert paths == [("PATCH", "@original"), ("PATCH", str(followup.id))]
    assert pacer.sent == sent  # interaction webhooks: outside the bot token's limit
    fake_discord.assert_no_violations()


def test_only_what_an_edit_may_change_is_taken():
    with pytest.raises(TypeError):
        sending.edit_parameters({"content": "x", "delete_after": 3}, None)
    assert sending.edit_parameters({"content": "x"}, None).payload["content"] == "x"


async def test_a_rate_limited_webhook_edit_waits_and_is_sent_again(fake_discord, mesa):
    """Discord's 429 on an interaction token's route (``Via``: its own limit): the edit waits
    the ``retry_after`` and goes again, as discord.py's adapter does."""
    interaction = _slash_seen_by_the_bot(fake_discord, mesa.bot)
    await interaction.response.send_message(content="the answer")
    fault = fake_discord.rate_limit(method="PATCH", retry_after=0.05)
    before = len(fake_discord.requests)

    await sending.edit_followup(interaction, 0, {"content": "after the wait"}, ref="@original")

    assert fault.hits == 1
    assert fake_discord.message((await interaction.original_response()).id).content == (
        "after the wait"
    )
    edits = [r for r in fake_discord.requests[before:] if r.method == "PATCH"]
    assert len(edits) == 2  # refused once, then sent again
    fake_discord.assert_no_violations()


async def test_a_429_without_via_is_raised_not_retried(fake_discord, mesa):
    """A 429 without ``Via`` is not Discord's limit (a Cloudflare ban): raised at once."""
    interaction = _slash_seen_by_the_bot(fake_discord, mesa.bot)
    await interaction.response.send_message(content="the answer")
    fake_discord.rate_limit(method="PATCH", via=False, count=5)
    with pytest.raises(discord.HTTPException) as raised:
        await sending.edit_followup(interaction, 0, {"content": "never"}, ref="@original")
    assert raised.value.status == 429
    fake_discord.faults.clear()


async def test_a_webhook_edit_of_a_deleted_message_raises_not_found(fake_discord, mesa):
    interaction = _slash_seen_by_the_bot(fake_discord, mesa.bot)
    await interaction.response.send_message(content="the answer")
    followup = await interaction.followup.send(content="soon gone", wait=True)
    await followup.delete()
    with pytest.raises(discord.NotFound) as raised:
        await sending.edit_followup(interaction, followup.id, {"content": "x"})
    assert raised.value.code != 0  # Discord's JSON error, read as discord.py reads it


async def test_a_webhook_edit_with_an_image_uploads_it(fake_discord, mesa):
    interaction = _slash_seen_by_the_bot(fake_discord, mesa.bot)
    await interaction.response.send_message(content="the answer")
    original = (await interaction.original_response()).id
    image = discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\n"), "table.png", description="a table")
    await sending.edit_followup(
        interaction,
        original,
        {"content": None, "view": v2.note_view("drawn"), "attachments": [image]},
        ref="@original",
    )
    stored = fake_discord.message(original)
    assert [a.filename for a in stored.attachments] == ["table.png"]
    assert stored.attachments[0].description == "a table"
    assert "drawn" in str(stored.components)
    fake_discord.assert_no_violations()
