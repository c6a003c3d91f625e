"""A thread per table (issue 28) through the fake Discord: five tables at once in one channel,
each in its own thread and played to the end, the parent channel keeping one line per game (the
result edited into it) and the threads archived after the rematch window; a thread a moderator
deletes or locks mid-game re-opens the table in a new thread with its state; where threads are
impossible or turned off the table opens inline as before."""

from __future__ import annotations

import re

import pytest

from storage import SeatInfo
from tests.e2e.amapatolli_driver import AmapatolliTable
from tests.fakediscord.model import CREATE_PUBLIC_THREADS, THREAD_PERMISSIONS
from tests.message_text import read_card

SEED = "e2e-seed-0001"
OPTIONS = {"hand_size": 3}


def allow_threads(fake) -> None:
    fake.guild.everyone.permissions |= THREAD_PERMISSIONS


async def open_in_thread(fake, host) -> tuple[int, object, object]:
    """``/play amapatolli`` in #general: (table id, its thread, the lobby in it)."""
    line = await (await host.slash("play amapatolli", **OPTIONS))  # the line (issue 25)
    assert not line.ephemeral and line.channel is fake.channel, line
    table_id = int(re.search(r"#(\d+)", line.content)[1])
    note = await fake.wait_until(  # the host's private note names the thread
        lambda: next(
            (m for m in host.replies() if m.ephemeral and f"#{table_id} " in m.content), None
        ),
        what="the host's note",
    )
    found = re.search(r"<#(\d+)>", note.content)
    assert found, f"/play answered {note.content!r}"
    thread = fake.channels[int(found[1])]
    assert thread.is_thread and thread.parent is fake.channel
    lobby = await fake.wait_for_message(
        lambda m: bool(read_card(m)) and f"mesa #{table_id}" in (read_card(m).get("title") or ""),
        channel=thread,
    )
    return table_id, thread, lobby


async def start_in_thread(fake, host, guest) -> AmapatolliTable:
    table_id, thread, lobby = await open_in_thread(fake, host)
    await (await guest.click(lobby, "Unirse")).acknowledged()
    await fake.wait_until(lambda: f"2. {guest.name}" in lobby.text, what=f"{guest.name} seated")
    await (await host.click(lobby, "Empezar")).acknowledged()
    table = AmapatolliTable(fake, table_id, [host, guest], SEED, OPTIONS, channel=thread)
    await table.wait_version(0)
    return table


def parent_line(fake, table_id: int):
    """The table's latest line in #general (a table moved out of a lost thread has two)."""
    return [m for m in fake.channel_messages() if f"#{table_id}**" in m.content][-1]


