"""Kill -9 at a rematch or a lobby's opening (issue 27): the lobby committed, the process killed
before its message was posted. On PostgreSQL or SQLite alike the restarted bot shows that lobby
by itself, and its players join and start it with buttons (no command to type): a channel is
never left holding an invisible lobby."""

from __future__ import annotations

from storage import SeatInfo
from tests.e2e.amapatolli_driver import AmapatolliTable
from tests.e2e.driver_kit import take
from tests.message_text import read_card

SEED = "e2e-0063"


async def test_a_lobby_committed_but_never_shown_is_shown_after_restart(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    host, guest, third = (fake.user(n) for n in ("alice", "bob", "carol"))
    await (await host.slash("profile")).acknowledged()  # the bot is up and knows the guild
    # What a rematch leaves when the bot dies between its commit and its lobby message: the
    # lobby (same players, seated) with no message.
    record = await mesa.bot.tables.repo.create(
        guild_id=str(fake.guild.id),
        channel_id=str(fake.channel.id),
        game="amapatolli",
        host_id=str(host.id),
        locale="es",
        options={"hand_size": 3},
        seats=[
            SeatInfo(id=str(host.id), name=host.name),
            SeatInfo(id=str(guest.id), name=guest.name),
        ],
        seed=SEED,
    )
    assert record.message_id is None
    await mesa.restart()

    marker = f"mesa #{record.id}"
    lobby = await fake.wait_for_message(
        lambda m: bool(read_card(m)) and marker in (read_card(m).get("title") or "")
    )
    assert {"Unirse", "Empezar"} <= {b.label for b in lobby.buttons}
    await (await third.click(lobby, "Unirse")).acknowledged()
    await fake.wait_until(lambda: f"3. {third.name}" in lobby.text, what="carol seated")
    await (await host.click(lobby, "Empezar")).acknowledged()
    table = AmapatolliTable(
        fake, record.id, [host, guest, third], SEED, {"hand_size": 3}, channel=None
    )
    await table.wait_version(0)
    seat, action = table.oracle.next_move()
    actor = table.by_seat[seat]
    offers = await table.private_offers(actor, 0)
    await (await take(actor, offers[action])).acknowledged()
    await table.wait_version(1)
