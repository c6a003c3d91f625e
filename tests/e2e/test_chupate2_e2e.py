"""Chúpate 2 end to end: the real Mesa bot, unmodified discord.py, the fake Discord, four users.

The course of SEED (teams of two: alice + carol against bob + dave), 23 moves:
v1 carol plays green; v2 bob bluffs a +4 on alice (he holds green); v3 alice says "¡Mentira!" and is
right: bob draws 4, alice alone sees his hand and plays on; v5 dave (DMs closed, he plays from
"Ver mi mano") plays an honest +4 on carol; v6 carol says "¡Mentira!" and is wrong: she draws 6;
... v23 alice goes out with a Comodín: her team wins.
"""

from __future__ import annotations

from tests.e2e.chupate2_driver import HouseRulesOracle, start_game
from tests.e2e.driver_kit import draft_buttons, offers_on
from tests.e2e.endgame_kit import check_the_end, table_views
from tests.message_text import blocks_of, read_card

SEED = "e2e-c2-0079"


async def test_four_players_in_teams_play_to_the_standings_with_a_challenged_plus4(
    fake_discord, mesa
):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    dave = fake.user("dave", dms_open=False)
    players = [alice, bob, carol, dave]
    table = await start_game(fake, players, seed=SEED, options={"teams": "pairs"})
    await fake.wait_for_message(lambda m: f"<@{dave.id}>" in m.content)  # told to use the button

    public = read_card(table.public())["description"]
    assert "Equipo 1: alice, carol" in public and "Equipo 2: bob, dave" in public
    assert "alice: 7 cartas · Eq. 1" in public
    image = table.public().attachments
    assert [a.filename for a in image] == ["table.png"] and image[0].data.startswith(b"\x89PNG")
    first_dm = alice.dms()[0]
    assert first_dm.attachments == []  # the hand is text and buttons, no picture (issue 29)
    assert "**Tu mano (7 cartas)**" in read_card(first_dm)["description"]

    assert await table.move() == (str(carol.id), "p.g3b")
    # bob's +4 is two clicks in his DM: the card, then its colour in the picker
    assert await table.move() == (str(bob.id), "p.Fc.b")

    # alice, hit by the +4, is offered "¡Mentira!" and "Aceptar (+4)" as buttons in her DM
    hit = await table.private_view(alice, 2)
    assert [b.label for b in hit.buttons[:2]] == ["¡Mentira!", "Aceptar (+4)"]
    assert set(offers_on(hit, table.table_id)) == {"chal", "take"}
    assert "Te han jugado un +4 sobre 🟩 verde" in read_card(hit)["description"]
    public = read_card(table.public())["description"]
    assert "alice recibe un +4 de bob" in public and "+4" in public

    assert await table.move() == (str(alice.id), "chal")
    # the challenger alone sees bob's hand as it was; the +4 was a bluff
    seen = await table.private_view(alice, 3)
    revealed = read_card(seen)["description"]
    assert "Su mano al jugar el +4:" in revealed and "¡ilegal!" in revealed
    bobs_hand = [line for line in revealed.splitlines() if line.startswith("👀")][0]
    assert "🟩 7 verde" in bobs_hand  # he held green, the colour in force
    for other in (bob, carol):
        assert all("Su mano al jugar" not in m.text for m in other.dms())
    assert "Su mano al jugar" not in table.public().text
    assert "¡Mentira! alice acierta: bob roba 4." in table.public().text

    await table.move()  # alice plays on
    # dave plays his +4 from "Ver mi mano": the picker opens in his ephemeral view
    assert await table.move() == (str(dave.id), "p.Fb.y")
    assert table.pickers[-1].ephemeral and table.pickers[-1].visible_to is dave.model
    assert await table.move() == (str(carol.id), "chal")
    assert "¡Mentira! carol se equivoca: el +4 de dave era legal, roba 6." in table.public().text

    await table.play_to_the_end()
    assert table.moves == 23
    assert table.oracle.log[-1] == (str(alice.id), "p.Wb.r")
    assert dave.dms() == [] and dave.ephemerals()

    final = table.public()
    results = next(f for f in read_card(final)["fields"] if f["name"] == "Resultado")["value"]
    assert results.splitlines()[0] == "🏆 ¡Gana el equipo 1: alice, carol!"
    assert "Equipo 1: alice, carol · 56 pts" in results
    assert "Equipo 2: bob, dave · 0 pts" in results
    assert "¡alice gana la partida para el equipo 1!" in final.text
    assert [b.label for b in final.buttons] == ["Revancha"]
    await check_the_end(fake, mesa, final, table.table_id, players)
    # dave played every turn from "Ver mi mano": one private message, edited each time
    assert len(table_views(dave, table.table_id, dms=False)) == 1

    board = await (await bob.slash("leaderboard", game="chupate2", by="wins"))
    rows = blocks_of(board)[0].splitlines()
    assert len(rows) == 4
    for row, player in zip(rows[:2], sorted([alice, carol], key=lambda p: str(p.id)), strict=True):
        assert f"<@{player.id}>" in row
        assert "1 victoria en 1 partida · 56 puntos · 🤝 1 en equipo" in row
    for row in rows[2:]:
        assert "0 victorias en 1 partida · 0 puntos" in row and "🤝" not in row
    assert fake.violations == []


