"""Issue 29, fewer requests per move: a press on the lobby message (join, leave, add a CPU)
is answered with that message updated, ONE request (UPDATE_MESSAGE), when the change and
its view are ready within the click's budget: no deferred update, no later edit of the lobby, and
no intent written before the answer (a lobby press never answers "thinking"). A change not ready
in time is acknowledged meanwhile (a deferred update) and the lobby edited after, as before
(``LobbyCog._change_in_place``). A Triple Triad pick is answered with its picker updated alike.
No sleeps, no timing luck: the fast presses have the widest budget Discord allows, the slow
change waits for its own acknowledgement."""

from __future__ import annotations

import asyncio
import re

from tests.e2e.driver_kit import HandlersDone
from tests.e2e.test_token_edits import Edits
from tests.e2e.triad_driver import open_against_cpu
from tests.fakediscord.server import RequestRecord
from tests.waiting import within_guard

UPDATE_MESSAGE, DEFERRED_UPDATE = 7, 6


async def _lobby(fake, mesa, monkeypatch):
    """Alice's inline lobby (the ``/play`` response), shown and quiet; Bob about to join."""
    alice, bob = fake.user("alice"), fake.user("bob")
    done = HandlersDone(mesa.bot.pending_commands, monkeypatch)  # (before the first handler)
    lobby = await (await alice.slash("play amapatolli", hand_size=3))
    table_id = int(re.search(r"#(\d+)", lobby.text).group(1))
    await mesa.bot.listener.drain()
    await fake.wait_until(lambda: done.all_done(fake, kind=2), what="the /play handler's end")
    recorded: list[str] = []
    writes = mesa.bot.tables.intents.start
    monkeypatch.setattr(
        mesa.bot.tables.intents,
        "start",
        lambda intent: recorded.append(intent.action) or writes(intent),
    )
    return alice, bob, lobby, table_id, done, recorded


async def test_a_join_is_answered_with_the_lobby_in_one_callback_and_no_later_edit(
    fake_discord, mesa, monkeypatch
):
    fake = fake_discord
    # A budget no loaded machine's join outlasts (Discord's 3 s allow it): answered in place.
    monkeypatch.setattr(mesa.bot.settings, "answer_in_place_ms", 2500)
    alice, bob, lobby, table_id, done, recorded = await _lobby(fake, mesa, monkeypatch)
    edits = Edits(fake)
    handle = await bob.click(lobby, "Unirse")
    assert await handle.acknowledged() == UPDATE_MESSAGE
    assert f"2. {bob.name}" in lobby.text  # the answer itself shows him seated
    await fake.wait_until(lambda: done.all_done(fake), what="the join's handler returned")
    await mesa.bot.listener.drain()
    assert edits.since(0) == []  # no deferred update's later edit, by any token
    assert recorded == []  # no intent written before the answer
    table = mesa.bot.tables.registry.find(table_id)
    assert [s.id for s in table.record.seats] == [str(alice.id), str(bob.id)]  # stored

    # The next press is answered the same way: the lobby's worker had nothing left to show.
    cpu = await alice.click(lobby, "Añadir CPU")
    assert await cpu.acknowledged() == UPDATE_MESSAGE
    assert "CPU 1" in lobby.text
    await fake.wait_until(lambda: done.all_done(fake), what="the CPU press's handler returned")
    await mesa.bot.listener.drain()
    assert edits.since(0) == []
    assert recorded == []


async def test_a_join_not_ready_in_time_is_deferred_then_the_lobby_edited(
    fake_discord, mesa, monkeypatch
):
    fake = fake_discord
    alice, bob, lobby, table_id, done, recorded = await _lobby(fake, mesa, monkeypatch)
    edits = Edits(fake)
    acknowledged = asyncio.Event()  # the join goes on only once the press was acknowledged
    join = mesa.bot.tables.lobby.join

    async def slow_join(*args, **kwargs):
        await acknowledged.wait()
        return await join(*args, **kwargs)

    monkeypatch.setattr(mesa.bot.tables.lobby, "join", slow_join)
    handle = await bob.click(lobby, "Unirse")
    assert await handle.acknowledged() == DEFERRED_UPDATE  # by the budget's timer
    assert f"2. {bob.name}" not in lobby.text
    acknowledged.set()
    await fake.wait_until(lambda: f"2. {bob.name}" in lobby.text, what="bob seated")
    await fake.wait_until(lambda: done.all_done(fake), what="the join's handler returned")
    await mesa.bot.listener.drain()
    # The lobby edited once, through the press's own token (offered with its deferred update).
    assert [token for token, _ in edits.since(0)] == [handle.interaction.token]
    assert recorded == []


async def test_a_triad_pick_is_answered_with_the_picker_in_one_callback(
    fake_discord, mesa, monkeypatch
):
    fake = fake_discord
    monkeypatch.setattr(mesa.bot.settings, "answer_in_place_ms", 2500)  # (as above)
    alice = fake.user("alice")
    table_id, picker = await open_against_cpu(fake, alice, payout="una", level="easy")
    await mesa.bot.listener.drain()
    recorded: list[str] = []
    writes = mesa.bot.tables.intents.start
    monkeypatch.setattr(
        mesa.bot.tables.intents,
        "start",
        lambda intent: recorded.append(intent.action) or writes(intent),
    )
    requests: list[RequestRecord] = []
    fake.request_observers.append(requests.append)
    add = next(s for s in picker.selects if s.custom_id.startswith(f"tts:{table_id}:add"))
    handle = await alice.select(picker, [add.values[0]], custom_id=add.custom_id)
    assert await handle.acknowledged() == UPDATE_MESSAGE
    assert "Elegidas (1/5)" in picker.text  # the answer itself shows the pick
    await mesa.bot.listener.drain()
    token = handle.interaction.token
    assert [r for r in requests if token in r.path and r.method == "PATCH"] == []  # no edit
    assert recorded == []  # no intent written before the answer


async def test_a_triad_pick_is_answered_before_the_lobby_shows_it(fake_discord, mesa, monkeypatch):
    """The lobby's count of picks is edited after the pick's answer, not before it: a lobby
    edit that waits (here held until the pick is answered; live, the bot token's pacer) no
    longer holds the picker's answer past the press's budget (a deferred update and an edit,
    issue 29), and the lobby still ends up showing the pick."""
    fake = fake_discord
    monkeypatch.setattr(mesa.bot.settings, "answer_in_place_ms", 2500)  # (as above)
    alice = fake.user("alice")
    table_id, picker = await open_against_cpu(fake, alice, payout="una", level="easy")
    await mesa.bot.listener.drain()
    public = mesa.bot.listener.public
    present, held, answered = public._present_public, asyncio.Event(), asyncio.Event()

    async def held_until_answered(table, slot):
        held.set()
        await answered.wait()
        await present(table, slot)

    monkeypatch.setattr(public, "_present_public", held_until_answered)
    add = next(s for s in picker.selects if s.custom_id.startswith(f"tts:{table_id}:add"))
    handle = await alice.select(picker, [add.values[0]], custom_id=add.custom_id)
    assert await handle.acknowledged() == UPDATE_MESSAGE  # not held behind the lobby's edit
    assert "Elegidas (1/5)" in picker.text
    # The lobby's edit is under way (its worker may still be on its way to it): held until
    # now, so it cannot have been shown before the answer.
    await within_guard(held.wait())
    answered.set()
    await mesa.bot.listener.drain()
    lobby = fake.message(int(mesa.bot.tables.registry.find(table_id).record.message_id))
    assert "(1/5)" in lobby.text  # the lobby shows the pick too
