"""Issue 25: channel play is first-class. A player who plays from the table's ephemeral hand
("Ver mi mano": a deferred update of the table + an ephemeral follow-up) and never clicks their
DM hand costs no bot-token call for that DM: their live hand follows the table through its own
token, the public table is edited through the press's token. A player who clicks their DM hand
keeps it up to date (tests/e2e/test_token_edits.py)."""

from __future__ import annotations

from tests.e2e.amapatolli_driver import AmapatolliTable, offers_on, open_lobby, start_game
from tests.e2e.driver_kit import QUIET_FOR, view_version
from tests.e2e.test_token_edits import CHANNEL_EDIT, Edits

SEED = "e2e-big-0223"


async def test_a_player_at_the_table_costs_no_bot_token_call_for_their_dm(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_game(fake, [alice, bob], seed=SEED, hand_size=7)
    alice_dm = fake.dm_channels[alice.model.id].id
    public_channel = table.public().channel.id
    dm_at_start = list(alice.dms())
    assert dm_at_start  # Start posted both hands (she has not pressed "Ver mi mano" yet)

    plain = table.private_offers

    async def alice_plays_from_the_table(user, version):
        if user is not alice:
            return await plain(user, version)
        offers = offers_on(await table.show_hand(user, version), table.table_id)
        assert offers and all(o.version == version for o in offers.values()), offers
        return offers

    table.private_offers = alice_plays_from_the_table  # type: ignore[method-assign]
    await table.show_hand(alice)
    edits = Edits(fake)
    moved = {str(alice.id): 0, str(bob.id): 0}
    while min(moved.values()) < 3:
        seat, _ = await table.move()
        moved[seat] += 1
    await mesa.bot.listener.drain()
    # her live hand follows the table, through its token, to the current version (waited for:
    # a move she made from that hand is answered by her click's own task, which drain does
    # not follow)
    await fake.wait_until(
        lambda: [view_version(m) for m in table.hand_views(alice)][-1:] == [table.oracle.version],
        timeout=QUIET_FOR,
        what="alice's live hand at the table's version",
    )
    bot_edits = [int(CHANNEL_EDIT.match(r.path)[1]) for token, r in edits.since(0) if token is None]
    assert alice_dm not in bot_edits  # her DM hand was left alone
    assert public_channel not in bot_edits  # the table rode her presses' tokens
    assert [m.id for m in alice.dms()] == [m.id for m in dm_at_start]  # no DM posted either


def _from_the_table(table, player):
    """``player`` plays ``table`` from its "Ver mi mano" hand (a fresh press each turn)."""
    plain = table.private_offers

    async def offers(user, version):
        if user is not player:
            return await plain(user, version)
        found = offers_on(await table.show_hand(user, version), table.table_id)
        assert found and all(o.version == version for o in found.values()), found
        return found

    table.private_offers = offers  # type: ignore[method-assign]


async def test_a_player_who_plays_from_the_tables_gets_no_dm_at_her_next_table(fake_discord, mesa):
    """Once Alice moved from a table's ephemeral hand she plays from the tables: at her next
    table she gets no DM at all (not at her first turn, not at the end), and the channel's turn
    mention names her instead, posted and deleted through a table token; Bob, who plays from
    his DMs, gets his DM hand as before. A bot restart would not forget it (stored)."""
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    first = await start_game(fake, [alice, bob], seed=SEED, hand_size=3)
    _from_the_table(first, alice)
    moved: set[str] = set()
    while str(alice.id) not in moved:  # a move of hers, from the table
        seat, _ = await first.move()
        moved.add(seat)
    await mesa.bot.listener.drain()
    assert await mesa.bot.tables.players.plays_from_tables(str(alice.id))
    assert not await mesa.bot.tables.players.plays_from_tables(str(bob.id))

    alice_dm = fake.dm_channels[alice.model.id].id
    dms_before = [m.id for m in alice.dms()]
    bob_dms_before = len(bob.dms())
    requests: list = []
    fake.request_observers.append(requests.append)
    other = fake.add_channel("mesa-2")
    table_id, lobby = await open_lobby(fake, alice, channel=other, hand_size=3)
    await (await bob.click(lobby, "Unirse")).acknowledged()
    await fake.wait_until(lambda: f"2. {bob.name}" in lobby.text, what="bob seated")
    await (await alice.click(lobby, "Empezar")).acknowledged()
    second = AmapatolliTable(fake, table_id, [alice, bob], SEED, {"hand_size": 3}, channel=other)
    await second.wait_version(0)
    _from_the_table(second, alice)
    mention = f"<@{alice.id}>"
    named: list[int] = []

    def heard(message, kind):
        if message.channel.id == other.id and mention in (message.content or ""):
            named.append(message.id)

    fake.message_observers.append(heard)
    await second.play_to_the_end()
    await mesa.bot.listener.drain()

    assert [m.id for m in alice.dms()] == dms_before  # no DM of the second table
    assert not [r for r in requests if f"/channels/{alice_dm}/" in r.path]  # nor any edit
    assert len(bob.dms()) > bob_dms_before  # Bob's DM hand, as before
    assert named, "the turn mention named Alice in the table's channel"
    by_bot = [
        r
        for r in requests
        if r.method in ("POST", "DELETE") and r.path.startswith(f"/channels/{other.id}/messages")
    ]
    assert len(by_bot) <= 1, by_bot  # (at most the lobby's post): the mentions rode tokens
    live = [fake.messages.get(i) for i in named]
    assert all(m is None or m.deleted for m in live)  # each deleted when her turn passed
