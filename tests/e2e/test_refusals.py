"""Every refusal names the real reason (issue 31 item 6): no such table, a finished table, no
table in this channel, read-only settings for a member; command names as the reader's client
shows them (Spanish replies name /terminar, English ones /stop)."""

from __future__ import annotations

from bot.i18n import tr
from tests.e2e.amapatolli_driver import start_game
from tests.e2e.test_amapatolli_abuse import ephemeral_answer

SEED = "e2e-0063"


async def test_refusals_name_the_real_reason(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")

    nothing = await (await alice.slash("replay", table=9999))
    assert nothing.ephemeral and "No hay ninguna mesa #9999 en este servidor" in nothing.text
    leave = await (await alice.slash("leave"))
    assert leave.ephemeral and "No hay ninguna mesa abierta en este canal" in leave.text
    stop = await (await alice.slash("stop"))
    assert "No hay ninguna mesa abierta en este canal" in stop.text

    table = await start_game(fake, [alice, bob], seed=SEED)
    unfinished = await (await alice.slash("replay", table=table.table_id))
    assert f"La partida de la mesa #{table.table_id} sigue en juego" in unfinished.text
    busy = await (await bob.slash("play amapatolli"))
    assert busy.ephemeral and "/terminar" in busy.text and "/stop" not in busy.text
    version = table.version()
    await table.play_to_the_end()

    # An old button of the finished game (a stale DM kept by a client): the game finished.
    dm = alice.dms()[-1]
    old = await ephemeral_answer(
        alice, await alice.forge_click(dm, f"t:{table.table_id}:{version}:draw")
    )
    assert f"La partida de la mesa #{table.table_id} ya terminó" in old.text

    # A member reads the settings (read only); changing them is refused as before.
    shown = await (await alice.slash("settings show"))
    assert shown.ephemeral and "solo lectura" in shown.text
    assert "gestionar el servidor" not in shown.text.split("solo lectura")[0]
    changed = await (await alice.slash("settings turn", seconds=60))
    assert "Solo quien puede gestionar el servidor cambia sus ajustes" in changed.text
    assert fake.violations == []


def test_command_names_follow_the_readers_language():
    assert "/terminar" in tr("es", "error.channel_busy")
    assert "/stop" in tr("en", "error.channel_busy")
    assert "/salir" in tr("es", "error.kick_yourself") and "/leave" in tr(
        "en", "error.kick_yourself"
    )
    assert tr("es", "history.footer").startswith("/repeticion ")
