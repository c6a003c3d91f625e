"""Issue 25: an inline table's lobby is the ``/play`` response itself (bot/ui/lobby_answer.py):
no bot-token call opens it, it is stored (persist before show: the table, then the message it
is shown in), and the command's token edits it; a ``/play`` whose lobby is not ready in time is
acknowledged privately and its lobby posted with the bot token, as before."""

from __future__ import annotations

import asyncio
import re

from bot.service.lobby import Lobby
from tests.e2e.test_token_edits import CHANNEL_EDIT, Edits


def _bot_posts(requests, channel_id: int) -> list:
    return [
        r for r in requests if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"
    ]


async def test_the_play_answer_is_the_lobby_and_costs_no_bot_token_call(fake_discord, mesa):
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    requests: list = []
    fake.request_observers.append(requests.append)
    edits = Edits(fake)
    lobby = await (await alice.slash("play amapatolli", hand_size=3))
    assert not lobby.ephemeral and lobby.interaction is not None  # the response, for everyone
    assert [b.label for b in lobby.buttons][:2] == ["Unirse", "Salir"]
    table_id = int(re.search(r"#(\d+)", lobby.text).group(1))
    table = mesa.bot.tables.registry.find(table_id)
    # Stored once Discord has it (edited and recovered as before); the command's handler
    # stores it after its answer, which the loop may run after this test's next step.
    await fake.wait_until(
        lambda: table.record.message_id == str(lobby.id), what="the lobby's message stored"
    )
    await (await bob.click(lobby, "Unirse")).acknowledged()
    await fake.wait_until(lambda: f"2. {bob.name}" in lobby.text, what="bob seated")
    await (await alice.click(lobby, "Empezar")).acknowledged()
    await fake.wait_until(lambda: "Versión 0" in lobby.text, what="the game on the lobby message")
    await mesa.bot.listener.drain()
    channel = lobby.channel.id
    assert _bot_posts(requests, channel) == []  # no lobby post with the bot token
    bot_edits = [r for token, r in edits.since(0) if token is None]
    assert not [r for r in bot_edits if int(CHANNEL_EDIT.match(r.path)[1]) == channel]
    assert fake.channel_messages(lobby.channel) == [lobby]  # one message in the channel


async def test_a_lobby_not_ready_in_time_is_posted_by_the_bot_and_the_host_told_privately(
    fake_discord, mesa, monkeypatch
):
    fake = fake_discord
    alice = fake.user("alice")
    requests: list = []
    fake.request_observers.append(requests.append)
    opened = Lobby.open

    async def slow(self, **kwargs):
        await asyncio.sleep(2.3)  # past lobby_answer.ANSWER_WITHIN: acknowledged meanwhile
        return await opened(self, **kwargs)

    monkeypatch.setattr(Lobby, "open", slow)
    handle = await alice.slash("play amapatolli", hand_size=3)
    assert await handle.acknowledged() == 5  # "thinking"
    note = await handle.response()
    assert note.ephemeral and "abierta en este canal" in note.text  # privately, as before
    table_id = int(re.search(r"#(\d+)", note.text).group(1))
    lobby = await fake.wait_for_message(
        lambda m: "Unirse" in [b.label for b in m.buttons] and f"#{table_id}" in m.text
    )
    assert not lobby.ephemeral and lobby.interaction is None  # posted by the bot
    assert len(_bot_posts(requests, lobby.channel.id)) == 1
    record = mesa.bot.tables.registry.find(table_id).record
    assert record.message_id == str(lobby.id)


async def test_a_refused_play_is_answered_privately(fake_discord, mesa):
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    await (await alice.slash("play amapatolli", hand_size=3))
    busy = await (await bob.slash("play amapatolli"))
    assert busy.ephemeral and "/terminar" in busy.text


async def test_in_a_thread_the_play_answer_is_the_line_the_thread_starts_from(fake_discord, mesa):
    from tests.e2e.test_threads_e2e import allow_threads, open_in_thread

    fake = fake_discord
    allow_threads(fake)
    alice = fake.user("alice")
    requests: list = []
    fake.request_observers.append(requests.append)
    table_id, thread, lobby = await open_in_thread(fake, alice)
    [line] = fake.channel_messages()
    assert line.interaction is not None and f"#{table_id}" in line.content  # the response
    assert thread.id == line.id  # the thread started from it
    assert _bot_posts(requests, fake.channel.id) == []  # no bot-token line
    assert len(_bot_posts(requests, thread.id)) == 1  # the lobby in the thread (no token there)
    record = mesa.bot.tables.registry.find(table_id).record
    assert record.parent_message_id == str(line.id) and record.message_id == str(lobby.id)
