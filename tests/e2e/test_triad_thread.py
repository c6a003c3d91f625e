"""``/play triad`` (Triple Triad's own challenge command) opens its table in a thread of its
own like every other game (issue 28): one line in the channel, the table in the thread, the
result edited into the line."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.e2e.test_threads_e2e import allow_threads
from tests.e2e.triad_driver import TriadMatch
from tests.fakediscord.model import Channel, Message


@dataclass
class ThreadMatch(TriadMatch):
    thread: Channel | None = None

    def public(self) -> Message:
        """The table's message in its thread (read as text: an embed or Components V2)."""
        marker = f"mesa #{self.table_id}"
        for msg in reversed(self.fake.channel_messages(self.thread)):
            if msg.author is self.fake.bot_user and marker in msg.text:
                return msg
        raise LookupError(f"no public message for table {self.table_id}")


def _thread_of(fake, content: str) -> Channel:
    found = re.search(r"<#(\d+)>", content)
    assert found, content
    thread = fake.channels[int(found[1])]
    assert thread.is_thread and thread.parent is fake.channel
    return thread


async def test_play_triad_against_the_computer_plays_in_a_thread(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    mesa.seed = "triad-e2e-random"
    alice = fake.user("alice")
    reply = await (
        await alice.slash("play triad", random_hand=True, level="easy", payout="directo")
    )
    assert reply.ephemeral
    table_id = int(re.search(r"#(\d+)", reply.content)[1])
    thread = _thread_of(fake, reply.content)
    assert thread.name == f"Triple Triad · #{table_id}"
    match = ThreadMatch(fake, table_id, alice, thread=thread)
    await fake.wait_until(lambda: match.version() is not None, what="the game started")
    await match.play()
    [line] = fake.channel_messages()  # the one line in #general, the result edited into it
    await fake.wait_until(lambda: "🏁" in line.content, what="the result in the line")
    assert f"/{thread.id}/{match.public().id}" in line.content
    assert fake.take_violations() == []


async def test_a_triad_challenge_opens_in_a_thread_and_names_the_challenged(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    alice, bob = fake.user("alice"), fake.user("bob")
    reply = await (await alice.slash("play triad", opponent=bob.model))
    assert "Reto enviado a bob" in reply.content
    table_id = int(re.search(r"mesa #(\d+)", reply.content)[1])
    thread = _thread_of(fake, reply.content)
    lobby = await fake.wait_for_message(
        lambda m: f"#{table_id}" in m.text and bool(m.buttons), channel=thread
    )
    assert lobby.channel is thread
    assert len(fake.channel_messages()) == 1  # #general: the line only
    assert fake.take_violations() == []


async def test_a_last_pick_made_in_the_channel_leaves_the_game_in_its_thread(fake_discord, mesa):
    """The last pick's press posts the game as its follow-up only where the table lives: the
    picker answered ``/play`` in #general, the table lives in its thread."""
    from tests.e2e.triad_driver import pick_five

    fake = fake_discord
    allow_threads(fake)
    mesa.seed = "triad-e2e-01"
    alice = fake.user("alice")
    picker = await (await alice.slash("play triad", level="easy", payout="una"))
    table_id = int(re.search(r"#(\d+)", picker.text)[1])
    thread = _thread_of(fake, picker.text)
    match = ThreadMatch(fake, table_id, alice, thread=thread)
    await pick_five(fake, alice, picker, table_id)
    await fake.wait_until(lambda: match.version() == 0, what="the game started in the thread")
    assert match.public().channel is thread
    assert len(fake.channel_messages()) == 1  # #general: the line only
    assert fake.take_violations() == []
