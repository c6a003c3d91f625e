"""The bot on PostgreSQL (DATABASE_URL) against the fake Discord: `python -m bot` in its own
process, and a whole game in process with a restart in the middle, standings and ratings kept."""

from __future__ import annotations

import contextlib

import discord.gateway
import discord.http

from storage import RatingsRepo, StandingsRepo, open_database
from tests.e2e.amapatolli_driver import open_lobby, start_game
from tests.e2e.conftest import Mesa
from tests.e2e.test_amapatolli_resilience import final_ranking_shown
from tests.e2e.test_main_process import _start, _stop

SEED = "e2e-0063"


async def test_python_m_bot_starts_against_postgres(fake_discord, tmp_path, pg_url):
    fake = fake_discord
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={fake.token}\n"
        f"DATABASE_URL={pg_url}\n"
        f"DISCORD_API_BASE={fake.api_base}\n"
        f"DISCORD_GATEWAY_URL={fake.gateway_url}\n"
    )
    process = await _start(tmp_path)
    try:
        await fake.wait_until(
            lambda: fake.commands.get(None), timeout=60, what="the bot's global command sync"
        )
        await fake.wait_until_connected(timeout=30)
        table_id, lobby = await open_lobby(fake, fake.user("alice"))
        assert "alice" in lobby.text
        db = await open_database(pg_url)  # what the bot process committed
        try:
            row = await db.fetchone("SELECT game, status FROM tables WHERE id = ?", (table_id,))
            assert (row["game"], row["status"]) == ("amapatolli", "lobby")
        finally:
            await db.close()
        assert process.returncode is None
        assert not (tmp_path / "data").exists()  # no SQLite file beside it
    finally:
        await _stop(process)


async def test_a_game_on_postgres_survives_a_restart_and_lands_its_standings(
    fake_discord, tmp_path, pg_url
):
    fake = fake_discord
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    mesa = Mesa(fake, tmp_path / "unused.db", database_url=pg_url)
    mesa.seed = SEED
    try:
        await mesa.start()
        assert mesa.bot.db.dialect == "postgres"
        players = [fake.user(n) for n in ("alice", "bob", "carol")]
        table = await start_game(fake, players, seed=SEED)
        for _ in range(4):
            await table.move()
        await mesa.restart()
        await table.play_to_the_end()
        final_ranking_shown(table)
        board = await StandingsRepo(mesa.bot.db).leaderboard(str(fake.guild.id), "amapatolli")
        assert sorted(r.user_id for r in board) == sorted(str(p.id) for p in players)
        assert all(r.played == 1 for r in board)
        assert await RatingsRepo(mesa.bot.db).finished_game(table.table_id) is not None
        assert not (tmp_path / "unused.db").exists()
    finally:
        with contextlib.suppress(Exception):
            await mesa.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


async def test_the_suite_s_bots_run_on_the_backend_asked_for(mesa, e2e_database):
    """``MESA_E2E_BACKEND`` (sqlite by default, or postgres) is what the ``mesa`` fixture's bot
    uses: the switch that runs the whole e2e suite on PostgreSQL."""
    assert mesa.bot.db.dialect == e2e_database
