"""How a table's end reads in the DMs, and turn mentions for players whose DMs are closed
(issue 12, "At the table"). The real bot on the fake Discord, a game of Ce Amapatolli."""

from __future__ import annotations

from tests.e2e.amapatolli_driver import GAME, start_game
from tests.e2e.driver_kit import view_version
from tests.e2e.endgame_kit import check_the_end
from tests.message_text import clickable, read_card

SEED = "e2e-0063"  # 12 moves
MENTION = "te toca en la mesa"


def _no_dm_is_clickable(players) -> None:
    for player in players:
        for message in player.dms():
            assert clickable(message) == [], (player.name, message.text, clickable(message))


async def test_stop_turns_every_dm_view_off(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED)
    for _ in range(4):
        await table.move()
    await mesa.bot.listener.drain()
    assert any(clickable(m) for p in players for m in p.dms())
    await (await players[0].slash("stop")).response()
    await mesa.bot.listener.drain()
    await fake.settle()
    _no_dm_is_clickable(players)


async def test_the_end_names_the_winner_in_every_dm_and_turns_the_views_off(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED)
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    await fake.settle()
    _no_dm_is_clickable(players)
    names = {str(p.id): p.name for p in players}
    winner = names[table.oracle.ranking()[0][0]]
    public = table.public()
    public_results = next(f for f in read_card(public)["fields"] if f["name"] == "Resultado")
    for player in players:
        final = player.dms()[-1]
        results = next(f for f in read_card(final)["fields"] if f["name"] == "Resultado")
        assert results["value"] == public_results["value"]
        assert results["value"].splitlines()[0].find(winner) >= 0, results["value"]
        assert "La partida terminó." in final.text
    await check_the_end(fake, mesa, public, table.table_id, players)


async def test_a_closed_dm_player_gets_one_live_mention_per_turn(fake_discord, mesa):
    """(Bob is taken as not watching: ``notice_after`` 0. One playing right now from his live
    hand is not named: the next test.)"""
    fake = fake_discord
    mesa.seed = SEED
    mesa.bot.listener.kit.notice_after = 0.0
    alice, bob, carol = fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")
    table = await start_game(fake, [alice, bob, carol], seed=SEED)
    await fake.wait_for_message(lambda m: "mensajes directos están cerrados" in m.content)
    channel = fake.channel_messages()[0].channel
    seen: dict[int, int] = {}  # mention message id -> the move it was seen at

    def mentions(*, live: bool):
        every = [m for m in fake.messages.values() if m.channel is channel and MENTION in m.content]
        return [m for m in every if not m.deleted] if live else every

    async def check(moves: int) -> None:
        await mesa.bot.listener.drain()
        live = mentions(live=True)
        assert len(live) <= 1, [m.content for m in live]  # never a flood
        if str(bob.id) in table.oracle.to_act() and moves > 0:
            [mention] = live
            assert f"<@{bob.id}>" in mention.content
            seen.setdefault(mention.id, moves)
        else:
            assert live == [], [m.content for m in live]  # the turn passed: it is gone

    await table.play_to_the_end(check)
    await mesa.bot.listener.drain()
    assert mentions(live=True) == []
    every = mentions(live=False)
    assert every and {m.id for m in every} == set(seen)
    # One message per turn: consecutive moves of bob's one turn share it.
    bob_turns = 0
    for n, (seat, _) in enumerate(table.oracle.log):
        previous = table.oracle.log[n - 1][0] if n else None
        bob_turns += seat == str(bob.id) and previous != seat and n > 0
    assert len(every) <= max(bob_turns, 1)
    assert all(m.deleted for m in every)
    # The closed-DM notice was posted once.
    notices = [
        m for m in fake.channel_messages() if "mensajes directos están cerrados" in m.content
    ]
    assert len(notices) == 1


