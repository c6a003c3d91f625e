"""Ce Amapatolli end to end: the real Mesa bot, unmodified discord.py, the fake Discord, users."""

from __future__ import annotations

from tests.e2e.alt_text import assert_alt_text_everywhere
from tests.e2e.amapatolli_driver import start_game
from tests.e2e.dm_count import assert_few_dms
from tests.message_text import blocks_of, check_v2, read_card, rows_of

SEED = "e2e-0063"  # 12 moves: plays, a draw, an accepted skip, a "¡Ce!" call-out and "Ce" announcements


async def test_three_players_play_a_full_game_from_their_dms(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED)

    # Everyone received their hand by DM: a card listing the cards, no picture of them (the
    # text and the buttons say it all; issue 29).
    for player in players:
        [first, *_] = player.dms()
        assert "mesa #" in read_card(first)["title"]
        assert first.attachments == []

    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    assert_few_dms(fake, players)  # one hand message each, edited in place (issue 31)
    assert_alt_text_everywhere(fake)  # every image says what it shows (issue 28 item 4)

    kinds = {action.split(".")[0] for _, action in table.oracle.log}
    assert {"p", "draw", "accept", "catch", "announce"} <= kinds
    public = table.public()
    results = next(f for f in read_card(public)["fields"] if f["name"] == "Resultado")
    names = {str(p.id): p.name for p in players}
    ranking = [names[seat] for group in table.oracle.ranking() for seat in group]
    positions = [results["value"].find(name) for name in ranking]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), (
        ranking,
        results["value"],
    )
    assert [b.label for b in public.buttons] == ["Revancha"]
    # Once the final views are out, the bot keeps nothing of the finished table in memory.
    service = mesa.bot.tables
    await fake.wait_until(
        lambda: service.registry.find(table.table_id) is None, what="table released"
    )
    listener = mesa.bot.listener
    await fake.wait_until(
        lambda: (
            not [k for k in listener.private._slots if k[0] == table.table_id]
            and table.table_id not in listener.public._slots
        ),
        what="the table's message slots released",
    )

    board = await (await players[0].slash("leaderboard", by="wins"))
    check_v2(board)
    rows = blocks_of(board)[0].splitlines()
    winner = next(p for p in players if p.name == ranking[0])
    assert f"<@{winner.id}>" in rows[0] and "1 victoria en 1 partida" in rows[0]


async def test_a_player_with_dms_closed_plays_through_ver_mi_mano(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")
    table = await start_game(fake, [alice, bob, carol], seed=SEED)
    notice = await fake.wait_for_message(lambda m: f"<@{bob.id}>" in m.content)
    assert "mensajes directos están cerrados" in notice.content
    await table.play_to_the_end()
    bob_moves = [action for seat, action in table.oracle.log if seat == str(bob.id)]
    assert bob_moves, "bob must have moved"
    assert bob.dms() == []
    await mesa.bot.listener.drain()  # the last turn mention is deleted
    # Every view bob used was an ephemeral only he could see.
    assert bob.ephemerals() and all(m.visible_to is bob.model for m in bob.ephemerals())
    assert (
        len([n for n in fake.channel_messages() if f"<@{bob.id}>" in n.content]) == 1
    )  # told once


BIG_SEED = "e2e-big-0223"  # 7-card hands, 67 moves, a hand grows to 17 cards


async def test_a_long_game_with_big_hands_stays_within_discord_limits(fake_discord, mesa):
    """Every payload of a long game (big hands: selects, pages) passes the validator."""
    fake = fake_discord
    mesa.seed = BIG_SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=BIG_SEED, hand_size=7)
    await table.play_to_the_end()
    assert table.moves == 67
    # every state each DM went through (the final ones have their buttons turned off)
    rows = [
        len(rows_of(state))
        for p in players
        for m in p.dms()
        for state in [*m.versions, {"components": m.components}]
    ]
    assert 0 < max(rows) <= 5
    assert fake.violations == []