WILD_SEED = "e2e-c2w-033"  # two players; alice starts with nothing to play but a Comodín


async def test_the_colour_picker_cancels_and_survives_a_restart(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = WILD_SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_game(fake, [alice, bob], seed=WILD_SEED, options={})
    assert table.oracle.next_move() == (str(alice.id), "p.Wc.y")
    dm = await table.private_view(alice, 0)

    def ops() -> dict[str, tuple[int, str]]:
        return draft_buttons(dm, table.table_id)

    async def click(op: str) -> None:
        await (await alice.click(dm, custom_id=ops()[op][1])).acknowledged()

    await click("w.Wc")
    await fake.wait_until(lambda: "x" in ops(), what="the colour picker")
    assert offers_on(dm, table.table_id) == {}  # nothing but the picker while it is open
    await click("x")  # cancel: back to the hand
    await fake.wait_until(lambda: "w.Wc" in ops(), what="the hand again")
    assert "draw" in offers_on(dm, table.table_id)

    await click("w.Wc")
    await fake.wait_until(lambda: "c.Wc.y" in ops(), what="the colour picker again")
    await mesa.restart()  # the picker's buttons carry the card: they still work
    await click("c.Wc.y")
    table.oracle.apply(str(alice.id), "p.Wc.y")
    await table.wait_version(1)
    assert "alice juega 🌈 Comodín → 🟡 amarillo." in table.public().text
    assert "color en juego: 🟡 amarillo" in table.public().text
    assert fake.violations == []


LAST_CARD_SEED = "e2e-c2u-226"  # 23 moves: carol forgets "¡Última!" at v16, alice catches her


async def test_ultima_variant_a_missing_call_is_caught_from_the_public_message(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = LAST_CARD_SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    table = await start_game(
        fake, [alice, bob, carol], seed=LAST_CARD_SEED, options={"last_card": True}
    )
    while table.oracle.version < 16:
        await table.move()
    public = table.public()
    assert "carol tiene una carta y no avisó: ¡píllalo!" in public.text
    assert "¡Pillado! (carol)" in [b.label for b in public.buttons]
    assert await table.move() == (str(alice.id), "catch")  # clicked on the public message
    assert "alice pilla a carol sin avisar: roba 2." in table.public().text
    assert "carol: 3 cartas" in table.public().text

    await table.move()
    assert await table.move() == (str(alice.id), "announce")  # from her DM, before her last but one
    assert "alice: 2 cartas · ☝️ ¡Última!" in table.public().text
    await table.play_to_the_end()
    assert table.oracle.log[-1] == (str(alice.id), "p.y3b") and table.moves == 23
    results = next(f for f in read_card(table.public())["fields"] if f["name"] == "Resultado")
    assert results["value"].splitlines()[0].startswith("1.º alice — ")
    assert fake.violations == []


POINTS_SEED = "e2e-c2p-021"  # to 50 points: alice takes round 1 (+37), bob round 2 (+109)


async def test_points_game_shows_the_running_score_between_rounds(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = POINTS_SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_game(fake, [alice, bob], seed=POINTS_SEED, options={"points": "50"})
    assert "Ronda 1 · meta 50 puntos" in table.public().text
    while table.oracle.version < 20:
        await table.move()
    text = table.public().text
    assert "¡alice se queda sin cartas! Ronda 1: 37 puntos." in text
    assert "Ronda 2 · meta 50 puntos" in text and "Ronda 1: alice +37" in text
    assert "alice: 7 cartas · 37 pts" in text and "bob: 7 cartas · 0 pts" in text
    assert "Ronda 2: reparte alice, empieza bob." in text
    new_hand = await table.private_view(bob, 20)  # the new round's hand, by DM
    assert "**Tu mano (7 cartas)**" in new_hand.text

    await table.play_to_the_end()
    assert table.moves == 32
    results = next(f for f in read_card(table.public())["fields"] if f["name"] == "Resultado")
    assert results["value"].splitlines() == [
        "1.º bob — 109 puntos",
        "2.º alice — 37 puntos",
        "Ronda 1: alice +37",
        "Ronda 2: bob +109",
    ]
    board = await (await alice.slash("leaderboard", game="chupate2", by="wins"))
    rows = blocks_of(board)[0].splitlines()
    assert f"<@{bob.id}>" in rows[0] and "1 victoria en 1 partida · 109 puntos" in rows[0]
    assert f"<@{alice.id}>" in rows[1] and "0 victorias en 1 partida · 37 puntos" in rows[1]
    assert fake.violations == []


HOUSE_SEED = "e2e-c2h-147"  # 19 moves with all three house rules on
HOUSE_RULES = {"jump_in": True, "seven_o": True, "draw_until_playable": True}


async def test_house_rules_jump_in_seven_o_and_draw_until_playable(fake_discord, mesa):
    """The course of HOUSE_SEED (alice, bob, carol; counter-clockwise after the first card):
    v4 carol jumps in out of turn on bob's blue 5 with the other blue 5, from her DM; v5 bob
    plays a 7 and picks alice to swap hands with; v7 alice draws until a playable card comes (2
    cards); v17 alice plays a 0 and every hand moves on; carol goes out at v18."""
    fake = fake_discord
    mesa.seed = HOUSE_SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    players = [alice, bob, carol]
    a, b, c = (str(p.id) for p in players)
    table = await start_game(
        fake, players, seed=HOUSE_SEED, options=HOUSE_RULES, oracle=HouseRulesOracle
    )
    oracle = table.oracle

    async def last_dm_shows(user, text: str) -> None:
        await fake.wait_until(lambda: text in user.dms()[-1].text, what=f"{user.name}: {text}")

    while oracle.version < 4:
        await table.move()
    # jump-in: not carol's turn, yet her DM offers her blue 5 (identical to the top)
    jump = await table.private_view(carol, 4)
    assert "No es tu turno, pero puedes actuar:" in jump.text
    assert set(offers_on(jump, table.table_id)) == {"p.b5b"}
    assert await table.move() == (c, "p.b5b")
    public = table.public().text
    assert "¡carol se cuela con 🔷 5 azul!" in public and "Turno de **bob**" in public

    # 7-0: bob's 7, then whom to swap with (buttons in his DM); the hands change places
    assert await table.move() == (b, "p.b7a")
    assert "bob jugó un 7: elige con quién cambiar la mano." in table.public().text
    swap = await table.private_view(bob, 6)
    labels = [x.label for x in swap.buttons if (x.custom_id or "").startswith("t:")]
    assert labels == ["Cambiar mano con alice", "Cambiar mano con carol"]
    alices, bobs = list(oracle.state.hands[a]), list(oracle.state.hands[b])
    assert await table.move() == (b, "swap.0")
    assert oracle.state.hands[b] == alices and oracle.state.hands[a] == bobs
    assert "bob cambia su mano con alice." in table.public().text
    assert "**Tu mano (4 cartas)**" in (await table.private_view(alice, 7)).text
    await last_dm_shows(bob, "**Tu mano (6 cartas)**")
    await last_dm_shows(bob, "🔺 rojo: 1, 5, Chúpate 2")  # what alice held

    # draw until playable: one draw action, two cards, the second one playable
    assert await table.move() == (a, "draw")
    assert "alice roba 2 cartas hasta sacar una que sirva." in table.public().text
    drawn = await table.private_view(alice, 8)
    assert "Robaste: " in drawn.text and set(offers_on(drawn, table.table_id)) == {
        "p.b6a",
        "pass",
    }

    while oracle.version < 17:
        await table.move()
    # 7-0: a 0 passes every hand on, in the direction of play
    hands = {seat: list(oracle.state.hands[seat]) for seat in (a, b, c)}
    assert await table.move() == (a, "p.g0a")
    assert (
        "alice juega un 0: cada mano pasa al siguiente jugador (en sentido antihorario)."
        in table.public().text
    )
    assert oracle.state.hands[c] == [x for x in hands[a] if x != "g0a"]  # ccw: alice -> carol
    assert "**Tu mano (1 carta)**" in (await table.private_view(carol, 18)).text

    await table.play_to_the_end()
    assert table.moves == 19 and oracle.log[-1] == (c, "p.g9b")
    results = await check_the_end(fake, mesa, table.public(), table.table_id, players)
    assert results.splitlines()[0].startswith("1.º carol — ")
    assert fake.violations == []
