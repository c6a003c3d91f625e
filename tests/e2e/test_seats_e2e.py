"""Seats mid-game through the fake Discord: a player leaves ("Salir") and the computer plays on,
then takes the seat back ("Volver"); the host removes a player (/kick), a non-host may not; a
used "Revancha" turns off."""

from __future__ import annotations

from tests.e2e.macarena_driver import start_game
from tests.e2e.triad_driver import TriadMatch
from tests.message_text import read_card

SEED = "mac-e2e-0368"
OPTIONS = {"amulets_to_win": 1}


def _labels(message) -> list[str]:
    return [b.label for b in message.buttons]


async def test_a_player_leaves_mid_game_and_takes_the_seat_back(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_game(fake, [alice, bob], seed=SEED, options=OPTIONS)
    a = str(alice.id)
    assert _labels(table.public())[:2] == ["Ver mi mano", "Salir"]
    assert "Volver" not in _labels(table.public())

    table.oracle.cpus[a] = "normal"  # the table's level plays alice's seat from now on
    left = await (await alice.click(table.public(), "Salir"))
    assert left.ephemeral and "Dejaste la partida" in left.text
    await fake.wait_for_message(lambda m: f"<@{a}> dejó la partida" in m.content)
    table.oracle.advance_cpus()
    await table.wait_version(table.oracle.version)
    await fake.wait_until(
        lambda: "Volver" in _labels(table.public()), what="the Rejoin button on the table"
    )
    assert "🤖 alice (normal)" in table.public().text
    hand = await (await alice.click(table.public(), "Ver mi mano"))
    assert hand.ephemeral and "La computadora juega tu asiento" in hand.text
    again = await (await alice.slash("leave"))
    assert "Ya dejaste la partida" in again.text

    for _ in range(2):  # bob plays on against the computer in alice's seat
        await table.move()
    assert any(seat == a for seat, _ in table.oracle.log)  # the computer moved for her

    back = await (await alice.click(table.public(), "Volver"))
    assert back.ephemeral and "Volviste a tu asiento" in back.text
    del table.oracle.cpus[a]
    await fake.wait_for_message(lambda m: f"<@{a}> volvió a su asiento" in m.content)
    await fake.wait_until(lambda: "Volver" not in _labels(table.public()), what="Rejoin gone")
    assert "🤖 alice" not in table.public().text
    moved = len(table.oracle.log)
    while not any(seat == a for seat, _ in table.oracle.log[moved:]):
        await table.move()  # alice plays her own turn from her DM again


async def test_the_host_removes_a_player_and_a_non_host_may_not(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    table = await start_game(fake, [alice, bob, carol], seed=SEED, options=OPTIONS)
    b = str(bob.id)
    refused = await (await carol.slash("kick", player=alice))
    assert refused.ephemeral and "Solo el anfitrión o quien puede gestionar el canal" in (
        refused.text
    )
    assert "🤖" not in table.public().text

    table.oracle.cpus[b] = "normal"
    done = await (await alice.slash("kick", player=bob))
    assert done.ephemeral and "bob ya no juega" in done.text
    await fake.wait_for_message(lambda m: f"<@{b}> fue retirado de la partida" in m.content)
    table.oracle.advance_cpus()
    await table.wait_version(table.oracle.version)
    await fake.wait_until(lambda: "🤖 bob (normal)" in table.public().text, what="bob's seat")
    assert "Volver" not in _labels(table.public())  # removed for good
    back = await (await bob.slash("rejoin"))
    assert back.ephemeral and "Te retiraron de esta partida" in back.text
    await table.move()  # the game goes on with the computer in bob's seat


async def test_revancha_turns_off_once_the_rematch_is_open(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = "triad-e2e-random"
    alice = fake.user("alice")
    reply = await (
        await alice.slash("play triad", random_hand=True, level="easy", payout="directo")
    )
    table_id = int(reply.content.split("#")[1].split()[0].strip(".,:"))
    match = TriadMatch(fake, table_id, alice)
    await fake.wait_until(lambda: match.version() is not None, what="the game started")
    await match.play()
    finished = match.public()
    await (await alice.click(finished, "Revancha")).acknowledged()
    await fake.wait_until(
        lambda: all(b.disabled for b in finished.buttons if b.label == "Revancha"),
        what="Revancha disabled",
    )
    assert [b.label for b in finished.buttons] == ["Revancha"]
    assert finished.attachments and read_card(finished)  # only the button changed
    # A press that raced the edit (sent before the button turned off) is told why.
    late = await (await alice.forge_click(finished, f"l:{table_id}:rematch"))
    assert late.ephemeral and "La revancha de esta partida ya está abierta" in late.text
