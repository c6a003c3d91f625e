"""Issue 29: a click's update (type 7) and deferred update (type 6) are sent without
``with_response`` (``bot/ui/payload.py``: ``callbacks_unread``): Discord answers 204, nothing
is parsed. Every other callback still asks for its answer, which the bot reads (a message
sent as an answer: its id). Checked against the fake Discord, which refuses what Discord
refuses."""

from __future__ import annotations

import io
import time
from typing import Any

import discord
import pytest
from yarl import URL

from tests.fakediscord.model import Interaction as FakeInteraction


def _click_seen_by_the_bot(fake_discord: Any, bot: Any, message_id: int) -> discord.Interaction:
    """A click on ``message_id`` that the fake knows (its token works there), handed to
    discord.py as the bot would receive it, but not dispatched: the test answers it itself."""
    fake = fake_discord
    inter = FakeInteraction(
        id=fake.ids.made_at(fake.clock.utcnow()),
        token=f"fake-interaction-unread-{fake.ids.next()}",
        type=3,
        user=fake.user("clicker").model,
        channel=fake.channel,
        guild=fake.guild_of(fake.channel),
        data={"custom_id": "unread:click", "component_type": 2},
        created_real=time.monotonic(),
        created_fake=fake.clock.now(),
        message=fake.message(message_id),
    )
    fake.interactions.all[inter.id] = inter
    fake.interactions.by_token[inter.token] = inter
    return discord.Interaction(data=fake.interactions.payload(inter), state=bot._connection)


@pytest.fixture
def callbacks(mesa: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Every callback the bot sends: (url, query parameters); seen by the session under the
    gate (discord.py's own) and by the gate's lean transport, which the bot's own callbacks
    reach directly (``http_gate.exempt_request``, ``bot/ui/token_wire.py``)."""
    gate = mesa.bot.http._HTTPClient__session
    inner = gate.session
    sent: list[tuple[str, Any]] = []
    real = inner.request

    def request(method: str, url: Any, **kwargs: Any) -> Any:
        if "/callback" in str(url):
            sent.append((str(url), kwargs.get("params")))
        return real(method, url, **kwargs)

    monkeypatch.setattr(inner, "request", request, raising=False)
    wire = gate.wire
    if wire is not None:
        real_wire = wire.exchange  # what the gate sends every request on the wire through

        async def wired(method: str, url: Any, data: Any, headers: Any, overdue: Any = None) -> Any:
            if "/callback" in str(url):
                sent.append((str(url), dict(URL(str(url)).query) or None))  # a Target too
            return await real_wire(method, url, data, headers, overdue)

        monkeypatch.setattr(wire, "exchange", wired)
    return sent


async def _posted(mesa: Any, fake_discord: Any) -> int:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="go", custom_id="unread:click"))
    channel = mesa.bot.get_partial_messageable(fake_discord.channel.id)
    message = await channel.send(content="before", view=view)
    view.stop()
    return message.id


async def test_an_update_asks_no_answer_and_still_changes_the_message(
    fake_discord, mesa, callbacks
):
    message_id = await _posted(mesa, fake_discord)
    interaction = _click_seen_by_the_bot(fake_discord, mesa.bot, message_id)
    answered = await interaction.response.edit_message(content="after", view=None)

    assert fake_discord.message(message_id).content == "after"
    assert fake_discord.message(message_id).components == []
    assert interaction.response.is_done()
    assert answered is not None and answered.id == interaction.id
    assert answered.resource is None  # nothing asked, nothing parsed
    assert [params for _, params in callbacks] == [None]
    fake_discord.assert_no_violations()


async def test_an_update_with_an_image_asks_no_answer(fake_discord, mesa, callbacks):
    message_id = await _posted(mesa, fake_discord)
    interaction = _click_seen_by_the_bot(fake_discord, mesa.bot, message_id)
    image = discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\n"), "table.png", description="a table")
    await interaction.response.edit_message(content="drawn", attachments=[image])

    stored = fake_discord.message(message_id)
    assert stored.content == "drawn"
    assert [a.filename for a in stored.attachments] == ["table.png"]
    assert [params for _, params in callbacks] == [None]
    fake_discord.assert_no_violations()


async def test_a_deferred_update_asks_no_answer(fake_discord, mesa, callbacks):
    message_id = await _posted(mesa, fake_discord)
    interaction = _click_seen_by_the_bot(fake_discord, mesa.bot, message_id)
    await interaction.response.defer()

    assert fake_discord.interactions.all[interaction.id].callback_type == 6
    assert interaction.response.is_done()
    assert [params for _, params in callbacks] == [None]
    fake_discord.assert_no_violations()


async def test_an_answer_the_bot_reads_is_still_asked_for(fake_discord, mesa, callbacks):
    message_id = await _posted(mesa, fake_discord)
    interaction = _click_seen_by_the_bot(fake_discord, mesa.bot, message_id)
    answered = await interaction.response.send_message(content="a new message", ephemeral=True)

    assert answered is not None and answered.message_id is not None
    assert fake_discord.message(answered.message_id).content == "a new message"
    assert [params for _, params in callbacks] == [{"with_response": "1"}]


async def test_a_refused_update_raises_discord_py_s_error(fake_discord, mesa, callbacks):
    """A second answer to one click: Discord refuses it (already acknowledged), and the bot
    hears it as discord.py's ``HTTPException``, as when the answer was asked for."""
    message_id = await _posted(mesa, fake_discord)
    interaction = _click_seen_by_the_bot(fake_discord, mesa.bot, message_id)
    await interaction.response.defer()
    again = discord.Interaction(
        data=fake_discord.interactions.payload(fake_discord.interactions.all[interaction.id]),
        state=mesa.bot._connection,
    )
    with pytest.raises(discord.HTTPException):
        await again.response.edit_message(content="twice")
    assert fake_discord.message(message_id).content == "before"
    assert len(fake_discord.take_violations("already_acknowledged")) == 1  # the fake saw it too
