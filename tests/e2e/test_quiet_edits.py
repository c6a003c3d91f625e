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
        sending._edit_parameters({"content": "x", "delete_after": 3})
    assert sending._edit_parameters({"content": "x"})["content"] == "x"
