"""A game survives a bot restart, rate limits, server errors and a gateway disconnect."""

from __future__ import annotations

import asyncio

from tests.e2e.amapatolli_driver import start_game
from tests.e2e.driver_kit import offers_on, take
from tests.message_text import read_card

SEED = "e2e-0063"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


def final_ranking_shown(table) -> None:
    names = {str(p.id): p.name for p in table.players}
    ranking = [names[s] for group in table.oracle.ranking() for s in group]
    results = next(f for f in read_card(table.public())["fields"] if f["name"] == "Resultado")
    positions = [results["value"].find(name) for name in ranking]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), results["value"]


async def test_restart_mid_game_old_buttons_still_work(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED)
    for _ in range(5):
        await table.move()
    seat, action = table.oracle.next_move()
    actor = table.by_seat[seat]
    version = table.version()
    if action.startswith("catch."):
        offers = offers_on(table.public(), table.table_id)
    else:
        offers = await table.private_offers(actor, version)
    old_message = offers[action].message

    await mesa.restart()
    assert mesa.starts == 2 and fake.gateway.identifies == 2

    # A button the previous process sent still works, then the game finishes as it should.
    handle = await take(actor, offers[action])
    await handle.acknowledged()
    assert handle.interaction.message is old_message
    table.oracle.apply(seat, action)
    await table.wait_version(table.oracle.version)
    await table.play_to_the_end()
    final_ranking_shown(table)


async def test_429s_500s_and_a_gateway_resume_lose_no_move(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED)
    faults = []
    releaser: list[asyncio.Task] = []

    async def chaos(moves_made: int) -> None:
        if moves_made == 1:
            # Whatever comes next (discord.py gives up on a request after 5 tries: stay below).
            faults.append(fake.rate_limit(count=4, retry_after=0.01))
        elif moves_made == 3:
            faults.append(
                fake.rate_limit(MESSAGE, method="PATCH", count=3, retry_after=0.02, global_=True)
            )
            faults.append(
                fake.fail(CALLBACK, method="POST", count=1)
            )  # retried after 1 s, within 3 s
        elif moves_made == 5:
            faults.append(fake.fail(MESSAGE, method="PATCH", count=1))
        elif moves_made == 7:
            # Disconnect; the next click happens while the bot is away and is replayed on RESUME.
            release = fake.hold_resumes()
            await fake.close_gateway(4000)
            await fake.wait_until(
                lambda: fake.gateway.pending_resumes == 1, what="the bot's RESUME"
            )
            known = len(fake.interactions.all)

            async def release_after_the_click() -> None:
                await fake.wait_until(
                    lambda: len(fake.interactions.all) > known, what="a click while away"
                )
                assert not fake.gateway.connected
                release.set()

            releaser.append(asyncio.create_task(release_after_the_click()))

    await table.play_to_the_end(between_moves=chaos)
    await releaser[0]
    assert all(f.remaining == 0 for f in faults), [(f.status, f.route, f.remaining) for f in faults]
    assert fake.gateway.identifies == 1 and fake.gateway.session.resumes == 1
    assert sum(1 for r in fake.requests if r.status == 429) == 7
    assert sum(1 for r in fake.requests if r.status == 500) == 2
    # Every move was applied exactly once, every interaction was answered in time.
    assert table.version() == table.oracle.version == len(table.oracle.log)
    assert all(h.interaction.answered_after < 3 for h in table.handles)
    final_ranking_shown(table)


async def test_a_dm_edit_that_fails_after_retries_does_not_stall_the_others(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED)
    seat, _ = table.oracle.next_move()
    mover = table.by_seat[seat]
    [*_, dm] = mover.dms()
    # Five 429s in a row on the edit of the mover's DM: discord.py stops retrying and raises.
    fake.rate_limit(
        f"/channels/{dm.channel.id}/messages/{dm.id}", method="PATCH", count=5, retry_after=0.01
    )
    await table.move()
    next_seat, _ = table.oracle.next_move()
    following = table.by_seat[next_seat]

    def settled():
        failed = [m for m in mover.ephemerals() if "Algo salió mal" in m.text]
        return failed or table.dm_offers(following, table.oracle.version)

    outcome = await fake.wait_until(settled, what="the next player's view or an error")
    assert not isinstance(outcome, list), outcome[0].text
    await table.play_to_the_end()
    final_ranking_shown(table)


async def test_a_deleted_table_message_is_posted_again(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED)
    await table.move()
    deleted = table.public()
    fake.delete_message(deleted)  # a moderator removes it: the bot's next edit gets 404 / 10008
    await table.move()
    assert table.public() is not deleted
    assert [r.status for r in fake.requests if r.path.endswith(f"/messages/{deleted.id}")][
        -1
    ] == 404
    await table.play_to_the_end()
    final_ranking_shown(table)


async def test_a_player_closing_dms_mid_game_goes_on_with_ver_mi_mano(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = players = [fake.user(n) for n in ("alice", "bob", "carol")]
    # Every turn would get its notice DM (as for a player not watching). Once bob closed his
    # DMs he plays from his "Ver mi mano" hand (channel play): the bot spares his DM hand and
    # notices, so no DM of his is refused and the channel need not be told his DMs are closed
    # (tests/e2e/test_endgame.py and test_amapatolli_e2e.py tell it when a DM is refused).
    mesa.bot.listener.notice_after = 0
    table = await start_game(fake, players, seed=SEED)

    async def close_bobs_dms(moves_made: int) -> None:
        if moves_made == 2:
            # He closes them once the bot has shown move 2 everywhere: the public table shows
            # it before the DM turn notice of the player to act goes out, and a notice still
            # in flight when his DMs close is rightly refused (and the channel told).
            await mesa.bot.listener.drain()
            bob.dms_open = False

    await table.play_to_the_end(between_moves=close_bobs_dms)
    await mesa.bot.listener.drain()  # the last turn mention is deleted
    notices = [m for m in fake.channel_messages() if f"<@{bob.id}>" in m.content]
    assert not any("mensajes directos están cerrados" in m.content for m in notices)
    assert any(m.visible_to is bob.model for m in bob.ephemerals())
    final_ranking_shown(table)
