"""Discord goes away (issue 27), end to end: a gateway outage longer than a turn, with a spell
of REST 5xx on the table's message edits at the same time. Nobody is timed out while no click
could reach the bot (turn timers suspended); the bot reconnects by itself (RESUME), the table
that fell behind is shown current again, and the timer then runs on with the time it had left.
Short here (the same code path as minutes: ``bench/faults.py --fault gateway``)."""

from __future__ import annotations

import time

from tests.e2e.amapatolli_driver import start_game
from tests.e2e.conftest import Mesa
from tests.e2e.driver_kit import take

SEED = "e2e-0063"
TURN = 10  # seconds (the settings' least)
OUTAGE = TURN + 2.0
EDIT = "/channels/{channel_id}/messages/{message_id}"


async def test_a_gateway_outage_times_nobody_out_and_the_table_is_current_after_it(
    fake_discord, tmp_path
):
    fake = fake_discord
    mesa = Mesa(fake, tmp_path / "mesa.db", turn_timeout_seconds=TURN)
    await mesa.start()
    try:
        mesa.seed = SEED
        players = [fake.user(n) for n in ("alice", "bob", "carol")]
        table = await start_game(fake, players, seed=SEED)
        version = table.version()
        # A move whose public edit meets the REST spell, then Discord goes away.
        seat, action = table.oracle.next_move()
        offers = await table.private_offers(table.by_seat[seat], version)
        spell = fake.fail_for(OUTAGE, EDIT, method="PATCH", status=503)
        await (await take(table.by_seat[seat], offers[action])).acknowledged()
        table.oracle.apply(seat, action)
        await fake.wait_until(
            lambda: mesa.bot.tables.registry.get(table.table_id).version == version + 1,
            what="the move",
        )
        moved = version + 1
        await fake.gateway_outage(OUTAGE)  # (a click now would never reach the bot)
        await fake.wait_until(
            lambda: fake.gateway.connected and mesa.bot.outages.since is None,
            timeout=OUTAGE + 60,
            what="the bot back on the gateway",
        )
        back = time.monotonic()
        assert mesa.bot.outages.outages and mesa.bot.outages.outages[-1] >= OUTAGE - 1
        assert spell.hits >= 1
        # Nobody was timed out while no click could reach the bot (longer than a turn).
        rows = await mesa.bot.tables.repo.actions(table.table_id)
        assert not any(r.by_timer for r in rows), [(r.version, r.by_timer) for r in rows]
        assert mesa.bot.tables.registry.get(table.table_id).version == moved
        # The table that fell behind is current again, without a click.
        await table.wait_version(moved, timeout=30)
        caught_up = time.monotonic() - back
        # The suspended timer runs on: the waited-on player is timed out in due course.
        await fake.wait_until(
            lambda: mesa.bot.tables.registry.get(table.table_id).version > moved,
            timeout=TURN + 15,
            what="the resumed turn timer",
        )
        rows = await mesa.bot.tables.repo.actions(table.table_id)
        assert rows[-1].by_timer
        print(f"table current {caught_up:.1f} s after the gateway came back")
    finally:
        await mesa.stop()
