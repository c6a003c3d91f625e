"""Issue 25: channel play is first-class. A player who plays from the table's ephemeral hand
("Ver mi mano": a deferred update of the table + an ephemeral follow-up) and never clicks their
DM hand costs no bot-token call for that DM: their live hand follows the table through its own
token, the public table is edited through the press's token. A player who clicks their DM hand
keeps it up to date (tests/e2e/test_token_edits.py)."""

from __future__ import annotations

from tests.e2e.amapatolli_driver import offers_on, start_game
from tests.e2e.driver_kit import view_version
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
    bot_edits = [int(CHANNEL_EDIT.match(r.path)[1]) for token, r in edits.since(0) if token is None]
    assert alice_dm not in bot_edits  # her DM hand was left alone
    assert public_channel not in bot_edits  # the table rode her presses' tokens
    assert [m.id for m in alice.dms()] == [m.id for m in dm_at_start]  # no DM posted either
    # her live hand followed the table, through its token, to the current version
    assert view_version(table.hand_views(alice)[-1]) == table.oracle.version
