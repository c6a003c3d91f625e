"""Maquiavelo end to end: three players on the fake Discord play a whole game from their DMs,
with plays made in the suit selects + "Jugar" (one of them only possible by rearranging the
table), one typed in the modal, a hint, a refused play, and the result."""

from __future__ import annotations

import pytest

from games.maquiavelo import GAME
from games.maquiavelo.cards import face
from tests.e2e.endgame_kit import check_the_end, table_views
from tests.e2e.maquiavelo_driver import MODAL, SELECTS, count_faces, selected, start_game
from tests.message_text import read_card


async def refused_play(table, user, version: int, card: int) -> None:
    """Pick a card that fits nowhere and press "Jugar": the engine refuses and says why."""
    msg = await table.builder(user, version)
    select = next(s for s in msg.selects if str(card) in s.values)
    await (await user.select(msg, [str(card)], custom_id=select.custom_id)).acknowledged()
    await table.fake.wait_until(lambda: selected(msg) == {str(card)}, what="one card picked")
    play = table.button(msg, "d:", "play")
    await (await user.click(msg, custom_id=play.custom_id)).acknowledged()
    await table.fake.wait_until(
        lambda: any("No hay forma de ordenar la mesa" in (m.content or "") for m in user.replies()),
        what="the refusal",
    )


async def clear_selection(table, user, version: int) -> None:
    msg = await table.builder(user, version)
    assert selected(msg)  # the hint filled the selection
    clear = table.button(msg, "d:", "clear")
    await (await user.click(msg, custom_id=clear.custom_id)).acknowledged()
    await table.fake.wait_until(
        lambda: "Elige cartas en los menús" in msg.text and not selected(msg),
        what="the selection cleared",
    )


# 21 moves (3 players, 11 cards): at version 8 Beto's 10♦ J♦ fit only by taking the 9♦ out of
# the four nines; at version 12 Carla types the whole table in the modal; Beto goes out.
SEED = "mq-e2e-81"
REARRANGE_AT = 8
FIRST_DRAW_AT = 4  # Ana has nothing to play: a refused play, then a draw


@pytest.mark.parametrize("carla_dms", [True, False], ids=["dms", "carla-dms-closed"])
async def test_three_players_play_maquiavelo_with_selects_the_modal_and_a_hint(
    fake_discord, mesa, carla_dms
):
    """With Carla's DMs closed she plays (selects, Jugar, the modal) from "Ver mi mano"."""
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("ana", "beto")] + [fake.user("carla", dms_open=carla_dms)]
    ana, beto, carla = players
    table = await start_game(fake, players, seed=SEED, hand_size=11)
    oracle = table.oracle
    seat_of = {p.name: str(p.id) for p in players}

    public = table.public()
    assert [a.filename for a in public.attachments] == ["table.png"]
    first = ana.dms()[0]
    assert first.attachments == []  # the hand is text and buttons, no picture (issue 29)

    while not oracle.finished:
        version = oracle.state.version
        seat, action, path = oracle.next_move()
        user = table.by_seat[seat]
        if version == FIRST_DRAW_AT:
            assert user is ana and action == "draw"
            await table.wait_version(version)
            text = await table.hint(ana, version)
            assert "No puedes bajar ninguna carta: te toca robar." in text
            await refused_play(table, ana, version, oracle.state.hands[seat][0])
            assert table.version() == version  # nothing happened
        if version == REARRANGE_AT:
            assert user is beto and path == SELECTS
            await table.wait_version(version)
            old = [[face(c) for c in m] for m in oracle.state.table]
            assert oracle.needs_rearranging(seat, action)  # brute force: no meld can stay whole
            text = await table.hint(beto, version)
            assert "Sugerencia: juega 10♦ J♦ (2 cartas)." in text
            await clear_selection(table, beto, version)
        await table.move()
        if path == MODAL:  # typed by Carla: the whole table, prefilled, plus 5♠ 6♦
            assert "carla reordena la mesa y baja 5♠ 6♦." in table.public().text
        if version == REARRANGE_AT:
            assert oracle.log[-1] == (seat, action, SELECTS)
            assert "beto reordena la mesa y baja 10♦ J♦." in table.public().text
            new = [sorted(face(c) for c in m) for m in oracle.state.table]
            assert any(sorted(m) not in new for m in old)  # an old meld was broken up
            assert count_faces(oracle.state.table) - count_faces(
                [[f] for m in old for f in m]
            ) == count_faces([[c] for c in GAME.decode_action(action).cards])

    paths = [p for _, _, p in oracle.log]
    assert paths.count(MODAL) == 1 and paths.count(SELECTS) >= 8 and oracle.rearranged_by_selects
    modal_seat, modal_action, _ = next(entry for entry in oracle.log if entry[2] == MODAL)
    assert modal_seat == seat_of["carla"] and modal_action.startswith("a")
    assert table.moves == 21

    # the bot's own table is the oracle's, card for card
    # (a finished table leaves the bot's memory at once; the database keeps its last state)
    record = await mesa.bot.tables.repo.get(table.table_id)
    assert GAME.load_state(record.state).table == oracle.state.table
    public = table.public()
    results = next(f for f in read_card(public)["fields"] if f["name"] == "Resultado")
    assert results["value"].startswith("1.º beto")
    assert "beto se queda sin cartas y gana" in results["value"]
    assert "beto: 0 cartas" in read_card(public)["description"]
    assert [b.label for b in public.buttons] == ["Revancha"]
    await check_the_end(fake, mesa, public, table.table_id, players)
    if not carla_dms:
        carla_moves = [a for s, a, _ in oracle.log if s == seat_of["carla"]]
        assert len(carla_moves) == 7 and carla.dms() == []
        # Seven turns from "Ver mi mano", yet two private messages: the first answer, edited on
        # every later press, and the modal's answer (which is edited from then on).
        views = table_views(carla, table.table_id, dms=False)
        assert len(views) == 2 and all(m.visible_to is carla.model for m in views)
    assert fake.violations == []
