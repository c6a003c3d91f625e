"""Issue 25: a new channel player's first game without a DM. The bot learns where a player plays
from their clicks, so a brand-new player used to get a DM hand at their first game (open the DM
channel, post, edit: bot-token calls) even when they then played from the table. Now a player
whose place is not known is asked once, when they sit down (Join, or /play), through their own
press's token: "here, at the table" or "by DM". A player of the tables is reminded at each table
where they play, with the DM one press away; a DM player is not bothered."""

from __future__ import annotations

from tests.e2e.amapatolli_driver import AmapatolliTable, open_lobby
from tests.e2e.test_channel_play import _from_the_table

SEED = "e2e-big-0223"
HERE, BY_DM = "Aquí, en la mesa", "Por MD"


def questions(user, table_id: int):
    """The private "where do you play" notes ``user`` got at ``table_id``."""
    return [m for m in user.ephemerals() if f"#{table_id}" in (m.content or "") and m.buttons]


async def _seat(fake, host, guests, channel=None):
    table_id, lobby = await open_lobby(fake, host, channel=channel, hand_size=3)
    for n, guest in enumerate(guests, start=2):
        await (await guest.click(lobby, "Unirse")).acknowledged()
        await fake.wait_until(lambda n=n, g=guest: f"{n}. {g.name}" in lobby.text, what="seated")
    return table_id, lobby


async def test_a_new_player_who_chooses_the_table_gets_no_dm_at_their_first_game(
    fake_discord, mesa
):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    requests: list = []
    fake.request_observers.append(requests.append)
    table_id, lobby = await _seat(fake, alice, [bob])

    # Both are new: each is asked once, privately, through their own press (/play, Join).
    await fake.wait_until(lambda: questions(alice, table_id) and questions(bob, table_id))
    [asked_bob] = questions(bob, table_id)
    assert [b.label for b in asked_bob.buttons] == [HERE, BY_DM]
    answer = await bob.click(asked_bob, HERE)
    await answer.acknowledged()
    assert answer.interaction.callback_type == 7  # the question itself, updated: exempt
    assert not asked_bob.buttons and "Ver mi mano" in asked_bob.content
    # an explicit choice is stored before the answer shows it (no write-behind delay)
    assert await mesa.bot.tables.players.play_place(str(bob.id)) is True
    await (await alice.click(questions(alice, table_id)[0], BY_DM)).acknowledged()

    await (await alice.click(lobby, "Empezar")).acknowledged()
    table = AmapatolliTable(fake, table_id, [alice, bob], SEED, {"hand_size": 3})
    await table.wait_version(0)
    _from_the_table(table, bob)
    await table.play_to_the_end()
    await mesa.bot.listener.drain()

    assert bob.dms() == []  # not one DM in his first game
    assert bob.model.id not in fake.dm_channels  # nor his DM channel opened
    assert alice.dms()  # Alice chose her DMs: her hand came there
    opened_for = [
        str((r.body or {}).get("recipient_id"))
        for r in requests
        if r.method == "POST" and r.path == "/users/@me/channels" and isinstance(r.body, dict)
    ]
    assert str(bob.id) not in opened_for and str(alice.id) in opened_for
    # The questions and answers rode the presses' own tokens: no bot-token call of their own.
    by_bot_token = [r for r in requests if r.kind == "bot" and r.method == "POST"]
    assert not [r for r in by_bot_token if "/webhooks/" in r.path or "/interactions/" in r.path]
    assert await mesa.bot.tables.players.play_place(str(bob.id)) is True  # remembered
    assert await mesa.bot.tables.players.play_place(str(alice.id)) is False
    assert fake.violations == []

    # At his next table Bob is not asked again: reminded where he plays, the DM one press away;
    # Alice, a DM player, is told nothing.
    other = fake.add_channel("mesa-2")
    second, lobby2 = await _seat(fake, alice, [bob], channel=other)
    await fake.wait_until(lambda: questions(bob, second))
    [reminder] = questions(bob, second)
    assert [b.label for b in reminder.buttons] == [BY_DM]
    assert questions(alice, second) == []
    await (await bob.click(reminder, BY_DM)).acknowledged()
    await (await alice.click(lobby2, "Empezar")).acknowledged()
    await fake.wait_until(lambda: bob.dms(), what="Bob's DM hand, now that he chose DMs")
    assert fake.violations == []
