"""A button posted before issue 26 gave the common moves one text still answers: Maquiavelo's
draw was written ``d`` (today ``draw``); a DM still holding such a button draws when pressed,
because the game's codec reads its old verbs (``ActionCodec(..., old_verbs=...)``)."""

from __future__ import annotations

from tests.e2e.maquiavelo_driver import start_game

SEED = "mq-e2e-81"


async def test_a_button_posted_with_an_old_text_still_plays(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("ana", "beto")]
    table = await start_game(fake, players, seed=SEED, hand_size=11)
    seat = table.oracle.current()
    player = next(p for p in players if str(p.id) == seat)
    dm = await table.private_view(player, 0)
    await (await player.forge_click(dm, f"t:{table.table_id}:0:d")).acknowledged()
    await table.wait_version(1)
    [row] = await mesa.bot.tables.repo.actions(table.table_id)
    assert (row.seat, row.action, row.by_timer) == (seat, "draw", False)  # stored as today's
    assert fake.violations == []
