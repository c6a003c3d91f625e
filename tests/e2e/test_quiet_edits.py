"""Issue 29: the views edit their messages without parsing Discord's answer into a ``Message``
(``bot/ui/payload.py``: ``edit_message``, ``edit_original``, ``edit_followup``). The same
request as discord.py's ``edit`` goes out, through the bot's gated session: checked here against
the fake Discord, which refuses what Discord refuses."""

from __future__ import annotations

import io

import discord
import pytest

from bot.ui import payload as sending
from bot.ui import v2


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


def test_only_what_an_edit_may_change_is_taken():
    with pytest.raises(TypeError):
        sending._edit_parameters({"content": "x", "delete_after": 3})
    assert sending._edit_parameters({"content": "x"})["content"] == "x"
