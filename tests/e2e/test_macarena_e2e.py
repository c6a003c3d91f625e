"""Macarena end to end: the real Mesa bot, unmodified discord.py, the fake Discord, two people and
a computer player, to one amulet.

The course of SEED (alice, bob, CPU 1; 99 moves): hand 1 ends when bob goes out; he has 4 coins
and lacks more than one element, so he is asked what to buy and clicks "air" (a button of his
"Ver mi mano" view). The bot restarts there, and the coins and element tokens won in hand 1 are
still on the table afterwards. At the end of hand 2 alice and bob each choose which element to
give up (they hold the most cards); bob's four elements become an amulet and he wins (alice's
own buy is made for her: the game is won). People build 13 multi-card series with the builder;
bob has his DMs closed and plays everything from "Ver mi mano".

The course depends on the engine's ``normal`` computer player (CPU 1 and the people's policy):
if that changes, pick a new SEED with ``macarena_driver.play_offline``.
"""

from __future__ import annotations

from games.macarena.elements import ELEMENTS
from tests.e2e.endgame_kit import check_the_end, table_views
from tests.e2e.macarena_driver import start_game
from tests.message_text import block_of, blocks_of, read_card

SEED = "mac-e2e-1423"
ELEMENT_EMOJI = {"earth": "🌍", "air": "💨", "water": "💧", "fire": "🔥"}


def token_text(tokens) -> str:
    elements = "".join(ELEMENT_EMOJI[e] for e in ELEMENTS if e in tokens.elements) or "ninguno"
    return f"monedas {tokens.coins} · elementos {elements} · amuletos {tokens.amulets}"


def seat_lines(table, names: dict[str, str]) -> dict[str, str]:
    description = read_card(table.public())["description"]
    return {
        seat: next(line for line in description.splitlines() if f" {name} — " in line)
        for seat, name in names.items()
    }