async def test_five_tables_in_five_threads_of_one_channel_played_to_the_end(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    mesa.bot.threads.lines.rematch_window = 0.3
    pairs = [(fake.user(f"host{n}"), fake.user(f"guest{n}")) for n in range(5)]
    tables = []
    for host, guest in pairs:  # opened one after another, played all at once
        tables.append(await start_in_thread(fake, host, guest))
    threads = fake.threads_of()
    assert len(threads) == 5 and len({t.id for t in threads}) == 5
    assert sorted(t.name for t in threads) == sorted(
        f"Ce Amapatolli · #{t.table_id}" for t in tables
    )
    assert {t.channel.id for t in tables} == {t.id for t in threads}

    # Played one after another, all five open meanwhile; played at the same time in
    # tests/e2e/test_threads_concurrent.py.
    for table in tables:
        await table.play_to_the_end()

    for table in tables:
        await fake.wait_until(
            lambda table=table: "🏁" in parent_line(fake, table.table_id).content,
            what=f"the result of table {table.table_id} in the channel",
        )
        line = parent_line(fake, table.table_id)
        winners = {p.name for p in table.players}
        assert any(name in line.content for name in winners), line.content
        link = f"https://discord.com/channels/{fake.guild.id}/{table.channel.id}/"
        assert link + str(table.public().id) in line.content
        assert "Resultado" in table.public().text  # the result is in the thread too
    # Parent channel: one line per game (goal: at most two).
    assert len(fake.channel_messages()) == 5
    await fake.wait_until(
        lambda: all(fake.channels[t.channel.id].archived for t in tables),
        what="every thread archived after the rematch window",
    )


async def test_a_deleted_thread_reopens_the_table_in_a_new_thread_with_its_state(
    fake_discord, mesa
):
    fake = fake_discord
    allow_threads(fake)
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_in_thread(fake, alice, bob)
    for _ in range(3):
        await table.move()
    version = table.oracle.version
    old = table.channel
    fake.delete_thread(old)
    new = await fake.wait_until(
        lambda: next((t for t in fake.threads_of() if t is not old), None),
        what="a new thread for the table",
    )
    assert new.name == f"Ce Amapatolli · #{table.table_id}"
    table.channel = new
    await table.wait_version(version)  # the same game, shown again where it now lives
    await table.play_to_the_end()
    await fake.wait_until(
        lambda: "🏁" in parent_line(fake, table.table_id).content, what="the result line"
    )
    assert len(fake.channel_messages()) == 2  # the first line, and the one of the new thread


async def test_a_locked_thread_moves_the_table_and_an_archived_one_is_reopened(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_in_thread(fake, alice, bob)
    await table.move()
    fake.archive_thread(table.channel)  # archived, not locked: the bot opens it again
    await fake.wait_until(lambda: not table.channel.archived, what="the thread unarchived")
    await table.move()
    old = table.channel
    fake.archive_thread(old, locked=True)  # locked: the bot may not; the table moves
    new = await fake.wait_until(
        lambda: next((t for t in fake.threads_of() if t is not old and not t.archived), None),
        what="a new thread",
    )
    table.channel = new
    await table.wait_version(table.oracle.version)
    await table.play_to_the_end()


async def test_without_the_permission_the_table_opens_inline_and_says_why(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    fake.channel.bot_denied = CREATE_PUBLIC_THREADS
    alice = fake.user("alice")
    reply = await (await alice.slash("play amapatolli", **OPTIONS))  # the lobby (issue 25)
    note = await fake.wait_until(
        lambda: next((m for m in alice.replies() if m.ephemeral), None), what="the host's note"
    )
    assert "Crear hilos públicos" in note.content and "/ajustes" in note.content
    assert fake.threads_of() == []
    [lobby] = fake.channel_messages()
    assert lobby is reply and read_card(lobby) and "mesa #" in read_card(lobby)["title"]


async def test_settings_turn_threads_off_and_a_play_in_a_thread_stays_there(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    owner = fake.user("owner-of-mesa")
    fake.guild.owner_id = owner.id
    answer = await (await owner.slash("settings threads", enabled=False))
    assert "Cada mesa en su propio hilo: **no**" in answer.text
    alice = fake.user("alice")
    reply = await (await alice.slash("play amapatolli", **OPTIONS))
    assert "<#" not in reply.content and "hilo" not in reply.content
    assert fake.threads_of() == [] and len(fake.channel_messages()) == 1
    await (await owner.slash("settings threads", enabled=True))
    bob = fake.user("bob")
    table_id, thread, _ = await open_in_thread(fake, bob)
    # /play inside that thread: no thread in a thread, the table opens inline there.
    carol = fake.user("carol")
    inside = await (await carol.slash("play amapatolli", channel=thread, **OPTIONS))
    assert "<#" not in inside.content
    assert len(fake.threads_of()) == 1
    assert sum(1 for m in fake.channel_messages(thread) if read_card(m)) == 2


async def test_a_forced_30046_reposts_the_table_and_the_old_buttons_say_where(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_in_thread(fake, alice, bob)
    await table.move()
    old = table.public()
    fake.advance(hours=1)  # the table message is now over an hour old on Discord's clock
    fake.refuse_old_edits(channel=table.channel)  # and Discord refuses its edits: 30046
    await table.move()
    fresh = table.public()
    assert fresh.id != old.id and not old.deleted  # re-posted at once, the old one stays
    refused = [r for r in fake.requests if r.method == "PATCH" and r.status == 429]
    assert refused and str(old.id) in refused[0].path
    assert fake.take_violations() == []
    moved = await (await bob.click(old, "Ver mi mano"))
    link = f"https://discord.com/channels/{fake.guild.id}/{table.channel.id}/{fresh.id}"
    assert moved.ephemeral and "Esta mesa se movió" in moved.text and link in moved.text
    await table.play_to_the_end()  # nothing lost: the game goes on on the fresh message
    assert "Resultado" in table.public().text


@pytest.mark.parametrize("thread_made", [False, True])
async def test_killed_while_the_thread_is_made_the_table_is_reached_after_restart(
    fake_discord, mesa, thread_made
):
    """What a kill -9 leaves mid-placement: the lobby stored bound for a thread and its line
    posted and stored, the thread not yet made (or made, but not yet stored). The restarted bot
    makes (or finds) the thread from the line, moves the table into it and shows the lobby."""
    fake = fake_discord
    allow_threads(fake)
    host, guest = fake.user("alice"), fake.user("bob")
    await (await host.slash("profile")).acknowledged()  # the bot is up and knows the guild
    record = await mesa.bot.tables.repo.create(
        guild_id=str(fake.guild.id),
        channel_id=str(fake.channel.id),
        game="amapatolli",
        host_id=str(host.id),
        locale="es",
        options={"hand_size": 3},
        seats=[SeatInfo(id=str(host.id), name=host.name)],
        seed=SEED,
        parent_channel_id=str(fake.channel.id),
    )
    line = await mesa.bot.get_channel(fake.channel.id).send(f"line of #{record.id}")
    await mesa.bot.threads.homes.set_line(record.id, str(line.id))
    if thread_made:
        await line.create_thread(name="made before the kill")
    await mesa.restart()

    thread = await fake.wait_until(
        lambda: fake.channels.get(line.id), what="the table's thread (the line's id)"
    )
    lobby = await fake.wait_for_message(
        lambda m: bool(read_card(m)) and f"mesa #{record.id}" in (read_card(m).get("title") or ""),
        channel=thread,
    )
    # A thread found made already is Discord's 400 / 160004: expected here, once.
    assert len(fake.take_violations("bad_request")) == (1 if thread_made else 0)
    await (await guest.click(lobby, "Unirse")).acknowledged()
    await fake.wait_until(lambda: f"2. {guest.name}" in lobby.text, what="bob seated")
    await (await host.click(lobby, "Empezar")).acknowledged()
    table = AmapatolliTable(fake, record.id, [host, guest], SEED, OPTIONS, channel=thread)
    await table.wait_version(0)
    assert [m.id for m in fake.channel_messages()] == [line.id]  # nothing inline in #general


async def test_a_table_message_about_an_hour_old_gets_a_fresh_one(fake_discord, mesa):
    fake = fake_discord
    allow_threads(fake)
    kit = mesa.bot.listener.kit
    now = [kit.clock()]
    kit.clock = lambda: now[0]  # the bot's own clock, moved by the test
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_in_thread(fake, alice, bob)
    await table.move()
    old = table.public()
    now[0] += 56 * 60  # the message is about an hour old: posted afresh, not edited
    await table.move()
    fresh = table.public()
    assert fresh.id != old.id and not old.deleted
    assert not [r for r in fake.requests if r.status == 429]  # no 30046 was needed
    moved = await (await alice.click(old, "Ver mi mano"))
    assert "Esta mesa se movió" in moved.text and str(fresh.id) in moved.text
    await table.play_to_the_end()
    # The table's last word forgets it (bot/ui/fresh.py keeps only open tables' messages).
    await fake.wait_until(lambda: len(kit.ages) == 0, what="the table's message ages forgotten")
