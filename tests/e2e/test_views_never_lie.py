"""Issue 31 "Views that never lie": at every ending (stop, the computer taking a seat after
timeouts, the game over) every private view (DM hand, "Ver mi mano" ephemeral) and every
follower's DM is brought to the table's final truth: none says "your turn" when it is not, no
button stays live on a version the table left, no turn notice stays. The real bot on the fake
Discord, a game of Ce Amapatolli: alice and carol play by DM, bob (DMs closed) from "Ver mi
mano", dora follows the table by DM."""

from __future__ import annotations

import asyncio

from tests.e2e.amapatolli_driver import start_game
from tests.e2e.dm_count import assert_few_dms
from tests.fakediscord.model import Message
from tests.message_text import clickable, read_card

SEED = "e2e-0063"  # 12 moves
YOUR_TURN = "Te toca"


async def _seat_everyone(fake, mesa):
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")
    dora = fake.user("dora")
    table = await start_game(fake, [alice, bob, carol], seed=SEED)
    listing = await (await dora.slash("tables"))
    await (await dora.click(listing, f"Seguir #{table.table_id}")).acknowledged()
    await fake.wait_until(lambda: bool(dora.dms()), what="the follower's first DM")
    for _ in range(3):
        await table.move()
    await table.show_hand(bob)  # bob's live ephemeral hand
    await mesa.bot.listener.drain()
    return table, alice, bob, carol, dora


def _views(table, user) -> list[Message]:
    """Every private view ``user`` got of the table: their DMs, or their ephemeral hands."""
    shown = user.dms() if user.dms_open else user.ephemerals()
    return [
        m for m in shown if read_card(m) and f"#{table.table_id}" in read_card(m).get("title", "")
    ]


def _assert_truthful(table, users, *, says: str) -> None:
    for user in users:
        views = _views(table, user)
        assert views, user.name
        for view in views:
            assert clickable(view) == [], (user.name, view.text, clickable(view))
            assert YOUR_TURN not in view.text, (user.name, view.text)
        assert says in views[-1].text, (user.name, views[-1].text)
        # no turn notice left in their DM
        assert not [m for m in user.dms() if "Te toca en la mesa" in m.text], user.name


async def _settle(fake, mesa) -> None:
    await mesa.bot.listener.drain()
    await mesa.bot.spectators.idle()
    await fake.settle()


async def test_stop_brings_every_private_and_follower_view_to_the_closing(fake_discord, mesa):
    fake = fake_discord
    table, alice, bob, carol, dora = await _seat_everyone(fake, mesa)
    before = [m for u in (alice, bob, carol) for m in _views(table, u)]
    assert any(clickable(m) for m in before)  # live hands before
    await (await alice.slash("stop")).response()
    await _settle(fake, mesa)
    _assert_truthful(table, [alice, bob, carol], says="La mesa se cerró")
    [follow] = dora.dms()
    assert clickable(follow) == [] and "ya no la sigues" in follow.text
    assert_few_dms(fake, [alice, carol, dora])
    assert fake.violations == []


async def test_the_computer_taking_every_seat_then_the_end(fake_discord, mesa):
    """Three timeouts each hand every seat to the computer: each hand says so at once (no live
    button on a version the table leaves); the computers play to the end; the follower's DM
    shows the result with nothing left to press."""
    fake = fake_discord
    table, alice, bob, carol, dora = await _seat_everyone(fake, mesa)
    service = mesa.bot.tables
    people = {str(u.id): u for u in (alice, bob, carol)}
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 120  # wall time, a guard against a hang only
    while loop.time() < give_up:  # three timeouts a seat, the seats in turn
        live = service.registry.find(table.table_id)
        if live is None or live.record.status != "playing" or not live.human_seats():
            break
        if not await service.timers.expire_turn(table.table_id):
            await asyncio.sleep(0.01)  # a computer's turn: it plays
            continue
        await mesa.bot.listener.drain()
        live = service.registry.find(table.table_id)
        if live is None or live.record.status != "playing":
            break
        for seat, user in people.items():
            info = live.seat(seat)
            if info is not None and info.is_cpu:
                # the moment the seat is the computer's, none of its views lies
                await fake.settle()
                for view in _views(table, user):
                    assert clickable(view) == [], (user.name, view.text)
                    assert YOUR_TURN not in view.text, (user.name, view.text)
    await fake.wait_until(
        lambda: "Resultado" in table.public().text or "Revancha" in str(table.public().buttons),
        what="the computers played to the end",
        timeout=30,
    )
    await _settle(fake, mesa)
    for user in (alice, bob, carol):
        for view in _views(table, user):
            assert clickable(view) == [] and YOUR_TURN not in view.text, (user.name, view.text)
    [follow] = dora.dms()
    assert clickable(follow) == [] and "Resultado" in follow.text
    assert fake.violations == []


async def test_the_game_over_leaves_no_view_lying(fake_discord, mesa):
    fake = fake_discord
    table, alice, bob, carol, dora = await _seat_everyone(fake, mesa)
    await table.play_to_the_end()
    await _settle(fake, mesa)
    _assert_truthful(table, [alice, bob, carol], says="La partida terminó")
    [follow] = dora.dms()
    assert clickable(follow) == [] and "Resultado" in follow.text
    assert_few_dms(fake, [alice, carol, dora])
    assert fake.violations == []