async def test_two_people_and_a_cpu_play_two_hands_across_a_restart(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob", dms_open=False)  # bob: "Ver mi mano"
    table = await start_game(fake, [alice, bob], seed=SEED, options={"amulets_to_win": 1}, cpus=1)
    names = {str(alice.id): "alice", str(bob.id): "bob", "cpu1": "🤖 CPU 1 (normal)"}

    first = alice.dms()[0]
    assert first.attachments == []  # the hand is text and buttons, no picture (issue 29)
    assert "**Tu mano** (7)" in read_card(first)["description"]
    public = table.public()
    assert [a.filename for a in public.attachments] == ["table.png"]
    assert public.attachments[0].data.startswith(b"\x89PNG")
    assert "Pozos: **1**" in read_card(public)["description"]

    restarted_with: dict[str, str] = {}

    async def restart_between_hands() -> None:
        if table.oracle.state.hand_number == 2 and not restarted_with:
            await table.wait_version(table.oracle.version)
            result = table.oracle.state.hand_result
            assert result.hand == 1 and result.reason == "went_out"
            gone = names[result.went_out]
            embed = read_card(table.public())
            # the hand's scoring is its own section (issue 31), not part of the description
            [scoring] = [f for f in embed["fields"] if f["name"] == "Puntuación de la mano 1"]
            assert f"Mano 1 ({gone} se quedó sin cartas)" in scoring["value"]
            restarted_with.update({s: token_text(table.oracle.state.tokens[s]) for s in names})
            # whoever moves next can see their private view before the bot stops
            seat, _ = table.oracle.next_move()
            await table.private_view(table.by_seat[seat], table.oracle.version)
            old_dm = await table.private_view(alice, table.oracle.version)
            await mesa.restart()
            # a button of a DM sent before the restart still works
            await (await alice.click(old_dm, "Ver mi colección")).acknowledged()
            await fake.wait_until(
                lambda: "**Tu colección** (0)" in old_dm.text,
                what="alice's (new, empty) collection after the restart",
            )

    async def look_at_the_collection() -> None:
        """alice opens her collection in her DM: the cards she collected, by element."""
        view = await table.private_view(alice, table.oracle.version)
        await (await alice.click(view, "Ver mi colección")).acknowledged()
        mine = table.oracle.state.collections[str(alice.id)]
        assert mine, "alice has collected cards by now"
        await fake.wait_until(
            lambda: f"**Tu colección** ({len(mine)})" in view.text, what="alice's collection"
        )
        for card in mine:
            assert card.pretty in view.text
        assert view.button("Ocultar mi colección") is not None
        seen.append(len(mine))

    seen: list[int] = []
    bought = False
    moves_before_restart = None
    while not table.oracle.finished:
        await restart_between_hands()
        if restarted_with and moves_before_restart is None:
            moves_before_restart = table.moves
            # the first move after the restart: bob draws from "Ver mi mano" on the public
            # message posted before it
            assert await table.move() == (str(bob.id), "draw")
            # the tokens won in hand 1 survived the restart (the state is stored with each move)
            lines = seat_lines(table, names)
            for seat, tokens in restarted_with.items():
                assert tokens in lines[seat], (tokens, lines[seat])
            assert any("monedas 0 · elementos ninguno" not in t for t in restarted_with.values())
            continue
        if table.moves == 30:
            await look_at_the_collection()
        if table.oracle.next_move()[1].startswith("b."):
            # the end of hand 1: bob (DMs closed) is asked what to buy with 4 coins; the
            # driver clicks his pick among the buy buttons of "Ver mi mano"
            view = await table.private_view(bob, table.oracle.version)
            labels = {b.label for b in view.buttons if (b.custom_id or "").startswith("t:")}
            assert labels == {"Comprar aire (4 monedas)", "Comprar agua (4 monedas)"}
            assert "Tienes 4 monedas: elige el elemento que compras" in view.text
            assert await table.move() == (str(bob.id), "b.a")
            assert "bob cambia 4 monedas por aire." in table.public().text
            bought = True
            continue
        await table.move()

    assert mesa.starts == 2 and moves_before_restart is not None and seen
    assert bob.dms() == [] and bob.ephemerals()  # bob played from "Ver mi mano"
    assert all(m.visible_to is bob.model for m in bob.ephemerals())
    assert len(table.oracle.log) == 99 and table.oracle.state.hand_number == 2
    assert len(table.series_built) == 13  # multi-card series built click by click
    assert {seat for seat, _ in table.series_built} == {str(alice.id), str(bob.id)}
    # the choices people clicked: bob's buy after hand 1, then the penalties of hand 2
    a, b = str(alice.id), str(bob.id)
    assert bought and table.choices == [(b, "b.a"), (a, "g.a"), (b, "g.e")]

    outcome = table.oracle.outcome()
    assert outcome.winners == [b]
    final = table.public()
    results = next(f for f in read_card(final)["fields"] if f["name"] == "Resultado")["value"]
    lines = results.splitlines()
    assert lines[0] == "🏆 ¡bob gana la partida!"
    assert lines[1].startswith("1. bob — amuletos 1 · ")
    assert lines[2].startswith("2. 🤖 CPU 1 (normal) — amuletos 0 · ")
    assert lines[3].startswith("3. alice — amuletos 0 · ")
    assert lines[-1] == "Manos jugadas: 2."
    # the game is won: alice's last buy is made for her
    assert "alice cambia 4 monedas por tierra." in final.text
    assert [b.label for b in final.buttons] == ["Revancha"]
    await check_the_end(fake, mesa, final, table.table_id, [alice, bob])
    # bob played from "Ver mi mano": one private message per start of the bot, edited each time
    assert len(table_views(bob, table.table_id, dms=False)) <= 2

    # leaderboards: games won, and the amulets (and Macarenas) counters the outcome stored
    board = await (await bob.slash("leaderboard", game="macarena", by="wins"))
    rows = blocks_of(board)[0].splitlines()
    assert f"<@{bob.id}>" in rows[0] and "1 victoria en 1 partida" in rows[0]
    assert f"<@{alice.id}>" in rows[1] and "0 victorias en 1 partida" in rows[1]
    assert block_of(board, "Amuletos conseguidos") == f"1. <@{bob.id}> — 1"
    assert len(blocks_of(board)) == 2  # the wins, and the one counter with a row
    guild = str(fake.guild.id)
    standings = mesa.bot.standings
    assert await standings.stats_of(guild, str(bob.id), "macarena") == {"amulets": 1}
    assert await standings.stats_of(guild, str(alice.id), "macarena") == {}
    assert await standings.stat_board(guild, "macarena", "amulets") == [(str(bob.id), 1)]
    assert await standings.stat_board(guild, "macarena", "macarenas") == []
    assert fake.violations == []