async def test_a_player_playing_from_his_live_hand_is_not_named_until_he_stops(fake_discord, mesa):
    """Issue 29: the mention costs a post and a delete; a closed-DM player who clicked at the
    table within ``notice_after`` seconds, his live "Ver mi mano" hand following it, sees his
    turn there (never held) and is not named; once he has not clicked for that long (the
    bot's clock moved on) his next turn names him again."""
    fake = fake_discord
    mesa.seed = SEED
    kit = mesa.bot.listener.kit
    alice, bob, carol = fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")
    table = await start_game(fake, [alice, bob, carol], seed=SEED)
    await fake.wait_for_message(lambda m: "mensajes directos están cerrados" in m.content)
    channel = fake.channel_messages()[0].channel
    bob_seat = str(bob.id)

    def mentions():
        return [m for m in fake.messages.values() if m.channel is channel and MENTION in m.content]

    turns_watched = 0
    while turns_watched < 2:  # two turns of his after a move of his: he is playing
        seat, action = await table.move()
        await mesa.bot.listener.drain()
        if seat == bob_seat and not action.startswith("catch."):
            turns_watched += 1
    named_before = len(mentions())
    while bob_seat not in table.oracle.to_act():
        await table.move()
    await mesa.bot.listener.drain()
    assert table.hand_views(bob) and view_version(table.hand_views(bob)[-1]) == (
        table.oracle.version
    )  # his live hand shows his turn...
    assert len(mentions()) == named_before  # ...and no mention names him
    while not _hands_the_turn_to(table, bob_seat):
        await table.move()  # he plays his turn (from his hand), the others theirs...
    await fake.settle()  # (his clicks' handling is over: before the clock moves)
    kit.clock = lambda real=kit.clock: real() + kit.notice_after + 1  # ...and he clicks no more
    await table.move()  # his turn again
    await mesa.bot.listener.drain()
    [live] = [m for m in mentions() if not m.deleted]
    assert f"<@{bob.id}>" in live.content


def _hands_the_turn_to(table, seat: str) -> bool:
    """Whether the oracle's next move, another seat's, makes it ``seat``'s turn."""
    mover, action = table.oracle.next_move()
    state, _ = GAME.apply(table.oracle.state, mover, GAME.decode_action(action))
    return mover != seat and seat not in table.oracle.to_act() and seat in GAME.to_act(state)


async def test_ver_mi_mano_is_one_live_private_message_that_follows_the_table(fake_discord, mesa):
    """A closed-DM player's "Ver mi mano" answer follows the table through its interaction
    token (no press needed on later turns); a new press posts a new answer and retires the
    old one (buttons off, "no longer updated": he may have dismissed it); once Discord refuses
    the token (15 minutes) the bot drops it and the next press gets a new answer; /stop shows
    the closing on his live view."""
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")
    table = await start_game(fake, [alice, bob, carol], seed=SEED)
    bob_seat = str(bob.id)

    async def play_until_bob_has_moved(times: int) -> None:
        """(from his private view: a call-out is made on the public message)"""
        moved = 0
        while moved < times:
            seat, action = await table.move()
            moved += seat == bob_seat and not action.startswith("catch.")

    await play_until_bob_has_moved(2)
    await mesa.bot.listener.drain()  # his click's answer may have been an edit after the ack
    [view] = table.hand_views(bob)  # one live private message (the one before it retired)
    # Edited, not posted again: posted at an earlier version, it shows the table's now. (How
    # many edits that took depends on timing: the live hand's edit through the press token and
    # the answer to his click on it may be one edit or two.)
    assert view.versions and view_version(view.versions[0]) < table.oracle.version
    assert view_version(view) == table.oracle.version
    again = await table.show_hand(bob)
    await fake.wait_until(lambda: clickable(view) == [], what="his earlier hand retired")
    assert again is not view and table.hand_views(bob) == [again]
    assert clickable(view) == [] and "ya no se actualiza" in view.text  # retired, not lying

    fake.advance(minutes=16)  # every token so far has expired: Discord refuses the edits
    await play_until_bob_has_moved(1)
    views = table.hand_views(bob)
    assert len(views) == 2 and views[0] is again
    latest = views[-1]
    assert clickable(latest)  # his live view, buttons on

    await (await alice.slash("stop")).response()
    await mesa.bot.listener.drain()
    await fake.settle()
    assert clickable(latest) == []  # /stop: his live view shows the closing, buttons off
    assert "La mesa se cerró" in latest.text and "Te toca" not in latest.text
    assert fake.violations == []
