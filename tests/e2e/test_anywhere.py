"""Issue 30.1: a table that lives on interaction tokens alone, where the app is installed to a
user and the bot itself is absent (a group DM, a server without the bot). The lobby is the
``/play`` response, the table that same message edited through the freshest press's token,
hands are the table's ephemeral "Ver mi mano", turn pings follow-ups of a table token: not one
bot-token call about that channel, no DM. With no fresh token the table pauses (its last
token says so), and any press of its buttons resumes it; a restart resumes on the next press."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.amapatolli_driver import AmapatolliTable, open_lobby
from tests.e2e.anywhere_kit import (
    SERVER_WITHOUT_BOT,
    assert_hands_current,
    assert_interaction_only,
    open_there,
    place_without_the_bot,
    play_everywhere,
    started_there,
)
from tests.e2e.conftest import Mesa
from tests.e2e.driver_kit import HAND_BUTTON, offers_on, take
from tests.message_text import read_card

SEED = "e2e-0063"
PAUSE_AFTER = 600.0  # seconds (settings' interaction_pause_seconds; 14 minutes by default)


async def _start(fake, players, channel, **options) -> AmapatolliTable:
    options = {"hand_size": 3, **options}
    table_id, lobby = await open_there(fake, "amapatolli", players, channel, **options)
    table = AmapatolliTable(fake, table_id, players, SEED, options, channel=channel)
    await started_there(table, lobby)  # the lobby became the table: one message
    return table


def _result_ranked(table: AmapatolliTable, players) -> None:
    public = table.public()
    results = next(f for f in read_card(public)["fields"] if f["name"] == "Resultado")
    names = {str(p.id): p.name for p in players}
    ranking = [names[seat] for group in table.oracle.ranking() for seat in group]
    positions = [results["value"].find(name) for name in ranking]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), results


async def test_a_whole_game_in_a_group_dm_costs_no_bot_token_call(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    table = await _start(fake, players, group)
    stored = mesa.bot.tables.registry.find(table.table_id)
    assert stored.record.guild_id == f"channel:{group.id}"  # its scope: the group DM
    assert stored.record.meta.get("interaction_only") is True
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    _result_ranked(table, players)
    assert_hands_current(table, players, table.oracle.version)
    assert_interaction_only(fake, group, players)
    # the turn pings were follow-ups of table tokens, each deleted once its turn passed
    pings = [m for m in fake.messages.values() if m.channel is group and "te toca" in m.text]
    assert pings and all(m.interaction is not None for m in pings)
    assert all(m.deleted for m in pings[:-1])
    # "Revancha": the new lobby is the press's public follow-up; the old table's button is
    # turned off through that press's token
    finished = table.public()
    await (await players[1].click(finished, "Revancha")).acknowledged()
    rematch = await fake.wait_for_message(
        lambda m: (
            bool(read_card(m))
            and "mesa #" in (read_card(m).get("title") or "")
            and m.id != finished.id
        ),
        channel=group,
    )
    assert not rematch.ephemeral
    await fake.wait_until(
        lambda: all(b.disabled for b in finished.buttons if b.label == "Revancha"),
        what="the old Revancha off",
    )
    await (await players[0].click(rematch, "Unirse")).acknowledged()
    await fake.wait_until(lambda: players[0].name in rematch.text, what="alice in the rematch")
    await mesa.bot.listener.drain()
    assert_interaction_only(fake, group, players)


async def test_a_whole_game_in_a_server_without_the_bot(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    channel = await place_without_the_bot(fake, mesa.bot, players, kind=SERVER_WITHOUT_BOT)
    table = await _start(fake, players, channel)
    assert mesa.bot.tables.registry.find(table.table_id).record.guild_id == str(channel.guild_id)
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    _result_ranked(table, players)
    assert_hands_current(table, players, table.oracle.version)
    assert_interaction_only(fake, channel, players)


@pytest.fixture
async def quick_pause(fake_discord, tmp_path):
    """Mesa whose interaction-only tables pause ``PAUSE_AFTER`` seconds after a press (the
    setting); a test shortens it for one press, so the pause comes right after that press."""
    harness = Mesa(fake_discord, tmp_path / "mesa.db", interaction_pause_seconds=PAUSE_AFTER)
    try:
        await harness.start()
        yield harness
    finally:
        await harness.stop()


def _paused(table: AmapatolliTable) -> bool:
    return "en pausa" in (table.public().text or "")


async def test_a_table_without_a_fresh_token_pauses_and_a_press_resumes_it(
    fake_discord, quick_pause
):
    """No press for a while: the last token edits the table to say it is paused, its
    turn timer stops; "Ver mi mano" resumes it (the press's token shows it as it is) and the
    game goes on to its end, all without the bot token."""
    fake, mesa = fake_discord, quick_pause
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    table = await _start(fake, players, group)
    await table.move()
    service = mesa.bot.tables
    assert service.timers.armed(table.table_id)
    pauses = mesa.bot.listener.kit.anywhere
    assert pauses.pause_after == PAUSE_AFTER  # the setting
    await fake.settle()  # the move's click done with (a late one would carry the table on)
    await mesa.bot.listener.drain()
    pauses.pause_after = 0.2  # for the next press only
    await table.show_hand(players[2])  # the last press for a while
    pauses.pause_after = PAUSE_AFTER
    await fake.wait_until(lambda: _paused(table), what="paused")
    assert not service.timers.armed(table.table_id)  # no timer runs while paused
    version = table.version()
    await asyncio.sleep(0.3)
    assert table.version() == version and _paused(table)
    await table.show_hand(players[1])  # any press of the table's buttons resumes it
    await fake.wait_until(lambda: not _paused(table), what="resumed")
    assert service.timers.armed(table.table_id)
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    _result_ranked(table, players)
    assert_interaction_only(fake, group, players)


async def test_a_restart_resumes_on_the_next_press(fake_discord, mesa):
    """After a restart no token is known: the table waits (no timer) until a press, which
    shows it and carries the game on; recovery never tries the bot token there."""
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    table = await _start(fake, players, group)
    await table.move()
    await mesa.restart()
    await play_everywhere(mesa.bot)
    service = mesa.bot.tables
    await asyncio.sleep(0.3)
    loaded = service.registry.find(table.table_id)
    assert loaded is None or not service.timers.armed(table.table_id)
    await table.show_hand(players[0])
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    _result_ranked(table, players)
    assert_interaction_only(fake, group, players)


async def test_a_stranger_pressing_the_hand_button_is_told_privately(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob")]
    dave = fake.user("dave")
    group = await place_without_the_bot(fake, mesa.bot, players, dave)
    table = await _start(fake, players, group)
    before = table.public().text
    answer = await (await dave.click(table.public(), HAND_BUTTON))
    assert answer.ephemeral and answer.visible_to is dave.model
    assert "no juegas" in answer.text.lower() or "no estás" in answer.text.lower(), answer.text
    assert table.public().text == before
    assert_interaction_only(fake, group, [*players, dave])


async def test_two_players_pressing_start_at_once(fake_discord, mesa):
    """Host and guest press "Empezar" together: the game starts once, the other press is
    answered, nothing goes through the bot token."""
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    group = await place_without_the_bot(fake, mesa.bot, [alice, bob])
    table_id, lobby = await open_lobby(fake, alice, channel=group, hand_size=3)
    await (await bob.click(lobby, "Unirse")).acknowledged()
    await fake.wait_until(lambda: f"2. {bob.name}" in lobby.text, what="bob seated")
    first, second = await asyncio.gather(alice.click(lobby, "Empezar"), bob.click(lobby, "Empezar"))
    await asyncio.gather(first.acknowledged(), second.acknowledged())
    table = AmapatolliTable(fake, table_id, [alice, bob], SEED, {"hand_size": 3}, channel=group)
    await table.wait_version(0)
    await mesa.bot.listener.drain()
    assert mesa.bot.tables.registry.find(table_id).version == 0  # started once
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    assert_interaction_only(fake, group, [alice, bob])


async def test_a_token_expired_mid_game_pauses_rather_than_using_the_bot_token(fake_discord, mesa):
    """Discord's clock runs 16 minutes on while the bot still thinks its table token fresh:
    the edit is refused (401), the token dropped, the table paused; never a bot-token call.
    The next press resumes it."""
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    table = await _start(fake, players, group)
    await table.move()
    await fake.settle()  # the move's click and views all through before the clock jumps: a
    await mesa.bot.listener.drain()  # token offered after it would be fresh to the bot
    fake.advance(minutes=16)  # every token of before is dead for Discord
    kit = mesa.bot.listener.kit
    stored = mesa.bot.tables.registry.find(table.table_id)
    await kit.represent(stored)  # an edit through the old token: refused
    await mesa.bot.listener.drain()
    assert kit.anywhere.held(stored)
    assert not mesa.bot.tables.timers.armed(table.table_id)
    refused = [r for r in fake.requests if r.kind == "interaction" and r.status == 401]
    assert refused  # it tried the token Discord no longer takes ...
    assert_interaction_only(fake, group, players)  # ... and nothing else
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    _result_ranked(table, players)
    assert_interaction_only(fake, group, players)


async def test_a_late_lobby_edits_its_public_acknowledgement(fake_discord, mesa, monkeypatch):
    """A ``/play`` whose lobby is not ready in time is acknowledged publicly ("thinking"), and
    the lobby then edits that acknowledgement: never a bot-token post there."""
    from bot.ui import lobby_answer

    monkeypatch.setattr(lobby_answer.LobbyAnswer.acknowledge_late, "__defaults__", (0.0,))
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    handle = await players[0].slash("play amapatolli", channel=group, hand_size=3)
    lobby = await handle
    assert not lobby.ephemeral
    await fake.wait_until(
        lambda: "mesa #" in (read_card(lobby) or {}).get("title", ""), what="lobby"
    )
    assert [m.id for m in fake.channel_messages(group)] == [lobby.id]
    await (await players[1].click(lobby, "Unirse")).acknowledged()
    await fake.wait_until(lambda: f"2. {players[1].name}" in lobby.text, what="bob seated")
    await mesa.bot.listener.drain()
    assert_interaction_only(fake, group, players)


async def _move_from_the_hand(table: AmapatolliTable) -> None:
    """The oracle's next move, from the mover's live hand when it shows the table already (no
    press of the table's buttons); else as ``table.move`` does."""
    seat, action = table.oracle.next_move()
    user, version = table.by_seat[seat], table.oracle.version
    await table.wait_version(version)
    view = table._hand_at(user, version)
    offers = offers_on(view, table.table_id) if view is not None else {}
    if action not in offers:
        await table.move()
        return
    await (await take(user, offers[action])).acknowledged()
    table.oracle.apply(seat, action)
    table.moves += 1
    await table.wait_version(table.oracle.version)


async def test_active_play_from_the_hands_carries_the_table_on_instead_of_pausing(
    fake_discord, quick_pause
):
    """Players who move from their ephemeral hands never press the table's buttons: when the
    table's pause draws near, a player's click posts it anew as that click's public follow-up
    (the table from then on, edited through that token), the old message becomes a pointer
    without buttons, and the game never pauses; still no bot-token call."""
    fake, mesa = fake_discord, quick_pause
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    table = await _start(fake, players, group)
    for _ in players:  # every player has a live hand (their moves need no press of the table)
        await table.move()
    first = table.public()
    pauses = mesa.bot.listener.kit.anywhere
    # The pause drawing near, as 7 minutes after the last press of 14: the next click from a
    # hand carries the table (its pause counts as near from PAUSE_AFTER seconds away).
    assert pauses.carry_within is None  # by default: half of pause_after
    pauses.carry_within = PAUSE_AFTER
    for _ in range(8):
        await _move_from_the_hand(table)
        await mesa.bot.listener.drain()
        if table.public().id != first.id:
            break
    pauses.carry_within = None
    moved = table.public()
    assert moved.id != first.id, "the table was not posted anew"
    assert moved.interaction is not None and not moved.ephemeral  # a click's public follow-up
    stored = mesa.bot.tables.registry.find(table.table_id)
    # Stored: it is the table now. The click that posted it stores it next, in its own
    # handler (which ``drain`` does not wait for): on a loaded machine the test can read the
    # record between the two, so it waits for the record (a hang bound, not a speed).
    await fake.wait_until(
        lambda: stored.record.message_id == str(moved.id), what="the new message stored"
    )
    await fake.wait_until(lambda: not first.buttons, what="the old message without buttons")
    assert "más abajo" in first.text and "mesa #" not in first.text
    assert not pauses.held(stored) and not _paused(table)
    assert mesa.bot.tables.timers.armed(table.table_id)
    await table.play_to_the_end()  # its next presses edit the new message
    await mesa.bot.listener.drain()
    # its next presses edit the new message (or, had a refused edit dropped its token, a
    # later click carried it on once more: the new message then points on too)
    assert table.public().id == moved.id or "más abajo" in moved.text
    assert not _paused(table)
    _result_ranked(table, players)
    assert_interaction_only(fake, group, players)


async def test_a_pause_notice_prepared_before_a_move_never_shows_the_older_table(
    fake_discord, quick_pause, monkeypatch
):
    """The pause notice is being prepared (its image drawn) when a player moves from their
    live hand: that click carries the table on (posted anew at the new version), and the
    notice, prepared for an older state, is never shown; the old message is a pointer."""
    from bot.ui import anywhere

    fake, mesa = fake_discord, quick_pause
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    table = await _start(fake, players, group)
    await table.move()
    seat, action = table.oracle.next_move()
    assert not action.startswith("catch.")
    user = table.by_seat[seat]
    preparing, moved = asyncio.Event(), asyncio.Event()
    real_finish = anywhere.finish

    async def slow_finish(payload, *args, **kwargs):
        preparing.set()
        await moved.wait()  # the move lands while the notice is prepared
        return await real_finish(payload, *args, **kwargs)

    monkeypatch.setattr(anywhere, "finish", slow_finish)
    pauses = mesa.bot.listener.kit.anywhere
    await fake.settle()  # earlier clicks done with (a late one would carry it on)
    await mesa.bot.listener.drain()
    pauses.pause_after = 0.2  # for this press only
    hand = await table.show_hand(user)
    pauses.pause_after = PAUSE_AFTER
    first = table.public()
    await asyncio.wait_for(preparing.wait(), 60)
    (notice,) = [t for t in asyncio.all_tasks() if t.get_name() == f"pause-{table.table_id}"]
    await (await take(user, offers_on(hand, table.table_id)[action])).acknowledged()
    table.oracle.apply(seat, action)
    await table.wait_version(table.oracle.version)
    moved.set()
    await asyncio.wait_for(notice, 60)  # the notice's task, to its end
    await mesa.bot.listener.drain()
    await fake.settle()  # every request made, answered
    assert table.public().id != first.id and not _paused(table)
    assert table.version() == table.oracle.version
    assert not first.buttons and "en pausa" not in first.text
    stored = mesa.bot.tables.registry.find(table.table_id)
    assert not pauses.held(stored)  # the new message's token lives on: not taken by the notice
    monkeypatch.setattr(anywhere, "finish", real_finish)
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    _result_ranked(table, players)
    assert_interaction_only(fake, group, players)


async def test_the_old_message_s_buttons_answer_when_no_token_could_make_it_a_pointer(
    fake_discord, quick_pause
):
    """Paused, then 16 minutes on (every token of before dead for Discord): a move from a
    live hand carries the table on; the old message could not be turned into a pointer and
    keeps its buttons, and "Ver mi mano" there still shows the player's current hand while the
    new message stays the table."""
    fake, mesa = fake_discord, quick_pause
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    table = await _start(fake, players, group)
    await table.move()
    seat, action = table.oracle.next_move()
    assert not action.startswith("catch.")
    user = table.by_seat[seat]
    pauses = mesa.bot.listener.kit.anywhere
    await fake.settle()  # earlier clicks done with (a late one would carry it on)
    await mesa.bot.listener.drain()
    pauses.pause_after = 0.2  # for this press only
    hand = await table.show_hand(user)
    pauses.pause_after = PAUSE_AFTER
    await fake.wait_until(lambda: _paused(table), what="paused")
    first = table.public()
    fake.advance(minutes=16)
    await (await take(user, offers_on(hand, table.table_id)[action])).acknowledged()
    table.oracle.apply(seat, action)
    await table.wait_version(table.oracle.version)
    await mesa.bot.listener.drain()
    moved = table.public()
    assert moved.id != first.id and not _paused(table)
    assert first.buttons  # no token could edit it any more
    other = next(p for p in players if p is not user)
    answer = await (await other.click(first, HAND_BUTTON)).acknowledged()
    assert answer is not None
    view = await fake.wait_until(
        lambda: table._hand_at(other, table.oracle.version), what="the hand from the old message"
    )
    assert view.ephemeral and view.visible_to is other.model
    assert table.public().id == moved.id
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    _result_ranked(table, players)
    assert_interaction_only(fake, group, players)
