"""Clicks that must not change a game: each gets a clear ephemeral answer, and the game goes on."""

from __future__ import annotations

from tests.e2e.amapatolli_driver import start_game
from tests.e2e.driver_kit import HAND_BUTTON, take
from tests.fakediscord.model import Message

SEED = "e2e-0063"
STALE = "La mesa cambió mientras decidías"
NOT_SEATED = "No juegas en esta mesa."
NOT_YOUR_TURN = "No es tu turno."
BAD_ACTION = "Esa acción no existe."


def frozen(table) -> tuple:
    """What must not change: the public message as everyone sees it, and every DM."""
    public = table.public()
    dms = tuple((m.id, repr(m.snapshot())) for p in table.players for m in p.dms())
    return table.version(), repr(public.snapshot()), len(public.versions), dms


async def ephemeral_answer(user, handle) -> Message:
    await handle.acknowledged()
    reply = await handle.response()
    if not isinstance(reply, Message) or reply is handle.interaction.message:
        reply = await handle.followup(0)
    assert reply.ephemeral and reply.visible_to is user.model, reply
    return reply


async def test_rejected_clicks_change_nothing(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = players = [fake.user(n) for n in ("alice", "bob", "carol")]
    dave = fake.user("dave")
    table = await start_game(fake, players, seed=SEED)
    await table.move()
    await table.move()

    # A second table in another channel, where alice does not play.
    other_channel = fake.add_channel("mesa-2")
    await fake.wait_until(
        lambda: mesa.bot.get_channel(other_channel.id) is not None, what="CHANNEL_CREATE"
    )
    erin = fake.user("erin")
    other = await start_game(fake, [dave, erin], seed=SEED, channel=other_channel)

    seat, _ = table.oracle.next_move()
    actor = table.by_seat[seat]
    idle = next(p for p in players if str(p.id) not in table.oracle.to_act())
    version = table.version()
    offers = await table.private_offers(actor, version)
    dm = next(iter(offers.values())).message
    before = frozen(table)

    async def refused(user, start, expected: str) -> None:
        reply = await ephemeral_answer(user, await start)
        assert expected in reply.text, (expected, reply.text)
        assert frozen(table) == before

    # A non-player: "Ver mi mano" on our table, and a forged move on its public message.
    await refused(dave, dave.click(table.public(), HAND_BUTTON), NOT_SEATED)
    await refused(
        dave, dave.forge_click(table.public(), f"t:{table.table_id}:{version}:draw"), NOT_SEATED
    )
    # A button of another table: alice is not seated there.
    await refused(alice, alice.click(other.public(), HAND_BUTTON), NOT_SEATED)
    # Out of turn: a move the idle player's client was never offered.
    [idle_dm] = [m for m in idle.dms()][-1:]
    await refused(
        idle, idle.forge_click(idle_dm, f"t:{table.table_id}:{version}:draw"), NOT_YOUR_TURN
    )
    # Forged custom_ids: an action that does not exist, an unknown table.
    await refused(actor, actor.forge_click(dm, f"t:{table.table_id}:{version}:p.zz99"), BAD_ACTION)
    await refused(
        actor, actor.forge_click(dm, f"t:9999:{version}:draw"), "No hay ninguna mesa #9999 aquí"
    )
    # A stale button: an earlier version of the actor's own view.
    await refused(actor, actor.forge_click(dm, f"t:{table.table_id}:{version - 1}:draw"), STALE)

    # Nothing above disturbed the game: it still finishes exactly as the engine says.
    await table.play_to_the_end()
    assert table.version() == table.oracle.version


async def test_two_simultaneous_clicks_of_the_same_move_apply_once(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED)
    await table.move()
    seat, action = table.oracle.next_move()
    actor = table.by_seat[seat]
    version = table.version()
    offers = await table.private_offers(actor, version)
    first = await take(actor, offers[action])
    second = await take(actor, offers[action])
    for handle in (first, second):
        await handle.acknowledged()
    table.oracle.apply(seat, action)
    table.moves += 1
    await table.wait_version(version + 1)
    told = await fake.wait_until(
        lambda: [
            m
            for m in actor.ephemerals()
            if m.interaction in (first.interaction, second.interaction)
        ],
        what="the answer to the duplicate click",
    )
    assert len(told) == 1 and STALE in told[0].text, told[0].text
    await table.play_to_the_end()
    assert table.version() == table.oracle.version
