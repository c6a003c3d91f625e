"""The README's first command, for real: `python -m bot` in its own process, configured only
through `.env`, logs in to (the fake) Discord, syncs its commands and serves a slash command."""

import asyncio
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


async def test_python_m_bot_starts_from_an_env_file(fake_discord, tmp_path):
    fake = fake_discord
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={fake.token}\n"
        f"DATABASE_PATH={tmp_path / 'data' / 'bot.db'}\n"
        f"DISCORD_API_BASE={fake.api_base}\n"
        f"DISCORD_GATEWAY_URL={fake.gateway_url}\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        synced = await fake.wait_until(
            lambda: fake.commands.get(None), timeout=60, what="the bot's global command sync"
        )
        assert {c["name"] for c in synced} >= {"play", "leaderboard", "rules", "stop"}
        await fake.wait_until_connected(timeout=30)
        alice = fake.user("alice")
        answer = await (await alice.slash("rules", game="amapatolli"))
        assert answer.ephemeral  # /rules answers privately
        assert "Amapatolli" in answer.text
        assert (tmp_path / "data" / "bot.db").is_file()
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(process.wait(), 20)
            except TimeoutError:
                process.kill()
                await process.wait()
